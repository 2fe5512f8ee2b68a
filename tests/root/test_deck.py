"""The shared deck and discard pile (Law 2.1, RT25)."""

from __future__ import annotations

from functools import partial

import pytest

from games.contract import GameConfig, replay
from games.policies import RandomPolicy
from games.policies.base import DecisionContext
from games.root.faction import EVENING
from games.root.game import GAME
from games.root.invariants import check_invariants
from games.root.positions import EYRIE, MARQUISE, MARQUISE_SEAT, position
from tests.conftest import Depth
from tests.root.helpers import choose, decision

LIMIT = 40_000

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


def test_rt25_law_2_1_a_card_discarded_onto_an_empty_deck_becomes_the_deck_at_once() -> None:
    """Law 2.1: "If the deck is ever empty, shuffle the discard pile immediately to form a new
    deck." Evening's draw takes the deck's last card while the discard pile is empty too (every
    other card is in a hand): nothing can be shuffled then. The card the hand limit discards
    next is at once shuffled into the deck (RT25), before anything else is asked."""
    g = position(
        warriors={1: {MARQUISE: 1}, 3: {EYRIE: 1}},
        hands={MARQUISE: HAND, EYRIE: ()},
        hold=True,
    )
    last, *rest = g.deck
    g.players[1 - MARQUISE_SEAT].hand.extend([*rest, *g.discard])
    g.deck, g.discard = [last], []
    evening = g.rules(MARQUISE_SEAT).phase(g, MARQUISE_SEAT, EVENING)
    assert evening is not None
    g.push(evening)
    g.resume()
    assert last in g.players[MARQUISE_SEAT].hand
    assert g.deck == [] and g.discard == []  # nothing to shuffle yet
    assert decision(g).kind == "hand_limit.discard"
    d = decision(g)
    [index] = [i for i, o in enumerate(d.options) if o.key == "discard:anvil"]
    events = g.apply(d.seat, index)
    assert g.deck == ["anvil"] and g.discard == []
    kinds = [e.kind for e in events]
    assert kinds.index("discard") < kinds.index("reshuffle")
    [reshuffle] = [e for e in events if e.kind == "reshuffle"]
    assert reshuffle.data["cards"] == 1
    check_invariants(g)


@pytest.mark.parametrize("players", [3, 4])
def test_rt25_law_2_1_no_decision_sees_an_empty_deck_beside_a_discard_pile(
    players: int, depth: Depth
) -> None:
    """Law 2.1 (RT25) over random games: at every decision point of seeded three- and
    four-player games played by the random policy, the deck is not empty while the discard
    pile holds cards (so Day Labor never takes a card the Law has shuffled away)."""
    decisions = 0
    for seed in range(depth(8, 40)):
        config = GameConfig(players, ("autumn", "winter")[seed % 2])
        g = GAME.new(config, seed)
        policies = [RandomPolicy(seed * 10 + seat) for seat in range(players)]
        for _ in range(LIMIT):
            assert g.deck or not g.discard, f"seed {seed}: empty deck, discard {g.discard}"
            if not g.pending():
                break
            d = g.pending()[0]
            ctx = DecisionContext(GAME.name, d.seat, d, partial(g.observe, d.seat))
            g.apply(d.seat, policies[d.seat].choose(ctx))
            decisions += 1
        assert replay(GAME, config, seed, g.history).canonical() == g.canonical()
    assert decisions > 1000
