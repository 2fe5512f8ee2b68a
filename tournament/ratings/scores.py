"""Score statistics for solo games: means with t intervals, and differences paired by seed.

A solo game has no opponent, so there is nothing to rate on the Elo scale: bots are compared
by the scores they make. Every bot plays the same seeds, and a seed's deal explains much of a
score (a kind deal lifts every bot), so two bots are compared through their per-seed
differences, whose spread no longer holds the spread between deals. ``welch_ci`` gives the
unpaired interval of the same difference, for comparison.

Student's t comes from ``student_t`` (the project has no SciPy).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.ratings.student_t import t_cdf, t_quantile

__all__ = ["LEVEL", "MeanCI", "mean_ci", "paired_ci", "t_cdf", "t_quantile", "welch_ci"]

LEVEL = 0.95


@dataclass(frozen=True, slots=True)
class MeanCI:
    """A sample's mean with its two-sided t interval at ``level``.

    ``n < 2`` has no spread to estimate: ``sd`` and the interval are NaN (and the mean too
    for ``n == 0``)."""

    n: int
    mean: float
    sd: float
    low: float
    high: float
    level: float = LEVEL

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    @property
    def excludes_zero(self) -> bool:
        """True when the interval lies wholly above or below 0 (a NaN interval never does)."""
        return self.low > 0.0 or self.high < 0.0


def mean_ci(values: Sequence[float], level: float = LEVEL) -> MeanCI:
    """Mean ± t(level, n − 1)·s/√n: the interval for the mean of independent draws."""
    n = len(values)
    if n == 0:
        return MeanCI(0, math.nan, math.nan, math.nan, math.nan, level)
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(1, mean, math.nan, math.nan, math.nan, level)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return MeanCI(n, mean, sd, mean - half, mean + half, level)


def paired_ci(
    first: Mapping[int, float], second: Mapping[int, float], level: float = LEVEL
) -> MeanCI:
    """The mean of ``first − second`` over the seeds both played, with its t interval.

    Keys are seeds (or seed blocks). The differences are independent across seeds, so this is
    the one-sample interval of the differences; seeds only one side played are left out."""
    common = sorted(set(first) & set(second))
    return mean_ci([first[s] - second[s] for s in common], level)


def welch_ci(first: Sequence[float], second: Sequence[float], level: float = LEVEL) -> MeanCI:
    """The unpaired (Welch) interval of mean(first) − mean(second): what ignoring the seeds
    would give. ``n`` is the smaller sample; ``sd`` the standard error."""
    a, b = mean_ci(first, level), mean_ci(second, level)
    n = min(a.n, b.n)
    diff = a.mean - b.mean
    if n < 2:
        return MeanCI(n, diff, math.nan, math.nan, math.nan, level)
    va, vb = a.sd**2 / a.n, b.sd**2 / b.n
    se = math.sqrt(va + vb)
    if se == 0.0:
        return MeanCI(n, diff, 0.0, diff, diff, level)
    df = (va + vb) ** 2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    half = t_quantile(0.5 + level / 2.0, df) * se
    return MeanCI(n, diff, se, diff - half, diff + half, level)
