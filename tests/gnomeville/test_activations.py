"""Building activations when a gnome moves onto a building (the seed's list; rulings G19, G21,
G22, G27)."""

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


def onto(building: str, points: int = 1, **options: Any) -> tuple[GnomevilleState, Town]:
    """A solo game whose gnome 0 (on c3) is about to move north onto ``building`` on c2."""
    g = new_state(1, **options)
    t = clear(town(g), gnome="c3")
    bag(t, market=5)
    put(t, building, "c2")
    start_move(g, points)
    return g, t


def test_a_market_buys_one_tile_into_the_bag_for_its_tier_in_mushrooms() -> None:
    g, t = onto("market")
    t.mushrooms = 2
    choose(g, "move:0:N")
    assert kind(g) == "market.buy"
    assert keys(g) == ["buy:market", "buy:house", "buy:workshop", "none"]  # tier <= 2
    share = t.share[Tile.HOUSE]
    events = choose(g, "buy:house")
    assert t.mushrooms == 0 and t.bag[Tile.HOUSE] == 1
    assert t.share[Tile.HOUSE] == share - 1
    assert events_of(events, "buy") == [{"seat": 0, "tile": "house", "cost": 2}]


def test_a_market_may_buy_nothing_and_is_not_offered_without_mushrooms() -> None:
    g, t = onto("market", points=2)
    t.mushrooms = 5
    play(g, 0, "move:0:N", "none")
    assert t.mushrooms == 5 and t.bag[Tile.MARKET] == 5
    assert kind(g) == "move.step"
    t.mushrooms = 0
    play(g, 0, "move:0:S")  # c3: an empty space, +1 mushroom
    g2, t2 = onto("market")
    t2.mushrooms = 0
    choose(g2, "move:0:N")
    assert kind(g2) == "build.draw"  # nothing affordable: nothing asked


def test_a_house_deploys_a_gnome_from_camp_next_to_it() -> None:
    g, t = onto("house")
    troll(t, "b1")
    boulder(t, "d1")
    put_gnome(t, 2, "b3")
    put(t, "tavern", "d2")
    choose(g, "move:0:N")
    assert kind(g) == "house.deploy"
    offered = {k.removeprefix("deploy:") for k in keys(g) if k != "none"}
    # 8 neighbours of c2, less the troll, the boulder and gnome 2 (gnome 0 left c3); the
    # tavern is fine
    assert offered == {"c1", "b2", "d2", "c3", "d3"}
    assert "none" in keys(g)
    mushrooms = t.mushrooms
    events = choose(g, "deploy:d2")
    assert t.gnome_at[1] == sp("d2") and t.mushrooms == mushrooms
    assert events_of(events, "deploy") == [{"seat": 0, "gnome": 1, "space": "d2"}]
    assert t.stew is True or kind(g) != "move.activate"  # the new gnome activates nothing


def test_a_house_is_not_offered_with_every_gnome_deployed() -> None:
    assert "lowest-numbered" in ruling("G21")
    g, t = onto("house")
    put_gnome(t, 1, "a5")
    put_gnome(t, 2, "e5")
    choose(g, "move:0:N")
    assert kind(g) == "build.draw"


def test_hedges_do_not_stop_a_house() -> None:
    g = new_state(1, towns="2")
    t = clear(town(g), gnome=None)
    bag(t, market=5)
    a, b = sorted(t.layout.hedges)[0]
    start = next(n for n in t.geometry.linked[a] if n != b)
    put_gnome(t, 0, start)
    put(t, "house", a)
    start_move(g, 1)
    direction = [k for k in keys(g) if k.startswith("move:0:")]
    from games.gnomeville.movement import ways

    step = next(d for d, n in ways(t).orthogonal[start] if n == a)
    assert f"move:0:{step}" in direction
    choose(g, f"move:0:{step}")
    assert f"deploy:{space_name(b)}" in keys(g)  # behind the hedge, still next to the house


def test_a_tavern_fills_the_stew_and_is_not_offered_when_it_is_full() -> None:
    g, t = onto("tavern")
    t.stew = False
    choose(g, "move:0:N")
    assert keys(g) == ["activate", "skip"]
    choose(g, "activate")
    assert t.stew is True
    g2, _ = onto("tavern")
    choose(g2, "move:0:N")
    assert kind(g2) == "build.draw"


def test_skipping_an_activation_changes_nothing() -> None:
    g, t = onto("tavern")
    t.stew = False
    play(g, 0, "move:0:N", "skip")
    assert t.stew is False


def test_a_workshop_gives_this_gnome_a_hammer_an_armory_a_sword() -> None:
    g, t = onto("workshop")
    play(g, 0, "move:0:N", "activate")
    assert t.hammer[0] and not t.sword[0]
    g, t = onto("armory")
    events = play(g, 0, "move:0:N", "activate")
    assert t.sword[0] and not t.hammer[0]
    assert events_of(events, "sword") == [{"seat": 0, "gnome": 0}]
    g, t = onto("armory")
    t.sword[0] = True
    choose(g, "move:0:N")
    assert kind(g) == "build.draw"  # it has one: nothing to ask


def test_an_academy_graduates_the_gnome_with_one_of_two_cards_from_its_own_pile() -> None:
    assert "own pile" in ruling("G19")
    g, t = onto("academy")
    first, second, *rest = t.ability_pile
    choose(g, "move:0:N")
    events = choose(g, "activate")
    assert t.graduated[0]
    (drawn,) = [e for e in events if e.kind == "academy_draw"]
    ids = [g.pack.abilities[c].id for c in (first, second)]
    assert drawn.private_to == 0 and drawn.data["cards"] == ids
    assert kind(g) == "academy.keep"
    assert keys(g) == [f"keep:{i}" for i in ids]
    events = choose(g, f"keep:{ids[1]}")
    assert t.ability[0] == second
    assert t.ability_pile == [*rest, first]  # the other to the bottom
    assert events_of(events, "graduate") == [{"seat": 0, "gnome": 0, "ability": ids[1]}]
    (returned,) = [e for e in events if e.kind == "ability_returned"]
    assert returned.private_to == 0


def test_an_academy_with_one_card_keeps_it_with_none_graduates_without() -> None:
    assert "without an ability" in ruling("G22")
    g, t = onto("academy")
    t.ability_pile = t.ability_pile[:1]
    card = t.ability_pile[0]
    play(g, 0, "move:0:N", "activate")
    assert t.graduated[0] and t.ability[0] == card and t.ability_pile == []
    g, t = onto("academy")
    t.ability_pile = []
    play(g, 0, "move:0:N", "activate")
    assert t.graduated[0] and t.ability[0] == EMPTY


def test_a_graduated_gnome_is_not_offered_the_academy() -> None:
    g, t = onto("academy")
    t.graduated[0] = True
    choose(g, "move:0:N")
    assert kind(g) == "build.draw"


def test_a_ballista_destroys_one_boulder_or_troll_among_its_eight_neighbours() -> None:
    g, t = onto("ballista")
    boulder(t, "b1")  # diagonal neighbour
    troll(t, "d2")  # orthogonal neighbour
    troll(t, "e2")  # two away: out of reach
    choose(g, "move:0:N")
    assert kind(g) == "ballista.target"
    assert keys(g) == ["target:b1", "target:d2", "none"]
    events = choose(g, "target:d2")
    assert t.trolls == [sp("e2")]
    assert events_of(events, "destroy") == [{"seat": 0, "what": "troll", "space": "d2", "by": "c2"}]
    assert t.boulders[sp("b1")]


def test_a_ballista_does_not_reach_through_a_hedge_orthogonally() -> None:
    g = new_state(1, towns="2")
    t = clear(town(g), gnome=None)
    bag(t, market=5)
    a, b = sorted(t.layout.hedges)[0]
    start = next(n for n in t.geometry.linked[a] if n != b)
    put_gnome(t, 0, start)
    put(t, "ballista", a)
    boulder(t, b)
    start_move(g, 1)
    from games.gnomeville.movement import ways

    step = next(d for d, n in ways(t).orthogonal[start] if n == a)
    choose(g, f"move:0:{step}")
    assert kind(g) == "build.draw"  # the one boulder is behind the hedge
    assert t.boulders[b]


def test_a_monument_is_passive() -> None:
    g, t = onto("monument")
    mushrooms = t.mushrooms
    choose(g, "move:0:N")
    assert kind(g) == "build.draw" and t.mushrooms == mushrooms


def test_activation_questions_are_small_and_optional() -> None:
    assert "optional" in ruling("G27")
    for building in ("market", "house", "ballista"):
        g, t = onto(building)
        t.mushrooms = 3
        troll(t, "c1")
        choose(g, "move:0:N")
        assert keys(g)[-1] == "none", building
