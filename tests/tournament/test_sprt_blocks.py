"""SPRT scored by seed block: the generalised LLR, and its error rates on correlated blocks.

The games of one seed block share the dice and the deal, so their results are correlated. The
simulations here give every block its own win probability, drawn from Beta(s·c, (1 − s)·c) with
c = 1/ρ − 1, and then its k games from that probability (beta-binomial): each game is won with
probability s = expected_score(elo), and two games of one block correlate by exactly ρ.

Thousands of SPRT runs are simulated at once with numpy, through the same ``block_llr`` that
``Sprt`` evaluates (checked below), warm-started from the previous multipliers as ``Sprt`` is.
With 2,000 runs (``--slow``) a 5 % error rate is measured to ±0.5 % (one standard error), with
the default depth's 1,000 to ±0.7 %; the seeds are fixed, so a run's rates are reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from tests.conftest import Depth
from tournament.ratings import RatingsError, Sprt, block_llr, expected_score
from tournament.ratings.sprt import EPSILON, log_likelihood_deficit, regularised

ELO0, ELO1 = 0.0, 20.0
RUNS = (1000, 2000)  # SPRT runs per error rate: (fast, --slow)
LOW, HIGH = 0.035, 0.065  # 5 % ± 1.5 %
CHUNK = 32  # blocks simulated per step of the vectorised runs

Draw = Callable[[np.random.Generator, float, tuple[int, ...]], npt.NDArray[np.float64]]


# --- the statistic ----------------------------------------------------------------------------


def test_single_games_without_draws_give_the_binomial_llr() -> None:
    """With only wins and losses (and the pseudo-blocks at 0 and 1) a distribution with mean μ
    is fixed, P(win) = μ, so the LLR is the plain binomial one, ε included."""
    test = Sprt(ELO0, 10.0, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    test.update(60, 0, 40)
    s0, s1 = 0.5, expected_score(10.0)
    binomial = (60 + EPSILON) * math.log(s1 / s0) + (40 + EPSILON) * math.log((1 - s1) / (1 - s0))
    assert test.llr == pytest.approx(binomial, rel=1e-9)
    one_by_one = Sprt(ELO0, 10.0, alpha=0.05, beta=0.1)
    for x in [1.0, 0.0] * 40 + [1.0] * 20:
        one_by_one.add(x)
    assert one_by_one.llr == pytest.approx(test.llr, rel=1e-9)
    assert len(one_by_one.trajectory) == 100 and test.trajectory == [test.llr]
    assert (test.wins, test.draws, test.losses, test.games, test.blocks) == (60, 0, 40, 100, 100)


def test_the_llr_is_the_ratio_of_the_best_likelihoods_under_each_mean() -> None:
    """Block scores 0, ½ and 1: a distribution with mean μ is p(½) = h, p(1) = μ − h/2,
    p(0) = 1 − μ − h/2, one free parameter. Maximise the log-likelihood over h by brute force
    and compare with the Lagrange solution."""
    counts = {0.0: 31, 0.5: 52, 1.0: 47}
    values, c = regularised(list(counts), list(counts.values()))
    total = c.sum()
    best = float((c * np.log(c / total)).sum())

    def constrained_best(mu: float) -> float:
        h = np.linspace(0.0, 2 * min(mu, 1 - mu), 2_000_001)[1:-1]
        p = {0.0: 1 - mu - h / 2, 0.5: h, 1.0: mu - h / 2}
        loglik = sum(n * np.log(p[float(x)]) for x, n in zip(values, c, strict=True))
        return float(np.max(loglik))

    for mu in (0.5, 0.53, 0.6):
        deficit, _ = log_likelihood_deficit(values, c, mu)
        assert float(deficit) == pytest.approx(best - constrained_best(mu), abs=1e-7)
    llr, _ = block_llr(values, c, 0.5, 0.53)
    assert float(llr) == pytest.approx(constrained_best(0.53) - constrained_best(0.5), abs=1e-7)


def test_many_blocks_near_the_hypotheses_approach_the_normal_approximation() -> None:
    """4,000 blocks of two games with mean near s0 and s1: the generalised LLR is close to
    N·(s1 − s0)·(2·mean − s0 − s1)/(2·var) of the block scores (the first-order expansion)."""
    s0, s1 = expected_score(ELO0), expected_score(ELO1)
    counts = {0.0: 1000, 0.5: 1880, 1.0: 1120}  # mean 0.515
    x = np.array(list(counts))
    n = np.array(list(counts.values()), dtype=float)
    mean = (x * n).sum() / n.sum()
    var = ((x - mean) ** 2 * n).sum() / n.sum()
    normal = n.sum() * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    llr, _ = block_llr(*regularised(list(counts), list(counts.values())), s0, s1)
    assert float(llr) == pytest.approx(normal, rel=0.02)


def test_a_block_is_one_observation_of_the_mean_of_its_games() -> None:
    """A split block [1, 0] is the same evidence as one draw; blocks whose two games agree
    ([1, 1] or [0, 0]) are worth half as much as the same games taken as independent."""
    block = Sprt(ELO0, ELO1)
    block.add_block([1.0, 0.0])
    assert (block.blocks, block.games, block.wins, block.losses) == (1, 2, 1, 1)
    assert block.block_counts == {0.5: 1}
    draw = Sprt(ELO0, ELO1)
    draw.add(0.5)
    assert block.llr == pytest.approx(draw.llr, rel=1e-12)

    agreeing, games = Sprt(ELO0, ELO1), Sprt(ELO0, ELO1)
    for _ in range(200):
        agreeing.add_block([1.0, 1.0])
        agreeing.add_block([0.0, 0.0])
        games.update(2, 0, 2)
    assert agreeing.blocks == 400 and games.blocks == 800 and agreeing.games == games.games
    # Same score, same variance per observation, half the observations: half the LLR.
    assert agreeing.llr == pytest.approx(games.llr / 2, rel=1e-3)
    assert agreeing.llr < 0 and len(agreeing.trajectory) == 400


def test_a_lopsided_start_cannot_leap_a_bound() -> None:
    """Five blocks of four wins against elo1 = 50: all mass at score 1 (plus ε at 0) fixes the
    distribution again, so the LLR is (5 + ε)·log(s1/s0) + ε·log((1 − s1)/(1 − s0)) = 0.67,
    far inside the bounds (the normal approximation with its zero variance would be unbounded).
    """
    test = Sprt(ELO0, 50.0)
    for _ in range(5):
        test.add_block([1.0, 1.0, 1.0, 1.0])
    s0, s1 = 0.5, expected_score(50.0)
    expected = (5 + EPSILON) * math.log(s1 / s0) + EPSILON * math.log((1 - s1) / (1 - s0))
    assert test.llr == pytest.approx(expected, rel=1e-9)
    assert test.verdict is None and test.lower < test.llr < test.upper


def test_bad_arguments_are_rejected() -> None:
    test = Sprt(ELO0, ELO1)
    for bad in ([0.3], [], [1.0, math.nan]):
        with pytest.raises(ValueError):
            test.add_block(bad)
    with pytest.raises(ValueError):
        test.update(-1, 0, 0)
    for elo0, elo1, alpha, beta in [
        (0.0, math.nan, 0.05, 0.05),
        (10.0, 0.0, 0.05, 0.05),
        (0.0, 10.0, 0.6, 0.5),
        (0.0, 1e6, 0.05, 0.05),  # s1 = 1 to double precision: nothing to test against
    ]:
        with pytest.raises(ValueError):
            Sprt(elo0, elo1, alpha, beta)
    assert test.blocks == 0 and test.llr == 0.0 and test.trajectory == []


def test_a_non_finite_llr_is_a_ratings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import tournament.ratings.sprt as sprt

    def broken(*args: object, **kwargs: object) -> tuple[np.ndarray, np.ndarray]:
        return np.array(math.nan), np.array(0.0)

    monkeypatch.setattr(sprt, "log_likelihood_deficit", broken)
    with pytest.raises(RatingsError, match="not finite"):
        Sprt(ELO0, ELO1).add_block([1.0, 0.0])


def test_the_class_and_the_vectorised_llr_agree() -> None:
    """The simulations below use ``block_llr`` on count arrays; ``Sprt`` must compute the same."""
    rng = np.random.default_rng(40)
    test = Sprt(ELO0, ELO1)
    for _ in range(300):
        test.add_block(rng.choice([0.0, 0.5, 1.0], int(rng.integers(1, 5))).tolist())
    counts = test.block_counts
    llr, _ = block_llr(*regularised(list(counts), list(counts.values())), test.s0, test.s1)
    assert test.llr == pytest.approx(float(llr), rel=1e-9, abs=1e-9)
    assert sum(counts.values()) == 300


# --- error rates on simulated blocks ---------------------------------------------------------


def correlated_blocks(rho: float) -> Draw:
    """Games of blocks whose results correlate by ``rho`` (beta-binomial, see module doc)."""
    c = 1.0 / rho - 1.0

    def draw(rng: np.random.Generator, s: float, shape: tuple[int, ...]) -> np.ndarray:
        p = rng.beta(s * c, (1.0 - s) * c, shape[:-1])
        return (rng.random(shape) < p[..., None]).astype(np.float64)

    return draw


def games_with_draws(draw_rate: float) -> Draw:
    """Independent games drawn with probability ``draw_rate``, expected score s."""

    def draw(rng: np.random.Generator, s: float, shape: tuple[int, ...]) -> np.ndarray:
        u = rng.random(shape)
        win = s - draw_rate / 2
        return np.where(u < win, 1.0, np.where(u < win + draw_rate, 0.5, 0.0))

    return draw


def verdicts(
    draw: Draw, k: int, elo: float, unit: str, seed: int, runs: int, steps: int = 1
) -> np.ndarray:
    """``runs`` SPRTs (elo0 = 0, elo1 = 20, alpha = beta = 5 %) of a candidate ``elo`` better.

    ``unit="block"`` records each block as one observation of its mean (``Sprt.add_block``);
    ``unit="game"`` records each game as its own observation, as the old scoring did. Either
    way the bounds are checked after each block. ``steps`` per game: 1 for win or loss, 2 with
    draws (scores come in halves). Returns +1 for H1, −1 for H0 per run.
    """
    test = Sprt(ELO0, ELO1)
    rng = np.random.default_rng(seed)
    levels = steps * (k if unit == "block" else 1)
    values, base = regularised(np.linspace(0.0, 1.0, levels + 1).tolist(), [0.0] * (levels + 1))
    counts = np.tile(base, (runs, 1))
    start: tuple[np.ndarray, np.ndarray] | None = None
    ids = np.arange(runs)
    out = np.zeros(runs, dtype=np.int8)
    while ids.size:
        games = draw(rng, expected_score(elo), (ids.size, CHUNK, k))
        points = np.rint(steps * games).astype(int)  # of each game, in 1/steps
        if unit == "block":
            step = points.sum(axis=-1)[..., None] == np.arange(levels + 1)
        else:
            step = np.stack([(points == h).sum(axis=-1) for h in range(levels + 1)], axis=-1)
        path = counts[:, None, :] + np.cumsum(step, axis=1)
        warm = None if start is None else (start[0][:, None], start[1][:, None])
        llr, (lam0, lam1) = block_llr(values, path, test.s0, test.s1, warm)
        up, down = llr >= test.upper, llr <= test.lower
        crossed = up | down
        first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), CHUNK)
        done = np.flatnonzero(first < CHUNK)
        out[ids[done]] = np.where(up[done, first[done]], 1, -1)
        keep = first == CHUNK
        ids, counts = ids[keep], path[keep, -1]
        start = (lam0[keep, -1], lam1[keep, -1])
    return out


def error_rates(
    draw: Draw, k: int, unit: str, seed: int, depth: Depth, steps: int = 1
) -> tuple[float, float]:
    """(P(accept H1 | elo = elo0), P(accept H0 | elo = elo1)) over ``RUNS`` runs each."""
    runs = depth(*RUNS)
    type_one = float(np.mean(verdicts(draw, k, ELO0, unit, seed, runs, steps) == 1))
    type_two = float(np.mean(verdicts(draw, k, ELO1, unit, seed + 1, runs, steps) == -1))
    return type_one, type_two


@pytest.mark.parametrize(("k", "seed"), [(2, 50), (4, 60)])
def test_block_scoring_keeps_both_error_rates_at_5_percent_with_correlated_games(
    k: int, seed: int, depth: Depth
) -> None:
    """k games per block, within-block correlation 0.3: both error rates within 5 % ± 1.5 %."""
    type_one, type_two = error_rates(correlated_blocks(0.3), k, "block", seed, depth)
    assert LOW <= type_one <= HIGH, type_one
    assert LOW <= type_two <= HIGH, type_two


@pytest.mark.parametrize(("k", "seed"), [(2, 70), (4, 80)])
def test_scoring_the_same_correlated_games_one_by_one_breaks_the_error_rates(
    k: int, seed: int, depth: Depth
) -> None:
    """The old unit: each game an observation. It takes the correlated games for independent
    evidence and errs far more often than 5 % (~9 % for k = 2, ~17 % for k = 4)."""
    type_one, type_two = error_rates(correlated_blocks(0.3), k, "game", seed, depth)
    assert type_one > HIGH and type_two > HIGH, (type_one, type_two)


def test_independent_single_games_with_draws_keep_both_error_rates_at_5_percent(
    depth: Depth,
) -> None:
    """The existing callers' case: blocks of one game, 30 % draws."""
    type_one, type_two = error_rates(games_with_draws(0.3), 1, "block", 90, depth, steps=2)
    assert LOW <= type_one <= HIGH, type_one
    assert LOW <= type_two <= HIGH, type_two


def test_the_simulated_blocks_have_the_intended_score_and_correlation() -> None:
    """The beta-binomial draw: mean score s and correlation 0.3 between two games of a block."""
    rng = np.random.default_rng(100)
    s = expected_score(ELO1)
    games = correlated_blocks(0.3)(rng, s, (200_000, 2))
    assert games.mean() == pytest.approx(s, abs=0.003)
    assert np.corrcoef(games[:, 0], games[:, 1])[0, 1] == pytest.approx(0.3, abs=0.01)
    mixed = games_with_draws(0.3)(rng, s, (200_000, 1))
    assert mixed.mean() == pytest.approx(s, abs=0.003)
    assert np.mean(mixed == 0.5) == pytest.approx(0.3, abs=0.003)
