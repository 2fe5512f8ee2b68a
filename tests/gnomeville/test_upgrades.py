"""Upgrades: 3+ connected matching unoccupied tiles, the lines, the supply, chains onto one
stack, master-build, and stepping off (the seed's upgrade rules; rulings G23, G25, G32)."""

from __future__ import annotations

from typing import Any

from games.gnomeville import GnomevilleState
from games.gnomeville.buildings import Tile
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY, space_name
from tests.gnomeville.helpers import (
    bag,
    choose,
    clear,
    events_of,
    force_draws,
    keys,
    kind,
    new_state,
    play,
    put,
    put_gnome,
    sp,
    start_move,
    town,
)


def ready_to_place(tile: str, master: bool = False, towns: str | None = None) -> GnomevilleState:
    """A solo game whose seat has drawn ``tile`` and must place it (the gnome on e5)."""
    options: dict[str, Any] = {"towns": towns} if towns else {}
    g = new_state(1, "master-build" if master else "standard", **options)
    t = clear(town(g), gnome="e5")
    bag(t, {tile: 1, "gnome": 1})
    t.stew = False
    force_draws(t, tile)
    choose(g, "draw")
    assert kind(g) == "build.place"
    return g


def no_share(g: GnomevilleState, *tiles: Tile) -> None:
    """The town's share of the supply has none of ``tiles`` (ruling G18)."""
    for tile in tiles:
        town(g).share[tile] = 0


def test_three_connected_markets_stack_and_the_player_chooses_the_line() -> None:
    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1", "b1")
    events = choose(g, "place:c1")
    assert events_of(events, "stacked")[0]["spaces"] == ["a1", "b1", "c1"]
    assert [t.tiles[sp(s)] for s in ("a1", "b1", "c1")] == [EMPTY] * 3
    assert t.stacks == [[Tile.MARKET] * 3]
    assert keys(g) == ["line:house", "line:workshop"]
    choose(g, "line:house")
    assert keys(g) == ["upgrade:a1", "upgrade:b1", "upgrade:c1"]
    share = t.share[Tile.HOUSE]
    events = choose(g, "upgrade:b1")
    assert t.tiles[sp("b1")] == Tile.HOUSE
    assert t.share[Tile.HOUSE] == share - 1 and t.taken[Tile.HOUSE] == 1
    assert events_of(events, "upgrade") == [
        {"seat": 0, "tile": "house", "space": "b1", "height": 3}
    ]
    assert kind(g) == "build.draw"


def test_two_matching_tiles_or_three_different_ones_do_not_upgrade() -> None:
    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1")
    put(t, "house", "c1")
    choose(g, "place:b1")
    assert kind(g) == "build.draw" and t.stacks == []


def test_only_orthogonal_connections_count() -> None:
    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1", "b2")
    choose(g, "place:c3")  # a1-b2-c3 is a diagonal line
    assert t.stacks == []


def test_a_group_of_four_stacks_all_four() -> None:
    g = ready_to_place("workshop")
    t = town(g)
    put(t, "workshop", "a1", "a2", "b2")
    choose(g, "place:c2")
    assert t.stacks == [[Tile.WORKSHOP] * 4]
    assert keys(g) == ["upgrade:a1", "upgrade:a2", "upgrade:b2", "upgrade:c2"]


def test_an_occupied_tile_neither_upgrades_nor_connects() -> None:
    assert "neither belongs" in ruling("G25")
    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1", "b1", "d1")
    put_gnome(t, 0, "b1")
    choose(g, "place:c1")  # a1, [b1 occupied], c1, d1: groups of 1 and 2
    assert t.stacks == []


def test_hedges_break_an_upgrade_group() -> None:
    g = ready_to_place("market", towns="2")
    t = town(g)
    a, b = sorted(t.layout.hedges)[0]
    put(t, "market", a)
    # the third market on the far side of the hedge, next to b
    third = next(n for n in t.geometry.linked[b] if n != a and n not in t.geometry.linked[a])
    put(t, "market", b)
    choose(g, f"place:{space_name(third)}")
    assert t.stacks == []  # a | b - third: only two connected
    assert t.tiles[a] == t.tiles[b] == t.tiles[third] == Tile.MARKET


def test_a_market_group_offers_only_the_line_it_can_take() -> None:
    g = ready_to_place("market")
    t = town(g)
    no_share(g, Tile.HOUSE, Tile.TAVERN)
    put(t, "market", "a1", "b1")
    choose(g, "place:c1")
    assert kind(g) == "upgrade.space"
    choose(g, "upgrade:a1")
    assert t.tiles[sp("a1")] == Tile.WORKSHOP


def test_tier_two_and_up_follow_their_own_line() -> None:
    for tile, result in (
        ("house", Tile.TAVERN),
        ("workshop", Tile.ARMORY),
        ("tavern", Tile.ACADEMY),
        ("armory", Tile.BALLISTA),
        ("academy", Tile.MONUMENT),
        ("ballista", Tile.MONUMENT),
    ):
        g = ready_to_place(tile)
        t = town(g)
        put(t, tile, "a1", "b1")
        choose(g, "place:c1")
        assert kind(g) == "upgrade.space", tile  # no line to choose
        choose(g, "upgrade:c1")
        assert t.tiles[sp("c1")] == result, tile


def test_an_empty_supply_gives_the_tile_two_tiers_up() -> None:
    g = ready_to_place("market")
    t = town(g)
    no_share(g, Tile.HOUSE, Tile.WORKSHOP)
    put(t, "market", "a1", "b1")
    choose(g, "place:c1")
    assert keys(g) == ["line:tavern", "line:armory"]
    g2 = ready_to_place("workshop")
    t2 = town(g2)
    no_share(g2, Tile.ARMORY)
    put(t2, "workshop", "a1", "b1")
    choose(g2, "place:c1")
    choose(g2, "upgrade:a1")
    assert t2.tiles[sp("a1")] == Tile.BALLISTA


def test_nothing_to_take_means_no_upgrade_and_the_tiles_stay() -> None:
    assert "no upgrade happens" in ruling("G23")
    g = ready_to_place("academy")
    t = town(g)
    no_share(g, Tile.MONUMENT)  # tier 4 has no tile two tiers up
    put(t, "academy", "a1", "b1")
    events = choose(g, "place:c1")
    assert events_of(events, "upgrade_blocked") == [
        {"seat": 0, "tile": "academy", "spaces": ["a1", "b1", "c1"]}
    ]
    assert t.stacks == [] and kind(g) == "build.draw"
    assert [t.tiles[sp(s)] for s in ("a1", "b1", "c1")] == [Tile.ACADEMY] * 3


def test_a_blocked_group_is_checked_again_when_it_changes() -> None:
    g = ready_to_place("market")
    t = town(g)
    for tile in (Tile.HOUSE, Tile.WORKSHOP, Tile.TAVERN, Tile.ARMORY):
        t.share[tile] = 0
    put(t, "market", "a1", "b1")
    choose(g, "place:c1")
    assert t.stacks == []
    t.share[Tile.HOUSE] = 1
    bag(t, market=1)
    force_draws(t, "market")
    play(g, 0, "draw", "place:d1")
    assert t.stacks == [[Tile.MARKET] * 4]


def test_monuments_never_upgrade() -> None:
    g = ready_to_place("monument")
    t = town(g)
    put(t, "monument", "a1", "b1")
    choose(g, "place:c1")
    assert t.stacks == [] and kind(g) == "build.draw"


def test_the_seeds_chain_three_markets_to_a_workshop_to_an_armory_on_one_stack_of_six() -> None:
    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1", "b1")
    put(t, "workshop", "b2", "a3")
    put_gnome(t, 0, "e5")
    play(g, 0, "place:c1", "line:workshop")
    # the workshop on a1 would join nothing (a2 empty); on b1 it joins b2 (and not a3)
    events = choose(g, "upgrade:b1")
    assert events_of(events, "upgrade") == [
        {"seat": 0, "tile": "workshop", "space": "b1", "height": 3}
    ]
    assert t.stacks == [[Tile.MARKET] * 3]  # only two workshops connected: no chain yet
    assert kind(g) == "build.draw"

    g = ready_to_place("market")
    t = town(g)
    put(t, "market", "a1", "b1")
    put(t, "workshop", "b2", "b3")
    play(g, 0, "place:c1", "line:workshop", "upgrade:b1")
    assert t.stacks == [[Tile.MARKET] * 3 + [Tile.WORKSHOP] * 3]
    assert keys(g) == ["upgrade:b1", "upgrade:b2", "upgrade:b3"]
    choose(g, "upgrade:b2")
    assert t.tiles[sp("b2")] == Tile.ARMORY
    assert len(t.stacks) == 1 and len(t.stacks[0]) == 6  # scores 6 + 2 in phase 4 (G2)
    assert kind(g) == "build.draw"


def test_master_build_puts_the_new_tile_on_the_triggering_space_and_a_chain_keeps_it() -> None:
    assert "that space" in ruling("G32")
    g = ready_to_place("market", master=True)
    t = town(g)
    put(t, "market", "a1", "b1")
    put(t, "workshop", "c2", "d2")
    play(g, 0, "place:c1", "line:workshop")  # no upgrade.space question: c1 it is
    assert t.tiles[sp("c1")] == Tile.ARMORY  # c1 + c2 + d2 workshops chained, kept on c1
    assert t.stacks == [[Tile.MARKET] * 3 + [Tile.WORKSHOP] * 3]
    assert kind(g) == "build.draw"


def test_stepping_off_a_tile_triggers_an_upgrade_mid_move() -> None:
    g = new_state(1)
    t = clear(town(g), gnome="b1")
    put(t, "workshop", "a1", "b1", "c1")
    start_move(g, 2)
    choose(g, "move:0:S")
    assert t.stacks == [[Tile.WORKSHOP] * 3]
    assert keys(g) == ["upgrade:a1", "upgrade:b1", "upgrade:c1"]
    choose(g, "upgrade:a1")
    assert kind(g) == "move.step"  # the move goes on with its last point
    assert t.tiles[sp("a1")] == Tile.ARMORY


def test_with_master_build_a_step_off_upgrade_may_use_any_space_of_the_group() -> None:
    g = new_state(1, "master-build")
    t = clear(town(g), gnome="b1")
    put(t, "workshop", "a1", "b1", "c1")
    start_move(g, 1)
    choose(g, "move:0:S")
    assert keys(g) == ["upgrade:a1", "upgrade:b1", "upgrade:c1"]


def test_an_upgrade_takes_only_from_the_towns_share() -> None:
    g = new_state(2)
    t = clear(town(g, 0), gnome="e5")
    bag(t, market=1)
    t.stew = False
    put(t, "market", "a1", "b1")
    force_draws(t, "market")
    supply = list(g.supply)
    play(g, 0, "draw", "place:c1", "line:house", "upgrade:a1")
    assert g.supply == supply  # settled at the barrier, not before
    assert t.taken[Tile.HOUSE] == 1


def test_g23_a_group_blocked_for_want_of_a_tile_upgrades_when_the_river_returns_one() -> None:
    """An upgrade is a state, not an event (the seed: 3枚以上の、縦横に接続されていて、一致して
    おり、占有されていない建物タイルがある場合、アップグレードが発動します). Three houses are placed
    while no tavern and no academy is left: blocked (ruling G23). In phase 5 Riverville's river
    washes a tavern back to the supply (G48); upgrades are resolved in the build phase (G54),
    so the houses upgrade when the next build phase opens, before the first draw, on any of
    their spaces."""
    from tests.gnomeville.late_phases import add_card

    assert "whenever a phase opens" in ruling("G23")
    g = ready_to_place("house", towns="3")
    t = town(g)
    river = t.layout.river[0]
    g.supply[Tile.TAVERN] = g.supply[Tile.ACADEMY] = 0
    no_share(g, Tile.TAVERN, Tile.ACADEMY)
    put(t, "tavern", river)  # the only tavern left in the game, on the river
    put(t, "house", "a1", "b1")
    events = choose(g, "place:c1")
    assert events_of(events, "upgrade_blocked") == [
        {"seat": 0, "tile": "house", "spaces": ["a1", "b1", "c1"]}
    ]
    assert t.stacks == [] and kind(g) == "build.draw"
    g.round_card = add_card(g)  # a troll card that does nothing: the houses stay
    choose(g, "pass")
    assert g.phase == "buy" and g.supply[Tile.TAVERN] == 1  # the river took the tavern back
    assert t.tiles[river] == EMPTY
    assert [t.tiles[sp(s)] for s in ("a1", "b1", "c1")] == [Tile.HOUSE] * 3  # still blocked
    assert kind(g) == "buy.tile"  # no upgrade in phase 5 (G54)
    events = choose(g, "done")
    # Round 2's build phase opens with the upgrade, before the first draw.
    assert g.round == 2 and g.phase == "build"
    assert events_of(events, "stacked") == [
        {"seat": 0, "tile": "house", "spaces": ["a1", "b1", "c1"], "height": 3}
    ]
    assert kind(g) == "upgrade.space"
    assert keys(g) == ["upgrade:a1", "upgrade:b1", "upgrade:c1"]  # as after a step-off
    events = choose(g, "upgrade:b1")
    assert events_of(events, "upgrade")[0]["tile"] == "tavern"
    assert t.tiles[sp("b1")] == Tile.TAVERN
    assert t.taken[Tile.TAVERN] == 1 and t.share[Tile.TAVERN] == 0  # from its share (G18)
    assert t.stacks == [[Tile.HOUSE] * 3]
    assert kind(g) == "build.draw"
