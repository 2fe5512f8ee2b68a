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
    blocks_played,
    bootstrap_covariance,
    bootstrap_elo,
    effective_blocks,
    fit_bradley_terry,
    hessian_covariance,
    los_matrix,
    los_pairs,
    sandwich_covariance,
    sandwich_unavailable,
)
from tournament.ratings.pairwise import FloatArray, IntArray, Match, Placing, Tally
from tournament.ratings.student_t import two_sided_quantile

#: Share of the model-based (Hessian) covariance mixed into the cluster-robust one. With few
#: seed blocks the cluster-robust estimate of one difference can come out near zero by the
#: luck of discrete results (every block 1-1, say) and would then call two equal bots apart
#: with near certainty; a tenth of what independent games would give bounds that, and moves
#: a well-estimated covariance by a few percent at most.
MODEL_SHARE = 0.1

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
    #: Degrees of freedom of its interval (Student's t); inf for the normal curve.
    df: float = math.inf
    #: "won" or "lost" when it won or lost every pairwise game it played, else "".
    perfect: str = ""


@dataclass(frozen=True, eq=False)
class Ladder:
    """Entries best first; ``los`` and ``covariance`` are indexed in the same order as ``names``.

    ``los[i, j]`` = P(entry i is stronger than entry j). ``components`` lists the groups of
    players whose ratings are comparable (one group unless the comparison graph is split).
    ``method`` is the interval actually computed: when the requested one cannot be computed
    from these results (a single seed block) it is "none", the intervals are infinite and the
    LOS NaN, and ``method_note`` says why.
    """

    entries: tuple[LadderEntry, ...]
    names: tuple[str, ...]
    los: FloatArray
    covariance: FloatArray
    method: str  # the intervals computed: "hessian", "sandwich", "bootstrap" or "none"
    anchor: str | None
    anchor_elo: float
    level: float
    prior: float
    components: tuple[tuple[str, ...], ...]
    requested_method: str  # what ``ci`` asked for; differs from ``method`` after a fallback
    method_note: str  # why it fell back ("" when it did not)
    #: Independent units the intervals rest on: seed blocks (or matches, when ungrouped).
    blocks: int = 0
    #: What the data cannot support, said plainly (too few blocks, perfect records).
    notes: tuple[str, ...] = ()

    @property
    def method_label(self) -> str:
        """``method`` as reports name it, with the reason when it is not the requested one."""
        if self.method_note:
            return f"{self.method} ({self.method_note})"
        if self.method == "sandwich":
            return f"sandwich clustered by seed block ({self.blocks}), Student's t"
        if self.method == "bootstrap":
            return f"bootstrap over seed blocks ({self.blocks})"
        return self.method

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
    all_pairs: bool = True,
) -> Ladder:
    """Fit Bradley–Terry ratings and build the ladder.

    The tally's groups are its independent units: give matches a ``Match.match_id`` naming
    their seed block (a tournament's seed) and the intervals account for everything the
    matches of one block share; matches without an id are their own unit.

    Gauge: mean rating ``anchor_elo`` (default 1500), or ``anchor`` exactly at ``anchor_elo``
    (its interval then has zero width and the others' are relative to it).

    ``ci``: "sandwich" (what reports and the ladder service use) = the same point estimates with a covariance clustered by
    block (``sandwich_covariance``), a tenth of the model-based one mixed in (``MODEL_SHARE``),
    read with Student's t on each player's effective number of blocks minus one, so that few
    blocks give wide intervals and modest LOS instead of false certainty; "hessian" = inverse
    observed information, exact only when every pairwise game is independent (2-player
    matches with fresh deals), read with the normal curve; "bootstrap" = percentile intervals
    from ``bootstrap_rounds`` refits on resamples of whole blocks (seeded), LOS from the
    replicates' covariance. All intervals are at ``level``.

    Small samples said plainly: with a single block no interval or LOS can be estimated (they
    come out infinite and NaN, and ``notes`` says why; ``method`` then names the Hessian whose
    point estimates are kept). A player that won (or lost) every pairwise game has a rating set
    by the prior, not measured: its LOS against anyone is capped at 1 − 2^−B, what a sign test
    over the B blocks it played can show, and ``notes`` says so.

    ``prior``: about that many virtual draws per player against the opponents it met, so
    that a player who won every game still gets a finite rating (``bradley_terry`` explains);
    0 for the exact maximum-likelihood fit.

    ``names`` lists players up front when matches are given (bots that have not played yet
    appear with the gauge's centre rating, an infinite interval and NaN score and LOS).
    ``all_pairs=False`` computes LOS only between neighbours in the ladder (the rest NaN): a
    pool of a thousand bots needs no million-entry matrix after every result.
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
    n = len(tally.names)
    df = np.full(n, np.inf)
    if method == "bootstrap":
        replicates = bootstrap_elo(fit, tally, rounds=bootstrap_rounds, seed=seed)
        cov = bootstrap_covariance(fit, replicates)
        low, high = np.quantile(replicates, [(1.0 - level) / 2.0, (1.0 + level) / 2.0], axis=0)
        unbounded = np.isinf(np.diagonal(cov))
        low = np.where(unbounded, -np.inf, low)
        high = np.where(unbounded, np.inf, high)
    else:
        hessian = hessian_covariance(fit)
        if method == "sandwich":
            cov = (1.0 - MODEL_SHARE) * sandwich_covariance(fit, tally) + MODEL_SHARE * hessian
            df = np.minimum(effective_blocks(fit, tally) - 1.0, tally.n_groups - 1.0)
        elif method == "none":  # nothing to estimate a spread from
            cov = np.where(np.isnan(hessian), np.nan, np.inf)
        else:
            cov = hessian
        half = np.array([_quantile(level, f) for f in df.tolist()], dtype=np.float64) * np.sqrt(
            np.diagonal(cov)
        )
        low, high = elo - half, elo + half
        if anchor is not None:  # the anchor is exact: no interval around it
            a = tally.names.index(anchor)
            low[a] = high[a] = elo[a]

    games = tally.games.sum(axis=1)
    points = tally.score.sum(axis=1)
    perfect = _perfect_records(points, games)
    order = sorted(range(n), key=lambda i: (-elo[i], tally.names[i]))
    entries = tuple(
        LadderEntry(
            name=tally.names[i],
            elo=float(elo[i]),
            ci_low=float(low[i]),
            ci_high=float(high[i]),
            games=round(float(games[i])),
            score=float(points[i] / games[i]) if games[i] > 0 else math.nan,
            df=float(df[i]),
            perfect=perfect[i],
        )
        for i in order
    )
    idx = np.asarray(order, dtype=np.int64)
    block = np.ix_(idx, idx)
    pair_df = None if method != "sandwich" else np.minimum.outer(df, df)
    los = _los(elo, cov, pair_df, idx if not all_pairs else None)
    blocks = blocks_played(tally) if any(perfect) else np.zeros(n, dtype=np.int64)
    los = _cap_perfect_records(los, perfect, blocks)
    return Ladder(
        entries=entries,
        names=tuple(e.name for e in entries),
        los=los[block],
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
        blocks=tally.n_groups,
        notes=_notes(tally, method, ci, perfect, blocks, order),
    )


def _quantile(level: float, df: float) -> float:
    """The two-sided ``level`` quantile: Student's t on ``df`` (normal when infinite)."""
    if math.isinf(df):
        return NormalDist().inv_cdf(0.5 + level / 2.0)
    if not df > 0.0:
        return math.inf
    return two_sided_quantile(level, math.floor(df * 100.0) / 100.0)


def _los(
    elo: FloatArray, cov: FloatArray, pair_df: FloatArray | None, order: IntArray | None
) -> FloatArray:
    """The LOS matrix, or (``order`` given) only between neighbours of that order."""
    if order is None:
        return los_matrix(elo, cov, pair_df)
    los = np.full((elo.size, elo.size), np.nan)
    upper, lower = order[:-1], order[1:]
    df = None if pair_df is None else pair_df[upper, lower]
    los[upper, lower] = los_pairs(elo, cov, upper, lower, df)
    los[lower, upper] = 1.0 - los[upper, lower]
    return los


def _perfect_records(points: FloatArray, games: FloatArray) -> list[str]:
    """ "won" / "lost" for a player that won / lost every pairwise game it played, else ""."""
    return [
        "won" if g > 0 and p >= g else "lost" if g > 0 and p <= 0 else ""
        for p, g in zip(points.tolist(), games.tolist(), strict=True)
    ]


def _cap_perfect_records(los: FloatArray, perfect: list[str], blocks: IntArray) -> FloatArray:
    """A perfect record over B blocks is, at most, what a sign test over them shows: if two
    bots were equal, one would take all B blocks with probability 2^−B. A rating set by the
    prior must not turn that into more certainty."""
    capped = los.copy()
    for i, record in enumerate(perfect):
        if not record:
            continue
        bound = 1.0 - 0.5 ** float(blocks[i])
        capped[i, :] = np.clip(capped[i, :], 1.0 - bound, bound)
        capped[:, i] = np.clip(capped[:, i], 1.0 - bound, bound)
    return np.where(np.isnan(los), np.nan, capped)


def _notes(
    tally: Tally,
    method: str,
    requested: str,
    perfect: list[str],
    blocks: IntArray,
    order: list[int],
) -> tuple[str, ...]:
    """What the data cannot support, in the words the table prints under it."""
    notes: list[str] = []
    if method == "none":
        return (
            f"no intervals or LOS from {tally.n_groups} seed block: how much results vary from"
            " one block to the next takes at least 2 to measure (more games per group: --games)",
        )
    if method == "sandwich" and tally.n_groups < 10:
        notes.append(
            f"only {tally.n_groups} seed blocks: intervals and LOS use Student's t with few"
            " degrees of freedom, so they are wide; more blocks narrow them"
        )
    for i in order:
        if perfect[i]:
            notes.append(
                f"{tally.names[i]} {perfect[i]} every game it played: its rating is set by the"
                f" prior, and its LOS is at most {1.0 - 0.5 ** float(blocks[i]):.2%}"
                f" (a sign test over its {int(blocks[i])} blocks)"
            )
    return tuple(notes)


def _usable_method(ci: str, fit: BradleyTerryFit, tally: Tally) -> tuple[str, str]:
    """``(method, note)``: ``ci`` if these results allow it, else "none" and the reason (the
    Hessian would have to assume that every match of a block is independent: exactly what
    cannot be checked with one block)."""
    if ci == "sandwich":
        reason = sandwich_unavailable(fit, tally)
    elif ci == "bootstrap" and tally.n_groups < 2:
        reason = f"the bootstrap needs at least 2 seed blocks, got {tally.n_groups}"
    else:
        return ci, ""
    if reason is None:
        return ci, ""
    return "none", reason
