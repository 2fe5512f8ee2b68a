"""The shared deck and discard pile (Law 2.1)."""

from __future__ import annotations

from games.root.faction import EVENING
from games.root.positions import EYRIE, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision

HAND = ("anvil", "sword", "bake_sale", "investments", "ambush_fox")


def test_law_2_1_the_discard_pile_becomes_the_deck_the_moment_the_deck_is_empty() -> None:
    """Law 2.1: "If the deck is ever empty, shuffle the discard pile immediately to form a new
    deck." Evening's draw takes the deck's last card, so the discard pile is shuffled into the
    new deck then; the card the hand limit discards afterwards starts the new discard pile
    instead of joining the deck."""
    g = position(
        warriors={1: {MARQUISE: 1}, 3: {EYRIE: 1}},
        hands={MARQUISE: HAND, EYRIE: ()},
        hold=True,
    )
    last, *rest = g.deck
    old_discard = [*rest, *g.discard]
    g.deck, g.discard = [last], old_discard
    # The Marquise's Evening (Law 6.6): draw one card (no recruiter on the map), then the hand
    # limit.
    evening = g.rules(MARQUISE_SEAT).phase(g, MARQUISE_SEAT, EVENING)
    assert evening is not None
    g.push(evening)
    g.resume()
    assert last in g.players[MARQUISE_SEAT].hand and len(g.players[MARQUISE_SEAT].hand) == 6
    assert sorted(g.deck) == sorted(old_discard) and g.discard == []
    d = decision(g)
    assert d.kind == "hand_limit.discard" and d.seat == MARQUISE_SEAT
    choose(g, "discard:anvil")
    assert g.discard == ["anvil"]
    assert sorted(g.deck) == sorted(old_discard)


def test_law_2_1_with_nothing_to_shuffle_the_next_draw_shuffles_what_was_discarded() -> None:
    """A draw takes the deck's last card while the discard pile is empty too (every other card
    in hands or play): nothing can be shuffled then. Cards discarded afterwards lie face up on
    the discard pile, and the next draw shuffles them into the deck."""
    g = position(hands={MARQUISE: HAND, EYRIE: ()}, hold=True)
    last, *rest = g.deck
    g.players[1 - MARQUISE_SEAT].hand.extend([*rest, *g.discard])
    g.deck, g.discard = [last], []
    assert g.draw(MARQUISE_SEAT, 1) == [last]
    assert g.deck == [] and g.discard == []
    g.spend(MARQUISE_SEAT, "anvil", "test")
    g.spend(MARQUISE_SEAT, "sword", "test")
    assert g.deck == [] and g.discard == ["anvil", "sword"]
    assert sorted(g.draw(MARQUISE_SEAT, 1) + g.deck) == ["anvil", "sword"]
    assert g.discard == []
