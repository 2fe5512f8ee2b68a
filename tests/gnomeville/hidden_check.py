"""What Gnomeville hides from a seat, for ``tests/test_determinize.py`` (its ``HIDDEN`` entry)
and ``test_hidden.py``: the check that a sample redraws only what the seat's view allows
(ruling G51), the hidden part compared between samples, and a position rebuilt from a view.

The view carries everything a seat may know of round 1's build phase, so a position is rebuilt
from it there; later the view leaves out public facts a seat remembers from the events (the
troll and delivery cards already used, destroyed tiles beside the board, pile sizes), so the
rebuild answers None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from games.contract import GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.buildings import KINDS, Tile
from games.gnomeville.hidden import PUBLIC, replay_of, step_cards
from games.gnomeville.steps import Step
from games.gnomeville.town import EMPTY
from games.gnomeville.view import GnomevilleView, StepView


def ability_places(g: GnomevilleState) -> Counter[int]:
    """Every ability card in a pile, on a tracker or held by a step."""
    found: Counter[int] = Counter()
    for town in g.towns:
        found.update(town.ability_pile)
        found.update(card for card in town.ability if card != EMPTY)
    found.update(step_cards(g))
    return found


def gnomeville_check(real: GnomevilleState, sample: GnomevilleState, seat: int) -> None:
    """G51: decks keep their cards, face-up events stay, face-down slots hold cards not face
    up; no ability card is in two places, the seat's trackers, pile size and the pile cards it
    knows stay; bags keep their counts; what is public is untouched."""
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
    if real.history:
        marks = replay_of(real).marks[seat]
        for i, mark in enumerate(marks):
            if mark in (PUBLIC, seat):
                assert mine.ability_pile[i] == theirs.ability_pile[i], "a known card moved"
    for p, town in enumerate(sample.towns):
        assert town.bag == list(sample.snapshot[p].bag) or p == seat
    assert sample.supply == real.supply and sample.goals == real.goals
    assert (sample.round, sample.phase, sample.round_card, sample.ambush_card) == (
        real.round,
        real.phase,
        real.round_card,
        real.ambush_card,
    )


def gnomeville_secret(g: GnomevilleState, seat: int) -> Hashable:
    """The deck orders, the face-down events and the ability piles."""
    return (
        tuple(g.troll_deck),
        tuple(g.delivery_deck),
        tuple(g.events[g.events_up :]),
        tuple(tuple(town.ability_pile) for town in g.towns),
    )


# ---------------------------------------------------------------------- rebuilding


def _step_classes() -> dict[str, list[type[Step]]]:
    import games.gnomeville.activations
    import games.gnomeville.build
    import games.gnomeville.deliveries
    import games.gnomeville.enemy
    import games.gnomeville.movement
    import games.gnomeville.refresh
    import games.gnomeville.setup
    import games.gnomeville.upgrades  # noqa: F401  (every module that defines steps)

    out: dict[str, list[type[Step]]] = {}
    todo = list(Step.__subclasses__())
    while todo:
        cls = todo.pop()
        out.setdefault(cls.name, []).append(cls)
        todo.extend(cls.__subclasses__())
    return out


def _slots(cls: type) -> set[str]:
    return {slot for c in cls.__mro__ for slot in getattr(c, "__slots__", ())}


def make_step(view: StepView) -> Step | None:
    """The step a view shows, if its fields are all it holds."""
    fields = dict(view.fields)
    for cls in _step_classes().get(view.kind.split(".", 1)[0], []):
        if _slots(cls) == set(fields):
            step = cls.__new__(cls)
            for name, value in fields.items():
                setattr(step, name, value)
            return step
    return None


def gnomeville_rebuild(view: Any, seed: int) -> GnomevilleState | None:
    """A position with this view, in round 1's build phase (None elsewhere: see above)."""
    assert isinstance(view, GnomevilleView)
    seat = view.seat
    if seat is None or view.round != 1 or view.phase != "build" or view.stage == "place":
        return None  # turn by turn, the tiles revealed for placing are not in the view
    if any(gnome.graduated or gnome.ability for t in view.towns for gnome in t.gnomes):
        return None
    steps = [make_step(s) for s in view.steps]
    if any(step is None for step in steps):
        return None
    variant = "standard"
    if view.turn_by_turn:
        variant = "turn-by-turn"
    elif view.master_build:
        variant = "master-build"
    towns = ",".join(str(t.number) for t in view.towns)
    g = GAME.new(GameConfig(view.players, variant, {"towns": towns}), seed)
    pack = g.pack
    g.supply = list(view.supply)
    g.stage = view.stage
    g.round_card = [c.id for c in pack.troll_cards].index(view.round_card)
    g.troll_deck = [c for c in range(len(pack.troll_cards)) if c != g.round_card]
    goal_ids = [goal.id for goal in pack.goals]
    g.goals = [(a, b, goal_ids.index(card), side) for a, b, card, side in view.goals]
    for tv, town in zip(view.towns, g.towns, strict=True):
        town.tiles = list(tv.tiles)
        town.boulders = list(tv.boulders)
        town.trolls = list(tv.trolls)
        town.gnome_at = [gnome.space for gnome in tv.gnomes]
        town.sword = [gnome.sword for gnome in tv.gnomes]
        town.hammer = [gnome.hammer for gnome in tv.gnomes]
        town.bag = list(tv.bag)
        town.stumps, town.stew, town.mushrooms, town.vp = tv.stumps, tv.stew, tv.mushrooms, tv.vp
        town.stacks = [list(s) for s in tv.stacks]
        town.passed, town.stuck = tv.passed, tv.stuck
        town.set_aside = [0] * KINDS
        town.set_aside[Tile.GNOME] = tv.stumps
        town.drawn = view.drawn if town.seat == seat else EMPTY
    g.open_phase()
    own = g.towns[seat]
    own.taken = [split - left for split, left in zip(own.share, view.share, strict=True)]
    own.share = list(view.share)
    del own.ability_pile[view.ability_pile :]
    g._take_snapshot()
    g.stacks[seat] = [step for step in steps if step is not None]
    for p in range(g.players):
        g._decisions[p] = None
        g._settle(p)
    g._pending = tuple(d for d in g._decisions if d is not None)
    g._events = []
    return g
