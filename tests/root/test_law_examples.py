"""Scenarios from the examples and asides of the Law of Root (its italic parentheses), each
played through the engine. Section numbers follow the Law app's order."""

from __future__ import annotations

from games.root.battle import Battle
from games.root.marquise import Daylight, Overwork
from games.root.moving import Move
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision, keys
from tests.root.test_battle import FixedDice


def test_law_4_3_2_equal_rolls_deal_the_same_hits_both_ways() -> None:
    """'If the rolls are equal, attacker and defender will deal the same number of hits.'"""
    g = position(warriors={5: {MARQUISE: 3, EYRIE: 3}}, hands={MARQUISE: (), EYRIE: ()}, hold=True)
    g.rng = FixedDice(2, 2)
    g.push(Battle(MARQUISE_SEAT, (5,)))
    g.resume()
    assert g.woodland.warriors(MARQUISE, 5) == 1 and g.woodland.warriors(EYRIE, 5) == 1


def test_law_2_5_tokens_do_not_contribute_to_rule() -> None:
    """'(Tokens and pawns do not contribute to rule.)' A keep and three wood lose to one bird."""
    tokens = ((MARQUISE, "keep"), (MARQUISE, "wood"), (MARQUISE, "wood"), (MARQUISE, "wood"))
    g = position(warriors={1: {EYRIE: 1}}, tokens={1: tokens}, hold=True)
    assert g.woodland.ruler(1) == EYRIE


def test_law_6_2_2_pieces_may_be_moved_into_the_keep_but_not_placed() -> None:
    """The keep: other players cannot place pieces there. '(Pieces may be moved into it.)'"""
    keep = 1
    g = position(tokens={keep: ((MARQUISE, "keep"),)}, hold=True)
    neighbour = g.board.neighbours[keep][0]
    g.woodland.place_warriors(EYRIE, neighbour, 2)
    g.push(Move(EYRIE_SEAT, (neighbour,)))
    g.resume()
    assert decision(g).kind == "move.destination" and f"clearing:{keep}" in keys(g)
    choose(g, f"clearing:{keep}")
    choose(g, "count:2")
    assert g.woodland.warriors(EYRIE, keep) == 2
    assert not g.may_place(EYRIE_SEAT, keep) and g.may_place(MARQUISE_SEAT, keep)


def test_law_7_5_2_an_eyrie_move_moves_at_least_one_warrior() -> None:
    """Decree Move: '(You must move at least one warrior.)' - no zero, no 'done'."""
    g = position(warriors={5: {EYRIE: 3}}, hold=True)
    g.push(Move(EYRIE_SEAT, (5,), optional=False))
    g.resume()
    assert "done" not in keys(g)
    choose(g, keys(g)[0])
    assert keys(g) == ["count:1", "count:2", "count:3"]


def test_law_2_1_1_birds_are_wild_but_a_bird_cost_needs_a_bird() -> None:
    """'You can treat any bird card as a card of another suit'; 'if you are prompted to spend
    ... a bird card, you cannot substitute a card of another suit' (Hawks for Hire)."""
    fox_sawmill = 1
    g = position(
        buildings={fox_sawmill: ((MARQUISE, "sawmill"),)},
        warriors={fox_sawmill: {MARQUISE: 1}},
        hands={MARQUISE: ("ambush_bird_1", "bake_sale"), EYRIE: ()},
        hold=True,
    )
    g.push(Overwork(MARQUISE_SEAT))
    g.resume()
    # Overwork in a fox clearing: the bird card is the only card that may be spent, so the
    # engine spent it without asking; the rabbit card stays in hand.
    assert g.players[MARQUISE_SEAT].hand == ["bake_sale"]
    assert (MARQUISE, "wood") in g.woodland.tokens(fox_sawmill)
    g2 = position(
        warriors={fox_sawmill: {MARQUISE: 1}, 3: {EYRIE: 1}},
        hands={MARQUISE: ("anvil", "bake_sale"), EYRIE: ()},
        hold=True,
    )
    daylight = Daylight(MARQUISE_SEAT)
    daylight.stage, daylight.actions = "action", 0
    g2.push(daylight)
    g2.resume()
    # No actions left and no bird card: nothing buys an extra action, Daylight just ends.
    assert decision(g2).kind == "hold.start"
