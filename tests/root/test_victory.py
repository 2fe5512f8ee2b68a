"""Victory (Law 3.1): the first to 30 wins at once; several at once, the player taking the turn."""

from __future__ import annotations

from games.root.battle import Battle
from games.root.eyrie import board_of
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision, keys
from tests.root.test_battle import FixedDice

BATTLEFIELD = 8  # an Autumn fox clearing with two building slots


def test_rt5_a_battles_hits_reach_thirty_at_once_and_the_turns_player_wins() -> None:
    """Law 3.1: "If multiple players reach 30 or more victory points simultaneously, the player
    taking the current turn wins." Law 4.3.4: both sides' hits are dealt in one step. The Eyrie
    (taking the turn, Commander: an extra hit) attack with one warrior and their roost; the
    Marquise defend with one warrior, a sawmill and a wood, and use Sappers. Her two hits remove
    the Eyrie warrior and the roost at once (29 -> 30); the Eyrie's two remove her warrior and
    then the piece she chooses (29 -> 30). Both reached 30 in the same hits, however the choice
    was ordered: the Eyrie win, not the side whose removal needed no choice."""
    g = position(
        warriors={BATTLEFIELD: {MARQUISE: 1, EYRIE: 1}},
        buildings={BATTLEFIELD: ((MARQUISE, "sawmill"), (EYRIE, "roost"))},
        tokens={BATTLEFIELD: ((MARQUISE, "wood"),)},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("sappers_1",)},
        vp={MARQUISE: 29, EYRIE: 29},
        current=EYRIE,
        hold=True,
    )
    board_of(g, EYRIE_SEAT).leader = "commander"
    g.rng = FixedDice(3, 1)
    g.push(Battle(EYRIE_SEAT, (BATTLEFIELD,)))
    g.resume()
    assert decision(g).kind == "battle.defender_effects"
    choose(g, "use:sappers")
    # The Marquise's hits are dealt: the Eyrie warrior and roost are gone, she has 30 VP ...
    assert g.players[MARQUISE_SEAT].vp == 30 and g.woodland.warriors(EYRIE, BATTLEFIELD) == 0
    # ... but the game goes on until she has chosen which of her pieces the last hit removes.
    d = decision(g)
    assert d.kind == "battle.remove" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["remove:sawmill", "remove:wood"]
    choose(g, "remove:sawmill")
    assert g.players[EYRIE_SEAT].vp == 30
    assert g.winners == [(EYRIE_SEAT, g.turns)]
    outcome = g.outcome()
    assert outcome is not None and outcome.ranking[0] == EYRIE_SEAT


def test_rt5_a_point_scored_before_the_hits_wins_first() -> None:
    """Law 3.1: "The first player to reach 30 victory points immediately wins the game."
    Brutal Tactics gives the defender its point when the attacker uses it, before any hit is
    dealt (Law 4.3.3): a defender at 29 wins then, though the attacker's hits would have taken
    it to 30 as well."""
    g = position(
        warriors={BATTLEFIELD: {MARQUISE: 3, EYRIE: 1}},
        buildings={BATTLEFIELD: ((EYRIE, "roost"),)},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("brutal_tactics_1",)},
        vp={MARQUISE: 29, EYRIE: 29},
        hold=True,
    )
    g.rng = FixedDice(3, 0)
    g.push(Battle(MARQUISE_SEAT, (BATTLEFIELD,)))
    g.resume()
    assert decision(g).kind == "battle.attacker_effects"
    choose(g, "use:brutal_tactics")
    assert g.winners == [(EYRIE_SEAT, g.turns)]
    assert g.players[MARQUISE_SEAT].vp == 29  # the hits were never dealt
