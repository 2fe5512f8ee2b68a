"""A playable Gnomeville position rebuilt from one seat's observation: what a search bot in
another process (or language, through the SDK) plans with.

``from_view(view, seed)`` reads nothing but the view (a ``GnomevilleView``, as ``observe``
gives it or as the SDK decodes it from the wire). The table, every town as the seat sees it,
the supply and the seat's share, the cards used and the seat's own steps in progress are
copied; the other seats stand where the seat last saw them (the snapshot taken when the phase
opened) with the steps that phase gave them, run up to their first decisions, as the barrier
did. Then everything the seat cannot know is drawn from ``seed`` by ``determinize`` (ruling
G51): the troll and delivery decks' order, the face-down events, the pile cards the seat did
not see go under, and every random stream (bags, table). Since a sample depends on the seat's
view alone, ``from_view(g.observe(seat), seed)`` is the same position as
``g.determinize(seat, seed)`` (``tests/gnomeville/test_rebuild.py``).

Every moment at which a seat has a decision to take can be rebuilt (every phase of every
round, turn by turn or not, solo included). ``ValueError`` for the others: a spectator's view
(no seat to rebuild for), a finished game, and the setup before the first decision (the game
never asks anything then). A match played with its own content pack (the ``content`` option)
is rebuilt with that pack: pass it as ``pack`` (the view names cards by id only).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from games.contract import GameConfig
from games.gnomeville.content import ContentPack, default_pack
from games.gnomeville.state import GnomevilleState
from games.gnomeville.steps import Step
from games.gnomeville.town import EMPTY, PUBLIC, Town
from games.gnomeville.view import GnomevilleView, StepView, TownView

__all__ = ["from_view", "make_step", "opening_steps"]


def from_view(view: GnomevilleView, seed: int, pack: ContentPack | None = None) -> GnomevilleState:
    """A state equal to the real game in everything ``view.seat`` sees, its hidden part drawn
    from ``seed`` exactly as ``determinize(view.seat, seed)`` draws it (see the module text).
    ``pack``: the match's content pack when it is not the standard one."""
    if not isinstance(view, GnomevilleView):
        raise TypeError(f"from_view needs a GnomevilleView, not {type(view).__name__}")
    seat = view.seat
    if seat is None:
        raise ValueError("from_view needs a seat's view: a spectator's view has no seat")
    if view.phase in ("setup", "over"):
        raise ValueError(
            f"from_view rebuilds a game in progress, not one in phase {view.phase!r} "
            "(no seat decides anything then)"
        )
    sample = _base(view, seat, pack if pack is not None else default_pack()).determinize(seat, seed)
    sample.seed = seed
    return sample


#: The last positions rebuilt, before their hidden part is drawn: a search bot rebuilds the same
#: view once per iteration with a new seed (``determinize`` copies them, never changes them).
_BASES: dict[tuple[GnomevilleView, int], tuple[ContentPack, GnomevilleState]] = {}
_KEEP = 8


def _base(view: GnomevilleView, seat: int, pack: ContentPack) -> GnomevilleState:
    try:
        key = (view, id(pack))
        kept = _BASES.get(key)
    except TypeError:  # a view holding a list (built by hand): not kept
        return _rebuild(view, seat, pack)
    if kept is not None and kept[0] is pack:
        return kept[1]
    g = _rebuild(view, seat, pack)
    while len(_BASES) >= _KEEP:
        _BASES.pop(next(iter(_BASES)), None)
    _BASES[key] = (pack, g)
    return g


# ---------------------------------------------------------------------- steps


@functools.cache
def _step_classes() -> dict[tuple[str, frozenset[str]], type[Step]]:
    """Every step class by (name, public fields): what a ``StepView`` says of it."""
    # Imported for their Step subclasses.
    from games.gnomeville import (  # noqa: F401
        activations,
        build,
        damage,
        deliveries,
        enemy,
        movement,
        refresh,
        setup,
        upgrades,
    )

    found: dict[tuple[str, frozenset[str]], type[Step]] = {}
    todo: list[type[Step]] = [Step]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            slots = frozenset(slot for c in sub.__mro__ for slot in getattr(c, "__slots__", ()))
            key = (sub.name, slots)
            assert key not in found, f"two steps {sub.name!r} with the fields {sorted(slots)}"
            found[key] = sub
            todo.append(sub)
    return found


def make_step(view: StepView) -> Step:
    """The step a ``StepView`` shows (its kind's first part and its fields name the class;
    the fields are all it holds)."""
    fields = dict(view.fields)
    name = view.kind.split(".", 1)[0]
    cls = _step_classes().get((name, frozenset(fields)))
    if cls is None:
        raise ValueError(f"no step {view.kind!r} has the fields {sorted(fields)}")
    step = cls.__new__(cls)
    for field, value in fields.items():
        setattr(step, field, value)
    return step


def opening_steps(g: GnomevilleState, town: Town) -> list[Step]:
    """The steps the phase (or turn-by-turn stage) gave ``town`` when it opened."""
    from games.gnomeville.build import BuildStep, building
    from games.gnomeville.damage import RestandStep, needs_restand
    from games.gnomeville.deliveries import DeliveryStep
    from games.gnomeville.enemy import EnemyStep
    from games.gnomeville.refresh import BuyStep
    from games.gnomeville.setup import SideStep
    from games.gnomeville.upgrades import RecheckStep

    seat = town.seat
    if g.phase == "sides":
        return [SideStep(seat)]
    if g.phase == "build":
        if g.stage == "draw":
            return [BuildStep(seat, "draw"), RecheckStep(seat)] if building(town) else []
        if g.stage == "place":
            return [BuildStep(seat, "place"), RecheckStep(seat)] if town.drawn != EMPTY else []
        return [BuildStep(seat), RecheckStep(seat)]
    if g.phase == "enemy":
        cards: tuple[int, ...] = (g.round_card,)
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
    raise ValueError(f"no seat decides in phase {g.phase!r}")


# ---------------------------------------------------------------------- the position


def _index(ids: Sequence[str]) -> dict[str, int]:
    return {card: i for i, card in enumerate(ids)} | {"": EMPTY}


def _find(index: dict[str, int], card: str, what: str) -> int:
    found = index.get(card)
    if found is None:
        raise ValueError(
            f"the view names {what} {card!r}, which the content pack lacks "
            "(a match with its own pack: pass it to from_view)"
        )
    return found


def _rebuild(view: GnomevilleView, seat: int, pack: ContentPack) -> GnomevilleState:
    """The position the view shows, its hidden part filled with any cards that fit (the
    caller draws it again)."""
    steps = [make_step(s) for s in view.steps]
    if len(view.towns) != view.players or not 0 <= seat < view.players:
        raise ValueError(f"a view of {view.players} seats with {len(view.towns)} towns")
    options = {
        "towns": ",".join(str(t.number) for t in view.towns),
        "turn_by_turn": ",".join(map(str, view.turn_by_turn_rounds)) or "none",
        "master_build": str(view.master_build).lower(),
    }
    g = GnomevilleState(
        GameConfig(view.players, "standard", options),
        0,  # what it deals is replaced or drawn again by determinize
        pack,
        frozenset(view.turn_by_turn_rounds),
        view.master_build,
    )
    g.dealt_backs = tuple(view.backs)
    g.round, g.phase, g.stage = view.round, view.phase, view.stage
    g.supply = list(view.supply)
    trolls = _index([c.id for c in pack.troll_cards])
    g.troll_discard = [
        (number, _find(trolls, card, "troll card"), ambush)
        for number, card, ambush in view.troll_cards
        if number < view.round
    ]
    g.round_card = _find(trolls, view.round_card, "troll card")
    g.ambush_card = _find(trolls, view.ambush_card, "troll card")
    used = {_find(trolls, card, "troll card") for _, card, _ in view.troll_cards}
    g.troll_deck = [c for c in range(len(pack.troll_cards)) if c not in used]
    deck = pack.solo_events if g.solo else pack.multi_events
    events = _index([e.id for e in deck])
    up = [_find(events, e, "event") for e in view.events]
    down = [c for c in range(len(deck)) if c not in up]
    g.events, g.events_up = up + down[: view.events_face_down], len(up)
    deliveries = _index([d.id for d in pack.deliveries])
    shown = [_find(deliveries, d, "delivery card") for d in view.deliveries]
    g.delivery_card = _find(deliveries, view.delivery_card, "delivery card")
    g.delivery_discard = shown[:-1] if view.delivery_card else shown
    g.delivery_deck = [] if g.solo else [c for c in range(len(pack.deliveries)) if c not in shown]
    goals = _index([goal.id for goal in pack.goals])
    g.goals = [(a, b, _find(goals, card, "goal"), side) for a, b, card, side in view.goals]
    abilities = _index([a.id for a in pack.abilities])
    for tv, town in zip(view.towns, g.towns, strict=True):
        _set_town(town, tv, abilities, view.drawn if tv.seat == seat else tv.revealed)
    _fill_piles(g, steps)
    g.independent = False
    g.open_phase()  # every decision is taken in a phase of independent seats
    own = g.towns[seat]
    own.taken = [split - left for split, left in zip(own.share, view.share, strict=True)]
    own.share = list(view.share)
    g._take_snapshot()
    g.stacks = [[] if p == seat else opening_steps(g, town) for p, town in enumerate(g.towns)]
    g.stacks[seat] = steps
    g._decisions = [None] * g.players
    g._held = [[] for _ in range(g.players)]
    for p in range(g.players):
        g._settle(p)
    g._pending = tuple(d for d in g._decisions if d is not None)
    g._events = []
    g.history = []
    return g


def _set_town(town: Town, tv: TownView, abilities: dict[str, int], drawn: int) -> None:
    """Everything the view shows of a town (the pile: its size and the known cards' marks)."""
    town.tiles = list(tv.tiles)
    town.boulders = list(tv.boulders)
    town.trolls = list(tv.trolls)
    town.gnome_at = [gnome.space for gnome in tv.gnomes]
    town.sword = [gnome.sword for gnome in tv.gnomes]
    town.hammer = [gnome.hammer for gnome in tv.gnomes]
    town.graduated = [gnome.graduated for gnome in tv.gnomes]
    town.ability = [_find(abilities, gnome.ability, "ability card") for gnome in tv.gnomes]
    town.ability_used = [gnome.ability_used for gnome in tv.gnomes]
    town.bag = list(tv.bag)
    town.stumps, town.stew, town.mushrooms, town.vp = tv.stumps, tv.stew, tv.mushrooms, tv.vp
    town.stacks = [list(s) for s in tv.stacks]
    town.set_aside = list(tv.set_aside)
    town.full, town.passed, town.stuck = tv.full, tv.passed, tv.stuck
    town.drawn = drawn
    known = {at: _find(abilities, card, "ability card") for at, card in tv.pile_known}
    town.ability_pile = [known.get(i, EMPTY) for i in range(tv.pile)]
    # From the first known card down: the viewer's marks where it knows the card, the owner's
    # (a put-back the viewer did not see) elsewhere; PUBLIC and the viewer's mark both say known.
    first = min(known, default=tv.pile)
    town.pile_seen = [PUBLIC if i in known else town.seat for i in range(first, tv.pile)]
    town.discard = [_find(abilities, card, "ability card") for card in tv.discard]


def _fill_piles(g: GnomevilleState, steps: list[Step]) -> None:
    """The pile places the view does not name get the cards it shows nowhere."""
    taken = {card for town in g.towns for card in town.ability_pile + town.ability + town.discard}
    for step in steps:
        if step.name == "academy":  # the two cards a graduate drew
            taken.update(getattr(step, "cards", ()))
    free = iter(c for c in range(len(g.pack.abilities)) if c not in taken)
    for town in g.towns:
        try:
            town.ability_pile = [next(free) if c == EMPTY else c for c in town.ability_pile]
        except StopIteration:
            raise ValueError("the piles hold more cards than the pack has left") from None
