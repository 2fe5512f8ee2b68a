"""The pieces of block-clustered intervals: Student's t, effective blocks, perfect records."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tournament.ladder_service.ratings import PoolRatings
from tournament.ratings import Match, Tally, fit_bradley_terry, fit_ladder
from tournament.ratings.bradley_terry import blocks_played, effective_blocks
from tournament.ratings.student_t import t_cdf, t_cdf_array, t_quantile

# --- Student's t against closed forms and printed tables ------------------------------------


@pytest.mark.parametrize("t", [-30.0, -2.5, -0.3, 0.0, 0.7, 1.0, 4.2, 63.7])
def test_t_cdf_matches_the_closed_forms_for_one_and_two_degrees(t: float) -> None:
    assert t_cdf(t, 1.0) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
    assert t_cdf(t, 2.0) == pytest.approx(0.5 + t / (2.0 * math.sqrt(2.0 + t * t)), abs=1e-12)


@pytest.mark.parametrize(
    ("df", "quantile"),  # two-sided 95% points of Student's t, as printed in every table
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (9, 2.2622), (29, 2.0452), (120, 1.9799)],
)
def test_t_quantiles_match_the_printed_tables(df: int, quantile: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(quantile, abs=5e-5)
    assert t_cdf(quantile, df) == pytest.approx(0.975, abs=2e-6)
    assert t_quantile(0.025, df) == pytest.approx(-quantile, abs=5e-5)


def test_t_tends_to_the_normal_curve_and_rejects_nonsense() -> None:
    assert t_quantile(0.975, 50_000) == pytest.approx(1.959964, abs=1e-5)
    assert t_cdf(1.959964, 1e9) == pytest.approx(0.975, abs=1e-6)
    assert math.isnan(t_cdf(1.0, 0.0)) and math.isnan(t_quantile(1.0, 3.0))
    assert t_cdf(math.inf, 3.0) == 1.0 and t_cdf(-math.inf, 3.0) == 0.0


def test_the_array_form_agrees_with_the_scalar_one() -> None:
    rng = np.random.default_rng(7)
    t = rng.normal(0.0, 4.0, 400)
    df = rng.choice([0.5, 1.0, 2.37, 9.0, 300.0, 20_000.0], 400)
    expected = [t_cdf(v, math.floor(f * 100) / 100) for v, f in zip(t, df, strict=True)]
    assert np.allclose(t_cdf_array(t, df), expected, atol=1e-10)
    assert np.isnan(t_cdf_array(np.array([1.0, np.nan]), np.array([0.0, 3.0]))).all()


# --- effective blocks -------------------------------------------------------------------------


def test_equal_blocks_count_as_blocks_and_a_newcomer_rests_on_its_own_matches() -> None:
    matches = [Match(["a", "b"] if i % 2 else ["b", "a"], match_id=i // 2) for i in range(20)]
    matches += [Match(["c", "a"], match_id=100), Match(["b", "c"], match_id=101)]
    matches += [Match(["a", "c"], match_id=102)]
    tally = Tally.from_matches(matches)
    fit = fit_bradley_terry(tally)
    count = dict(zip(tally.names, effective_blocks(fit, tally), strict=True))
    assert count["c"] == pytest.approx(3.0, rel=0.05)  # three one-match blocks
    assert 10.0 < count["a"] < 13.0  # ten equal blocks and two small ones
    assert dict(zip(tally.names, blocks_played(tally), strict=True)) == {"a": 12, "b": 11, "c": 3}


def test_a_ladder_newcomer_has_no_interval_after_one_match_and_a_wide_one_after_three() -> None:
    pool = PoolRatings(players=2)
    for i in range(200):
        pool.add(["old1", "old2"] if i % 3 else ["old2", "old1"], f"m{i}")
    pool.add(["new", "old1"], "n1")
    first = {r.bot_id: r for r in pool.ratings()}
    assert math.isinf(first["new"].low) and math.isinf(first["new"].high)
    assert math.isfinite(first["old1"].low) and math.isfinite(first["old1"].high)
    pool.add(["old2", "new"], "n2")
    pool.add(["new", "old2"], "n3")
    third = {r.bot_id: r for r in pool.ratings()}["new"]
    assert math.isfinite(third.low) and third.high - third.low > 1000  # t with 2 degrees


# --- perfect records and lucky agreement ------------------------------------------------------


def test_a_perfect_record_is_capped_by_a_sign_test_over_its_blocks() -> None:
    """Greedy took all 20 games of 10 blocks: the fit alone would claim more than 99.999%,
    a sign test over 10 blocks shows 1 − 2^−10 ≈ 99.90% at most."""
    matches = [Match(["g", "r"], match_id=i // 2) for i in range(20)]
    ladder = fit_ladder(matches, ci="sandwich")
    assert ladder.los_of("g", "r") == pytest.approx(1.0 - 2.0**-10)
    assert ladder.entry("g").perfect == "won" and ladder.entry("r").perfect == "lost"
    assert any("g won every game it played" in note and "99.90%" in note for note in ladder.notes)


#: The winners of a real round-robin (four copies of random, two-player Rumble Nation, 4 seed
#: blocks; base seed 99), block by block, in schedule order: every pair in both seatings.
WINNERS = (
    "r r2 r r3 r4 r r3 r2 r2 r2 r4 r3",
    "r2 r2 r3 r r r r3 r2 r2 r4 r3 r3",
    "r r2 r r3 r4 r4 r3 r2 r2 r4 r3 r3",
    "r r2 r3 r3 r4 r4 r3 r2 r4 r4 r4 r4",
)


def test_discrete_results_that_happen_to_agree_do_not_make_a_difference_look_exact() -> None:
    """In this tournament the cluster-robust variance of r − r2 comes out near zero by the
    luck of discrete results (alone it would call these two identical bots different at
    LOS 99.996%); mixing in a tenth of the model-based covariance keeps it modest."""
    pairs = [("r", "r2"), ("r", "r3"), ("r", "r4"), ("r2", "r3"), ("r2", "r4"), ("r3", "r4")]
    matches = []
    for block, line in enumerate(WINNERS):
        winners = iter(line.split())
        for a, b in pairs:
            for _seating in range(2):
                winner = next(winners)
                matches.append(Match([winner, b if winner == a else a], match_id=block))
    ladder = fit_ladder(matches, ci="sandwich")
    los = ladder.los_of("r", "r2")
    assert 0.9 < max(los, 1.0 - los) < 0.99
