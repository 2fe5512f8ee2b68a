"""Incremental Elo for live display while a tournament runs.

Order-dependent and without error bars, so not the published ladder (that is
``fit_ladder``); it is cheap, updates after every match and gives a rating-over-matches chart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tournament.ratings.pairwise import Placing, pairwise_outcomes


class EloTracker:
    """Logistic Elo (400-point scale) updated match by match from the pairwise outcomes.

    K scaling: in an m-player match each player takes part in m − 1 pairwise games, so each
    pairwise update uses ``k / (m − 1)``. A player's change is then K times its *average*
    pairwise surprise: winning a 4-player match among equals gains K/2, like winning a 2-player
    game, instead of 3·K/2. Every pairwise update is computed from the ratings before the
    match (simultaneous, so the order of pairs does not matter) and adds to one side exactly
    what it takes from the other, so the sum of ratings stays ``initial`` times the players.
    """

    def __init__(self, k: float = 16.0, initial: float = 1500.0) -> None:
        if k <= 0:
            raise ValueError(f"k must be positive, got {k}")
        self.k = k
        self.initial = initial
        self.ratings: dict[str, float] = {}
        self.history: list[dict[str, float]] = []  # ratings after each match, for a chart

    def expected(self, a: str, b: str) -> float:
        """Expected score of ``a`` against ``b`` at the current ratings."""
        ra = self.ratings.get(a, self.initial)
        rb = self.ratings.get(b, self.initial)
        return 1.0 / (1.0 + math.pow(10.0, (rb - ra) / 400.0))

    def update(self, ranking: Sequence[Placing]) -> dict[str, float]:
        """Apply one match (best first; a tuple of names is a tie); return the rating changes."""
        outcomes = pairwise_outcomes(ranking)
        players = {name for a, b, _ in outcomes for name in (a, b)}
        for name in players:
            self.ratings.setdefault(name, self.initial)
        k_pair = self.k / (len(players) - 1)
        delta = dict.fromkeys(players, 0.0)
        for a, b, points in outcomes:
            change = k_pair * (points - self.expected(a, b))
            delta[a] += change
            delta[b] -= change
        for name, change in delta.items():
            self.ratings[name] += change
        self.history.append(dict(self.ratings))
        return delta
