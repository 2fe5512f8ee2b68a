"""Score statistics for solo games: means with t intervals, and differences paired by seed.

A solo game has no opponent, so there is nothing to rate on the Elo scale: bots are compared
by the scores they make. Every bot plays the same seeds, and a seed's deal explains much of a
score (a kind deal lifts every bot), so two bots are compared through their per-seed
differences, whose spread no longer holds the spread between deals. ``welch_ci`` gives the
unpaired interval of the same difference, for comparison.

The Student t quantile is computed here (the regularised incomplete beta function by its
continued fraction, inverted by bisection) because SciPy is not a dependency for one function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

LEVEL = 0.95


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < eps:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` (any positive real) degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection on the CDF:
    slow next to a closed form, but a report asks for a few dozen)."""
    if not 0.0 < p < 1.0 or not df > 0.0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 2.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


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
