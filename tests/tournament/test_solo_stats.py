"""The statistics of solo tournaments: t intervals, differences paired by seed, rank counts."""

from __future__ import annotations

import math
import statistics

import pytest

from games import GameConfig
from tournament.ratings.scores import mean_ci, paired_ci, t_cdf, t_quantile, welch_ci
from tournament.solo import SoloGame, counted_games, rank_index, rank_table, solo_summary
from tournament.storage import MatchRecord, SeatRecord

#: Student t 0.975 quantiles from printed tables.
T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 9: 2.2622, 10: 2.2281, 30: 2.0423}
TABLE = ((80, "legend"), (70, "master"), (60, "architect"), (50, "town?"), (40, "rainbows"))


@pytest.mark.parametrize(("df", "expected"), sorted(T975.items()))
def test_t_quantile_matches_the_printed_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=1e-4)
    assert t_cdf(t_quantile(0.9, df + 0.5), df + 0.5) == pytest.approx(0.9, abs=1e-9)


def test_t_quantile_approaches_the_normal_one() -> None:
    assert t_quantile(0.975, 1e6) == pytest.approx(1.95996, abs=1e-4)


def test_mean_interval_is_mean_plus_minus_t_times_standard_error() -> None:
    values = [3.0, 5.0, 7.0, 9.0]
    ci = mean_ci(values)
    half = T975[3] * statistics.stdev(values) / 2
    assert ci.n == 4 and ci.mean == 6.0 and ci.sd == pytest.approx(statistics.stdev(values))
    assert [ci.low, ci.high] == pytest.approx([6 - half, 6 + half], abs=1e-3)


def test_too_few_values_have_no_interval() -> None:
    assert math.isnan(mean_ci([]).mean)
    one = mean_ci([4.0])
    assert one.mean == 4.0 and math.isnan(one.low) and not one.excludes_zero


def seed_effects() -> tuple[dict[int, float], dict[int, float]]:
    """Ten seeds whose deals differ a lot (5 to 95); A scores about 3 more than B on each."""
    base = [10.0, 80.0, 35.0, 60.0, 20.0, 95.0, 45.0, 70.0, 5.0, 50.0]
    noise = [0.5, -0.5, 0.3, -0.2, 0.4, -0.4, 0.1, -0.3, 0.2, 0.0]
    a = {seed: b + 3.0 + e for seed, (b, e) in enumerate(zip(base, noise, strict=True))}
    return a, dict(enumerate(base))


def test_pairing_by_seed_removes_the_spread_between_deals() -> None:
    a, b = seed_effects()
    paired = paired_ci(a, b)
    unpaired = welch_ci(list(a.values()), list(b.values()))
    diffs = [a[s] - b[s] for s in a]
    half = T975[9] * statistics.stdev(diffs) / math.sqrt(10)
    assert paired.n == 10 and paired.mean == pytest.approx(statistics.mean(diffs))
    assert paired.low == pytest.approx(paired.mean - half, abs=1e-3)
    assert paired.excludes_zero and paired.low > 2.5
    # Unpaired, the same difference drowns in the seeds' spread (about 30 points).
    assert unpaired.mean == pytest.approx(paired.mean)
    assert not unpaired.excludes_zero
    assert unpaired.half_width > 50 * paired.half_width


def test_welch_interval_matches_a_hand_computation() -> None:
    first, second = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0, 10.0]
    va, vb = statistics.variance(first) / 4, statistics.variance(second) / 5
    df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 4)
    ci = welch_ci(first, second)
    half = t_quantile(0.975, df) * math.sqrt(va + vb)
    assert ci.mean == pytest.approx(2.5 - 6.0)
    assert [ci.low, ci.high] == pytest.approx([-3.5 - half, -3.5 + half])


def test_pairs_use_only_the_seeds_both_played() -> None:
    a, b = seed_effects()
    a[99] = 1000.0  # a seed only A played (B's game was voided) is no pair
    assert paired_ci(a, b).n == 10 and paired_ci(a, b).mean < 4


def test_rank_index_reads_the_table_best_first() -> None:
    assert [rank_index(s, TABLE) for s in (95, 80, 79.5, 60, 41, 40, 39, 0)] == [
        0,
        0,
        1,
        2,
        4,
        4,
        5,
        5,
    ]
    assert rank_index(100, ()) == 0  # no table: every game is "no rank"


def test_rank_table_hook_is_a_method_a_sequence_or_absent() -> None:
    class Method:
        def solo_ranks(self, config: GameConfig) -> tuple[tuple[int, str], ...]:
            return ((40, "low"), (80, "high")) if config.players == 1 else ()

    class Attribute:
        solo_ranks = ((50, "half"),)

    config = GameConfig(1, "standard")
    assert rank_table(Method(), config) == ((80, "high"), (40, "low"))
    assert rank_table(Attribute(), config) == ((50, "half"),)
    assert rank_table(object(), config) == ()


def record(idx: int, seed: int, bot: str, score: int, **kind: object) -> MatchRecord:
    forfeited = bool(kind.get("forfeited", False))
    voided = bool(kind.get("voided", False))
    seat = SeatRecord(0, bot, 0 if voided else 1, score, forfeited, "completed", "", 0)
    reason = "voided" if voided else "completed"
    return MatchRecord(idx, seed, seed * 7, (bot,), "done", reason, results=(seat,))


def test_forfeits_score_zero_and_voided_games_do_not_count() -> None:
    records = [
        record(0, 0, "a", 55),
        record(1, 0, "b", 45),
        record(2, 1, "a", 85, forfeited=True),  # the random fallback's score is not a's
        record(3, 1, "b", 61),
        record(4, 2, "a", 72),
        record(5, 2, "b", 99, voided=True),
        MatchRecord(6, 3, 21, ("a",), "pending"),
    ]
    games = counted_games(records)
    assert [(g.bot, g.score) for g in games] == [
        ("a", 55.0),
        ("b", 45.0),
        ("a", 0.0),
        ("b", 61.0),
        ("a", 72.0),
    ]
    summary = solo_summary(games, ["a", "b", "idle"], TABLE)
    a, b = summary.bot("a"), summary.bot("b")
    assert a.failures == 1 and a.stats.n == 3 and a.stats.mean == pytest.approx(127 / 3)
    assert b.stats.n == 2 and b.stats.mean == 53.0
    assert a.ranks == (0, 1, 0, 1, 0, 1) and b.ranks == (0, 0, 1, 0, 1, 0)
    for bot in summary.bots:
        assert sum(bot.ranks) == bot.stats.n
    assert [bot.name for bot in summary.bots] == ["b", "a", "idle"]  # no games: last
    (ab, *_rest) = summary.comparisons
    assert (ab.bot, ab.opponent, ab.paired.n) == ("b", "a", 2)  # seeds 0 and 1; seed 2 voided
    assert ab.paired.mean == pytest.approx(((45 - 55) + (61 - 0)) / 2)
    assert summary.comparisons[1].verdict == "too few seeds"  # against a bot without games


def test_identical_scores_give_a_zero_width_interval_that_does_not_exclude_zero() -> None:
    games = [SoloGame(bot, seed, seed, 0.0, False) for bot in "ab" for seed in range(4)]
    (comparison,) = solo_summary(games, ["a", "b"]).comparisons
    assert (comparison.paired.low, comparison.paired.high) == (0.0, 0.0)
    assert comparison.verdict == "not separated"
