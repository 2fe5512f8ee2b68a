"""The order of a battle's steps and of what they trigger (Law 4.3, 1.5.4, 6.2.3)."""

from __future__ import annotations

from games.root.battle import Battle
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from games.root.state import RootState
from tests.root.helpers import choose, decision, keys
from tests.root.test_battle import FixedDice

KEEP = 1  # an Autumn fox corner
OTHER_FOX = 8  # a fox clearing that is not the keep's


def _ambushed_march_on(battlefield: int) -> RootState:
    """The Marquise attack the Eyrie in the fox clearing ``battlefield`` with two warriors; the
    Eyrie play the fox ambush, she cannot foil it, and it removes both her warriors there. She
    holds a fox card for Field Hospitals. The keep is in clearing 1."""
    warriors = {battlefield: {MARQUISE: 2, EYRIE: 2}}
    if battlefield != KEEP:
        warriors[KEEP] = {MARQUISE: 1}
    g = position(
        warriors=warriors,
        tokens={KEEP: ((MARQUISE, "keep"),)},
        hands={MARQUISE: ("anvil",), EYRIE: ("ambush_fox",)},
        hold=True,
    )
    g.rng = FixedDice(3, 1)
    g.push(Battle(MARQUISE_SEAT, (battlefield,)))
    g.resume()
    d = decision(g)
    assert d.kind == "battle.ambush" and d.seat == EYRIE_SEAT
    choose(g, "ambush:ambush_fox")
    assert g.woodland.warriors(MARQUISE, battlefield) == 0
    d = decision(g)
    assert d.kind == "marquise.field_hospitals" and d.seat == MARQUISE_SEAT
    choose(g, "hospital:anvil")
    return g


def test_law_4_3_1_field_hospitals_in_the_keeps_clearing_keeps_the_battle_going() -> None:
    """Law 4.3.1.II: the ambush deals two hits; "If no attacking warriors or pawns remain, end
    the battle immediately." Law 6.2.3: Field Hospitals places the removed warriors "in the
    clearing with the keep token instead of the Marquise's supply" - at once, so when the battle
    is in the keep's clearing they are attacking warriors again and the battle goes on to the
    roll (3 and 1: her two warriors deal two hits, the Eyrie's two one)."""
    g = _ambushed_march_on(KEEP)
    assert g.woodland.warriors(MARQUISE, KEEP) == 1  # two back, one lost to the roll
    assert g.woodland.warriors(EYRIE, KEEP) == 0
    assert decision(g).kind == "hold.start"


def test_law_4_3_1_field_hospitals_elsewhere_still_ends_the_battle() -> None:
    """The same ambush away from the keep: Field Hospitals sends the two warriors to the keep's
    clearing, none attack in the clearing of battle, so the battle ends without a roll."""
    g = _ambushed_march_on(OTHER_FOX)
    assert g.woodland.warriors(MARQUISE, KEEP) == 3
    assert g.woodland.warriors(MARQUISE, OTHER_FOX) == 0
    assert g.woodland.warriors(EYRIE, OTHER_FOX) == 2
    assert decision(g).kind == "hold.start"


def _effects_battle() -> RootState:
    """The Marquise (Brutal Tactics) attack three warriors against two of the Eyrie's (Sappers)
    in a fox clearing; the roll is 3 and 1."""
    g = position(
        warriors={OTHER_FOX: {MARQUISE: 3, EYRIE: 2}},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("brutal_tactics_1",), EYRIE: ("sappers_1",)},
        hold=True,
    )
    g.rng = FixedDice(3, 1)
    g.push(Battle(MARQUISE_SEAT, (OTHER_FOX,)))
    g.resume()
    return g


def test_rt9_the_attacker_chooses_who_uses_effects_first() -> None:
    """Law 4.3.3: "The attacker and defender may use optional effects that affect battle. If
    both want to use effects, the attacker chooses who uses them first." The attacker lets the
    defender go first: the Eyrie use Sappers, then the Marquise, knowing it, decline Brutal
    Tactics."""
    g = _effects_battle()
    d = decision(g)
    assert d.kind == "battle.effects_first" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["first:attacker", "first:defender"]
    choose(g, "first:defender")
    d = decision(g)
    assert d.kind == "battle.defender_effects" and d.seat == EYRIE_SEAT
    choose(g, "use:sappers")
    d = decision(g)
    assert d.kind == "battle.attacker_effects" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["use:brutal_tactics", "done"]
    choose(g, "done")
    # Hits: 3 (rolled) to the Eyrie's two warriors; 1 rolled + 1 Sappers to the Marquise.
    assert g.woodland.warriors(EYRIE, OTHER_FOX) == 0
    assert g.woodland.warriors(MARQUISE, OTHER_FOX) == 1
    assert g.players[EYRIE_SEAT].vp == 0  # no Brutal Tactics point
    assert decision(g).kind == "hold.start"


def test_rt9_attacker_first_then_the_defender() -> None:
    """The attacker may also go first; the defender answers second."""
    g = _effects_battle()
    choose(g, "first:attacker")
    assert decision(g).kind == "battle.attacker_effects"
    choose(g, "use:brutal_tactics")
    assert g.players[EYRIE_SEAT].vp == 1  # Brutal Tactics: the defender scores one
    d = decision(g)
    assert d.kind == "battle.defender_effects" and d.seat == EYRIE_SEAT
    choose(g, "done")
    assert g.woodland.warriors(MARQUISE, OTHER_FOX) == 2
    assert decision(g).kind == "hold.start"


def test_rt9_one_side_with_effects_is_asked_alone() -> None:
    """Only the attacker has an effect: no question of order."""
    g = position(
        warriors={OTHER_FOX: {MARQUISE: 3, EYRIE: 2}},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("brutal_tactics_1",)},
        hold=True,
    )
    g.rng = FixedDice(3, 1)
    g.push(Battle(MARQUISE_SEAT, (OTHER_FOX,)))
    g.resume()
    assert decision(g).kind == "battle.attacker_effects"
