"""Battle (Law 4.3): choice of clearing and defender, ambushes, dice, effects, hits, removal VP.

Positions are built with ``games.root.positions.position`` (Marquise seat 0, Eyrie seat 1) on
the Autumn map; dice are fixed with ``fixed_dice``. The tests read clearing suits from the board
instead of assuming them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.contract import IllegalDecision
from games.root.battle import DIE_FACES, Battle, battle_clearings, roll_die
from games.root.cards import CARD_BY_ID
from games.root.maps import AUTUMN
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision, keys


class FixedDice(random.Random):
    """A generator whose next ``random()`` calls roll the given die faces, then go random."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) + 0.5) / DIE_FACES
        return super().random()


def suit(c: int) -> str:
    found = AUTUMN.clearing(c).suit
    assert found is not None
    return found


def clearing_of(s: str, other_than: int = 0) -> int:
    return next(c.id for c in AUTUMN.clearings if c.suit == s and c.id != other_than)


def ambush_of(s: str) -> str:
    return f"ambush_{s}"


def start(c: int, attacker: int = MARQUISE_SEAT, dice: tuple[int, ...] = (), **kwargs: object):  # type: ignore[no-untyped-def]
    """A position whose only step is a battle by ``attacker`` in ``c``, dice fixed."""
    g = position(hold=True, **kwargs)  # type: ignore[arg-type]
    g.rng = FixedDice(*dice)
    g.push(Battle(attacker, (c,)))
    g.resume()
    return g


def warriors(g, faction: str, c: int) -> int:  # type: ignore[no-untyped-def]
    return int(g.woodland.warriors(faction, c))


# ---------------------------------------------------------------- choosing where to fight


def test_battle_is_offered_only_where_you_have_warriors_and_an_enemy_has_pieces() -> None:
    g = position(
        warriors={1: {MARQUISE: 2, EYRIE: 1}, 2: {MARQUISE: 2}, 3: {EYRIE: 2}},
        buildings={6: ((EYRIE, "roost"),)},
        tokens={7: ((MARQUISE, "wood"),)},
    )
    g.woodland.place_warriors(MARQUISE, 6, 1)
    assert battle_clearings(g, MARQUISE_SEAT) == (1, 6)
    assert battle_clearings(g, EYRIE_SEAT) == (1,)
    assert battle_clearings(g, MARQUISE_SEAT, within=(2, 3, 6)) == (6,)


def test_the_attacker_chooses_among_several_clearings() -> None:
    g = position(
        warriors={1: {MARQUISE: 2, EYRIE: 1}, 5: {MARQUISE: 1, EYRIE: 1}}, step=Battle(0, ())
    )
    g.begin(Battle(MARQUISE_SEAT, battle_clearings(g, MARQUISE_SEAT)))
    assert decision(g).kind == "battle.clearing" and keys(g) == ["clearing:1", "clearing:5"]


# ---------------------------------------------------------------- ambush (Law 4.3.1)


def test_defender_may_ambush_with_a_matching_or_bird_card_only() -> None:
    c = clearing_of("fox")
    other = next(s for s in ("rabbit", "mouse") if s != suit(c))
    g = start(
        c,
        warriors={c: {MARQUISE: 3, EYRIE: 2}},
        hands={EYRIE: (ambush_of("fox"), ambush_of(other), "ambush_bird_1"), MARQUISE: ()},
    )
    d = decision(g)
    assert d.kind == "battle.ambush" and d.seat == EYRIE_SEAT
    assert keys(g) == ["ambush:ambush_fox", "ambush:ambush_bird_1", "pass"]


def test_rt13_two_bird_ambushes_are_one_option() -> None:
    c = clearing_of("mouse")
    g = start(
        c,
        warriors={c: {MARQUISE: 3, EYRIE: 2}},
        hands={EYRIE: ("ambush_bird_1", "ambush_bird_2"), MARQUISE: ()},
    )
    assert keys(g) == ["ambush:ambush_bird_1", "pass"]


def test_no_ambush_decision_without_an_ambush_card() -> None:
    c = clearing_of("rabbit")
    g = start(
        c,
        dice=(3, 0),
        warriors={c: {MARQUISE: 3, EYRIE: 2}},
        hands={EYRIE: ("ambush_fox" if suit(c) != "fox" else "ambush_mouse",), MARQUISE: ()},
    )
    # The roll happened at once: no decision was asked in this battle.
    assert g.woodland.warriors(EYRIE, c) == 0


def test_unfoiled_ambush_deals_two_hits_before_the_roll() -> None:
    c = clearing_of("fox")
    g = start(
        c,
        dice=(1, 1),
        warriors={c: {MARQUISE: 3, EYRIE: 2}},
        hands={EYRIE: ("ambush_fox",), MARQUISE: ()},
    )
    choose(g, "ambush:ambush_fox")
    # The Marquise has no ambush: no foil decision; 2 hits, then the roll 1/1 (1 each).
    assert warriors(g, MARQUISE, c) == 0
    assert warriors(g, EYRIE, c) == 1
    assert "ambush_fox" in g.discard


def test_ambush_that_kills_every_attacker_ends_the_battle_without_a_roll() -> None:
    c = clearing_of("fox")
    g = start(
        c,
        dice=(3, 3),
        warriors={c: {MARQUISE: 2, EYRIE: 2}},
        hands={EYRIE: ("ambush_bird_1",), MARQUISE: ()},
    )
    choose(g, "ambush:ambush_bird_1")
    assert warriors(g, MARQUISE, c) == 0 and warriors(g, EYRIE, c) == 2
    assert g.rng.faces == [3, 3], "the dice were not rolled"


def test_attacker_may_foil_an_ambush_and_both_cards_are_discarded() -> None:
    c = clearing_of("mouse")
    g = start(
        c,
        dice=(0, 0),
        warriors={c: {MARQUISE: 2, EYRIE: 2}},
        hands={EYRIE: ("ambush_mouse",), MARQUISE: ("ambush_bird_2", "ambush_fox")},
    )
    choose(g, "ambush:ambush_mouse")
    d = decision(g)
    assert d.kind == "battle.foil" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["foil:ambush_bird_2", "pass"]  # the fox ambush does not match
    choose(g, "foil:ambush_bird_2")
    assert warriors(g, MARQUISE, c) == 2 and warriors(g, EYRIE, c) == 2
    assert {"ambush_mouse", "ambush_bird_2"} <= set(g.discard)
    assert g.players[MARQUISE_SEAT].hand == ["ambush_fox"]


def test_rt10_scouting_party_attacker_is_never_ambushed() -> None:
    c = clearing_of("mouse")
    g = start(
        c,
        dice=(0, 0),
        warriors={c: {MARQUISE: 2, EYRIE: 2}},
        hands={EYRIE: ("ambush_mouse",), MARQUISE: ()},
        crafted={MARQUISE: ("scouting_party_1",)},
    )
    assert not g.pending() or decision(g).kind != "battle.ambush"
    assert g.players[EYRIE_SEAT].hand == ["ambush_mouse"]


# ---------------------------------------------------------------- dice and hits (Law 4.3.2-4.3.4)


def test_high_die_to_the_attacker_low_to_the_defender() -> None:
    c = 5
    g = start(
        c, dice=(1, 3), warriors={c: {MARQUISE: 4, EYRIE: 4}}, hands={EYRIE: (), MARQUISE: ()}
    )
    assert warriors(g, EYRIE, c) == 1 and warriors(g, MARQUISE, c) == 3


def test_rolled_hits_are_capped_by_warriors_in_the_clearing() -> None:
    c = 5
    g = start(
        c, dice=(3, 3), warriors={c: {MARQUISE: 1, EYRIE: 2}}, hands={EYRIE: (), MARQUISE: ()}
    )
    assert warriors(g, EYRIE, c) == 1  # the attacker's 3 is capped at its 1 warrior
    assert warriors(g, MARQUISE, c) == 0


def test_defenseless_defender_takes_an_extra_hit_and_removal_scores() -> None:
    c = 5
    g = start(
        c,
        dice=(0, 0),
        warriors={c: {MARQUISE: 1}},
        buildings={c: ((EYRIE, "roost"),)},
        hands={EYRIE: (), MARQUISE: ()},
    )
    assert g.woodland.buildings(c).count((EYRIE, "roost")) == 0
    assert g.players[MARQUISE_SEAT].vp == 1


def test_hits_take_warriors_first_then_the_defender_chooses_buildings_and_tokens() -> None:
    c = 1  # a corner with slots
    g = start(
        c,
        dice=(2, 0),
        warriors={c: {EYRIE: 3, MARQUISE: 1}},
        buildings={c: ((MARQUISE, "workshop"),)},
        tokens={c: ((MARQUISE, "wood"),)},
        attacker=EYRIE_SEAT,
        current=EYRIE,
        hands={EYRIE: (), MARQUISE: ()},
    )
    d = decision(g)
    assert d.kind == "battle.remove" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["remove:wood", "remove:workshop"]
    assert warriors(g, MARQUISE, c) == 0  # the warrior went first
    choose(g, "remove:wood")
    assert g.woodland.tokens(c) == ()
    assert (MARQUISE, "workshop") in g.woodland.buildings(c)
    assert g.players[EYRIE_SEAT].vp == 1


def test_rt14_no_choice_when_all_pieces_go_or_are_of_one_kind() -> None:
    c = 1
    g = start(
        c,
        dice=(3, 0),
        warriors={c: {EYRIE: 3}},
        tokens={
            c: ((MARQUISE, "wood"), (MARQUISE, "wood"), (MARQUISE, "wood"), (MARQUISE, "wood"))
        },
        attacker=EYRIE_SEAT,
        current=EYRIE,
        hands={EYRIE: (), MARQUISE: ()},
    )
    # 3 rolled + 1 defenseless = 4 hits on four wood tokens: all removed without asking.
    assert g.woodland.tokens(c) == ()
    assert g.players[EYRIE_SEAT].vp == 4


# ---------------------------------------------------------------- battle effects (Law 4.3.3)


def test_rt9_brutal_tactics_the_attacker_decides_before_the_defender() -> None:
    """Both sides have an effect: the attacker chooses to go first (RT9), then the defender."""
    c = 5
    g = start(
        c,
        dice=(1, 1),
        warriors={c: {MARQUISE: 3, EYRIE: 3}},
        hands={EYRIE: (), MARQUISE: ()},
        crafted={MARQUISE: ("brutal_tactics_1",), EYRIE: ("sappers_1",)},
    )
    d = decision(g)
    assert d.kind == "battle.effects_first" and d.seat == MARQUISE_SEAT
    choose(g, "first:attacker")
    d = decision(g)
    assert d.kind == "battle.attacker_effects" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["use:brutal_tactics", "done"]
    choose(g, "use:brutal_tactics")
    assert g.players[EYRIE_SEAT].vp == 1  # the defender scores for Brutal Tactics
    d = decision(g)
    assert d.kind == "battle.defender_effects" and d.seat == EYRIE_SEAT
    assert keys(g) == ["use:sappers", "done"]
    choose(g, "use:sappers")
    assert warriors(g, EYRIE, c) == 3 - 2 and warriors(g, MARQUISE, c) == 3 - 2
    assert "sappers_1" in g.discard and g.players[EYRIE_SEAT].crafted == []
    assert g.players[MARQUISE_SEAT].crafted == ["brutal_tactics_1"]  # not discarded


def test_armorers_ignores_the_rolled_hits_you_take_and_is_discarded() -> None:
    c = 5
    g = start(
        c,
        dice=(3, 2),
        warriors={c: {MARQUISE: 3, EYRIE: 3}},
        hands={EYRIE: (), MARQUISE: ()},
        crafted={EYRIE: ("armorers_1",)},
    )
    assert decision(g).kind == "battle.defender_effects"
    choose(g, "use:armorers")
    assert warriors(g, EYRIE, c) == 3 and warriors(g, MARQUISE, c) == 1
    assert "armorers_1" in g.discard


def test_effects_are_not_offered_to_the_wrong_side() -> None:
    c = 5
    g = start(
        c,
        dice=(1, 1),
        warriors={c: {MARQUISE: 2, EYRIE: 2}},
        hands={EYRIE: (), MARQUISE: ()},
        crafted={MARQUISE: ("sappers_1",), EYRIE: ("brutal_tactics_1",)},
    )
    # Sappers is for defenders and Brutal Tactics for attackers: nothing to ask.
    assert warriors(g, EYRIE, c) == 1 and warriors(g, MARQUISE, c) == 1


def test_rt11_dice_show_zero_to_three_evenly() -> None:
    g = position()
    g.rng = random.Random(5)
    counts = Counter(roll_die(g) for _ in range(40_000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(abs(n / 40_000 - 0.25) < 0.01 for n in counts.values())


def test_an_illegal_answer_changes_nothing() -> None:
    c = 5
    g = start(
        c,
        warriors={c: {MARQUISE: 2, EYRIE: 2}},
        hands={EYRIE: ("ambush_bird_1",), MARQUISE: ()},
    )
    before = g.canonical()
    with pytest.raises(IllegalDecision):
        g.apply(MARQUISE_SEAT, 0)  # the defender decides the ambush
    with pytest.raises(IllegalDecision):
        g.apply(EYRIE_SEAT, 2)
    assert g.canonical() == before


def test_ambush_cards_are_data() -> None:
    ambushes = [c for c in CARD_BY_ID.values() if c.kind == "ambush"]
    assert sorted(c.suit for c in ambushes) == ["bird", "bird", "fox", "mouse", "rabbit"]
