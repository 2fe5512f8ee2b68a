"""Phase 3, enemy attack: boulders, spawns, the troll limit, arrows, the ambush and the restand
(the seed's phase 3 and FAQ; rulings G7, G8, G9, G11, G15, G40-G44)."""

from __future__ import annotations

from games.gnomeville import GnomevilleState, enemy
from games.gnomeville.buildings import Tile
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY
from tests.gnomeville.helpers import (
    boulder,
    choose,
    give_ability,
    kinds,
    new_state,
    put,
    put_gnome,
    sp,
    town,
    troll,
)
from tests.gnomeville.late_phases import add_card, answer, attack, offered, table

# ---------------------------------------------------------------------- boulders


def test_a_boulder_destroys_a_building_whose_tile_waits_for_the_bag() -> None:
    g = table()
    t = town(g)
    put(t, "house", "b2")
    attack(g, add_card(g, boulders=("b2",)))
    assert t.boulders[sp("b2")] and t.tiles[sp("b2")] == EMPTY
    assert t.set_aside[Tile.HOUSE] == 1 and t.bag[Tile.HOUSE] == 0  # G41: bag in phase 5
    assert offered(g) == ("", [])


def test_a_boulder_exhausts_a_gnome_without_a_hammer() -> None:
    g = table()
    t = town(g)
    put_gnome(t, 1, "b2")
    card = give_ability(g, t, 1, "movement")
    t.sword[1] = True
    attack(g, add_card(g, boulders=("b2",)))
    assert t.gnome_at[1] == EMPTY and t.boulders[sp("b2")]
    assert not t.graduated[1] and not t.sword[1] and t.ability[1] == EMPTY
    assert t.discard == [card]


def test_g19_an_exhausted_gnome_discards_its_ability_where_no_graduation_draws_it() -> None:
    """The seed: ノームが疲弊した場合、…ノームトラッカーを未卒業の面に裏返し、能力を捨て、装備品を
    サプライに戻します: the ability is discarded (unlike a graduation's second card, which goes
    to the bottom of the deck). The card lies face up on its owner's discard pile, out of the
    game: the pile is unchanged, every view shows the discard, no later graduation draws the
    card, and no determinization puts it back into a pile (ruling G19)."""
    from games.gnomeville.hidden import determinize
    from games.gnomeville.rebuild import from_view

    assert "discarded" in ruling("G19") and "out of the game" in ruling("G19")
    g = table(players=2)
    t = town(g)
    put_gnome(t, 1, "b2")
    (card,) = t.take_from_pile(1)  # the gnome graduated with the pile's top card
    t.graduated[1], t.ability[1] = True, card
    pile = list(t.ability_pile)
    events = attack_events(g, add_card(g, boulders=("b2",)))
    assert t.ability[1] == EMPTY and t.discard == [card]
    assert t.ability_pile == pile and card not in t.ability_pile  # not under the pile
    assert [e["ability"] for e in events if e["gnome"] == 1] == [g.pack.abilities[card].id]
    g._take_snapshot()
    card_id = g.pack.abilities[card].id
    for viewer in (0, 1, None):
        assert g.observe(viewer).towns[0].discard == (card_id,)
    # Graduations draw from the town's own pile only (G19): drawing it all never meets the card.
    assert card not in t.take_from_pile(len(t.ability_pile))
    # Determinization and a rebuilt view keep it out of every pile.
    g2 = table(players=2)
    t2 = town(g2)
    put_gnome(t2, 1, "b2")
    (card2,) = t2.take_from_pile(1)
    t2.graduated[1], t2.ability[1] = True, card2
    attack(g2, add_card(g2, boulders=("b2",)))
    g2._take_snapshot()
    for seat in (0, 1):
        for seed in range(5):
            sample = determinize(g2, seat, seed)
            assert all(card2 not in s.ability_pile for s in sample.towns)
            assert sample.towns[0].discard == [card2]
    rebuilt = from_view(g2.observe(1), 3)
    assert rebuilt.towns[0].discard == [card2]
    assert all(card2 not in s.ability_pile for s in rebuilt.towns)


def attack_events(g: GnomevilleState, card: int) -> list[dict[str, object]]:
    """The ``exhausted`` events of resolving ``card`` on seat 0's town."""
    start = len(g._events)
    attack(g, card)
    return [dict(e.data) for e in g._events[start:] if e.kind == "exhausted"]


def test_g7_a_hammer_gnome_smashes_the_boulder_but_the_building_under_it_is_lost() -> None:
    assert "hammer" in ruling("G7")
    g = table()
    t = town(g)
    put(t, "tavern", "c3")
    t.hammer[0] = True
    mushrooms = t.mushrooms
    attack(g, add_card(g, boulders=("c3",)))
    assert t.gnome_at[0] == sp("c3") and not t.boulders[sp("c3")]
    assert t.mushrooms == mushrooms + 1
    assert t.tiles[sp("c3")] == EMPTY and t.set_aside[Tile.TAVERN] == 1


def test_a_hammer_ability_smashes_a_boulder_like_the_token() -> None:
    g = table()
    t = town(g)
    give_ability(g, t, 0, "hammer")
    attack(g, add_card(g, boulders=("c3",)))
    assert t.gnome_at[0] == sp("c3") and not t.boulders[sp("c3")]


def test_a_boulder_crushes_a_troll_and_lands_on_an_empty_space() -> None:
    g = table()
    t = town(g)
    troll(t, "a1")
    attack(g, add_card(g, boulders=("a1", "e5")))
    assert t.trolls == [] and t.boulders[sp("a1")] and t.boulders[sp("e5")]


def test_g40_boulders_fall_without_a_question_even_on_the_last_gnome() -> None:
    assert "order" in ruling("G40")
    g = table()
    t = town(g)
    put(t, "market", "c3")
    attack(g, add_card(g, boulders=("c3", "a1")))
    kind, keys = offered(g)
    assert kind == "enemy.restand"
    # The card resolves in its own order: the restand comes before the second boulder.
    assert "restand:a1" in keys and "restand:c3" not in keys
    answer(g, 0, "restand:b1")
    assert t.gnome_at[0] == sp("b1") and t.boulders[sp("a1")]


# ---------------------------------------------------------------------- spawns


def test_a_troll_spawning_on_a_building_destroys_it() -> None:
    g = table()
    t = town(g)
    put(t, "academy", "d4")
    attack(g, add_card(g, spawns=("d4",)))
    assert t.trolls == [sp("d4")] and t.tiles[sp("d4")] == EMPTY
    assert t.set_aside[Tile.ACADEMY] == 1


def test_g11_a_troll_on_the_last_gnome_asks_for_a_new_stand_anywhere_free() -> None:
    assert "troll or boulder" in ruling("G11")
    g = table()
    t = town(g)
    put(t, "market", "c3", "a1")
    boulder(t, "e5")
    troll(t, "e1")
    mushrooms = t.mushrooms
    attack(g, add_card(g, spawns=("c3",)))
    kind, keys = offered(g)
    assert kind == "enemy.restand"
    assert "restand:a1" in keys  # a building may be under the new stand
    for taken in ("c3", "e5", "e1"):
        assert f"restand:{taken}" not in keys
    assert len(keys) == 25 - 3
    answer(g, 0, "restand:a1")
    assert t.gnome_at[0] == sp("a1") and t.tiles[sp("a1")] == Tile.MARKET
    assert t.mushrooms == mushrooms  # no mushroom, no activation
    assert offered(g) == ("", [])


def test_g44_the_new_stand_is_the_lowest_in_camp() -> None:
    assert "lowest" in ruling("G44")
    g = table()
    t = town(g)
    put_gnome(t, 0, None)
    put_gnome(t, 2, "c3")
    attack(g, add_card(g, spawns=("c3",)))
    answer(g, 0, "restand:a1")
    assert t.gnome_at == [sp("a1"), EMPTY, EMPTY]


def test_g7_a_sword_gnome_defeats_a_spawning_troll_and_the_building_under_it_is_lost() -> None:
    g = table()
    t = town(g)
    put(t, "house", "c3")
    t.sword[0] = True
    mushrooms = t.mushrooms
    attack(g, add_card(g, spawns=("c3",)))
    assert t.trolls == [] and t.gnome_at[0] == sp("c3") and t.sword[0]
    assert t.mushrooms == mushrooms + 1
    assert t.tiles[sp("c3")] == EMPTY and t.set_aside[Tile.HOUSE] == 1


def test_g8_spawn_onto_boulder_or_troll_is_ignored_and_does_not_count() -> None:
    assert "does not count" in ruling("G8")
    g = table()
    t = town(g)
    troll(t, "a1", "e1")
    boulder(t, "b2")
    attack(g, add_card(g, spawns=("b2", "a1", "d4")))
    # Two ignored spawns do not use the third troll stand: d4 gets it, no question.
    assert offered(g) == ("", [])
    assert sorted(t.trolls) == sorted([sp("a1"), sp("e1"), sp("d4")])
    assert t.boulders[sp("b2")]


def test_the_third_and_fourth_trolls_are_a_choice_between_their_spaces() -> None:
    g = table()
    t = town(g)
    troll(t, "a1", "e1")
    attack(g, add_card(g, spawns=("b4", "d4")))
    assert offered(g) == ("enemy.spawn", ["spawn:b4", "spawn:d4"])
    answer(g, 0, "spawn:d4")
    assert sorted(t.trolls) == sorted([sp("a1"), sp("e1"), sp("d4")])
    assert offered(g) == ("", [])


def test_a_fourth_troll_is_ignored() -> None:
    g = table()
    t = town(g)
    troll(t, "a1", "e1", "a5")
    put(t, "market", "c2")
    attack(g, add_card(g, spawns=("c2",)))
    assert len(t.trolls) == 3 and t.tiles[sp("c2")] == Tile.MARKET


def test_several_choices_while_more_spawns_than_room() -> None:
    g = table()
    t = town(g)
    troll(t, "a1")
    attack(g, add_card(g, spawns=("b2", "c2", "d2")))
    assert offered(g)[1] == ["spawn:b2", "spawn:c2", "spawn:d2"]
    answer(g, 0, "spawn:c2")
    assert offered(g)[1] == ["spawn:b2", "spawn:d2"]
    answer(g, 0, "spawn:b2")
    assert sorted(t.trolls) == sorted([sp("a1"), sp("b2"), sp("c2")])


def test_g42_spawns_with_room_for_all_are_not_asked_about() -> None:
    assert "matter" in ruling("G42")
    g = table()
    t = town(g)
    troll(t, "a1")
    attack(g, add_card(g, spawns=("b2", "d2")))
    assert offered(g) == ("", [])
    assert len(t.trolls) == 3


def _sword_gnome_on_a_spawn() -> GnomevilleState:
    """Two trolls; the card spawns on the sword gnome (on a monument) and on b4."""
    g = table()
    t = town(g)
    troll(t, "a1", "e1")
    put(t, "monument", "c3")
    t.sword[0] = True
    attack(g, add_card(g, spawns=("c3", "b4")))
    return g


def test_g42_a_sword_gnome_fights_only_if_resolved_before_the_last_troll_stand() -> None:
    g = _sword_gnome_on_a_spawn()
    t = town(g)
    mushrooms = t.mushrooms
    assert offered(g) == ("enemy.spawn", ["spawn:c3", "spawn:b4"])
    answer(g, 0, "spawn:c3")  # the sword gnome fights first: +1 mushroom, the monument lost
    assert t.tiles[sp("c3")] == EMPTY and t.mushrooms == mushrooms + 1
    assert sorted(t.trolls) == sorted([sp("a1"), sp("e1"), sp("b4")])
    g = _sword_gnome_on_a_spawn()
    t = town(g)
    answer(g, 0, "spawn:b4")  # the third troll first: the icon on the gnome is ignored
    assert t.tiles[sp("c3")] == Tile.MONUMENT and t.mushrooms == mushrooms
    assert offered(g) == ("", [])


def test_g42_with_as_many_spawns_as_room_one_option_stands_for_the_plain_spawns() -> None:
    g = table()
    t = town(g)
    troll(t, "a1")
    t.sword[0] = True
    attack(g, add_card(g, spawns=("b2", "c3", "d2")))
    assert offered(g) == ("enemy.spawn", ["spawn:b2", "spawn:c3"])


# ---------------------------------------------------------------------- arrows


def _move(start: str, direction: str, until: bool, **setup: str) -> list[int]:
    g = table()
    t = town(g)
    put_gnome(t, 0, "e5" if start != "e5" else "a5")
    troll(t, start)
    for space in setup.get("boulders", "").split():
        boulder(t, space)
    attack(g, add_card(g, arrows=((direction, until),)))
    return t.trolls


def test_each_arrow_direction_moves_one_step() -> None:
    assert _move("c3", "N", False) == [sp("c2")]
    assert _move("c3", "E", False) == [sp("d3")]
    assert _move("c3", "S", False) == [sp("c4")]
    assert _move("c3", "W", False) == [sp("b3")]


def test_until_blocked_runs_to_the_edge_or_a_boulder() -> None:
    assert _move("c3", "N", True) == [sp("c1")]
    assert _move("c3", "W", True) == [sp("a3")]
    assert _move("b3", "E", True, boulders="e3") == [sp("d3")]
    assert _move("c1", "N", True) == [sp("c1")]  # already at the edge
    assert _move("c3", "S", False, boulders="c4") == [sp("c3")]  # trolls do not break boulders


def test_g9_leading_troll_first_and_trolls_block_trolls() -> None:
    assert "leading troll first" in ruling("G9")
    g = table()
    t = town(g)
    put_gnome(t, 0, "e5")
    troll(t, "a2", "a4")
    attack(g, add_card(g, arrows=(("N", True),)))
    assert sorted(t.trolls) == [sp("a1"), sp("a2")]
    g = table()
    t = town(g)
    put_gnome(t, 0, "e5")
    troll(t, "b3", "c3")  # one step east: c3 (leading) moves first, so b3 follows
    attack(g, add_card(g, arrows=(("E", False),)))
    assert sorted(t.trolls) == [sp("c3"), sp("d3")]


def test_g9_a_troll_keeps_going_after_destroying_a_building_and_exhausting_a_gnome() -> None:
    g = table()
    t = town(g)
    put_gnome(t, 1, "a1")  # the last gnome stays, so no restand interrupts
    put_gnome(t, 0, "c3")
    put(t, "house", "b3")
    troll(t, "a3")
    attack(g, add_card(g, arrows=(("E", True),)))
    assert t.trolls == [sp("e3")]
    assert t.tiles[sp("b3")] == EMPTY and t.gnome_at[0] == EMPTY


def test_a_restand_mid_run_comes_first_then_the_troll_runs_on() -> None:
    g = table()
    t = town(g)
    troll(t, "c1")
    attack(g, add_card(g, arrows=(("S", True),)))
    assert offered(g)[0] == "enemy.restand"
    assert t.trolls == [sp("c3")]
    answer(g, 0, "restand:c5")  # in the troll's path: exhausted again
    assert offered(g)[0] == "enemy.restand"
    answer(g, 0, "restand:a1")
    assert t.trolls == [sp("c5")] and t.gnome_at[0] == sp("a1")


def test_g43_a_troll_moving_onto_a_sword_gnome_is_defeated_and_the_building_lost() -> None:
    assert "sword" in ruling("G43")
    g = table()
    t = town(g)
    put(t, "armory", "c3")
    t.sword[0] = True
    troll(t, "a3")
    mushrooms = t.mushrooms
    attack(g, add_card(g, arrows=(("E", True),)))
    assert t.trolls == [] and t.gnome_at[0] == sp("c3")
    assert t.mushrooms == mushrooms + 1 and t.tiles[sp("c3")] == EMPTY


def test_trolls_pass_mazeville_hedges() -> None:
    g = table(towns="2")
    t = town(g)
    assert t.geometry.hedge_between(sp("c1"), sp("c2"))
    put_gnome(t, 0, "e5")
    troll(t, "c1")
    attack(g, add_card(g, arrows=(("S", False),)))
    assert t.trolls == [sp("c2")]


def test_arrows_resolve_left_to_right_after_boulders_and_spawns() -> None:
    g = table()
    t = town(g)
    put_gnome(t, 0, "e5")
    attack(g, add_card(g, boulders=("c3",), spawns=("b1",), arrows=(("S", True), ("E", True))))
    # b1 runs south to b5, then east to the gnome at e5? It exhausts it on the way: the gnome
    # was the last, so a restand is asked with the troll on e5.
    assert t.boulders[sp("c3")]
    assert t.trolls == [sp("e5")]
    assert offered(g)[0] == "enemy.restand"


def test_g15_one_card_maps_onto_every_town_alike() -> None:
    assert "same way" in ruling("G15")
    g = table(players=2)
    card = add_card(g, spawns=("b2",), arrows=(("E", False),))
    for seat in (0, 1):
        attack(g, card, seat=seat)
    assert town(g, 0).trolls == town(g, 1).trolls == [sp("c2")]


# ---------------------------------------------------------------------- the phase


def test_the_ambush_is_revealed_only_if_someone_is_stuck_and_hits_only_the_stuck() -> None:
    g = table(players=2)
    deck = list(g.troll_deck)
    g.round_card = add_card(g, spawns=("a1",))
    enemy.begin_enemy(g)
    assert g.ambush_card == EMPTY and g.troll_deck == deck
    g = table(players=2)
    town(g, 1).stuck = True
    ambush = g.troll_deck[0]
    g.round_card = add_card(g, spawns=("a1",))
    enemy.begin_enemy(g)
    assert g.ambush_card == ambush and g.troll_deck == deck[1:]
    steps = [g.stacks[seat][-1] for seat in (0, 1)]
    assert all(isinstance(step, enemy.EnemyStep) for step in steps)
    assert [step.fields()["cards"] for step in steps] == [(g.round_card,), (ambush, g.round_card)]


def test_the_phase_asks_through_pending_and_moves_on_to_scoring() -> None:
    g = new_state(2, seed=3)
    for t in g.towns:
        for space in range(25):
            t.tiles[space] = EMPTY
        t.trolls[:] = [sp("a1"), sp("e1")]
    g.round_card = add_card(g, spawns=("b4", "d4"))
    for seat in (0, 1):
        choose(g, "pass", seat)
    assert g.phase == "enemy"
    assert kinds(g) == {0: "enemy.spawn", 1: "enemy.spawn"}
    choose(g, "spawn:b4", 0)
    assert kinds(g) == {1: "enemy.spawn"}
    choose(g, "spawn:d4", 1)
    assert g.phase != "enemy"
    assert sp("b4") in town(g, 0).trolls and sp("d4") in town(g, 1).trolls


def test_g53_a_stuck_player_resolves_the_whole_ambush_before_the_round_card() -> None:
    assert "whole ambush card before" in ruling("G53")
    g = table()
    t = town(g)
    put_gnome(t, 0, "a1")
    ambush = add_card(g, spawns=("c1",), arrows=(("S", True),))
    card = add_card(g, boulders=("c5",))
    attack(g, card, ambush=ambush)
    # The ambush's troll ran down to c5 first; then the round card's boulder crushed it.
    assert t.trolls == [] and t.boulders[sp("c5")]


def test_g53_the_ambush_card_is_discarded_when_the_next_round_begins() -> None:
    from games.gnomeville import phases

    g = table(players=2)
    town(g, 0).stuck = True
    g.round_card = add_card(g)
    enemy.begin_enemy(g)
    assert g.ambush_card != EMPTY
    phases.begin_round(g)
    assert g.ambush_card == EMPTY


def test_g54_no_upgrade_in_the_enemy_phase_the_gnomes_tile_goes_with_it() -> None:
    assert "No upgrade" in ruling("G54")
    g = table()
    t = town(g)
    put(t, "market", "a1", "a2", "a3")
    put_gnome(t, 0, "a3")
    put_gnome(t, 1, "e5")
    attack(g, add_card(g, boulders=("a3",)))
    assert t.stacks == [] and t.tiles[sp("a1")] == t.tiles[sp("a2")] == Tile.MARKET
    assert t.tiles[sp("a3")] == EMPTY and t.gnome_at[0] == EMPTY
