"""Solo tournaments: every bot plays the same seeds alone, and bots are compared by score.

A solo game has no opponent, so there is no result to rate on the Elo scale. What a solo
tournament can say is how well each bot scores: its mean with a t interval, the spread of its
games over the game's solo rank table, and, for every two bots, the mean of their score
differences *seed by seed*. Both played every seed, and a seed's deal moves every bot's score
the same way; the per-seed difference cancels that shared part, so its interval is usually far
narrower than the one of the two means compared as if unrelated (the unpaired, Welch interval
is kept in the JSON for comparison).

Scoring rules: a forfeited game (the bot failed; the referee's random play finished it) scores
0, the worst a game can score, as a forfeit ranks last in a multiplayer match; a voided game
is left out, and its seed then drops out of that bot's comparisons.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from sqlalchemy.engine import Engine

from games import GameConfig, get_game
from tournament import storage
from tournament.ratings.scores import LEVEL, MeanCI, mean_ci, paired_ci, welch_ci

#: A solo rank table, best first: (at least this score, title).
RankTable = tuple[tuple[int, str], ...]
NO_RANK = "no rank"
NO_ELO = "no Elo: a solo game has no opponent, so bots are compared by score on the same seeds"


def rank_table(game: object, config: GameConfig) -> RankTable:
    """The game's solo rank table, from its optional ``solo_ranks`` hook: a method taking the
    config (a content pack may change the table) or a plain sequence. None: no table."""
    hook = getattr(game, "solo_ranks", None)
    table = hook(config) if callable(hook) else hook
    return tuple(sorted(((int(a), str(t)) for a, t in table or ()), key=lambda r: -r[0]))


def rank_index(score: float, table: RankTable) -> int:
    """The row of ``table`` that ``score`` reaches (``len(table)``: no rank)."""
    for index, (at_least, _title) in enumerate(table):
        if score >= at_least:
            return index
    return len(table)


@dataclass(frozen=True, slots=True)
class SoloGame:
    """One counted game: the bot's score on a seed (0 when it forfeited)."""

    bot: str
    seed: int
    block: int
    score: float
    forfeited: bool


def counted_games(records: Iterable[storage.MatchRecord]) -> list[SoloGame]:
    """The finished solo games that count: voided ones are left out, forfeits score 0."""
    games = []
    for record in records:
        if record.status != "done" or record.reason == "voided":
            continue
        for seat in record.results:
            if seat.rank <= 0:
                continue
            score = 0.0 if seat.forfeited else float(seat.score)
            games.append(SoloGame(seat.bot, record.seed, record.round, score, seat.forfeited))
    return games


@dataclass(frozen=True, slots=True)
class BotScores:
    """A bot's row: its score per seed, their mean and interval, and its rank counts."""

    name: str
    by_seed: dict[int, float]
    stats: MeanCI
    failures: int
    #: Games per row of the rank table, the last entry counting games with no rank.
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Comparison:
    """``bot`` − ``opponent``: the mean per-seed difference (paired) and, for comparison,
    the difference of means treating the two samples as unrelated (Welch)."""

    bot: str
    opponent: str
    paired: MeanCI
    unpaired: MeanCI

    @property
    def verdict(self) -> str:
        if self.paired.n < 2:
            return "too few seeds"
        if self.paired.low > 0:
            return f"{self.bot} higher"
        if self.paired.high < 0:
            return f"{self.opponent} higher"
        return "not separated"


@dataclass(frozen=True, slots=True)
class SoloSummary:
    """Bots best mean first (bots without games last), every pair compared best first."""

    bots: tuple[BotScores, ...]
    comparisons: tuple[Comparison, ...]
    table: RankTable
    games: int
    level: float = LEVEL

    @property
    def rank_titles(self) -> tuple[str, ...]:
        return (*(title for _, title in self.table), NO_RANK)

    def bot(self, name: str) -> BotScores:
        return next(b for b in self.bots if b.name == name)


def solo_summary(
    games: Sequence[SoloGame], names: Sequence[str], table: RankTable = (), level: float = LEVEL
) -> SoloSummary:
    """Means, intervals, rank counts and paired comparisons from counted games. ``names``
    lists every bot (one without games gets NaN figures). Two games of one bot on one seed
    (not scheduled by a solo round-robin) would count as their mean in comparisons."""
    rows = []
    for name in dict.fromkeys([*names, *(g.bot for g in games)]):
        mine = [g for g in games if g.bot == name]
        per_seed: dict[int, list[float]] = {}
        for g in mine:
            per_seed.setdefault(g.seed, []).append(g.score)
        counts = [0] * (len(table) + 1)
        for g in mine:
            counts[rank_index(g.score, table)] += 1
        rows.append(
            BotScores(
                name,
                {seed: math.fsum(s) / len(s) for seed, s in per_seed.items()},
                mean_ci([g.score for g in mine], level),
                sum(g.forfeited for g in mine),
                tuple(counts),
            )
        )
    rows.sort(key=lambda b: (math.isnan(b.stats.mean), -_or(b.stats.mean, 0.0), b.name))
    comparisons = tuple(
        Comparison(
            a.name,
            b.name,
            paired_ci(a.by_seed, b.by_seed, level),
            welch_ci(
                [g.score for g in games if g.bot == a.name],
                [g.score for g in games if g.bot == b.name],
                level,
            ),
        )
        for a, b in combinations(rows, 2)
    )
    return SoloSummary(tuple(rows), comparisons, table, len(games), level)


def _or(value: float, default: float) -> float:
    return default if math.isnan(value) else value


@dataclass(frozen=True, slots=True)
class StoredSolo:
    """A stored solo tournament: its row, its options, its counted games and their summary."""

    tournament: dict[str, Any]
    options: dict[str, Any]
    games: tuple[SoloGame, ...]
    summary: SoloSummary


def summarize_solo(engine: Engine, tournament_id: str) -> StoredSolo:
    """Summarise the stored results (the rank table comes from the game and its options)."""
    row = storage.load_tournament(engine, tournament_id)
    if row is None:
        raise LookupError(f"no tournament {tournament_id}")
    options = dict(json.loads(str(row["config_json"])).get("options") or {})
    config = GameConfig(int(row["players"]), str(row["variant"]), options)
    table = rank_table(get_game(str(row["game"])), config)
    names = [name for name, _, _ in storage.load_bots(engine, tournament_id)]
    games = counted_games(storage.load_matches(engine, tournament_id))
    return StoredSolo(row, options, tuple(games), solo_summary(games, names, table))
