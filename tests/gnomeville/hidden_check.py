"""What Gnomeville hides from a seat, for ``tests/test_determinize.py`` (its ``HIDDEN`` entry)
and ``test_hidden.py``: the check that a sample redraws only what the seat's view allows
(ruling G51), the hidden part compared between samples, and a position rebuilt from a view
(by the game itself: ``games/gnomeville/rebuild.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from games.gnomeville import GnomevilleState
from games.gnomeville.hidden import replay_of, step_cards
from games.gnomeville.town import EMPTY, Town


def ability_places(g: GnomevilleState) -> Counter[int]:
    """Every ability card in a pile, on a tracker, discarded or held by a step."""
    found: Counter[int] = Counter()
    for town in g.towns:
        found.update(town.ability_pile)
        found.update(card for card in town.ability if card != EMPTY)
        found.update(town.discard)
    found.update(step_cards(g))
    return found


def gnomeville_check(real: GnomevilleState, sample: GnomevilleState, seat: int) -> None:
    """G51: decks keep their cards, face-up events stay, face-down slots hold cards not face
    up; no ability card is in two places, the seat's trackers, pile size and the pile cards it
    knows stay (in every pile); bags keep their counts; what is public is untouched."""
    assert sorted(sample.troll_deck) == sorted(real.troll_deck), "the troll deck's cards"
    assert sorted(sample.delivery_deck) == sorted(real.delivery_deck), "the delivery deck"
    up = real.events_up
    assert sample.events_up == up and sample.events[:up] == real.events[:up]
    assert len(sample.events) == len(real.events)
    hidden = sample.events[up:]
    deck = real.pack.solo_events if real.solo else real.pack.multi_events
    assert len(set(hidden)) == len(hidden) and not set(hidden) & set(real.events[:up])
    assert all(0 <= card < len(deck) for card in hidden)
    places = ability_places(sample)
    assert all(n == 1 for n in places.values()), f"an ability card twice: {places}"
    assert set(places) <= set(range(len(real.pack.abilities)))
    mine, theirs = sample.towns[seat], real.towns[seat]
    assert mine.ability == theirs.ability and len(mine.ability_pile) == len(theirs.ability_pile)
    assert mine.bag == theirs.bag and mine.drawn == theirs.drawn
    for p, source in enumerate(starting_towns(real, seat)):
        town = sample.towns[p]
        assert town.bag == source.bag, f"seat {p}'s bag"
        assert len(town.ability_pile) == len(source.ability_pile), f"seat {p}'s pile size"
        for at, card in source.pile_known(seat):
            assert town.ability_pile[at] == card, f"a card of seat {p}'s pile the seat knows moved"
    assert sample.supply == real.supply and sample.goals == real.goals
    assert (sample.round, sample.phase, sample.round_card, sample.ambush_card) == (
        real.round,
        real.phase,
        real.round_card,
        real.ambush_card,
    )
    assert (sample.troll_discard, sample.delivery_discard) == (
        real.troll_discard,
        real.delivery_discard,
    )


def starting_towns(real: GnomevilleState, seat: int) -> list[Town]:
    """The towns a sample for ``seat`` starts from: the real ones, but those of the seats that
    moved since the last barrier as they were then (the seat has not seen their moves)."""
    if not real.history:
        return real.towns
    replay = replay_of(real)
    if replay.state.canonical() != real.canonical():
        return real.towns  # a position set up by hand
    moved = {p for p, _ in real.history[replay.barrier_at :]} - {seat}
    return [replay.at_barrier.towns[p] if p in moved else t for p, t in enumerate(real.towns)]


def gnomeville_secret(g: GnomevilleState, seat: int) -> Hashable:
    """The deck orders, the face-down events and the ability piles."""
    return (
        tuple(g.troll_deck),
        tuple(g.delivery_deck),
        tuple(g.events[g.events_up :]),
        tuple(tuple(town.ability_pile) for town in g.towns),
    )


def gnomeville_rebuild(view: Any, seed: int) -> GnomevilleState | None:
    """The game's own rebuild (``GnomevilleState.from_view``), or None at a moment it cannot
    rebuild (a spectator's view, the end of the game)."""
    try:
        return GnomevilleState.from_view(view, seed)
    except ValueError:
        return None
