"""Determinization (ruling G51): a copy of the game in which what one seat cannot know is
drawn again, for search bots that must not plan with hidden information.

What a seat cannot know:

- the order of the face-down troll deck and special delivery deck (their contents are known:
  every card not yet revealed);
- which event cards lie in the face-down event slots (any of the deck's cards not face up);
- the cards in the ability piles (G19), except those the seat saw go under a pile: its own put
  back and lost cards, and any seat's lost cards (an exhausted gnome's card was face up);
- every bag's future draws (bag contents are public counts: only the streams are reseeded);
- what the other seats did since the last barrier (their events are held until it): in the
  sample those seats stand where the seat last saw them, at the barrier, and play on from there.

The last two need the position at the last barrier and what each pile's cards are known to be.
Both come from replaying the game's own record (seed and answers) — the engine keeps no undo
log, and a replay costs nothing while no one determinizes. The replay is cached on the state
and extended as the game goes on. A position its record does not lead to (one set up by hand
in a test) keeps every seat where it is and treats every pile card as unseen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.contract import Event
from games.gnomeville.town import EMPTY

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

#: Pile marks: a dealt card nobody saw, a card everybody saw go under (a lost ability);
#: any other mark is the seat that alone saw it go under (a card it put back).
DEALT = -1
PUBLIC = -2


@dataclass(frozen=True)
class Replay:
    """The game replayed up to ``len(history)`` answers: the state then, the state right after
    the last barrier (answers ``barrier_at``), and each pile's marks at both moments."""

    history: tuple[tuple[int, int], ...]
    state: GnomevilleState
    barrier_at: int
    at_barrier: GnomevilleState
    marks: tuple[tuple[int, ...], ...]
    marks_at_barrier: tuple[tuple[int, ...], ...]


def replay_of(g: GnomevilleState) -> Replay:
    """The replay of ``g``'s record, from the cache when it holds a prefix of it."""
    from games.gnomeville.state import GnomevilleState

    history = tuple(g.history)
    cached: Replay | None = g.__dict__.get("_replay")
    if cached is not None and history[: len(cached.history)] == cached.history:
        if len(cached.history) == len(history):
            return cached
        state = cached.state.clone()
        barrier_at, at_barrier = cached.barrier_at, cached.at_barrier
        marks = [list(m) for m in cached.marks]
        marks_at_barrier = cached.marks_at_barrier
        done = len(cached.history)
    else:
        state = GnomevilleState(g.config, g.seed, g.pack, g.turn_by_turn, g.master_build)
        barrier_at, at_barrier = 0, state.clone()
        marks = [[DEALT] * len(t.ability_pile) for t in state.towns]
        marks_at_barrier = tuple(tuple(m) for m in marks)
        done = 0
    for number in range(done, len(history)):
        seat, index = history[number]
        records = state._records  # a barrier records the towns anew
        piles = [list(t.ability_pile) for t in state.towns]
        events = state.apply(seat, index)
        _mark(state, piles, marks, events)
        if state._records is not records:
            barrier_at, at_barrier = number + 1, state.clone()
            marks_at_barrier = tuple(tuple(m) for m in marks)
    found = Replay(
        history,
        state,
        barrier_at,
        at_barrier,
        tuple(tuple(m) for m in marks),
        marks_at_barrier,
    )
    g.__dict__["_replay"] = found
    return found


def _mark(
    state: GnomevilleState,
    before: list[list[int]],
    marks: list[list[int]],
    events: tuple[Event, ...],
) -> None:
    """Follow each pile through one answer: cards leave from the top and go under at the
    bottom (a queue), so the pile is ``before[drawn:] + added``. An added card named by an
    ``exhausted`` event was seen by all; any other was put back, seen by its owner alone."""
    lost = {
        (e.data["seat"], e.data["ability"])
        for e in events
        if e.kind == "exhausted" and e.data.get("ability")
    }
    ids = [a.id for a in state.pack.abilities]
    for p, town in enumerate(state.towns):
        old, new = before[p], town.ability_pile
        if old == new:
            continue
        drawn = next(d for d in range(len(old) + 1) if new[: len(old) - d] == old[d:])
        added = new[len(old) - drawn :]
        marks[p] = marks[p][drawn:] + [PUBLIC if (p, ids[c]) in lost else p for c in added]


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
        marks = [
            list(replay.marks_at_barrier[p] if p in moved else replay.marks[p])
            for p in range(g.players)
        ]
        # The sample's record: the rolled-back answers never happened (seats are independent
        # between barriers, so the rest replays to the same position).
        sample.history = [
            answer
            for number, answer in enumerate(g.history)
            if number < replay.barrier_at or answer[0] not in moved
        ]
    else:
        marks = [[DEALT] * len(t.ability_pile) for t in g.towns]
    rng = random.Random(_seed(seed, "sample"))
    sample.troll_deck = _shuffled(rng, g.troll_deck)
    sample.delivery_deck = _shuffled(rng, g.delivery_deck)
    _redraw_events(sample, rng)
    _redraw_piles(sample, seat, marks, rng)
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


def _redraw_piles(
    g: GnomevilleState, seat: int, marks: list[list[int]], rng: random.Random
) -> None:
    """Every pile keeps its size and the cards ``seat`` knows (by their marks); the other
    places get the cards nobody shows, in a new order."""
    known: set[int] = set()
    places: list[tuple[int, int]] = []
    for p, town in enumerate(g.towns):
        pile = town.ability_pile
        mark = marks[p] if len(marks[p]) == len(pile) else [DEALT] * len(pile)
        for i, card in enumerate(pile):
            if mark[i] == PUBLIC or mark[i] == seat:
                known.add(card)
            else:
                places.append((p, i))
    shown = {card for town in g.towns for card in town.ability if card != EMPTY}
    shown |= step_cards(g)
    pool = [c for c in range(len(g.pack.abilities)) if c not in shown and c not in known]
    rng.shuffle(pool)
    assert len(pool) >= len(places), "more unknown places in the piles than unseen cards"
    for town in g.towns:
        town.ability_pile = list(town.ability_pile)
    for (p, i), card in zip(places, pool[: len(places)], strict=True):
        g.towns[p].ability_pile[i] = card
