"""Gnome movement: one step per point, split among gnomes, optional; what entering a space does;
trolls, boulders, hedges and passing through (the seed's movement rules; rulings G20, G30)."""

from __future__ import annotations

from typing import Any

from games.gnomeville import GnomevilleState
from games.gnomeville.buildings import Tile
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY, Town, space_name
from tests.gnomeville.helpers import (
    bag,
    boulder,
    choose,
    clear,
    events_of,
    give_ability,
    keys,
    kind,
    new_state,
    play,
    put,
    put_gnome,
    sp,
    start_move,
    town,
    troll,
)


def solo(gnome: str = "c3", **options: Any) -> tuple[GnomevilleState, Town]:
    """A solo game in its build phase: an empty town with gnome 0 on ``gnome`` and a bag of
    markets (so the build phase goes on after a movement)."""
    g = new_state(1, **options)
    t = clear(town(g), gnome=gnome)
    bag(t, market=5)
    return g, t


def moves(keys_: list[str]) -> set[str]:
    return {k for k in keys_ if k.startswith("move:")}


def test_each_point_moves_one_gnome_one_orthogonal_space() -> None:
    g, t = solo("c3")
    start_move(g, 2)
    assert kind(g) == "move.step"
    assert moves(keys(g)) == {"move:0:N", "move:0:E", "move:0:S", "move:0:W"}
    assert "stop" in keys(g)
    choose(g, "move:0:N")
    assert t.gnome_at[0] == sp("c2")
    choose(g, "move:0:E")
    assert t.gnome_at[0] == sp("d2")
    assert kind(g) == "build.draw"  # no point left: the movement is over


def test_a_gnome_on_the_edge_cannot_leave_the_board() -> None:
    g, _ = solo("a1")
    start_move(g, 1)
    assert moves(keys(g)) == {"move:0:E", "move:0:S"}


def test_points_are_split_among_deployed_gnomes_as_the_player_likes() -> None:
    g, t = solo("a1")
    put_gnome(t, 1, "e5")
    start_move(g, 3)
    assert moves(keys(g)) == {"move:0:E", "move:0:S", "move:1:N", "move:1:W"}
    play(g, 0, "move:1:N", "move:0:E", "move:1:N")
    assert t.gnome_at[:2] == [sp("b1"), sp("e3")]


def test_movement_is_optional_stop_forfeits_the_rest() -> None:
    g, t = solo("c3")
    mushrooms = t.mushrooms
    start_move(g, 3)
    events = play(g, 0, "move:0:S", "stop")
    assert events_of(events, "stop") == [{"seat": 0, "forfeited": 2}]
    assert t.gnome_at[0] == sp("c4") and t.mushrooms == mushrooms + 1
    assert kind(g) == "build.draw"


def test_entering_an_empty_space_gains_a_mushroom() -> None:
    g, t = solo("c3")
    t.mushrooms = 0
    start_move(g, 2)
    events = play(g, 0, "move:0:W", "move:0:E")  # back onto the space it left: empty again
    assert t.mushrooms == 2
    assert events_of(events, "mushroom")[0] == {
        "seat": 0,
        "gnome": 0,
        "space": "b3",
        "amount": 1,
        "total": 1,
    }


def test_entering_a_building_offers_its_activation_and_no_mushroom() -> None:
    g, t = solo("c3")
    put(t, "workshop", "c2")
    t.mushrooms = 0
    start_move(g, 1)
    choose(g, "move:0:N")
    assert kind(g) == "move.activate"
    assert keys(g) == ["activate", "skip"]
    assert t.mushrooms == 0


def test_a_troll_space_needs_a_sword_and_the_troll_goes_with_a_mushroom() -> None:
    g, t = solo("c3")
    troll(t, "c2")
    start_move(g, 1)
    assert "move:0:N" not in keys(g)
    choose(g, "stop")
    t.sword[0] = True
    t.mushrooms = 0
    start_move(g, 1)
    events = choose(g, "move:0:N")
    assert t.trolls == [] and t.mushrooms == 1
    assert events_of(events, "troll_defeated") == [{"seat": 0, "gnome": 0, "space": "c2"}]


def test_a_boulder_space_needs_a_hammer_and_the_boulder_goes_with_a_mushroom() -> None:
    g, t = solo("c3")
    boulder(t, "d3")
    start_move(g, 1)
    assert "move:0:E" not in keys(g)
    choose(g, "stop")
    t.hammer[0] = True
    t.mushrooms = 0
    start_move(g, 1)
    events = choose(g, "move:0:E")
    assert not t.boulders[sp("d3")] and t.mushrooms == 1
    assert events_of(events, "boulder_broken") == [{"seat": 0, "gnome": 0, "space": "d3"}]


def test_a_sword_does_not_open_a_boulder_nor_a_hammer_a_troll() -> None:
    g, t = solo("c3")
    troll(t, "c2")
    boulder(t, "c4")
    t.sword[0] = True
    start_move(g, 1)
    assert moves(keys(g)) == {"move:0:N", "move:0:E", "move:0:W"}
    choose(g, "stop")
    t.sword[0], t.hammer[0] = False, True
    start_move(g, 1)
    assert moves(keys(g)) == {"move:0:S", "move:0:E", "move:0:W"}


def test_hedges_block_gnomes() -> None:
    g, t = solo(towns="2")
    a, b = sorted(t.layout.hedges)[0]
    put_gnome(t, 0, a)
    start_move(g, 1)
    options = keys(g)
    assert all(not k.startswith("move:") or k in options for k in options)
    reachable = {sp(space_name(n)) for n in t.geometry.linked[a]}
    assert b not in reachable
    assert len(moves(options)) == len(reachable)


def test_a_gnome_passes_through_another_with_a_point_to_spare_and_must_go_on() -> None:
    assert "point to spare" in ruling("G20")
    g, t = solo("c3")
    put_gnome(t, 1, "c2")
    put(t, "tavern", "c2")
    t.stew = False
    start_move(g, 1)
    assert "move:0:N" not in keys(g)  # one point: it could not leave c2 again
    choose(g, "stop")
    t.mushrooms = 0
    start_move(g, 2)
    assert "move:0:N" in keys(g)
    choose(g, "move:0:N")
    assert t.gnome_at[:2] == [sp("c2"), sp("c2")]
    # on the shared space: no activation, no mushroom, no stop; only gnome 0 goes on
    assert t.stew is False and t.mushrooms == 0
    assert set(keys(g)) == {"move:0:N", "move:0:E", "move:0:S", "move:0:W"}
    choose(g, "move:0:N")
    assert t.gnome_at[0] == sp("c1") and t.mushrooms == 1
    assert kind(g) == "build.draw"


def test_passing_through_two_gnomes_needs_a_point_for_each() -> None:
    g, t = solo("a1")
    put_gnome(t, 1, "a2")
    put_gnome(t, 2, "a3")
    boulder(t, "b2")  # from a2 the only ways on are back to a1 or on through a3
    start_move(g, 2)
    choose(g, "move:0:S")
    # a3 (occupied) would need a third point: back to a1 is the one way on, taken at once
    assert t.gnome_at[0] == sp("a1") and kind(g) == "build.draw"
    start_move(g, 3)
    play(g, 0, "move:0:S", "move:0:S")
    assert set(keys(g)) == {"move:0:E", "move:0:S"}  # not back through a2 with one point
    choose(g, "move:0:S")
    assert t.gnome_at == [sp("a4"), sp("a2"), sp("a3")]


def test_stepping_off_a_building_where_another_gnome_still_stands_triggers_nothing() -> None:
    g, t = solo("b2")
    put(t, "market", "a1", "b1", "c1")
    put_gnome(t, 1, "b1")
    start_move(g, 2)
    play(g, 0, "move:0:N", "move:0:S")  # through b1 and back: gnome 1 still stands on b1
    assert t.gnome_at[:2] == [sp("b2"), sp("b1")]
    assert t.stacks == [] and kind(g) == "build.draw"


def test_a_gnome_deployed_by_a_house_may_use_the_movement_left() -> None:
    g, t = solo("c3")
    put(t, "house", "c2")
    start_move(g, 3)
    play(g, 0, "move:0:N", "deploy:b2")
    assert t.gnome_at[1] == sp("b2")
    assert "move:1:N" in keys(g)
    mushrooms = t.mushrooms
    choose(g, "move:1:N")
    assert t.gnome_at[1] == sp("b1") and t.mushrooms == mushrooms + 1


def test_the_upgrade_of_a_step_off_comes_before_the_activation_of_the_arrival() -> None:
    assert "then the upgrade" in ruling("G30")
    g, t = solo("b1")
    put(t, "workshop", "a1", "b1", "c1")
    put(t, "tavern", "b2")
    t.stew = False
    start_move(g, 1)
    choose(g, "move:0:S")
    assert kind(g) == "upgrade.space"
    choose(g, "upgrade:b1")
    assert t.tiles[sp("b1")] == Tile.ARMORY
    assert kind(g) == "move.activate"
    choose(g, "activate")
    assert t.stew


def test_a_gnome_in_camp_does_not_move() -> None:
    g, t = solo("c3")
    assert t.gnome_at[1] == EMPTY
    start_move(g, 1)
    assert all(k.startswith("move:0:") or k == "stop" for k in keys(g))


def test_a_diagonal_gnome_steps_diagonally_too() -> None:
    g, t = solo("c3")
    give_ability(g, t, 0, "diagonal")
    start_move(g, 1)
    assert moves(keys(g)) == {f"move:0:{d}" for d in ("N", "E", "S", "W", "NE", "SE", "SW", "NW")}
    choose(g, "move:0:NE")
    assert t.gnome_at[0] == sp("d2")
