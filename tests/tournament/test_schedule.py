"""Schedules: every group, every rotation, seed blocks shared by all groups, reproducible."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournament.config import TournamentConfig
from tournament.schedule import (
    block_seed,
    blocks_for,
    gauntlet,
    rotations,
    round_robin,
    swiss_round,
)


def test_round_robin_plays_every_group_in_every_rotation_of_every_seed_block() -> None:
    bots = ["a", "b", "c", "d", "e"]
    matches = round_robin(bots, players=3, games_per_group=7, base_seed=9)
    blocks = blocks_for(7, 3)
    assert blocks == 3
    assert len(matches) == 10 * 3 * blocks  # C(5,3) groups x 3 rotations x 3 blocks
    assert [m.idx for m in matches] == list(range(len(matches)))
    for group in combinations(bots, 3):
        for block in range(blocks):
            seatings = [m.seats for m in matches if m.round == block and set(m.seats) == set(group)]
            assert sorted(seatings) == sorted(rotations(group))
            # Every bot sits in every seat once within the block.
            for seat in range(3):
                assert sorted(s[seat] for s in seatings) == sorted(group)
    # One seed per block, the same for every group.
    for block in range(blocks):
        assert {m.seed for m in matches if m.round == block} == {block_seed(9, block)}


def test_schedules_repeat_from_the_base_seed_and_differ_between_seeds() -> None:
    assert round_robin(["x", "y", "z"], 2, 4, 5) == round_robin(["x", "y", "z"], 2, 4, 5)
    assert {m.seed for m in round_robin(["x", "y"], 2, 4, 5)} != {
        m.seed for m in round_robin(["x", "y"], 2, 4, 6)
    }


def test_gauntlet_puts_the_candidate_in_every_match() -> None:
    matches = gauntlet("new", ["a", "b", "c"], players=2, games_per_group=2, base_seed=1)
    assert len(matches) == 3 * 2
    assert all("new" in m.seats for m in matches)
    assert Counter(m.seats.index("new") for m in matches) == Counter({0: 3, 1: 3})


def test_swiss_pairs_by_points_and_avoids_repeat_pairings() -> None:
    bots = [f"b{i}" for i in range(6)]
    points = {"b0": 3, "b1": 3, "b2": 2, "b3": 1, "b4": 0, "b5": 0}
    first = swiss_round(bots, 2, 0, points, set(), base_seed=3, first_idx=0)
    groups = {frozenset(m.seats) for m in first}
    assert frozenset({"b0", "b1"}) in groups  # the leaders meet
    assert len(groups) == 3 and len(first) == 6  # three pairs, both seatings each
    second = swiss_round(bots, 2, 1, points, groups, base_seed=3, first_idx=len(first))
    assert not {frozenset(m.seats) for m in second} & groups  # no repeats while avoidable
    assert second[0].idx == len(first)


def test_swiss_beyond_its_pairings_plays_the_groups_that_met_least() -> None:
    """Four bots have three pairings; from the fourth round on every grouping repeats one.
    Then the pairs that met least often play (by points among those), so the field never
    splits into a top and a bottom that stop meeting."""
    bots = ["a", "b", "c", "d"]
    points = {"a": 6.0, "b": 5.0, "c": 1.0, "d": 0.0}
    met = {
        frozenset(pair): count
        for pair, count in ((("a", "b"), 4), (("c", "d"), 4), (("a", "c"), 2), (("b", "d"), 2))
    } | {frozenset(("a", "d")): 2, frozenset(("b", "c")): 2}
    round_ = swiss_round(bots, 2, 5, points, met, base_seed=3, first_idx=0)
    groups = {frozenset(m.seats) for m in round_}
    assert groups == {frozenset(("a", "c")), frozenset(("b", "d"))}  # not a-b, c-d again
    once = swiss_round(bots, 2, 5, points, set(met), base_seed=3, first_idx=0)
    assert {frozenset(m.seats) for m in once} == {frozenset(("a", "b")), frozenset(("c", "d"))}


def test_swiss_gives_a_bye_when_the_count_does_not_divide() -> None:
    matches = swiss_round(["a", "b", "c"], 2, 0, {}, set(), base_seed=1, first_idx=0)
    assert len({frozenset(m.seats) for m in matches}) == 1


def test_fresh_deals_give_every_match_its_own_seed_and_duplicate_deals_share_a_block() -> None:
    bots = ["a", "b", "c"]
    fresh = round_robin(bots, players=2, games_per_group=4, base_seed=5, deals="fresh")
    duplicate = round_robin(bots, players=2, games_per_group=4, base_seed=5)
    assert [m.seats for m in fresh] == [m.seats for m in duplicate]
    assert len({m.seed for m in fresh}) == len(fresh) == 12
    assert len({m.seed for m in duplicate}) == 2  # one per block, shared by groups and seatings
    assert fresh == round_robin(bots, players=2, games_per_group=4, base_seed=5, deals="fresh")
    swiss = swiss_round(bots, 2, 0, {}, set(), base_seed=1, first_idx=0, deals="fresh")
    assert len({m.seed for m in swiss}) == len(swiss)


@pytest.mark.parametrize(
    ("players", "games", "blocks"), [(1, 4, 4), (2, 4, 2), (3, 6, 2), (4, 8, 2)]
)
def test_the_default_games_give_two_seed_blocks(players: int, games: int, blocks: int) -> None:
    """Intervals and LOS come from how results vary between seed blocks, which one block cannot
    show: the default plays two (a 4-player default of 4 games was one block). Solo: 4 seeds."""
    config = TournamentConfig(players=players)
    assert config.games_per_group is None and config.games == games
    assert blocks_for(config.games, players) == blocks
    assert TournamentConfig(players=players, games_per_group=3).games == 3  # as given
