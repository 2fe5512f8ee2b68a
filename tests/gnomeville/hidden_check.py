"""What Gnomeville hides from a seat, for ``tests/test_determinize.py`` (its ``HIDDEN`` entry)
and ``test_hidden.py``: the check that a sample redraws only what the seat's view allows
(ruling G51), the hidden part compared between samples, and a position rebuilt from a view.

The view carries everything a seat may know (the cards used, what lies beside each board, each
pile's size and the pile cards the seat saw go under, the tiles revealed turn by turn...), so
a position is rebuilt from it in every phase of every round: a bot in any language can do the
same from the wire.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from games.contract import GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.build import BuildStep, building
from games.gnomeville.damage import RestandStep, needs_restand
from games.gnomeville.deliveries import DeliveryStep
from games.gnomeville.enemy import EnemyStep
from games.gnomeville.hidden import PUBLIC, replay_of, step_cards
from games.gnomeville.refresh import BuyStep
from games.gnomeville.setup import SideStep
from games.gnomeville.steps import Step
from games.gnomeville.town import EMPTY, Town
from games.gnomeville.view import GnomevilleView, StepView, TownView


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
    """A position with this view, from the view alone: the table, every town, the seat's own
    steps; the other seats as the phase opened them (their steps pushed again and run up to
    their first decisions, as the barrier did). Pile cards nobody showed the seat, face-down
    events and deck orders are filled with any cards that fit; the bags' streams come from
    ``seed``. None where a step of the seat's cannot be rebuilt from its fields."""
    assert isinstance(view, GnomevilleView)
    seat = view.seat
    if seat is None or view.phase in ("setup", "over"):
        return None
    steps = [make_step(s) for s in view.steps]
    if any(step is None for step in steps):
        return None
    options = {
        "towns": ",".join(str(t.number) for t in view.towns),
        "turn_by_turn": ",".join(map(str, view.turn_by_turn_rounds)) or "none",
        "master_build": str(view.master_build).lower(),
    }
    g = GAME.new(GameConfig(view.players, "standard", options), seed)
    pack = g.pack
    g.dealt_backs = view.backs
    g.round, g.phase, g.stage = view.round, view.phase, view.stage
    g.supply = list(view.supply)
    trolls = [c.id for c in pack.troll_cards]
    g.troll_discard = [(r, trolls.index(c), a) for r, c, a in view.troll_cards if r < view.round]
    g.round_card = trolls.index(view.round_card) if view.round_card else EMPTY
    g.ambush_card = trolls.index(view.ambush_card) if view.ambush_card else EMPTY
    used = {trolls.index(card) for _, card, _ in view.troll_cards}
    g.troll_deck = [c for c in range(len(trolls)) if c not in used]
    events = [e.id for e in (pack.solo_events if g.solo else pack.multi_events)]
    up = [events.index(e) for e in view.events]
    down = [c for c in range(len(events)) if c not in up]
    g.events, g.events_up = up + down[: view.events_face_down], len(up)
    deliveries = [d.id for d in pack.deliveries]
    shown = [deliveries.index(d) for d in view.deliveries]
    g.delivery_card = deliveries.index(view.delivery_card) if view.delivery_card else EMPTY
    g.delivery_discard = shown[:-1] if view.delivery_card else shown
    g.delivery_deck = [] if g.solo else [c for c in range(len(deliveries)) if c not in shown]
    goal_ids = [goal.id for goal in pack.goals]
    g.goals = [(a, b, goal_ids.index(card), side) for a, b, card, side in view.goals]
    abilities = [a.id for a in pack.abilities]
    for tv, town in zip(view.towns, g.towns, strict=True):
        _set_town(town, tv, abilities, view.drawn if tv.seat == seat else tv.revealed)
    _fill_piles(g, view, steps, abilities)
    g.independent = False
    g.open_phase()  # every decision is taken in a phase of independent seats
    own = g.towns[seat]
    own.taken = [split - left for split, left in zip(own.share, view.share, strict=True)]
    own.share = list(view.share)
    g._take_snapshot()
    g.stacks = [[] for _ in range(g.players)]
    for town in g.towns:
        g.stacks[town.seat] = opening_steps(g, town) if town.seat != seat else []
    g.stacks[seat] = [step for step in steps if step is not None]
    g._decisions = [None] * g.players
    g._held = [[] for _ in range(g.players)]
    for p in range(g.players):
        g._settle(p)
    g._pending = tuple(d for d in g._decisions if d is not None)
    g._events = []
    g.history = []
    return g


def _set_town(town: Town, tv: TownView, abilities: list[str], drawn: int) -> None:
    """Everything the view shows of a town (the pile: its size and the known cards' marks)."""
    town.tiles = list(tv.tiles)
    town.boulders = list(tv.boulders)
    town.trolls = list(tv.trolls)
    town.gnome_at = [gnome.space for gnome in tv.gnomes]
    town.sword = [gnome.sword for gnome in tv.gnomes]
    town.hammer = [gnome.hammer for gnome in tv.gnomes]
    town.graduated = [gnome.graduated for gnome in tv.gnomes]
    town.ability = [abilities.index(g.ability) if g.ability else EMPTY for g in tv.gnomes]
    town.ability_used = [gnome.ability_used for gnome in tv.gnomes]
    town.bag = list(tv.bag)
    town.stumps, town.stew, town.mushrooms, town.vp = tv.stumps, tv.stew, tv.mushrooms, tv.vp
    town.stacks = [list(s) for s in tv.stacks]
    town.set_aside = list(tv.set_aside)
    town.full, town.passed, town.stuck = tv.full, tv.passed, tv.stuck
    town.drawn = drawn
    known = dict(tv.pile_known)
    town.ability_pile = [abilities.index(known[i]) if i in known else EMPTY for i in range(tv.pile)]
    # From the first known card down: the viewer's marks where it knows the card, the owner's
    # (a put-back the viewer did not see) elsewhere; PUBLIC and the viewer's mark both say known.
    first = min(known, default=tv.pile)
    town.pile_seen = [PUBLIC if i in known else town.seat for i in range(first, tv.pile)]


def _fill_piles(
    g: GnomevilleState, view: GnomevilleView, steps: list[Step | None], abilities: list[str]
) -> None:
    """The pile places the view does not name get the cards it shows nowhere."""
    taken = {card for town in g.towns for card in town.ability_pile + town.ability}
    for step in steps:
        if step is not None and step.name == "academy":  # the two cards a graduate drew
            taken.update(getattr(step, "cards", ()))
    free = iter(c for c in range(len(abilities)) if c not in taken)
    for town in g.towns:
        town.ability_pile = [next(free) if c == EMPTY else c for c in town.ability_pile]


def opening_steps(g: GnomevilleState, town: Town) -> list[Step]:
    """The steps the phase (or turn-by-turn stage) gave ``town`` when it opened."""
    seat = town.seat
    if g.phase == "sides":
        return [SideStep(seat)]
    if g.phase == "build":
        if g.stage == "draw":
            return [BuildStep(seat, "draw")] if building(town) else []
        if g.stage == "place":
            return [BuildStep(seat, "place")] if town.drawn != EMPTY else []
        return [BuildStep(seat)]
    if g.phase == "enemy":
        cards = (g.round_card,)
        if town.stuck and g.ambush_card != EMPTY:
            cards = (g.ambush_card, g.round_card)
        return [EnemyStep(seat, cards)]
    if g.phase == "score":
        if g.delivery_card == EMPTY:
            return []
        leader = max(t.vp for t in g.towns)
        groups = sum(1 for gap in g.pack.components.delivery_gaps if leader - town.vp > gap)
        return [DeliveryStep(seat, groups)] if groups else []
    if g.phase == "buy":
        return [BuyStep(seat, g.round), *([RestandStep(seat)] if needs_restand(town) else [])]
    raise AssertionError(f"no seat decides in phase {g.phase!r}")
