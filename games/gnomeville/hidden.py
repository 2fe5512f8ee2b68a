"""Determinization (ruling G51): a copy of the game in which what one seat cannot know is
drawn again, for search bots that must not plan with hidden information.

What a seat cannot know:

- the order of the face-down troll deck and special delivery deck (their contents are known:
  every card not yet revealed);
- which event cards lie in the face-down event slots (any of the deck's cards not face up);
- the cards in the ability piles (G19), except those the seat saw go under a pile (its own put
  back cards) — the towns keep these marks (``Town.pile_seen``), and the view lists them;
  discarded cards (an exhausted gnome's) are face up and out of the game, never in a pile;
- every bag's future draws (bag contents are public counts: only the streams are reseeded);
- what the other seats did since the last barrier (their events are held until it): in the
  sample those seats stand where the seat last saw them, at the barrier, and play on from there.

The last one needs the position at the last barrier. It comes from replaying the game's own
record (seed and answers) — the engine keeps no undo log, and a replay costs nothing while no
one determinizes. The replay is cached on the state and extended as the game goes on. A
position its record does not lead to (one set up by hand, or rebuilt from a view) keeps every
seat where it is.

Everything a sample keeps is in the seat's view, so the same seed gives the same sample from a
position rebuilt from that view (``tests/test_determinize.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.contract import IllegalDecision
from games.gnomeville.town import EMPTY, PUBLIC

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

__all__ = ["DEALT", "PUBLIC", "Replay", "determinize", "replay_of", "step_cards"]

#: A pile card dealt face down, seen by nobody (the cards above ``Town.pile_seen``).
DEALT = -1


@dataclass(frozen=True)
class Replay:
    """The game replayed up to ``len(history)`` answers: the state then, and the state right
    after the last barrier (answers ``barrier_at``)."""

    history: tuple[tuple[int, int], ...]
    state: GnomevilleState
    barrier_at: int
    at_barrier: GnomevilleState
    #: Unused: the towns keep their pile marks (``Town.pile_seen``). Accepted so that a replay
    #: started by hand with them (``positions.py``) still works.
    marks: tuple[tuple[int, ...], ...] = ()
    marks_at_barrier: tuple[tuple[int, ...], ...] = ()


def replay_of(g: GnomevilleState) -> Replay | None:
    """The replay of ``g``'s record, from the cache when it holds a prefix of it; None when
    the record does not replay (a position set up by hand, then played on)."""
    from games.gnomeville.state import GnomevilleState

    history = tuple(g.history)
    cached: Replay | None = g.__dict__.get("_replay")
    if cached is not None and history[: len(cached.history)] == cached.history:
        if len(cached.history) == len(history):
            return cached
        state = cached.state.clone()
        barrier_at, at_barrier = cached.barrier_at, cached.at_barrier
        done = len(cached.history)
    else:
        state = GnomevilleState(g.config, g.seed, g.pack, g.turn_by_turn, g.master_build)
        barrier_at, at_barrier = 0, state.clone()
        done = 0
    for number in range(done, len(history)):
        seat, index = history[number]
        records = state._records  # a barrier records the towns anew
        try:
            state.apply(seat, index)
        except IllegalDecision:
            return None
        if state._records is not records:
            barrier_at, at_barrier = number + 1, state.clone()
    found = Replay(history, state, barrier_at, at_barrier)
    g.__dict__["_replay"] = found
    return found


def determinize(g: GnomevilleState, seat: int, seed: int) -> GnomevilleState:
    """A sample of the game as ``seat`` may believe it to be (see the module's text)."""
    sample = g.clone()
    sample._events = []
    replay = replay_of(g) if g.history else None
    if replay is not None and replay.state.canonical() != g.canonical():
        replay = None  # a position set up by hand: its record does not lead to it
    if replay is not None:
        moved = {s for s, _ in g.history[replay.barrier_at :]} - {seat}
        base = replay.at_barrier
        for p in sorted(moved):
            sample.towns[p] = base.towns[p].copy()
            sample.stacks[p] = [step.copy() for step in base.stacks[p]]
            sample._decisions[p] = base._decisions[p]
            sample._held[p] = []
        # The sample's record: the rolled-back answers never happened (seats are independent
        # between barriers, so the rest replays to the same position).
        sample.history = [
            answer
            for number, answer in enumerate(g.history)
            if number < replay.barrier_at or answer[0] not in moved
        ]
    rng = random.Random(_seed(seed, "sample"))
    sample.troll_deck = _shuffled(rng, g.troll_deck)
    sample.delivery_deck = _shuffled(rng, g.delivery_deck)
    _redraw_events(sample, rng)
    _redraw_piles(sample, seat, rng)
    sample.rng = random.Random(_seed(seed, "table"))
    for town in sample.towns:
        town.rng = random.Random(_seed(seed, f"bag:{town.seat}"))
    sample._pending = tuple(d for d in sample._decisions if d is not None)
    sample.__dict__.pop("_replay", None)
    return sample


def _seed(seed: int, name: str) -> int:
    from games.gnomeville.state import stream_seed

    return stream_seed(seed, f"determinize:{name}")


def _shuffled(rng: random.Random, cards: list[int]) -> list[int]:
    """The cards in a new order that depends only on which cards they are."""
    out = sorted(cards)
    rng.shuffle(out)
    return out


def _redraw_events(g: GnomevilleState, rng: random.Random) -> None:
    """Face-down event slots get cards from those not face up."""
    deck = g.pack.solo_events if g.solo else g.pack.multi_events
    up = g.events[: g.events_up]
    pool = [card for card in range(len(deck)) if card not in up]
    g.events = up + rng.sample(pool, len(g.events) - len(up))


def step_cards(g: GnomevilleState) -> set[int]:
    """Ability cards held by a step in progress (an academy's two drawn cards)."""
    out: set[int] = set()
    for stack in g.stacks:
        for step in stack:
            if step.name == "academy":
                out.update(getattr(step, "cards", ()))
    return out


def _redraw_piles(g: GnomevilleState, seat: int, rng: random.Random) -> None:
    """Every pile keeps its size and the cards ``seat`` knows (``Town.pile_known``); the other
    places get the cards nobody shows, in a new order."""
    known: set[int] = set()
    places: list[tuple[int, int]] = []
    for p, town in enumerate(g.towns):
        seen = dict(town.pile_known(seat))
        known.update(seen.values())
        places.extend((p, i) for i in range(len(town.ability_pile)) if i not in seen)
    shown = {card for town in g.towns for card in town.ability if card != EMPTY}
    shown.update(card for town in g.towns for card in town.discard)
    shown |= step_cards(g)
    pool = [c for c in range(len(g.pack.abilities)) if c not in shown and c not in known]
    rng.shuffle(pool)
    assert len(pool) >= len(places), "more unknown places in the piles than unseen cards"
    for town in g.towns:
        town.ability_pile = list(town.ability_pile)
    for (p, i), card in zip(places, pool[: len(places)], strict=True):
        g.towns[p].ability_pile[i] = card
