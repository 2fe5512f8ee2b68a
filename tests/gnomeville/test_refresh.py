"""Phase 5, buy and refresh: the purchase limit and price, the event under the round tracker
(G47), what goes back into the bag (G41, G52), what stays (G10), and Riverville's river (G48)."""

from __future__ import annotations

import pytest

from games.gnomeville import GnomevilleState, refresh
from games.gnomeville.buildings import BUILDINGS, KINDS, Tile
from games.gnomeville.refresh import BuyStep
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY
from tests.gnomeville.helpers import boulder, give_ability, put, put_gnome, sp, town, troll
from tests.gnomeville.late_phases import answer, offered, run, start, table


def _buying(round_: int, mushrooms: int = 50) -> GnomevilleState:
    g = table(players=2)
    g.round = round_
    for t in g.towns:
        t.mushrooms = mushrooms
    refresh.begin_buy(g)
    run(g, 0)
    return g


@pytest.mark.parametrize("round_", [1, 2, 3, 4])
def test_buy_up_to_the_round_number(round_: int) -> None:
    g = _buying(round_)
    for _ in range(round_):
        assert offered(g)[0] == "buy.tile"
        answer(g, 0, "buy:market")
    assert offered(g) == ("", [])
    assert town(g).bag[Tile.MARKET] == round_


def test_a_tile_costs_its_tier_and_only_affordable_tiles_are_offered() -> None:
    g = _buying(3, mushrooms=3)
    assert offered(g) == (
        "buy.tile",
        ["buy:market", "buy:house", "buy:workshop", "buy:tavern", "buy:armory", "done"],
    )
    answer(g, 0, "buy:house")
    assert town(g).mushrooms == 1
    assert offered(g) == ("buy.tile", ["buy:market", "done"])
    answer(g, 0, "done")
    assert offered(g) == ("", [])
    assert town(g).bag[Tile.HOUSE] == 1 and town(g).mushrooms == 1


def test_nobody_is_asked_without_mushrooms() -> None:
    g = _buying(2, mushrooms=0)
    assert offered(g) == ("", [])


def test_a_bought_tile_comes_from_the_towns_share_of_the_supply() -> None:
    g = _buying(1)
    supply = g.supply[Tile.ACADEMY]
    answer(g, 0, "buy:academy")
    assert town(g).taken[Tile.ACADEMY] == 1
    g._close_phase()
    assert g.supply[Tile.ACADEMY] == supply - 1


@pytest.mark.parametrize(("ended", "face_up"), [(1, 0), (2, 1), (3, 2), (4, 3)])
def test_g47_the_tracker_reveals_an_event_for_rounds_three_to_five(
    ended: int, face_up: int
) -> None:
    assert "第3ラウンドはイベント1つ" in ruling("G47")
    g = table(players=2)
    g.events_up = max(0, face_up - 1)
    g.round = ended
    g._events = []
    refresh.refresh_round(g)
    assert g.events_up == face_up
    revealed = [e.data["event"] for e in g._events if e.kind == "event_revealed"]
    expected = [g.pack.multi_events[g.events[face_up - 1]].id] if face_up else []
    assert revealed == expected


def test_g41_stacks_destroyed_tiles_and_gnome_tiles_go_back_into_the_bag() -> None:
    assert "phase 5 step 3" in ruling("G41")
    g = table()
    t = town(g)
    t.stacks = [[int(Tile.MARKET)] * 3 + [int(Tile.HOUSE)] * 3]
    t.set_aside[Tile.GNOME] = 3
    t.set_aside[Tile.ACADEMY] = 1
    refresh.refresh_round(g)
    assert t.bag[Tile.MARKET] == 3 and t.bag[Tile.HOUSE] == 3
    assert t.bag[Tile.GNOME] == 3 and t.bag[Tile.ACADEMY] == 1
    assert t.stacks == [] and t.set_aside == [0] * KINDS


def test_g10_the_refresh_resets_the_round_but_not_the_stew_and_the_town_stays() -> None:
    assert "not refilled" in ruling("G10")
    g = table()
    t = town(g)
    put(t, "tavern", "b2")
    boulder(t, "a1")
    troll(t, "e5")
    put_gnome(t, 1, "d4")
    give_ability(g, t, 1, "ballista")
    t.ability_used[1] = True
    t.stew = False
    t.passed = t.stuck = True
    t.stumps = 3
    refresh.refresh_round(g)
    assert not t.stew
    assert not t.passed and not t.stuck and t.stumps == 0 and t.drawn == EMPTY
    assert t.ability_used == [False] * 3
    assert t.tiles[sp("b2")] == Tile.TAVERN and t.boulders[sp("a1")]
    assert t.trolls == [sp("e5")] and t.gnome_at[1] == sp("d4")


def test_g52_a_full_board_returns_its_buildings_to_the_bag_and_keeps_the_rest() -> None:
    assert "go back to the bag" in ruling("G52")
    g = table()
    t = town(g)
    put(t, "house", "a1", "a2")
    put(t, "monument", "e1")
    boulder(t, "e5")
    troll(t, "d5")
    t.full = True
    refresh.refresh_round(g)
    assert t.buildings_on_board() == 0
    assert t.bag[Tile.HOUSE] == 2 and t.bag[Tile.MONUMENT] == 1
    assert t.boulders[sp("e5")] and t.trolls == [sp("d5")] and t.gnome_at[0] == sp("c3")
    assert not t.full


def test_g48_the_river_washes_everything_to_its_supply_before_buying() -> None:
    assert "not the bag" in ruling("G48")
    g = table(players=2, towns="3,1")
    t = town(g, 0)
    river = t.layout.river
    assert len(river) == 4 and not set(river) & set(t.layout.bridges)
    a, b, c, d = river
    put(t, "armory", a, t.layout.bridges[0])
    troll(t, b)
    boulder(t, c)
    put(t, "house", d)
    put_gnome(t, 0, d)
    t.sword[0] = True
    other = town(g, 1)
    put(other, "armory", a)  # not a river town: nothing happens
    supply = list(g.supply)
    g.round = 2
    refresh.begin_buy(g)
    assert t.tiles[a] == EMPTY and t.tiles[d] == EMPTY
    assert t.tiles[t.layout.bridges[0]] == Tile.ARMORY
    assert t.trolls == [] and not t.boulders[c]
    assert t.set_aside == [0] * KINDS and t.bag[Tile.ARMORY] == 0
    assert g.supply[Tile.ARMORY] == supply[Tile.ARMORY] + 1
    assert g.supply[Tile.HOUSE] == supply[Tile.HOUSE] + 1
    assert other.tiles[a] == Tile.ARMORY
    # The gnome was exhausted (its sword gone) and, being the last, is placed before buying.
    assert t.gnome_at[0] == EMPTY and not t.sword[0]
    run(g, 0)
    assert offered(g, 0)[0] == "enemy.restand"
    answer(g, 0, "restand:a1")
    assert offered(g, 0)[0] == "buy.tile"


def test_every_tile_stays_somewhere_through_a_refresh() -> None:
    g = table(players=2)
    t = town(g)
    put(t, "house", "a1")
    t.full = True
    t.stacks = [[0, 0, 0]]
    t.set_aside[Tile.GNOME] = 2

    def count() -> list[int]:
        out = [0] * KINDS
        for building in BUILDINGS:
            out[building] = g.supply[building]
        for town_ in g.towns:
            for kind in range(KINDS):
                out[kind] += town_.bag[kind] + town_.set_aside[kind]
            for tile in town_.tiles:
                if tile != EMPTY:
                    out[tile] += 1
            for stack in town_.stacks:
                for tile in stack:
                    out[tile] += 1
        return out

    before = count()
    refresh.refresh_round(g)
    assert count() == before


def test_a_buy_step_can_be_started_alone() -> None:
    g = table()
    g.round = 1
    town(g).mushrooms = 1
    g.open_phase()
    start(g, BuyStep(0, 1))
    assert offered(g) == ("buy.tile", ["buy:market", "done"])
