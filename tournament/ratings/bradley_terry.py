"""Joint maximum-likelihood Bradley–Terry (logistic Elo) ratings with honest uncertainty.

Model: P(i beats j) = 1 / (1 + 10^((r_j − r_i)/400)), i.e. logistic in θ = r·ln10/400 ("nats";
``ELO_PER_NAT`` = 400/ln10 ≈ 173.7 Elo per nat). All pairwise games are fitted at once, so the
result does not depend on the order of matches (unlike incremental Elo). A draw counts half a
win and half a loss.

Prior. A player who won (or lost) every game has no finite maximum-likelihood rating, so
each player gets about ``prior`` virtual draws (default one) against the field it actually
met: the pair (i, j) gets v_ij = prior · n_ij · (1/N_i + 1/N_j) / 2 extra games, all draws
(v_ij/2 points each), where n_ij is their real games and N_i all of i's games. Row sums are
≈ prior, and the total is prior·players/2 virtual games, so each player sits in ``prior`` of
them on average. The prior is symmetric, only touches pairs that played (the comparison graph is
unchanged) and is invariant under adding a constant to every rating (the gauge is unchanged);
it shrinks ratings toward their opponents by about prior/N_i of the games: 0.5 % for 200
games. A prior per *pair* (BayesElo's virtual draws) would not do: with a thousand bots
meeting about twice per pair it outweighs the data. Between two players only (n games each),
v = prior: 30 wins of 40 with prior 1 is fitted as 30.5 of 41. ``prior=0`` gives the exact MLE,
which exists only when, within each component, every split of the players into two sets has
points scored in both directions (Ford 1957); otherwise ``ValueError``.

Disconnected comparison graphs. Players in different connected components never met, not even
through intermediaries, so their relative rating is not identified. Each component is fitted on
its own and gauged on its own (mean, or the anchor in its component; components without the
anchor are centred on ``anchor_elo``). Covariances across components are NaN, hence so is the
likelihood of superiority; a player with no games at all has infinite variance.

Gauge. Ratings are defined up to a constant. With the mean gauge the covariance is the
Moore–Penrose pseudo-inverse of the Fisher information (the Laplacian of the weighted
comparison graph), computed as ``inv(F + s·11ᵀ/m) − 11ᵀ/(s·m)``; with an anchor it is the
inverse of F with the anchor's row and column removed, and the anchor has zero variance.
Differences (and so LOS) do not depend on the gauge.

Which intervals. ``hessian_covariance`` is the inverse observed information; it assumes that
pairwise games are independent, which is exact for 2-player matches. The C(k, 2) pairwise games
of one k-player ranking are dependent: a player's points in a match are k − 1 minus its
0-based place, whose variance among equals is (k²−1)/12, not the (k−1)/4 of k − 1 independent
games, i.e. (k+1)/3 times more (5/3 for k = 4). For multi-player matches the Hessian intervals
are therefore too narrow, by up to sqrt((k+1)/3): simulated 4-player leagues cover ~90 %, not
95 %. ``sandwich_covariance`` (H⁻¹ J H⁻¹ with J the outer products of per-match score
residuals: the cluster-robust / Godambe covariance of this composite likelihood) and
``bootstrap_elo`` (resampling whole groups) are honest for any match size. The groups a tally
is clustered by are its independent units: in a tournament the seed blocks (the matches that
share a deal), elsewhere the matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from tournament.ratings.errors import RatingsError
from tournament.ratings.pairwise import FloatArray, IntArray, Tally
from tournament.ratings.student_t import t_cdf_array

ELO_PER_NAT: Final = 400.0 / math.log(10.0)
DEFAULT_PRIOR: Final = 1.0
_TOLERANCE: Final = 1e-10  # largest Newton step, in nats (≈ 2e-8 Elo), at convergence
_MAX_ITERATIONS: Final = 200
_ARMIJO: Final = 1e-4  # sufficient rise: this fraction of what the slope promises
_SMALLEST_FRACTION: Final = 2.0**-60  # of a step, before the line search gives up
#: Up to this many (group, player) cells the per-group scores are summed as a dense matrix.
_DENSE_SCORES: Final = 4_000_000


def expected_score(elo_difference: float) -> float:
    """Logistic Elo expectation of the player ``elo_difference`` points above the other.

    Beyond 120,000 Elo below the other it is 0 to double precision (no ``OverflowError``).
    """
    return 1.0 / (1.0 + math.pow(10.0, min(-elo_difference / 400.0, 300.0)))


@dataclass(frozen=True, eq=False)
class BradleyTerryFit:
    """A fitted model. Arrays are in ``names`` (tally) order; ``elo`` is gauged."""

    names: tuple[str, ...]
    elo: FloatArray
    theta: FloatArray  # log-strength in nats, mean zero within each component (before gauge)
    fisher: FloatArray  # observed information of theta, prior included
    components: tuple[IntArray, ...]
    anchor: str | None
    anchor_elo: float
    prior: float
    iterations: int
    log_likelihood: float  # of the data plus virtual draws, at the fit

    @property
    def anchor_index(self) -> int | None:
        return None if self.anchor is None else self.names.index(self.anchor)


def connected_components(games: FloatArray) -> tuple[IntArray, ...]:
    """Index arrays of the connected components of the graph of pairs with games > 0."""
    n = games.shape[0]
    adjacent = games > 0
    seen = np.zeros(n, dtype=bool)
    out: list[IntArray] = []
    for start in range(n):
        if seen[start]:
            continue
        reached = np.zeros(n, dtype=bool)
        reached[start] = True
        frontier = reached.copy()
        while frontier.any():
            frontier = adjacent[frontier].any(axis=0) & ~reached
            reached |= frontier
        seen |= reached
        out.append(np.flatnonzero(reached).astype(np.int64))
    return tuple(out)


def _reaches_all(edges: FloatArray) -> bool:
    reached = np.zeros(edges.shape[0], dtype=bool)
    reached[0] = True
    frontier = reached.copy()
    while frontier.any():
        frontier = (edges[frontier] > 0).any(axis=0) & ~reached
        reached |= frontier
    return bool(reached.all())


def _virtual_games(games: FloatArray, prior: float) -> FloatArray:
    """v_ij = prior · n_ij · (1/N_i + 1/N_j) / 2: about ``prior`` virtual games per player."""
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"prior must be a finite number >= 0, got {prior}")
    total = games.sum(axis=1)
    inv = np.divide(1.0, total, out=np.zeros_like(total), where=total > 0)
    virtual: FloatArray = games * (prior * 0.5) * (inv[:, None] + inv[None, :])
    return virtual


def _probabilities(theta: FloatArray) -> FloatArray:
    """p[i, j] = σ(θi − θj) = γi / (γi + γj), γ = exp(θ − max θ): n exps, no overflow.

    When two ratings lie more than ~745 nats below the best (a trial point of a line search can)
    both γ underflow and γi/(γi + γj) would be 0/0; then p is computed pairwise as
    1/(1 + exp(θj − θi)), which only overflows to the right limit 0. Note 1 − p = pᵀ.
    """
    gamma = np.exp(theta - theta.max())
    total = np.add.outer(gamma, gamma)
    if total.min() > 0.0:  # False for NaN too: then the pairwise form propagates the NaN
        p: FloatArray = gamma[:, None] / total
        return p
    with np.errstate(over="ignore"):
        exact: FloatArray = 1.0 / (1.0 + np.exp(-np.subtract.outer(theta, theta)))
    return exact


def _log_likelihood(score: FloatArray, theta: FloatArray) -> float:
    """Σ score_ij · log σ(θi − θj); finite for every finite θ (log-sum-exp where γ underflows)."""
    shifted = theta - theta.max()
    gamma = np.exp(shifted)
    total = np.add.outer(gamma, gamma)
    log_total = np.log(total) if total.min() > 0.0 else np.logaddexp.outer(shifted, shifted)
    return float(score.sum(axis=1) @ shifted - (score * log_total).sum())


def _fisher(games: FloatArray, p: FloatArray) -> FloatArray:
    """Observed information of θ: the Laplacian with weights n_ij p_ij (1 − p_ij).

    ``games`` has a zero diagonal (nobody plays itself), so the weights do too.
    """
    weights = games * p * p.T
    f: FloatArray = np.diag(weights.sum(axis=1)) - weights
    return f


def _ascent_step(
    games: FloatArray, p: FloatArray, grad: FloatArray, curvature: float
) -> tuple[FloatArray, bool]:
    """The Newton step, or (flag False) a gradient step when Newton gives no usable direction.

    The Hessian is singular along 1 (the gauge); solving with ``F + s·11ᵀ/m`` instead yields
    the pseudo-inverse step, which keeps θ at mean zero because the gradient sums to zero.
    That matrix is itself singular when the weights p(1 − p) underflow (ratings hundreds of
    nats apart); the step is then non-finite or no ascent. The fallback ``grad / curvature``,
    with ``curvature`` ≥ the largest eigenvalue of the information, always ascends.
    """
    if not grad.any():
        return np.zeros_like(grad), True
    m = grad.size
    fisher = _fisher(games, p)
    scale = float(np.trace(fisher)) / m
    if scale > 0.0 and math.isfinite(scale):
        fisher += scale / m
        try:
            step = np.asarray(np.linalg.solve(fisher, grad), dtype=np.float64)
        except np.linalg.LinAlgError:
            pass
        else:
            if np.isfinite(step).all() and float(grad @ step) > 0.0:
                return step, True
    fallback: FloatArray = grad / curvature
    return fallback, False


def _line_search(
    score: FloatArray,
    games: FloatArray,
    theta: FloatArray,
    grad: FloatArray,
    step: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Largest t in 1, 1/2, 1/4, ... with θ + t·step finite and the likelihood risen enough.

    Accepted when the slope along the step is still non-negative at its end (the concave
    likelihood then rose all the way) or when the rise passes Armijo's test. Every test is a
    ``>=`` that NaN fails, so a step into overflow is halved, never accepted.
    Returns the new θ, its p and gradient, and t.
    """
    points = score.sum(axis=1)
    slope = float(grad @ step)
    start: float | None = None
    t = 1.0
    while t >= _SMALLEST_FRACTION:
        candidate = theta + t * step
        p = _probabilities(candidate)
        new_grad = points - (games * p).sum(axis=1)
        if np.isfinite(new_grad).all():
            if float(new_grad @ step) >= 0.0:
                return candidate, p, new_grad, t
            if start is None:
                start = _log_likelihood(score, theta)
            rise = _log_likelihood(score, candidate) - start
            if rise >= _ARMIJO * t * slope - 1e-12 * abs(start):
                return candidate, p, new_grad, t
        t *= 0.5
    raise RatingsError(
        "Bradley–Terry fit: no step along the ascent direction raised the likelihood"
    )


def _solve_component(
    score: FloatArray, games: FloatArray, theta: FloatArray
) -> tuple[FloatArray, int, float]:
    """Damped Newton ascent of the concave log-likelihood of one connected component.

    Newton from a poor start can overshoot by thousands of nats (a player with only a fraction
    of a virtual draw has almost no curvature), so every step goes through ``_line_search``;
    a start that gives non-finite values is replaced by θ = 0. Converged when a full Newton
    step is below ``_TOLERANCE``; ``RatingsError`` if the values are not finite even at θ = 0
    or after ``_MAX_ITERATIONS``.
    """
    m = score.shape[0]
    if m == 1:
        return np.zeros(1), 0, 0.0
    points = score.sum(axis=1)
    curvature = 0.5 * float(games.sum(axis=1).max())
    theta = theta - theta.mean()
    p = _probabilities(theta)
    grad = points - (games * p).sum(axis=1)
    if not (np.isfinite(theta).all() and np.isfinite(grad).all()):
        theta = np.zeros(m)
        p = _probabilities(theta)
        grad = points - (games * p).sum(axis=1)
    if not (np.isfinite(grad).all() and math.isfinite(curvature) and curvature > 0.0):
        raise RatingsError("Bradley–Terry fit: the results give non-finite values")
    for iteration in range(1, _MAX_ITERATIONS + 1):
        step, newton = _ascent_step(games, p, grad, curvature)
        theta, p, grad, t = _line_search(score, games, theta, grad, step)
        if newton and t == 1.0 and float(np.abs(step).max()) < _TOLERANCE:
            return theta, iteration, _log_likelihood(score, theta)
    raise RatingsError(f"Bradley–Terry fit did not converge in {_MAX_ITERATIONS} iterations")


def _initial_theta(score: FloatArray, games: FloatArray) -> FloatArray:
    total = games.sum(axis=1)
    frac = np.divide(score.sum(axis=1), total, out=np.full(total.shape, 0.5), where=total > 0)
    frac = np.clip(frac, 1e-6, 1.0 - 1e-6)
    theta: FloatArray = np.log(frac / (1.0 - frac))
    return theta


def _solve(
    score: FloatArray,
    games: FloatArray,
    components: tuple[IntArray, ...],
    start: FloatArray,
) -> tuple[FloatArray, int, float]:
    theta = np.zeros(score.shape[0])
    iterations = 0
    loglik = 0.0
    for comp in components:
        block = np.ix_(comp, comp)
        t, it, ll = _solve_component(score[block], games[block], start[comp])
        theta[comp] = t
        iterations = max(iterations, it)
        loglik += ll
    return theta, iterations, loglik


def _gauge(
    theta: FloatArray, components: tuple[IntArray, ...], anchor: int | None, anchor_elo: float
) -> FloatArray:
    elo = theta * ELO_PER_NAT
    for comp in components:
        if anchor is not None and anchor in comp:
            elo[comp] += anchor_elo - elo[anchor]
        else:
            elo[comp] += anchor_elo - elo[comp].mean()
    return elo


def fit_bradley_terry(
    tally: Tally,
    *,
    prior: float = DEFAULT_PRIOR,
    anchor: str | None = None,
    anchor_elo: float = 1500.0,
) -> BradleyTerryFit:
    """Maximum-likelihood ratings of every player, with ``prior`` virtual draws each (see top).

    Gauge: the mean rating of each component is ``anchor_elo``, or, with ``anchor``, that
    player's rating is exactly ``anchor_elo``.
    """
    if anchor is not None and anchor not in tally.names:
        raise ValueError(f"anchor {anchor!r} is not among the players")
    virtual = _virtual_games(tally.games, prior)
    score, games = tally.score + 0.5 * virtual, tally.games + virtual
    components = connected_components(games)
    if prior == 0:
        for comp in components:
            if comp.size > 1 and not (
                _reaches_all(score[np.ix_(comp, comp)])
                and _reaches_all(score[np.ix_(comp, comp)].T)
            ):
                names = sorted(tally.names[i] for i in comp)
                raise ValueError(
                    "no finite maximum-likelihood ratings: some players among "
                    f"{names[:10]} won (or lost) every game against the rest; use prior > 0"
                )
    theta, iterations, loglik = _solve(score, games, components, _initial_theta(score, games))
    p = _probabilities(theta)
    anchor_index = None if anchor is None else tally.names.index(anchor)
    return BradleyTerryFit(
        names=tally.names,
        elo=_gauge(theta, components, anchor_index, anchor_elo),
        theta=theta,
        fisher=_fisher(games, p),
        components=components,
        anchor=anchor,
        anchor_elo=anchor_elo,
        prior=prior,
        iterations=iterations,
        log_likelihood=loglik,
    )


def _gauged_inverse(fit: BradleyTerryFit) -> FloatArray:
    """Covariance of θ (nats²) in the fit's gauge, zero across components; see module doc."""
    n = len(fit.names)
    anchor = fit.anchor_index
    inverse = np.zeros((n, n))
    for comp in fit.components:
        m = comp.size
        if m == 1:
            continue
        f = fit.fisher[np.ix_(comp, comp)]
        if anchor is not None and anchor in comp:
            keep = comp[comp != anchor]
            inverse[np.ix_(keep, keep)] = _inverse(fit.fisher[np.ix_(keep, keep)])
        else:
            scale = float(np.trace(f)) / m
            if not scale > 0.0:  # NaN too
                raise RatingsError("the information matrix of the ratings is zero or not finite")
            inv = _inverse(f + np.full((m, m), scale / m)) - 1.0 / (scale * m)
            inverse[np.ix_(comp, comp)] = inv
    result: FloatArray = 0.5 * (inverse + inverse.T)
    return result


def _inverse(matrix: FloatArray) -> FloatArray:
    """``np.linalg.inv`` that reports a singular or non-finite result as ``RatingsError``."""
    try:
        with np.errstate(all="ignore"):
            inverse = np.asarray(np.linalg.inv(matrix), dtype=np.float64)
    except np.linalg.LinAlgError:
        inverse = np.full_like(matrix, np.nan)
    if not np.isfinite(inverse).all():
        raise RatingsError(
            "the information matrix of the ratings is singular (ratings too far apart "
            "to tell how uncertain they are)"
        )
    return inverse


def _mask(cov: FloatArray, fit: BradleyTerryFit) -> FloatArray:
    """NaN across components; infinite variance for players who played nobody (not anchored)."""
    label = np.empty(len(fit.names), dtype=np.int64)
    for k, comp in enumerate(fit.components):
        label[comp] = k
    out = np.where(label[:, None] == label[None, :], cov, np.nan)
    for comp in fit.components:
        if comp.size == 1 and comp[0] != fit.anchor_index:
            out[comp[0], comp[0]] = np.inf
    return out


def hessian_covariance(fit: BradleyTerryFit) -> FloatArray:
    """Covariance of the gauged ratings (Elo²) from the inverse observed Fisher information."""
    return _mask(_gauged_inverse(fit) * ELO_PER_NAT**2, fit)


def _match_information(fit: BradleyTerryFit, tally: Tally) -> FloatArray:
    """J = Σ over matches of g gᵀ, g the match's score residuals (points − expected) per player."""
    n = len(fit.names)
    if tally.n_games == 0:
        return np.zeros((n, n))
    d = fit.theta[tally.first] - fit.theta[tally.second]
    residual = tally.points - 1.0 / (1.0 + np.exp(-d))
    keys = np.concatenate([tally.group * n + tally.first, tally.group * n + tally.second])
    values = np.concatenate([residual, -residual])
    if tally.n_groups * n <= _DENSE_SCORES:  # few blocks (a tournament): one matrix product
        scores = np.asarray(
            np.bincount(keys, weights=values, minlength=tally.n_groups * n), dtype=np.float64
        ).reshape(tally.n_groups, n)
        dense: FloatArray = scores.T @ scores
        return dense
    uniq, inverse = np.unique(keys, return_inverse=True)
    g = np.bincount(inverse.ravel(), weights=values, minlength=uniq.size)
    match, player = uniq // n, uniq % n
    # Entries are sorted by (match, player): pair each entry with the ones ``shift`` after it.
    flat = np.zeros(n * n)
    shift = 0
    while shift < uniq.size:
        same = match[shift:] == match[: uniq.size - shift]
        if not same.any():
            break
        a, b = player[: uniq.size - shift][same], player[shift:][same]
        v = g[: uniq.size - shift][same] * g[shift:][same]
        flat += np.bincount(a * n + b, weights=v, minlength=n * n)
        if shift:
            flat += np.bincount(b * n + a, weights=v, minlength=n * n)
        shift += 1
    information: FloatArray = flat.reshape(n, n)
    return information


def sandwich_unavailable(fit: BradleyTerryFit, tally: Tally) -> str | None:
    """Why the cluster-robust covariance cannot be computed for these data, or None.

    It estimates the spread of the results from one independent unit (a seed block, the
    ``group`` of the tally) to the next, which takes at least two of them: the residuals of a
    single block sum to zero at the fit, so one block says nothing about the spread.
    """
    if tally.n_groups < 2:
        return f"the intervals need at least 2 seed blocks, got {tally.n_groups}"
    return None


def sandwich_covariance(fit: BradleyTerryFit, tally: Tally) -> FloatArray:
    """Cluster-robust covariance (Elo²): H⁻¹ J H⁻¹ · G/(G − 1), clustered by the tally's groups.

    J sums the outer products of each group's score residuals, so it is valid whatever the
    dependence inside a group: the pairwise games of one multi-player ranking, the matches of
    one seed block (the same deal in every rotation and every group, which makes a bot's
    results in that block move together), in either direction. G/(G − 1) is the usual
    correction for residuals being smaller than the true errors (CR1). With few groups the
    estimate is itself uncertain: ``effective_blocks`` gives each player's degrees of freedom,
    and ``fit_ladder`` reads the ratios with Student's t.
    """
    reason = sandwich_unavailable(fit, tally)
    if reason is not None:
        raise ValueError(reason)
    inverse = _gauged_inverse(fit)
    information = _match_information(fit, tally)
    g = tally.n_groups
    cov = inverse @ information @ inverse * (g / (g - 1) * ELO_PER_NAT**2)
    return _mask(0.5 * (cov + cov.T), fit)


def effective_blocks(fit: BradleyTerryFit, tally: Tally) -> FloatArray:
    """How many independent groups each player's rating rests on, counted by information.

    w_g is the player's Fisher information from group g (its pairwise games there, each
    weighted p(1 − p)); the effective count is (Σ w_g)² / Σ w_g², which is the number of
    groups when they weigh the same and less when a few dominate (a bot that played in three
    of a pool's thousand matches rests on three). Zero for a player without games.
    """
    n = len(fit.names)
    if tally.n_games == 0:
        return np.zeros(n)
    d = fit.theta[tally.first] - fit.theta[tally.second]
    p = 1.0 / (1.0 + np.exp(-d))
    weight = p * (1.0 - p)
    keys = np.concatenate([tally.group * n + tally.first, tally.group * n + tally.second])
    uniq, inverse = np.unique(keys, return_inverse=True)
    per_group = np.bincount(inverse.ravel(), weights=np.concatenate([weight, weight]))
    player = uniq % n
    total = np.bincount(player, weights=per_group, minlength=n)
    squares = np.bincount(player, weights=per_group**2, minlength=n)
    count: FloatArray = np.divide(total**2, squares, out=np.zeros(n), where=squares > 0.0)
    return count


def blocks_played(tally: Tally) -> IntArray:
    """The number of distinct groups (seed blocks) each player has pairwise games in."""
    n = len(tally.names)
    keys = np.unique(
        np.concatenate([tally.group * n + tally.first, tally.group * n + tally.second])
    )
    played: IntArray = np.bincount(keys % n, minlength=n).astype(np.int64)
    return played


def bootstrap_elo(
    fit: BradleyTerryFit, tally: Tally, *, rounds: int = 200, seed: int = 0
) -> FloatArray:
    """Gauged ratings refitted on ``rounds`` resamples of whole matches: shape (rounds, n).

    Each round draws ``n_groups`` matches with replacement (numpy ``default_rng(seed)``), keeps
    the fit's virtual draws from the original data (so every resample has the same components
    and a finite fit) and starts Newton from the full-data fit. A resample can leave a player
    with nothing but its virtual draws (a fraction of a game, so almost no curvature); the
    full-data start is then far off and Newton's first steps overshoot by thousands of nats,
    which the line search of ``_solve_component`` halves back.
    """
    if rounds < 2:
        raise ValueError("bootstrap needs at least 2 rounds")
    if fit.prior <= 0:
        raise ValueError("the bootstrap needs prior > 0: a resample can win every game")
    rng = np.random.default_rng(seed)
    virtual = _virtual_games(tally.games, fit.prior)
    out = np.empty((rounds, len(fit.names)))
    for r in range(rounds):
        counts = np.bincount(
            rng.integers(0, tally.n_groups, tally.n_groups), minlength=tally.n_groups
        )
        score, games = tally.weighted(counts[tally.group].astype(np.float64))
        try:
            theta, _, _ = _solve(score + 0.5 * virtual, games + virtual, fit.components, fit.theta)
        except RatingsError as exc:
            raise RatingsError(f"bootstrap resample {r + 1} of {rounds}: {exc}") from None
        out[r] = _gauge(theta, fit.components, fit.anchor_index, fit.anchor_elo)
    return out


def bootstrap_covariance(fit: BradleyTerryFit, replicates: FloatArray) -> FloatArray:
    """Sample covariance (Elo²) of bootstrap replicates, masked like the other covariances."""
    cov = np.atleast_2d(np.cov(replicates, rowvar=False))
    return _mask(cov, fit)


def los_matrix(elo: FloatArray, cov: FloatArray, df: FloatArray | None = None) -> FloatArray:
    """Likelihood of superiority: LOS[i, j] = P(r_i > r_j) = F((r_i − r_j) / sd(r_i − r_j)).

    sd² = var_i + var_j − 2 cov_ij (gauge-free). F is the normal CDF, or with ``df`` (a
    symmetric matrix of degrees of freedom per pair) Student's t: a standard error estimated
    from few seed blocks is itself uncertain. LOS[j, i] = 1 − LOS[i, j] exactly; the diagonal,
    pairs from different components and pairs with df ≤ 0 are NaN.
    """
    n = elo.size
    los = np.full((n, n), np.nan)
    if n < 2:
        return los
    first, second = np.triu_indices(n, 1)
    pair_df = None if df is None else df[first, second]
    los[first, second] = los_pairs(elo, cov, first, second, pair_df)
    los[second, first] = 1.0 - los[first, second]
    return los


def los_pairs(
    elo: FloatArray,
    cov: FloatArray,
    first: IntArray,
    second: IntArray,
    df: FloatArray | None = None,
) -> FloatArray:
    """``los_matrix``'s entries [first[k], second[k]] only (a ladder's neighbours, say)."""
    var = np.diagonal(cov)
    diff = elo[first] - elo[second]
    with np.errstate(invalid="ignore", divide="ignore"):  # inf − inf for a player without games
        sd2 = var[first] + var[second] - 2.0 * cov[first, second]
        z = diff / np.sqrt(np.maximum(sd2, 0.0))
    z = np.where(np.isnan(sd2), np.nan, z)
    z = np.where((sd2 <= 0) & (diff == 0), 0.0, z)
    if df is None:
        erf = np.fromiter(map(math.erf, (z / math.sqrt(2.0)).tolist()), np.float64, z.size)
        result: FloatArray = 0.5 * (1.0 + erf)
        return result
    return t_cdf_array(z, df)
