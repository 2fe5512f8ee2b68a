"""Ratings: Bradley–Terry ladder, its intervals, incremental Elo and SPRT.

Synthetic leagues are simulated from the model itself: a k-player ranking is drawn from the
Plackett–Luce model (each player finishes at an exponential time with rate γ = 10^(r/400); the
ranking is the order of finishing). Its pairwise marginals are exactly the logistic Elo model,
P(i above j) = γi/(γi + γj) = 1/(1 + 10^((rj − ri)/400)), so the Bradley–Terry fit of the
decomposed pairwise games is consistent; but the C(k, 2) pairwise games of one ranking are not
independent, which is what separates the Hessian intervals from the sandwich and bootstrap ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
import pytest

from tournament.ratings import (
    ELO_PER_NAT,
    EloTracker,
    Ladder,
    Match,
    Placing,
    Sprt,
    Tally,
    expected_score,
    fit_ladder,
    pairwise_outcomes,
)

Z95 = NormalDist().inv_cdf(0.975)  # 1.95996...
NAMES = [f"p{i:02d}" for i in range(12)]
TRUE = np.linspace(-300.0, 300.0, 12)  # 12 players over 600 Elo; mean 0


def simulate(
    rng: np.random.Generator, n_matches: int, sizes: tuple[int, ...], true: np.ndarray = TRUE
) -> list[list[str]]:
    """Plackett–Luce rankings of random tables of ``sizes`` players (see module docstring)."""
    gamma = 10.0 ** (true / 400.0)
    ks = rng.choice(sizes, n_matches).tolist()
    seats = np.argsort(rng.random((n_matches, true.size)), axis=1)
    times = rng.exponential(1.0, (n_matches, true.size)) / gamma[seats]
    out = []
    for k, row, t in zip(ks, seats, times, strict=True):
        out.append([NAMES[p] for p in row[:k][np.argsort(t[:k])]])
    return out


def covered(ladder: Ladder, true: np.ndarray = TRUE) -> int:
    """How many intervals contain the true rating, centred like the fit (mean 1500)."""
    centred = true - true.mean() + 1500.0
    return sum(e.ci_low <= centred[NAMES.index(e.name)] <= e.ci_high for e in ladder.entries)


# --- pairwise decomposition and tally ----------------------------------------------------------


def test_pairwise_outcomes_of_a_ranking_and_of_a_tie() -> None:
    assert pairwise_outcomes(["a", "b", "c"]) == [
        ("a", "b", 1.0),
        ("a", "c", 1.0),
        ("b", "c", 1.0),
    ]
    assert pairwise_outcomes(["a", ("b", "c"), "d"]) == [
        ("a", "b", 1.0),
        ("a", "c", 1.0),
        ("a", "d", 1.0),
        ("b", "c", 0.5),
        ("b", "d", 1.0),
        ("c", "d", 1.0),
    ]
    with pytest.raises(ValueError):
        pairwise_outcomes(["a", "a"])
    with pytest.raises(ValueError):
        pairwise_outcomes(["a"])


def test_tally_matrices_groups_and_the_array_path_agree() -> None:
    matches: list[Sequence[Placing] | Match] = [
        ["a", "b", "c", "d"],
        Match(["b", "a"], match_id="m1"),
        Match(["a", "b"], match_id="m1"),  # same id: resampled together
        ["c", ("a", "d")],  # a and d tie below c
    ]
    tally = Tally.from_matches(matches, names=["d", "c"])
    assert tally.names == ("d", "c", "a", "b")
    i = tally.index
    assert tally.score[i["a"], i["b"]] == 2.0 and tally.score[i["b"], i["a"]] == 1.0
    assert tally.score[i["a"], i["d"]] == 1.5 and tally.score[i["d"], i["a"]] == 0.5
    np.testing.assert_array_equal(tally.score + tally.score.T, tally.games)
    np.testing.assert_array_equal(tally.games, tally.games.T)
    assert tally.games[i["a"], i["b"]] == 3.0 and tally.games[i["c"], i["d"]] == 2.0
    assert tally.n_games == 6 + 2 + 3 and tally.n_groups == 3
    # The same games as index arrays give the same matrices.
    again = Tally.from_pairwise(
        tally.names, tally.first, tally.second, tally.points, group=tally.group
    )
    np.testing.assert_array_equal(again.score, tally.score)
    np.testing.assert_array_equal(again.games, tally.games)
    assert again.n_groups == tally.n_groups
    # Weights count games several times (the bootstrap's resample).
    score, games = tally.weighted(np.full(tally.n_games, 2.0))
    np.testing.assert_array_equal(score, 2 * tally.score)
    np.testing.assert_array_equal(games, 2 * tally.games)


# --- Bradley–Terry against a hand computation ---------------------------------------------------


def test_two_players_match_the_closed_form_mle_and_hessian_interval() -> None:
    """A beats B 30 times of 40.

    Derivation. With d = θA − θB (nats) the log-likelihood is 30·log σ(d) + 10·log σ(−d);
    setting its derivative 30 − 40·σ(d) to zero gives σ(d) = 3/4, d = ln 3, i.e.
    400·log10(30/10) Elo. The observed information is n·p(1 − p) = 40·(3/4)(1/4) for d, so
    SE(d) = sqrt(1/(n p (1 − p))) nats = (400/ln 10)·sqrt(1/(n p (1 − p))) Elo. Under the mean
    gauge rA = 1500 + d/2 and rB = 1500 − d/2, so each player's SE is half of SE(d) and the
    95 % half-width is 1.96 · (400/ln 10) · sqrt(1/(n p (1 − p))) / 2.
    """
    matches = [["A", "B"]] * 30 + [["B", "A"]] * 10
    ladder = fit_ladder(matches, prior=0.0)
    a, b = ladder.entries
    assert (a.name, b.name) == ("A", "B")
    assert a.elo - b.elo == pytest.approx(400.0 * math.log10(30 / 10), abs=1e-6)
    assert a.elo + b.elo == pytest.approx(3000.0, abs=1e-9)
    n, p = 40, 0.75
    half = Z95 * ELO_PER_NAT * math.sqrt(1.0 / (n * p * (1.0 - p))) / 2.0
    for e in (a, b):
        assert e.ci_high - e.elo == pytest.approx(half, abs=1e-6)
        assert e.elo - e.ci_low == pytest.approx(half, abs=1e-6)
    assert (a.games, a.score, b.games, b.score) == (40, 0.75, 40, 0.25)
    # LOS from the difference: Φ(d / SE(d)) with SE(d) = 2·half/1.96.
    assert ladder.los_of("A", "B") == pytest.approx(
        NormalDist().cdf((a.elo - b.elo) / (2 * half / Z95)), abs=1e-12
    )

    # The default prior is exactly one virtual draw here (v = prior · 40 · (1/40 + 1/40) / 2):
    # the fit is that of 30.5 points of 41 games.
    default = fit_ladder(matches)
    d = default.entries[0].elo - default.entries[1].elo
    assert d == pytest.approx(400.0 * math.log10(30.5 / 10.5), abs=1e-6)
    n, p = 41, 30.5 / 41
    half = Z95 * ELO_PER_NAT * math.sqrt(1.0 / (n * p * (1.0 - p))) / 2.0
    assert default.entries[0].ci_high - default.entries[0].elo == pytest.approx(half, abs=1e-6)


# --- synthetic leagues ----------------------------------------------------------------------------


def test_a_large_league_recovers_the_true_order() -> None:
    rng = np.random.default_rng(7)
    ladder = fit_ladder(simulate(rng, 1500, (2, 4)), ci="sandwich")
    fitted = [NAMES.index(e.name) for e in ladder.entries]  # best first
    truth = list(range(11, -1, -1))
    assert fitted[0] == truth[0] and fitted[-1] == truth[-1]
    # Kendall's tau between fitted and true order.
    pos = {p: k for k, p in enumerate(fitted)}
    pairs = [(i, j) for i in range(12) for j in range(i + 1, 12)]
    concordant = sum(pos[truth[i]] < pos[truth[j]] for i, j in pairs)
    tau = (2 * concordant - len(pairs)) / len(pairs)
    assert tau >= 0.9
    # and the fitted ratings are close to the truth: within their own 99.9 % intervals
    centred = TRUE + 1500.0
    for e in ladder.entries:
        half = (e.ci_high - e.ci_low) / 2
        assert abs(e.elo - centred[NAMES.index(e.name)]) < half * 3.29 / Z95


def test_hessian_intervals_cover_95_percent_in_two_player_leagues() -> None:
    """200 leagues × 150 two-player games: pairwise games are independent, the Hessian is exact."""
    rng = np.random.default_rng(11)
    hits = sum(covered(fit_ladder(simulate(rng, 150, (2,)))) for _ in range(200))
    assert 0.925 <= hits / (200 * 12) <= 0.975


def test_sandwich_covers_95_percent_with_four_player_matches_where_the_hessian_does_not() -> None:
    """200 leagues × 150 matches, half 2-player, half 4-player.

    The six pairwise games of a 4-player ranking are positively dependent in each player's
    score, so the Hessian (which assumes independence) is too narrow and covers ~90 %; the
    cluster-robust sandwich covers 95 %.
    """
    rng = np.random.default_rng(12)
    hessian = sandwich = 0
    for _ in range(200):
        tally = Tally.from_matches(simulate(rng, 150, (2, 4)))
        hessian += covered(fit_ladder(tally, ci="hessian"))
        sandwich += covered(fit_ladder(tally, ci="sandwich"))
    assert 0.925 <= sandwich / 2400 <= 0.975
    assert hessian / 2400 < 0.925


def test_bootstrap_intervals_cover_about_95_percent() -> None:
    """30 leagues × 300 mixed matches, 100 resamples of whole matches each.

    The percentile bootstrap runs slightly narrow in leagues this small (~93 % measured over
    60 leagues), hence the looser band.
    """
    rng = np.random.default_rng(13)
    hits = 0
    for league in range(30):
        ladder = fit_ladder(
            simulate(rng, 300, (2, 4)), ci="bootstrap", bootstrap_rounds=100, seed=league
        )
        assert ladder.method == "bootstrap"
        hits += covered(ladder)
    assert 0.90 <= hits / 360 <= 0.985


def test_bootstrap_is_seeded() -> None:
    tally = Tally.from_matches(simulate(np.random.default_rng(3), 100, (2, 4)))
    one = fit_ladder(tally, ci="bootstrap", bootstrap_rounds=50, seed=5)
    two = fit_ladder(tally, ci="bootstrap", bootstrap_rounds=50, seed=5)
    three = fit_ladder(tally, ci="bootstrap", bootstrap_rounds=50, seed=6)
    assert one.entries == two.entries
    assert one.entries != three.entries
    assert [e.elo for e in one.entries] == [e.elo for e in three.entries]  # same point fit


# --- gauge, prior, LOS, components ----------------------------------------------------------------


def test_anchor_fixes_one_player_and_keeps_differences_and_los() -> None:
    tally = Tally.from_matches(simulate(np.random.default_rng(4), 400, (2, 4)))
    free = fit_ladder(tally)
    anchored = fit_ladder(tally, anchor="p03", anchor_elo=2000.0)
    assert anchored.anchor == "p03"
    a = anchored.entry("p03")
    assert a.elo == 2000.0 and a.ci_low == 2000.0 and a.ci_high == 2000.0
    shift = 2000.0 - free.entry("p03").elo
    i = free.names.index("p03")
    for e in free.entries:
        other = anchored.entry(e.name)
        assert other.elo == pytest.approx(e.elo + shift, abs=1e-9)
        # Relative to the anchor, var(r) = var(r − r_anchor) under the mean gauge.
        j = free.names.index(e.name)
        var = free.covariance[j, j] + free.covariance[i, i] - 2 * free.covariance[i, j]
        assert other.ci_high - other.elo == pytest.approx(Z95 * math.sqrt(var), abs=1e-6)
    np.testing.assert_allclose(
        anchored.los, free.los[np.ix_(*[[free.names.index(n) for n in anchored.names]] * 2)]
    )


def test_a_player_who_won_everything_gets_a_finite_top_rating_and_los_is_consistent() -> None:
    rng = np.random.default_rng(5)
    matches = [["ace", *ranking[:3]] for ranking in simulate(rng, 60, (4,))]
    ladder = fit_ladder(matches)
    top = ladder.entries[0]
    assert top.name == "ace" and top.score == 1.0
    assert math.isfinite(top.elo) and math.isfinite(top.ci_low) and math.isfinite(top.ci_high)
    assert top.elo > ladder.entries[1].elo
    los = ladder.los
    off = ~np.eye(len(ladder.names), dtype=bool)
    np.testing.assert_allclose((los + los.T)[off], 1.0, atol=1e-12)
    assert np.isnan(np.diagonal(los)).all()
    for i, a in enumerate(ladder.entries):
        for j, b in enumerate(ladder.entries):
            if a.elo > b.elo:
                assert los[i, j] > 0.5
    assert ladder.los_of("ace", ladder.names[1]) > 0.99
    assert ladder.los_dict()[("ace", ladder.names[-1])] == ladder.los[0, -1]
    # Without the prior there is no finite maximum-likelihood rating, and we say so.
    with pytest.raises(ValueError, match="prior"):
        fit_ladder(matches, prior=0.0)


def test_the_prior_is_about_one_virtual_draw_per_player_not_per_pair() -> None:
    """40 players, a single round robin: 39 games each, every pair met once.

    One virtual draw per player shrinks the spread of ratings by about 5 %; a virtual draw per
    pair (39 per player) would shrink it to about a third (0.36 measured).
    """
    rng = np.random.default_rng(6)
    true = np.linspace(-300.0, 300.0, 40)
    first, second = np.triu_indices(40, 1)
    p_first = 1.0 / (1.0 + 10.0 ** ((true[second] - true[first]) / 400.0))
    won = rng.random(first.size) < p_first
    names = [f"q{i:02d}" for i in range(40)]
    tally = Tally.from_pairwise(names, np.where(won, first, second), np.where(won, second, first))
    mle = np.array([e.elo for e in fit_ladder(tally, prior=0.0).entries])
    default = np.array([e.elo for e in fit_ladder(tally).entries])
    assert 0.9 < default.std() / mle.std() < 1.0


def test_disconnected_groups_are_gauged_apart_and_not_compared() -> None:
    matches = [["a", "b"], ["a", "b"], ["b", "a"], ["c", "d"], ["d", "c"], ["d", "c"]]
    ladder = fit_ladder(matches, names=["a", "b", "c", "d", "newcomer"])
    assert sorted(map(sorted, ladder.components)) == [["a", "b"], ["c", "d"], ["newcomer"]]
    assert ladder.entry("a").elo + ladder.entry("b").elo == pytest.approx(3000.0)
    assert ladder.entry("c").elo + ladder.entry("d").elo == pytest.approx(3000.0)
    assert ladder.los_of("a", "b") > 0.5 and ladder.los_of("d", "c") > 0.5
    assert math.isnan(ladder.los_of("a", "d"))
    new = ladder.entry("newcomer")
    assert (new.games, new.ci_low, new.ci_high) == (0, -math.inf, math.inf)
    assert math.isnan(new.score)


# --- incremental Elo ------------------------------------------------------------------------------


def test_elo_tracker_moves_the_winner_up_zero_sum_with_scaled_k() -> None:
    tracker = EloTracker(k=16.0)
    delta = tracker.update(["a", "b"])
    assert delta == {"a": 8.0, "b": -8.0}  # equal ratings: K · (1 − 1/2)
    # Four equal newcomers: the winner's average pairwise surprise is 1/2, so it gains K/2.
    delta = tracker.update(["w", "x", "y", "z"])
    assert delta["w"] == pytest.approx(8.0) and delta["z"] == pytest.approx(-8.0)
    assert delta["x"] == pytest.approx(8.0 / 3) and delta["y"] == pytest.approx(-8.0 / 3)
    delta = tracker.update(["b", "a", "w"])
    assert delta["b"] > 0 > delta["w"]
    assert sum(delta.values()) == pytest.approx(0.0, abs=1e-12)
    assert sum(tracker.ratings.values()) == pytest.approx(1500.0 * len(tracker.ratings))
    assert len(tracker.history) == 3
    assert tracker.history[0] == {"a": 1508.0, "b": 1492.0}  # a snapshot, not a live view
    assert tracker.history[-1] == tracker.ratings
    assert tracker.expected("b", "a") == pytest.approx(
        expected_score(tracker.ratings["b"] - tracker.ratings["a"])
    )


# --- SPRT -----------------------------------------------------------------------------------------


def play(test: Sprt, elo: float, rng: np.random.Generator, draw_rate: float = 0.3) -> None:
    """Feed games of a candidate ``elo`` stronger (draws at ``draw_rate``) until a verdict."""
    s = expected_score(elo)
    win, draw = s - draw_rate / 2, draw_rate
    while test.verdict is None:
        u = rng.random(512)
        for x in np.where(u < win, 1.0, np.where(u < win + draw, 0.5, 0.0)).tolist():
            if test.add(x) is not None:
                break


def test_sprt_accepts_h1_for_a_stronger_candidate_and_h0_for_an_equal_one() -> None:
    stronger = Sprt(0.0, 10.0)
    play(stronger, 30.0, np.random.default_rng(21))
    assert stronger.verdict == "H1" and stronger.trajectory[-1] >= stronger.upper
    assert all(stronger.lower < x < stronger.upper for x in stronger.trajectory[:-1])
    equal = Sprt(0.0, 10.0)
    play(equal, 0.0, np.random.default_rng(22))
    assert equal.verdict == "H0" and equal.trajectory[-1] <= equal.lower


# The LLR itself and the error rates (by seed block, and of single games with draws) are
# tested in test_sprt_blocks.py.
