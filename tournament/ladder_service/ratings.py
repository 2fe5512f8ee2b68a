"""Ratings of one ladder pool (a game, variant and player count), refitted after each result.

The ladder uses the same joint Bradley-Terry fit as tournaments (``tournament.ratings``), not
an incremental Elo: a joint fit over all results does not depend on the order games were
played in, and its intervals are honest (clustered by match, each played on a fresh deal, and read with
Student's t on the matches a bot has played, so a newcomer's interval is wide). Refitting
everything after each result is affordable: the fit is a few Newton steps on a matrix of the
pool's bots (``benchmarks/ladder.py`` measures it). A solo pool ranks by mean score with a t
interval instead (there is no opponent to be rated against).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournament.ratings import Placing, Tally, fit_ladder, pairwise_outcomes
from tournament.ratings.scores import mean_ci

#: A bot's rating is marked provisional until it has played this many rated matches.
PROVISIONAL_MATCHES = 10
#: Elo of the pool's centre (the mean rating of its bots).
CENTRE_ELO = 1500.0


@dataclass(frozen=True, slots=True)
class Rating:
    bot_id: str
    rating: float
    low: float
    high: float
    matches: int

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


@dataclass(slots=True)
class PoolRatings:
    """The results of one pool and the ratings they give.

    ``add`` takes a result as a ranking of bot ids, best first; a place may hold several
    bots that share it (a coalition's two winners in Root, ruling RT23). Solo pools take
    scores (``add_score``). The pairwise games are kept as growing index lists, so a refit
    builds its ``Tally`` without going through every ranking again.
    """

    players: int
    scores: dict[str, list[float]] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    bots: dict[str, int] = field(default_factory=dict)
    matches: int = 0
    _first: list[int] = field(default_factory=list)
    _second: list[int] = field(default_factory=list)
    _points: list[float] = field(default_factory=list)
    _group: list[int] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        return self.players == 1

    def add_bot(self, bot_id: str) -> int:
        return self.bots.setdefault(bot_id, len(self.bots))

    def add(self, ranking: Sequence[Placing], match_id: str) -> None:
        if self.solo:
            raise ValueError("a solo pool is rated by score: use add_score")
        for first, second, points in pairwise_outcomes(ranking):
            self._first.append(self.add_bot(first))
            self._second.append(self.add_bot(second))
            self._points.append(points)
            self._group.append(self.matches)
        self.matches += 1
        for place in ranking:
            for bot in (place,) if isinstance(place, str) else place:
                self.played[bot] = self.played.get(bot, 0) + 1

    def add_score(self, bot_id: str, score: float) -> None:
        self.add_bot(bot_id)
        self.scores.setdefault(bot_id, []).append(score)
        self.played[bot_id] = self.played.get(bot_id, 0) + 1

    def ratings(self) -> list[Rating]:
        """Every bot of the pool, best first (bots without games last, at the centre)."""
        rows = self._solo_rows() if self.solo else self._elo_rows()
        return sorted(rows, key=lambda r: (-_finite(r.rating), r.bot_id))

    def _elo_rows(self) -> Iterable[Rating]:
        names = list(self.bots)
        if len(names) < 2 or not self.matches:
            return [
                Rating(b, CENTRE_ELO, -math.inf, math.inf, self.played.get(b, 0)) for b in names
            ]
        tally = Tally.from_pairwise(names, self._first, self._second, self._points, self._group)
        ladder = fit_ladder(tally, ci="sandwich", anchor_elo=CENTRE_ELO, all_pairs=False)
        return [
            Rating(e.name, e.elo, e.ci_low, e.ci_high, self.played.get(e.name, 0))
            for e in ladder.entries
        ]

    def _solo_rows(self) -> Iterable[Rating]:
        for bot in sorted(self.bots):
            ci = mean_ci(self.scores.get(bot, []))
            low = ci.low if math.isfinite(ci.low) else -math.inf
            high = ci.high if math.isfinite(ci.high) else math.inf
            yield Rating(bot, ci.mean, low, high, ci.n)


def _finite(value: float) -> float:
    return value if math.isfinite(value) else -math.inf
