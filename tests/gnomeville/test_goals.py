"""Adjacency goals (the seed's end-game scoring and its 2-player example; rulings G5, G16,
G17) and the metrics events and goals measure."""

from __future__ import annotations

from games.gnomeville import GnomevilleState
from games.gnomeville.goals import goal_points, score_goals
from games.gnomeville.metrics import metric
from games.gnomeville.rulings import ruling
from tests.gnomeville.helpers import (
    boulder,
    give_ability,
    new_state,
    put,
    put_gnome,
    town,
)
from tests.gnomeville.late_phases import table


def _goal(g: GnomevilleState, goal_id: str) -> int:
    return [goal.id for goal in g.pack.goals].index(goal_id)


def test_g5_the_seeds_two_player_example() -> None:
    assert "rounding up" in ruling("G5")
    g = table(players=2)
    blue, red = town(g, 0), town(g, 1)
    # Card 1, fewest sword gnomes: blue has two swords, red none (hammers do not count).
    put_gnome(blue, 1, "a1")
    blue.sword[0] = blue.sword[1] = True
    red.hammer[0] = True
    # Card 2, most boulders: three each.
    for t in (blue, red):
        boulder(t, "e1", "e2", "e3")
    # Card 3, most blue-line buildings: blue one, red six.
    put(blue, "workshop", "b1", "b2", "b3")
    put(blue, "house", "d1")
    put(red, "house", "b1", "b2")
    put(red, "tavern", "c1", "c2")
    put(red, "academy", "d1", "d2")
    g.goals = [
        (0, 1, _goal(g, "goal-01"), 0),
        (0, 1, _goal(g, "goal-02"), 0),
        (0, 1, _goal(g, "goal-03"), 0),
    ]
    sides = [g.pack.goals[card].sides[face].name for _, _, card, face in g.goals]
    assert sides == ["Peacekeepers", "Rock Garden", "Blue Skyline"]
    score_goals(g)
    assert (blue.vp, red.vp) == (0 + 4 + 0, 5 + 4 + 5)


def test_g5_ties_add_win_and_tie_and_split_rounding_up() -> None:
    assert goal_points(3, 3, "most", 5, 2) == (4, 4)
    assert goal_points(1, 1, "fewest", 4, 1) == (3, 3)
    assert goal_points(2, 0, "fewest", 5, 2) == (0, 5)
    assert goal_points(2, 0, "most", 5, 2) == (5, 0)


def test_g16_nobody_meeting_a_goal_is_a_tie() -> None:
    assert goal_points(0, 0, "most", 3, 1) == (2, 2)


def test_two_players_have_three_cards_between_them() -> None:
    g = new_state(2, seed=5)
    assert [(a, b) for a, b, _, _ in g.goals] == [(0, 1)] * 3
    assert len({card for _, _, card, _ in g.goals}) == 3


def test_three_and_four_players_have_one_card_between_each_pair_of_neighbours() -> None:
    g = new_state(3, seed=5)
    assert sorted((a, b) for a, b, _, _ in g.goals) == [(0, 1), (0, 2), (1, 2)]
    g = new_state(4, seed=5)
    assert sorted((a, b) for a, b, _, _ in g.goals) == [(0, 1), (0, 3), (1, 2), (2, 3)]
    assert new_state(1).goals == []


def test_every_goal_card_scores_each_seat_against_its_neighbour() -> None:
    g = table(players=3)
    card = _goal(g, "goal-09")  # front: most mushrooms, 4 / tie 2
    g.goals = [(0, 1, card, 0), (1, 2, card, 0), (0, 2, card, 0)]
    for t, mushrooms in zip(g.towns, (5, 3, 3), strict=True):
        t.mushrooms = mushrooms
    score_goals(g)
    assert [t.vp for t in g.towns] == [4 + 4, 0 + 3, 3 + 0]


# ---------------------------------------------------------------------- metrics


def test_g17_the_monument_and_the_market_count_for_neither_line() -> None:
    assert "neither colour" in ruling("G17")
    g = table()
    t = town(g)
    put(t, "monument", "a1")
    put(t, "market", "a2")
    put(t, "house", "a3")
    put(t, "ballista", "a4", "a5")
    assert metric(g, t, "prosperity_buildings") == 1
    assert metric(g, t, "defence_buildings") == 2
    assert metric(g, t, "buildings") == 5
    assert metric(g, t, "tile:ballista") == 2


def test_largest_group_is_one_kind_connected_orthogonally_not_across_hedges() -> None:
    g = table()
    t = town(g)
    put(t, "market", "a1", "b1", "b2", "c3")  # c3 touches b2 only diagonally
    put(t, "house", "d1", "e1", "d2", "e2", "e3")
    assert metric(g, t, "largest_group") == 5
    g = table(towns="2")  # Mazeville: hedges b1|c1 and c1|c2
    t = town(g)
    put(t, "house", "b1", "c1", "c2", "d1")
    assert metric(g, t, "largest_group") == 2  # c1-d1; b1 and c2 are cut off


def test_gnome_metrics_count_deployed_gnomes_and_abilities() -> None:
    g = table()
    t = town(g)
    put_gnome(t, 1, "a1")
    give_ability(g, t, 1, "sword")
    t.hammer[0] = True
    t.sword[2] = True  # in camp: not counted
    assert metric(g, t, "sword_gnomes") == 1
    assert metric(g, t, "hammer_gnomes") == 1
    assert metric(g, t, "graduated_gnomes") == 1
    assert metric(g, t, "deployed_gnomes") == 2


def test_board_and_purse_metrics() -> None:
    g = table()
    t = town(g)
    boulder(t, "a1", "a2")
    t.trolls.append(10)
    t.mushrooms = 6
    t.bag[0] = 4
    t.bag[8] = 2
    t.stacks = [[0, 0, 0], [0] * 7]
    assert metric(g, t, "boulders") == 2
    assert metric(g, t, "trolls") == 1
    assert metric(g, t, "mushrooms") == 6
    assert metric(g, t, "bag_tiles") == 6  # gnome tiles are tiles in the bag too
    assert metric(g, t, "stacks") == 2
    assert metric(g, t, "tallest_stack") == 7
    assert metric(g, t, "empty_spaces") == 25 - 2 - 1 - 1
