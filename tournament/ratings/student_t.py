"""Student's t distribution: its CDF and quantiles, for intervals and LOS from few seed blocks.

A variance estimated from G independent seed blocks is itself uncertain: with few blocks the
ratio of a difference to its estimated standard error follows Student's t with about G − 1
degrees of freedom, not the normal curve, and reading it as normal overclaims (a ratio of 3 is
p = 0.0013 under the normal curve, 0.048 with 2 degrees of freedom). The project has no SciPy,
so the CDF is computed here from the regularized incomplete beta function (continued fraction,
evaluated with the modified Lentz method) and quantiles by bisection on it. Degrees of freedom
may be fractional (Satterthwaite-style effective counts); above ``NORMAL_DF`` the normal curve
is used (they differ by < 1e-4 there).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

#: Beyond this many degrees of freedom t and the normal curve agree to better than 1e-4.
NORMAL_DF = 10_000.0
_EPSILON = 1e-15
_TINY = 1e-300
_MAX_TERMS = 500


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function I_x(a, b), for x < (a+1)/(a+b+2)."""
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    result = d
    for m in range(1, _MAX_TERMS + 1):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            result *= c * d
        if abs(c * d - 1.0) < _EPSILON:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b) = B(x; a, b) / B(a, b) for a, b > 0 and 0 ≤ x ≤ 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` > 0 degrees of freedom (normal above NORMAL_DF)."""
    if math.isnan(t) or math.isnan(df) or df <= 0.0:
        return math.nan
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    if df > NORMAL_DF:
        return NormalDist().cdf(t)
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T ≤ t) = p (0 < p < 1), by bisection on ``t_cdf`` to ~1e-10."""
    if not 0.0 < p < 1.0 or math.isnan(df) or df <= 0.0:
        return math.nan
    if df > NORMAL_DF:
        return NormalDist().inv_cdf(p)
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
        if high > 1e12:
            return math.inf
    for _ in range(200):
        middle = 0.5 * (low + high)
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-10 * max(1.0, high):
            break
    return 0.5 * (low + high)


def t_cdf_array(t: FloatArray, df: FloatArray) -> FloatArray:
    """``t_cdf`` element by element, vectorised over the pairs that share a number of degrees
    of freedom (rounded down to 0.01, which can only widen): a LOS matrix of a thousand bots
    is half a million of them, most with the same few values."""
    t = np.asarray(t, dtype=np.float64)
    df = np.floor(np.asarray(df, dtype=np.float64) * 100.0) / 100.0
    out = np.full(t.shape, np.nan)
    usable = ~np.isnan(t) & ~np.isnan(df) & (df > 0.0)
    for value in np.unique(df[usable]).tolist():
        pick = usable & (df == value)
        out[pick] = _cdf_same_df(t[pick], value)
    return out


def _cdf_same_df(t: FloatArray, df: float) -> FloatArray:
    if df > NORMAL_DF:
        return np.asarray([NormalDist().cdf(v) for v in t.tolist()], dtype=np.float64)
    x = np.divide(df, df + t * t, out=np.zeros_like(t), where=np.isfinite(t))
    tail = 0.5 * _regularized_beta_array(df / 2.0, 0.5, x)
    return np.where(t > 0, 1.0 - tail, tail)


def _regularized_beta_array(a: float, b: float, x: FloatArray) -> FloatArray:
    """``regularized_beta`` for an array of x with one (a, b)."""
    out = np.where(x >= 1.0, 1.0, 0.0)
    inside = (x > 0.0) & (x < 1.0)
    if not inside.any():
        return out
    xi = x[inside]
    log_beta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = np.exp(log_beta + a * np.log(xi) + b * np.log1p(-xi))
    direct = xi < (a + 1.0) / (a + b + 2.0)
    value = np.empty_like(xi)
    value[direct] = front[direct] * _fraction_array(a, b, xi[direct]) / a
    value[~direct] = 1.0 - front[~direct] * _fraction_array(b, a, 1.0 - xi[~direct]) / b
    out[inside] = value
    return out


def _fraction_array(a: float, b: float, x: FloatArray) -> FloatArray:
    """``_beta_fraction`` for an array of x: every element iterates until all converged."""
    if x.size == 0:
        return x
    c = np.ones_like(x)
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
    result = d.copy()
    for m in range(1, _MAX_TERMS + 1):
        delta = np.ones_like(x)
        for coefficient in (
            m * (b - m) / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            numerator = coefficient * x
            d = 1.0 + numerator * d
            d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
            c = 1.0 + numerator / c
            c = np.where(np.abs(c) > _TINY, c, _TINY)
            delta = c * d
            result *= delta
        if float(np.max(np.abs(delta - 1.0))) < _EPSILON:
            break
    return result


@lru_cache(maxsize=4096)
def two_sided_quantile(level: float, df: float) -> float:
    """The t with P(|T| ≤ t) = ``level``: the half-width of an interval in standard errors.

    Cached: a ladder refitted after every result asks for the same few values again."""
    return t_quantile(0.5 + level / 2.0, df)
