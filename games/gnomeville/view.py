"""What a seat may know (``observe``), as plain frozen dataclasses.

Everything on the table is public except: the order of every bag (future chance), the face-down
decks (troll cards, events, special deliveries), the cards in each seat's pile of ability cards
(its size is public; a card a seat put back is known to its owner alone) and a tile drawn and
not yet revealed. Discarded ability cards (an exhausted gnome's) are face up: public. Bag *contents* are public counts
(everything put into a bag is seen on the table). During a phase in which seats work
independently, a seat sees its own town live and the others as they were when the phase opened
(``GnomevilleState.snapshot``); spectators see the snapshot of all.

The view holds all a player at the table knows, so a bot in any language can rebuild the
position from it alone (``tests/gnomeville/hidden_check.py`` does, in every phase).
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
    #: Tiles beside the board until phase 5 puts them into the bag, per kind (Tile value):
    #: destroyed buildings and this round's gnome tiles (upgraded tiles are in ``stacks``).
    set_aside: tuple[int, ...]
    #: The board was full when scored this round: in phase 5 its buildings go back to the bag.
    full: bool
    #: Cards in this seat's ability pile, and those the viewer knows: (position from the top,
    #: card id) of the cards seen going under (the viewer's own put-backs in its own pile).
    pile: int
    pile_known: tuple[tuple[int, str], ...]
    #: Turn by turn, in the place stage: the tile this seat revealed and has not placed yet,
    #: as of this picture of the town; -1 otherwise (never a tile not yet revealed).
    revealed: int
    #: The ability cards this seat's exhausted gnomes discarded, face up and out of the game
    #: (card ids, in the order discarded).
    discard: tuple[str, ...] = ()


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
    #: The rounds whose build phase is turn by turn (the match configuration), ascending.
    turn_by_turn_rounds: tuple[int, ...]
    #: Every troll card revealed so far, in the order revealed: (round, card id, whether an
    #: ambush); this round's are also ``round_card`` and ``ambush_card``.
    troll_cards: tuple[tuple[int, str, bool], ...]
    #: Every special delivery card revealed so far, in order (the last is ``delivery_card``
    #: while it is on offer).
    deliveries: tuple[str, ...]
    #: The asymmetric town on the back of each seat's board (2-5), in seat order.
    backs: tuple[int, ...]


def town_record(town: Town, revealing: bool, viewer: int | None = None) -> tuple[Any, ...]:
    """What a ``TownView`` shows of ``town`` to ``viewer`` (None: everybody), as plain values:
    a snapshot costs little to take, and its view is built only if someone looks
    (``GnomevilleState.snapshot``). ``revealing``: the turn-by-turn place stage, whose drawn
    tiles were revealed."""
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
        tuple(town.set_aside),
        town.full,
        len(town.ability_pile),
        town.pile_known(viewer),
        town.drawn if revealing else EMPTY,
        tuple(town.discard),
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
        set_aside,
        full,
        pile,
        pile_known,
        revealed,
        discard,
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
        set_aside=set_aside,
        full=full,
        pile=pile,
        pile_known=tuple((at, abilities[card].id) for at, card in pile_known),
        revealed=revealed,
        discard=tuple(abilities[card].id for card in discard),
    )


def town_view(g: GnomevilleState, town: Town, viewer: int | None) -> TownView:
    """``town`` now, as ``viewer`` sees it (its own town, live)."""
    return view_of_record(g, town_record(town, g.stage == "place", viewer))


def observe(g: GnomevilleState, seat: int | None) -> GnomevilleView:
    pack = g.pack
    towns: tuple[TownView, ...] = g.snapshot
    if seat is not None:
        towns = tuple(
            town_view(g, g.towns[seat], seat) if i == seat else view for i, view in enumerate(towns)
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
        turn_by_turn_rounds=tuple(sorted(g.turn_by_turn)),
        troll_cards=troll_cards(g),
        deliveries=tuple(pack.deliveries[card].id for card in delivery_cards(g)),
        backs=g.dealt_backs,
    )


@dataclass(frozen=True, slots=True)
class SeatSight:
    """The part of a seat's ``GnomevilleView`` the greedy player reads, built without the rest
    (the decks, events, goals and steps): what a search's greedy rollouts ask at every step.
    Every field equals the full view's (``tests/gnomeville/test_greedy.py`` checks the choices)."""

    seat: int
    phase: str
    towns: tuple[TownView, ...]
    drawn: int
    round_card: str


def seat_sight(g: GnomevilleState, seat: int) -> SeatSight:
    """``observe(g, seat)`` cut to ``SeatSight``."""
    towns: tuple[TownView, ...] = g.snapshot
    towns = tuple(
        town_view(g, g.towns[seat], seat) if i == seat else v for i, v in enumerate(towns)
    )
    card = g.round_card
    return SeatSight(
        seat=seat,
        phase=g.phase,
        towns=towns,
        drawn=g.towns[seat].drawn,
        round_card=g.pack.troll_cards[card].id if card != EMPTY else "",
    )


def troll_cards(g: GnomevilleState) -> tuple[tuple[int, str, bool], ...]:
    """Every troll card revealed so far, in order: past rounds', then this round's."""
    cards = g.pack.troll_cards
    shown = [*g.troll_discard]
    if g.round_card != EMPTY:
        shown.append((g.round, g.round_card, False))
    if g.ambush_card != EMPTY:
        shown.append((g.round, g.ambush_card, True))
    return tuple((number, cards[card].id, ambush) for number, card, ambush in shown)


def delivery_cards(g: GnomevilleState) -> list[int]:
    """Every special delivery card revealed so far, in order."""
    if g.delivery_card == EMPTY:
        return g.delivery_discard
    return [*g.delivery_discard, g.delivery_card]
