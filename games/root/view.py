"""What a seat may see of a Root contest (Law 1.2 Public and Private Information).

Public: the map and every piece on it, scores, crafted cards and items, faction boards (the
Eyrie's Decree is face up), activated and available dominance cards, the discard pile, the item supply, how many cards each hand and the
deck hold, and the steps in progress (a battle's clearing, dice, played ambush...). Private: the
cards in a hand, seen only by its owner; the deck's order, seen by nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from games.root.woodland import WARRIOR_FACTIONS

if TYPE_CHECKING:
    from games.root.players import Player
    from games.root.state import RootState


class ClearingView(NamedTuple):
    id: int
    suit: str
    #: (faction, count) for each faction with warriors here.
    warriors: tuple[tuple[str, int], ...]
    #: (owner, kind) per filled slot; a ruin has owner "".
    buildings: tuple[tuple[str, str], ...]
    tokens: tuple[tuple[str, str], ...]
    #: The faction ruling the clearing, "" if none.
    ruler: str


class PlayerView(NamedTuple):
    seat: int
    faction: str
    vp: int
    hand_count: int
    #: The cards in hand: only in the owner's own view, else empty.
    hand: tuple[str, ...]
    crafted: tuple[str, ...]
    items: tuple[str, ...]
    #: Once-per-turn effects already used this turn (effect ids).
    used: tuple[str, ...]
    warriors_in_supply: int
    #: The faction board's public values (see the faction module), as (name, value) pairs; in
    #: the owner's own view also the private ones (the Alliance's ``supporter_cards``).
    board: tuple[tuple[str, Any], ...]
    #: The dominance card this seat activated (Law 3.3.1: it scores no more VP), "" if none.
    dominance: str = ""
    #: The seat this Vagabond formed a coalition with (Law 9.2.8, RT22), -1 if none.
    coalition: int = -1


class StepView(NamedTuple):
    """One step in progress, outermost first: e.g. a turn, a march, a battle."""

    #: The step's class (e.g. ``Battle``, ``Move``, ``Daylight``), for rebuilding a position.
    step: str
    #: The first part of its decision kinds (e.g. ``battle``).
    name: str
    stage: str
    seat: int
    #: Its other fields: ints, strings, flags, or tuples of ints or of strings.
    fields: tuple[tuple[str, Any], ...]


class RootView(NamedTuple):
    #: The seat this view is for; None for spectators.
    viewer: int | None
    map: str
    game_number: int
    games: int
    #: VP per seat in each finished game of the contest.
    results: tuple[tuple[int, ...], ...]
    #: (winner, turns the game took) of each finished game (for the tiebreak, RT3).
    winners: tuple[tuple[int, int], ...]
    #: The seat that started the current game.
    start_seat: int
    current: int
    turn: int
    clearings: tuple[ClearingView, ...]
    players: tuple[PlayerView, ...]
    deck_count: int
    discard: tuple[str, ...]
    item_supply: tuple[tuple[str, int], ...]
    active: tuple[StepView, ...]
    #: Dominance cards beside the map, available to take (Law 3.3.3), in the order they came.
    available_dominance: tuple[str, ...] = ()


def _clearing(g: RootState, c: int) -> ClearingView:
    """Clearing ``c`` as everyone sees it; kept in the woodland's memo until a piece there
    changes (most clearings do not change between two views)."""
    w = g.woodland
    suit = g.clearing_suit(c)
    found = w.memo[c]
    if found is not None and found.suit == suit:
        return cast(ClearingView, found)
    view = w.memo[c] = ClearingView(
        c,
        suit,
        tuple((f, w.warriors(f, c)) for f in WARRIOR_FACTIONS if w.warriors(f, c)),
        tuple((owner or "", kind) for owner, kind in w.buildings(c)),
        w.tokens(c),
        w.ruler(c) or "",
    )
    return view


def _board(g: RootState, p: Player, seat: int | None) -> tuple[tuple[str, Any], ...]:
    """The faction board's public values, and to its owner also the private ones (the
    Alliance's supporter cards); the Vagabond's also say where his pawn is."""
    values = p.board.public()
    if g.rules(p.seat).pawn:
        pawn = g.woodland.pawn
        values["pawn"] = "" if pawn is None else pawn
    if p.seat == seat:
        values.update(p.board.private())
    return tuple(sorted(values.items()))


def observe(g: RootState, seat: int | None) -> RootView:
    players = tuple(
        PlayerView(
            p.seat,
            p.faction,
            p.vp,
            len(p.hand),
            tuple(p.hand) if p.seat == seat else (),
            tuple(p.crafted),
            tuple(p.items),
            p.used,
            g.warriors_in_supply(p.seat),
            _board(g, p, seat),
            p.dominance or "",
            -1 if p.coalition is None else p.coalition,
        )
        for p in g.players
    )
    active = tuple(
        StepView(
            type(step).__name__,
            step.name,
            step.stage,
            step.seat,
            tuple((k, v) for k, v in sorted(step.fields().items()) if k not in ("seat", "stage")),
        )
        for step in g.stack
    )
    return RootView(
        seat,
        g.map_name,
        g.game_number,
        g.games,
        tuple(g.results),
        tuple(g.winners),
        g.start_seat,
        g.current,
        g.turns,
        tuple(_clearing(g, c) for c in range(1, 13)),
        players,
        len(g.deck),
        tuple(g.discard),
        tuple(sorted(g.supply.items())),
        active,
        tuple(g.available),
    )
