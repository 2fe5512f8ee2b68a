"""What a seat may know (``observe``), as plain frozen dataclasses.

Everything on the table is public except: the order of every bag (future chance), the face-down
decks (troll cards, events, special deliveries) and each seat's pile of ability cards. Bag
*contents* are public counts (everything put into a bag is seen on the table). During a phase
in which seats work independently, a seat sees its own town live and the others as they were
when the phase opened (``GnomevilleState.snapshot``); spectators see the snapshot of all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.gnomeville.town import EMPTY, Town

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


@dataclass(frozen=True, slots=True)
class GnomeView:
    #: Space of the stand, or -1 in camp.
    space: int
    sword: bool
    hammer: bool
    graduated: bool
    #: The ability card's id ("" for none) and whether its once-per-round use is spent.
    ability: str
    ability_used: bool


@dataclass(frozen=True, slots=True)
class TownView:
    seat: int
    #: Town number (1 = symmetric front, 2-5 = asymmetric backs) and its name.
    number: int
    name: str
    #: Building tile per space (a Tile value) or -1.
    tiles: tuple[int, ...]
    boulders: tuple[bool, ...]
    trolls: tuple[int, ...]
    gnomes: tuple[GnomeView, ...]
    #: Tiles in the bag per kind (Tile value); never their order.
    bag: tuple[int, ...]
    stumps: int
    stew: bool
    mushrooms: int
    vp: int
    #: This round's upgrade stacks, tiles as Tile values.
    stacks: tuple[tuple[int, ...], ...]
    passed: bool
    stuck: bool


@dataclass(frozen=True, slots=True)
class StepView:
    kind: str
    fields: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class GnomevilleView:
    #: The viewer (None: a spectator).
    seat: int | None
    players: int
    round: int
    phase: str
    stage: str
    #: Whether this round's build phase is turn by turn, and the master-build rule.
    turn_by_turn: bool
    master_build: bool
    towns: tuple[TownView, ...]
    #: The viewer's drawn, not yet placed tile (Tile value) or -1.
    drawn: int
    supply: tuple[int, ...]
    #: What the viewer may still take from the supply in this phase (ruling G18).
    share: tuple[int, ...]
    round_card: str
    ambush_card: str
    troll_deck: int
    #: Face-up events left to right, and how many are still face down.
    events: tuple[str, ...]
    events_face_down: int
    #: Adjacency goals: (seat a, seat b, goal card id, side 0/1).
    goals: tuple[tuple[int, int, str, int], ...]
    delivery_card: str
    #: Cards left in the viewer's ability pile.
    ability_pile: int
    #: The viewer's steps in progress, outermost first.
    steps: tuple[StepView, ...]


def town_record(town: Town) -> tuple[Any, ...]:
    """What a ``TownView`` shows of ``town``, as plain values: a snapshot costs little to
    take, and its view is built only if someone looks (``GnomevilleState.snapshot``)."""
    return (
        town.seat,
        town.layout,
        tuple(town.tiles),
        tuple(town.boulders),
        tuple(town.trolls),
        tuple(town.gnome_at),
        tuple(town.sword),
        tuple(town.hammer),
        tuple(town.graduated),
        tuple(town.ability),
        tuple(town.ability_used),
        tuple(town.bag),
        town.stumps,
        town.stew,
        town.mushrooms,
        town.vp,
        tuple(tuple(s) for s in town.stacks),
        town.passed,
        town.stuck,
    )


def view_of_record(g: GnomevilleState, record: tuple[Any, ...]) -> TownView:
    (
        seat,
        layout,
        tiles,
        boulders,
        trolls,
        gnome_at,
        sword,
        hammer,
        graduated,
        ability,
        ability_used,
        bag,
        stumps,
        stew,
        mushrooms,
        vp,
        stacks,
        passed,
        stuck,
    ) = record
    abilities = g.pack.abilities
    return TownView(
        seat=seat,
        number=layout.number,
        name=layout.name,
        tiles=tiles,
        boulders=boulders,
        trolls=trolls,
        gnomes=tuple(
            GnomeView(
                space=gnome_at[i],
                sword=sword[i],
                hammer=hammer[i],
                graduated=graduated[i],
                ability=abilities[ability[i]].id if ability[i] != EMPTY else "",
                ability_used=ability_used[i],
            )
            for i in range(len(gnome_at))
        ),
        bag=bag,
        stumps=stumps,
        stew=stew,
        mushrooms=mushrooms,
        vp=vp,
        stacks=stacks,
        passed=passed,
        stuck=stuck,
    )


def town_view(g: GnomevilleState, town: Town) -> TownView:
    return view_of_record(g, town_record(town))


def observe(g: GnomevilleState, seat: int | None) -> GnomevilleView:
    pack = g.pack
    towns: tuple[TownView, ...] = g.snapshot
    if seat is not None:
        towns = tuple(
            town_view(g, g.towns[seat]) if i == seat else view for i, view in enumerate(towns)
        )
    own = g.towns[seat] if seat is not None else None
    event_deck = pack.solo_events if g.solo else pack.multi_events
    return GnomevilleView(
        seat=seat,
        players=g.players,
        round=g.round,
        phase=g.phase,
        stage=g.stage,
        turn_by_turn=g.round in g.turn_by_turn,
        master_build=g.master_build,
        towns=towns,
        drawn=own.drawn if own is not None else EMPTY,
        supply=tuple(g.supply),
        share=tuple(own.share) if own is not None else (),
        round_card=pack.troll_cards[g.round_card].id if g.round_card != EMPTY else "",
        ambush_card=pack.troll_cards[g.ambush_card].id if g.ambush_card != EMPTY else "",
        troll_deck=len(g.troll_deck),
        events=tuple(event_deck[e].id for e in g.events[: g.events_up]),
        events_face_down=len(g.events) - g.events_up,
        goals=tuple((a, b, pack.goals[i].id, side) for a, b, i, side in g.goals),
        delivery_card=pack.deliveries[g.delivery_card].id if g.delivery_card != EMPTY else "",
        ability_pile=len(own.ability_pile) if own is not None else 0,
        steps=tuple(
            StepView(step.kind(), tuple(sorted(step.fields().items())))
            for step in (g.stacks[seat] if seat is not None else ())
        ),
    )
