"""Ability cards: every effect of ``content.ABILITY_EFFECTS`` (rulings G24, G26, G28, G29)."""

from __future__ import annotations

import dataclasses

from games.gnomeville import GnomevilleState
from games.gnomeville.buildings import Tile
from games.gnomeville.rulings import ruling
from games.gnomeville.town import Geometry, Town
from tests.gnomeville.helpers import (
    bag,
    boulder,
    choose,
    clear,
    events_of,
    force_draws,
    give_ability,
    keys,
    kind,
    new_state,
    play,
    put,
    sp,
    start_move,
    town,
    troll,
)


def solo(effect: str, gnome: str = "c3") -> tuple[GnomevilleState, Town]:
    """A solo game in its build phase; gnome 0 on ``gnome`` holds a card with ``effect``."""
    g = new_state(1)
    t = clear(town(g), gnome=gnome)
    bag(t, market=5)
    give_ability(g, t, 0, effect)
    return g, t


def amount(g: GnomevilleState, t: Town, gnome: int = 0) -> int:
    return g.pack.abilities[t.ability[gnome]].amount


def test_a_movement_card_adds_to_every_gain_of_movement() -> None:
    g, t = solo("movement")
    bag(t, gnome=1, market=1)
    t.stew = False
    force_draws(t, "gnome")
    events = choose(g, "draw")
    assert events_of(events, "gnome_tile")[0]["movement"] == 1 + amount(g, t)


def test_a_movement_card_of_a_gnome_in_camp_counts_for_nothing() -> None:
    g, t = solo("movement")
    t.gnome_at[0] = -1
    t.gnome_at[1] = sp("c3")
    bag(t, gnome=1, market=1)
    t.stew = False
    force_draws(t, "gnome")
    events = choose(g, "draw")
    assert events_of(events, "gnome_tile")[0]["movement"] == 1


def test_a_forager_finds_more_mushrooms_on_empty_and_cleared_spaces() -> None:
    assert "forager" in ruling("G24")
    g, t = solo("forager")
    t.sword[0] = True
    troll(t, "c2")
    t.mushrooms = 0
    start_move(g, 2)
    choose(g, "move:0:S")
    assert t.mushrooms == 1 + amount(g, t)
    choose(g, "move:0:N")  # back to c3, empty
    assert t.mushrooms == 2 * (1 + amount(g, t))
    start_move(g, 1)
    choose(g, "move:0:N")  # the troll on c2: as if empty
    assert t.mushrooms == 3 * (1 + amount(g, t)) and t.trolls == []


def test_a_forager_finds_nothing_on_a_building() -> None:
    g, t = solo("forager")
    put(t, "monument", "c2")
    t.mushrooms = 0
    start_move(g, 1)
    choose(g, "move:0:N")
    assert t.mushrooms == 0


def test_a_sword_card_lets_the_gnome_onto_a_troll() -> None:
    g, t = solo("sword")
    troll(t, "c2")
    start_move(g, 1)
    assert "move:0:N" in keys(g)
    assert not t.sword[0]  # a card, not a token


def test_a_hammer_card_lets_the_gnome_onto_a_boulder() -> None:
    g, t = solo("hammer")
    boulder(t, "c2")
    start_move(g, 1)
    choose(g, "move:0:N")
    assert not t.boulders[sp("c2")]


def test_a_diagonal_card_is_blocked_only_when_both_ways_round_the_corner_are_hedged() -> None:
    assert "both ways" in ruling("G26")
    for hedges, allowed in (
        (frozenset({(1, 2)}), True),  # b1|c1 hedged, but c1 -> c2 -> b2 is open
        (frozenset({(1, 2), (2, 7)}), False),  # c1 closed towards b1 and c2
        (frozenset({(2, 7), (6, 7)}), True),  # c1|c2 and c2|b2 hedged, but c1 -> b1 -> b2 is open
        (frozenset({(1, 6), (6, 7)}), False),  # b2 closed towards b1 and c2
    ):
        g, t = solo("diagonal", gnome="c1")
        t.layout = dataclasses.replace(t.layout, hedges=hedges)
        t.geometry = Geometry(t.layout)
        start_move(g, 1)
        assert ("move:0:SW" in keys(g)) == allowed, hedges


def test_a_bargain_card_makes_buying_cheaper_never_below_zero() -> None:
    g, t = solo("bargain")
    off = amount(g, t)
    put(t, "market", "c2")
    t.mushrooms = 2 - off
    start_move(g, 1)
    choose(g, "move:0:N")
    assert "buy:house" in keys(g)
    events = choose(g, "buy:house")
    assert events_of(events, "buy")[0]["cost"] == 2 - off
    assert t.mushrooms == 0


def test_a_redraw_card_is_offered_with_the_second_chance_once_per_round() -> None:
    assert "without emptying the stew" in ruling("G29")
    g, t = solo("redraw")
    bag(t, market=2)
    play(g, 0, "draw")
    assert keys(g) == ["keep", "return", "redraw"]
    choose(g, "redraw")
    assert t.stew and t.ability_used[0]
    choose(g, "draw")
    assert keys(g) == ["keep", "return"]


def test_a_stew_card_refills_before_a_draw_once_per_round() -> None:
    g, t = solo("stew")
    bag(t, market=3)
    play(g, 0, "draw", "return")
    assert keys(g) == ["draw", "pass", "stew"]
    events = choose(g, "stew")
    assert t.stew and events_of(events, "ability")[0]["effect"] == "stew"
    play(g, 0, "draw", "return")
    assert keys(g) == ["draw", "pass"]


def test_a_ballista_card_destroys_next_to_its_gnome_during_movement_once_per_round() -> None:
    assert "during movement" in ruling("G28")
    g, t = solo("ballista")
    troll(t, "d4")
    boulder(t, "c2")
    start_move(g, 2)
    assert "ballista:0" in keys(g)
    choose(g, "ballista:0")
    assert kind(g) == "ballista.target"
    assert keys(g) == ["target:c2", "target:d4"]  # no "none": the card was the choice
    choose(g, "target:d4")
    assert t.trolls == [] and t.ability_used[0]
    assert "ballista:0" not in keys(g)
    assert kind(g) == "move.step"  # the movement goes on


def test_a_ballista_card_is_usable_with_no_point_left_until_the_player_stops() -> None:
    g, t = solo("ballista")
    start_move(g, 1)
    choose(g, "move:0:E")
    assert kind(g) == "build.draw"  # no target: no question
    troll(t, "e2")
    start_move(g, 1)
    choose(g, "move:0:N")  # now on d2, next to the troll on e2, no point left
    assert keys(g) == ["ballista:0", "stop"]
    choose(g, "stop")
    assert t.trolls == [sp("e2")] and not t.ability_used[0]


def test_an_echo_activates_the_building_under_the_gnome_again() -> None:
    g, t = solo("echo")
    put(t, "market", "c2")
    t.mushrooms = 3
    start_move(g, 1)
    play(g, 0, "move:0:N", "buy:market")
    assert keys(g) == ["echo:0", "stop"]
    choose(g, "echo:0")
    assert kind(g) == "market.buy" and "none" not in keys(g)
    choose(g, "buy:house")
    assert t.bag[Tile.MARKET] == 6 and t.bag[Tile.HOUSE] == 1 and t.mushrooms == 0
    assert t.ability_used[0]


def test_an_echo_is_not_offered_when_the_building_would_do_nothing() -> None:
    g, t = solo("echo")
    put(t, "workshop", "c2")
    start_move(g, 1)
    play(g, 0, "move:0:N", "activate")
    assert t.hammer[0]
    assert kind(g) == "build.draw"  # a second hammer changes nothing


def test_a_once_per_round_card_spent_is_not_offered_again_this_round() -> None:
    g, t = solo("echo")
    put(t, "tavern", "c2")
    t.stew = False
    t.ability_used[0] = True
    start_move(g, 1)
    play(g, 0, "move:0:N", "activate")
    t.stew = False
    assert kind(g) == "build.draw"


def test_g55_a_sprint_card_gains_movement_plus_the_monuments_once_per_round() -> None:
    """The seed: 能力が1ラウンドに1回だけの場合は、各ラウンドの使用後に必ずカードを裏返す必要
    があります (a once-per-round card is flipped after use each round), and モニュメント -
    移動力を得るたびに、町ボード上のモニュメントごとに追加で1移動力を得ます (each monument adds 1
    whenever you gain movement). A sprint card (ruling G55) gains its amount of movement during
    a movement, the monument adds its 1 to that gain too; it is then spent for the round, and
    the refresh of phase 5 turns it back."""
    from games.gnomeville import refresh

    assert "once per round" in ruling("G55") and "plus 1 per monument" in ruling("G55")
    g, t = solo("sprint")
    card = g.pack.abilities[t.ability[0]]
    assert card.once_per_round and card.amount == 2
    assert card.id in {"second-wind", "hares-dash"}  # the standard pack's two sprint cards
    put(t, "monument", "a1")
    bag(t, gnome=1, market=1)
    t.stew = False
    force_draws(t, "gnome")
    events = choose(g, "draw")
    assert events_of(events, "gnome_tile")[0]["movement"] == 1 + 1  # stump 1, monument 1
    assert kind(g) == "move.step" and "sprint:0" in keys(g)
    events = choose(g, "sprint:0")
    assert events_of(events, "sprint")[0]["movement"] == 2 + 1  # the card's 2, the monument's 1
    assert events_of(events, "sprint")[0]["left"] == 2 + 3
    assert events_of(events, "ability")[0]["effect"] == "sprint"
    assert t.ability_used[0] and "sprint:0" not in keys(g)
    play(g, 0, "move:0:N", "move:0:N", "move:0:E", "move:0:E", "move:0:S")
    assert t.gnome_at[0] == sp("e2")  # five steps: 2 from the tile, 3 from the sprint
    assert kind(g) == "build.draw"
    start_move(g, 1)
    assert "sprint:0" not in keys(g)  # spent this round
    choose(g, "stop")
    refresh.refresh_round(g)
    assert not t.ability_used[0]
    start_move(g, 0)  # the next round: the card is back, even with no point left
    assert keys(g) == ["sprint:0", "stop"]
    events = choose(g, "sprint:0")
    assert events_of(events, "sprint")[0]["movement"] == 3
