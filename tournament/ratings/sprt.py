"""Sequential probability ratio test: "is the candidate better than the baseline?".

Stops a candidate-vs-baseline run as soon as the evidence suffices, with error rates alpha
(accepting H1 when H0 holds) and beta (accepting H0 when H1 holds) fixed in advance, instead of
a fixed number of games.

Hypotheses are logistic Elo differences: H0 "elo = elo0" against H1 "elo = elo1", i.e. expected
scores s0 = 1/(1 + 10^(−elo0/400)) and s1 likewise. With draws the per-game score is trinomial
and the draw rate is a nuisance parameter; we use the generalised SPRT in its normal
approximation, the formulation of M. Van den Bergh's notes behind fishtest:

    LLR ≈ N · (s1 − s0) · (2·s̄ − s0 − s1) / (2·σ²)

with s̄ the mean score per game and σ² the empirical per-game score variance. It is the
difference of the two Gaussian log-likelihoods N(s̄ − s0)²/(2σ²) − N(s̄ − s1)²/(2σ²), accurate
when N is in the hundreds and s̄ is near s0 and s1 (the regime SPRT runs live in); for a few
lopsided games it overstates the evidence. While σ² = 0 (all results so far equal) the LLR is 0.

Wald's bounds: accept H0 at LLR ≤ log(beta/(1 − alpha)), H1 at LLR ≥ log((1 − beta)/alpha).
"""

from __future__ import annotations

import math
from typing import Literal

from tournament.ratings.bradley_terry import expected_score

Verdict = Literal["H0", "H1"]


class Sprt:
    """One SPRT run. Feed results with ``add`` (one game) or ``update`` (a batch of counts).

    ``verdict`` is decided the first time the LLR leaves the bounds (checked after every
    ``add`` and after every ``update`` batch) and then stays, as a sequential test stops there;
    results added later still move ``llr`` and ``trajectory``.
    """

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not elo1 > elo0:
            raise ValueError(f"need elo1 > elo0, got {elo0}, {elo1}")
        if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
            raise ValueError(f"need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}")
        self.elo0 = elo0
        self.elo1 = elo1
        self.alpha = alpha
        self.beta = beta
        self.s0 = expected_score(elo0)
        self.s1 = expected_score(elo1)
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)
        self.wins = 0
        self.draws = 0
        self.losses = 0
        self.trajectory: list[float] = []  # LLR after each add / update
        self._verdict: Verdict | None = None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def llr(self) -> float:
        n = self.games
        if n == 0:
            return 0.0
        mean = (self.wins + 0.5 * self.draws) / n
        var = (
            self.wins * (1.0 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean**2
        ) / n
        if var <= 0.0:
            return 0.0
        return 0.5 * n * (self.s1 - self.s0) * (2.0 * mean - self.s0 - self.s1) / var

    @property
    def verdict(self) -> Verdict | None:
        """None while undecided, "H0" (not better by elo1) or "H1" (better than elo0)."""
        return self._verdict

    def add(self, score: float) -> Verdict | None:
        """Record one game of the candidate: 1 win, 0.5 draw, 0 loss."""
        if score == 1.0:
            self.wins += 1
        elif score == 0.5:
            self.draws += 1
        elif score == 0.0:
            self.losses += 1
        else:
            raise ValueError(f"score must be 0, 0.5 or 1, got {score}")
        return self._record()

    def update(self, wins: int, draws: int, losses: int) -> Verdict | None:
        """Record a batch of results (one trajectory point for the whole batch)."""
        if min(wins, draws, losses) < 0:
            raise ValueError("counts must be non-negative")
        self.wins += wins
        self.draws += draws
        self.losses += losses
        return self._record()

    def _record(self) -> Verdict | None:
        llr = self.llr
        self.trajectory.append(llr)
        if self._verdict is None:
            if llr >= self.upper:
                self._verdict = "H1"
            elif llr <= self.lower:
                self._verdict = "H0"
        return self._verdict
