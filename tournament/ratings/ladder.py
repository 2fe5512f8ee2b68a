"""The published result: a ladder of Bradley–Terry ratings with intervals and LOS.

``fit_ladder`` is the one call a report needs; the pieces live in ``bradley_terry``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

import numpy as np

from tournament.ratings.bradley_terry import (
    DEFAULT_PRIOR,
    BradleyTerryFit,
    bootstrap_covariance,
    bootstrap_elo,
    fit_bradley_terry,
    hessian_covariance,
    los_matrix,
    sandwich_covariance,
    sandwich_unavailable,
)
from tournament.ratings.pairwise import FloatArray, Match, Placing, Tally

CiMethod = Literal["hessian", "sandwich", "bootstrap"]


@dataclass(frozen=True)
class LadderEntry:
    """One row: rating with its interval, pairwise games played and fraction of points scored."""

    name: str
    elo: float
    ci_low: float
    ci_high: float
    games: int
    score: float  # NaN for a player without games


@dataclass(frozen=True, eq=False)
class Ladder:
    """Entries best first; ``los`` and ``covariance`` are indexed in the same order as ``names``.

    ``los[i, j]`` = P(entry i is stronger than entry j). ``components`` lists the groups of
    players whose ratings are comparable (one group unless the comparison graph is split).
    ``method`` is the interval actually computed: when the requested one cannot be computed
    from these results (``fit_ladder`` explains when) the Hessian is used and ``method_note``
    says why.
    """

    entries: tuple[LadderEntry, ...]
    names: tuple[str, ...]
    los: FloatArray
    covariance: FloatArray
    method: str  # the intervals computed: "hessian", "sandwich" or "bootstrap"
    anchor: str | None
    anchor_elo: float
    level: float
    prior: float
    components: tuple[tuple[str, ...], ...]
    requested_method: str  # what ``ci`` asked for; differs from ``method`` after a fallback
    method_note: str  # why it fell back ("" when it did not)

    @property
    def method_label(self) -> str:
        """``method``, with the reason when it is not the requested one (for reports)."""
        return f"{self.method} ({self.method_note})" if self.method_note else self.method

    def entry(self, name: str) -> LadderEntry:
        return self.entries[self.names.index(name)]

    def los_of(self, better: str, worse: str) -> float:
        """P(``better`` is stronger than ``worse``)."""
        return float(self.los[self.names.index(better), self.names.index(worse)])

    def los_dict(self) -> dict[tuple[str, str], float]:
        """LOS for every ordered pair of distinct players (n² entries: for small ladders)."""
        return {
            (a, b): float(self.los[i, j])
            for i, a in enumerate(self.names)
            for j, b in enumerate(self.names)
            if i != j
        }


def fit_ladder(
    tally_or_matches: Tally | Iterable[Sequence[Placing] | Match],
    *,
    anchor: str | None = None,
    anchor_elo: float = 1500.0,
    ci: CiMethod | str = "hessian",
    bootstrap_rounds: int = 200,
    seed: int = 0,
    level: float = 0.95,
    prior: float = DEFAULT_PRIOR,
    names: Sequence[str] = (),
) -> Ladder:
    """Fit Bradley–Terry ratings and build the ladder.

    Gauge: mean rating ``anchor_elo`` (default 1500), or ``anchor`` exactly at ``anchor_elo``
    (its interval then has zero width and the others' are relative to it).

    ``ci``: "hessian" = inverse observed information, exact when pairwise games are
    independent (2-player matches) but too narrow for 3- and 4-player matches, whose pairwise
    games are dependent; "sandwich" = the same point estimates with cluster-robust (by match)
    covariance, honest for any match size (it wants some tens of matches per player; the
    extra cost is a sort of the pairwise games, ~1 s per million); "bootstrap" = percentile
    intervals from ``bootstrap_rounds`` refits on resamples of whole matches (seeded), LOS from
    the replicates' covariance. All intervals are at ``level``.

    Fallback: the sandwich needs more matches than free ratings (short 3–4 player tournaments,
    or none played yet) and the bootstrap at least two matches (one match resampled is always
    itself: zero-width intervals). Short of that, the Hessian intervals are given instead, and
    the ladder's ``method`` and ``method_note`` say so.

    ``prior``: about that many virtual draws per player against the opponents it met, so
    that a player who won every game still gets a finite rating (``bradley_terry`` explains);
    0 for the exact maximum-likelihood fit.

    ``names`` lists players up front when matches are given (bots that have not played yet
    appear with the gauge's centre rating, an infinite interval and NaN score and LOS).
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level}")
    if ci not in ("hessian", "sandwich", "bootstrap"):
        raise ValueError(f"unknown ci method {ci!r}; use 'hessian', 'sandwich' or 'bootstrap'")
    if isinstance(tally_or_matches, Tally):
        tally = tally_or_matches
        missing = set(names) - set(tally.names)
        if missing:
            raise ValueError(f"names not in the tally: {sorted(missing)}")
    else:
        tally = Tally.from_matches(tally_or_matches, names)
    fit = fit_bradley_terry(tally, prior=prior, anchor=anchor, anchor_elo=anchor_elo)
    elo = fit.elo
    method, note = _usable_method(ci, fit, tally)
    if method == "bootstrap":
        replicates = bootstrap_elo(fit, tally, rounds=bootstrap_rounds, seed=seed)
        cov = bootstrap_covariance(fit, replicates)
        low, high = np.quantile(replicates, [(1.0 - level) / 2.0, (1.0 + level) / 2.0], axis=0)
        unbounded = np.isinf(np.diagonal(cov))
        low = np.where(unbounded, -np.inf, low)
        high = np.where(unbounded, np.inf, high)
    else:
        cov = hessian_covariance(fit) if method == "hessian" else sandwich_covariance(fit, tally)
        z = NormalDist().inv_cdf(0.5 + level / 2.0)
        half = z * np.sqrt(np.diagonal(cov))
        low, high = elo - half, elo + half

    games = tally.games.sum(axis=1)
    points = tally.score.sum(axis=1)
    order = sorted(range(len(tally.names)), key=lambda i: (-elo[i], tally.names[i]))
    entries = tuple(
        LadderEntry(
            name=tally.names[i],
            elo=float(elo[i]),
            ci_low=float(low[i]),
            ci_high=float(high[i]),
            games=round(float(games[i])),
            score=float(points[i] / games[i]) if games[i] > 0 else math.nan,
        )
        for i in order
    )
    idx = np.asarray(order, dtype=np.int64)
    block = np.ix_(idx, idx)
    return Ladder(
        entries=entries,
        names=tuple(e.name for e in entries),
        los=los_matrix(elo, cov)[block],
        covariance=cov[block],
        method=method,
        anchor=anchor,
        anchor_elo=anchor_elo,
        level=level,
        prior=prior,
        components=tuple(
            tuple(tally.names[i] for i in sorted(comp, key=lambda i: (-elo[i], tally.names[i])))
            for comp in fit.components
        ),
        requested_method=ci,
        method_note=note,
    )


def _usable_method(ci: str, fit: BradleyTerryFit, tally: Tally) -> tuple[str, str]:
    """``(method, note)``: ``ci`` if these results allow it, else the Hessian and the reason."""
    if ci == "sandwich":
        reason = sandwich_unavailable(fit, tally)
    elif ci == "bootstrap" and tally.n_groups < 2:
        reason = f"the bootstrap needs at least 2 matches, got {tally.n_groups}"
    else:
        return ci, ""
    if reason is None:
        return ci, ""
    note = f"fallback: {reason}"
    if tally.n_games > tally.n_groups:  # some match had more than two players
        note += "; too narrow for matches of more than two players"
    return "hessian", note
