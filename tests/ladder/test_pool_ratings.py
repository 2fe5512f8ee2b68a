"""Ladder pool ratings: a joint fit over all results, coalitions sharing first, solo scores."""

from __future__ import annotations

import math
import random

import pytest

from tournament.ladder_service.ratings import PROVISIONAL_MATCHES, PoolRatings


def test_a_stronger_bot_rates_higher_with_an_interval_that_excludes_the_weaker() -> None:
    rng = random.Random(1)
    pool = PoolRatings(players=2)
    for i in range(200):
        strong_wins = rng.random() < 0.8
        pool.add(["strong", "weak"] if strong_wins else ["weak", "strong"], f"m{i}")
    strong, weak = pool.ratings()
    assert strong.bot_id == "strong" and strong.rating > weak.rating
    assert strong.low > weak.high  # 80% wins over 200 games: clearly apart
    assert not strong.provisional and strong.matches == 200


def test_the_fit_does_not_depend_on_the_order_of_results() -> None:
    results = [["a", "b", "c"], ["b", "c", "a"], ["a", "c", "b"], ["c", "a", "b"]] * 5
    forward, backward = PoolRatings(players=3), PoolRatings(players=3)
    for i, ranking in enumerate(results):
        forward.add(ranking, f"m{i}")
    for i, ranking in reversed(list(enumerate(results))):
        backward.add(ranking, f"m{i}")
    assert [(r.bot_id, round(r.rating, 6)) for r in forward.ratings()] == [
        (r.bot_id, round(r.rating, 6)) for r in backward.ratings()
    ]


def test_coalition_winners_share_first_place() -> None:
    pool = PoolRatings(players=4)
    for i in range(30):
        pool.add([("vagabond", "alliance"), "marquise", "eyrie"], f"m{i}")
    rows = {r.bot_id: r for r in pool.ratings()}
    assert rows["vagabond"].rating == pytest.approx(rows["alliance"].rating)
    assert rows["vagabond"].rating > rows["marquise"].rating > rows["eyrie"].rating


def test_new_bots_are_provisional_and_unrated_bots_listed_last() -> None:
    pool = PoolRatings(players=2)
    pool.add_bot("newcomer")
    for i in range(PROVISIONAL_MATCHES - 1):
        pool.add(["a", "b"] if i % 2 else ["b", "a"], f"m{i}")
    rows = pool.ratings()
    assert all(r.provisional for r in rows)
    newcomer = next(r for r in rows if r.bot_id == "newcomer")
    assert newcomer.matches == 0 and math.isinf(newcomer.high)


def test_solo_pools_rank_by_mean_score_with_a_t_interval() -> None:
    pool = PoolRatings(players=1)
    for score in (40, 42, 44):
        pool.add_score("good", score)
    for score in (20, 21, 25):
        pool.add_score("poor", score)
    good, poor = pool.ratings()
    assert (good.bot_id, good.rating) == ("good", 42.0)
    assert good.low < 42.0 < good.high and good.low > poor.high
    with pytest.raises(ValueError, match="add_score"):
        pool.add(["good"], "x")
