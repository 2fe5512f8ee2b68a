"""A playable Root position rebuilt from one seat's observation: what a search bot in another
process (or language, through the SDK) plans with.

Everything in a ``RootView`` is public except the other hands and the deck's order, so the
rebuilt state is exact but for those: the cards the seat cannot see are dealt again from
``seed`` (by ``RootState.redeal``, as ``RootState.determinize`` does, ruling RT6: only deals
that run on to exactly the view are kept), and future chance comes from ``seed`` too. The
steps in progress are rebuilt from their class names and typed fields.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.contract import GameConfig, IllegalDecision
from games.root.cards import CARD_BY_ID, standard_deck
from games.root.maps import BOARDS, with_suits
from games.root.players import Player
from games.root.state import RootState, cards_named
from games.root.steps import Step
from games.root.view import RootView
from games.root.woodland import RUIN, Woodland


def _step_classes() -> dict[str, type[Step]]:
    # Imported for their Step subclasses.
    from games.root import (  # noqa: F401
        alliance,
        battle,
        card_effects,
        crafting,
        eyrie,
        hand_limit,
        marquise,
        moving,
        positions,
        turn,
    )

    found: dict[str, type[Step]] = {}
    todo: list[type[Step]] = [Step]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            found[sub.__name__] = sub
            todo.append(sub)
    return found


def from_view(view: RootView, seed: int) -> RootState:
    """A state equal to the real one in everything ``view.viewer`` can see; the other hands and
    the deck are dealt from the unseen cards, and chance is reseeded, from ``seed``.
    ``IllegalDecision`` if the view is not a seat's view of a game in progress."""
    if view.viewer is None:
        raise IllegalDecision("a spectator's view hides every hand: rebuild from a seat's view")
    seat = view.viewer
    n = len(view.players)
    g = RootState.__new__(RootState)
    from games.root.factions import FACTION_RULES

    g.faction_rules = FACTION_RULES
    g.config = GameConfig(n, view.map, {"games": view.games})
    g.seed = seed
    g.history = []
    g.n = n
    g.rng = random.Random(seed)
    g.map_name = view.map
    g.games = view.games
    g.game_number = view.game_number
    g.results = list(view.results)
    g.winners = list(view.winners)
    g.start_seat = view.start_seat
    g.first_starter = (view.start_seat - (view.game_number - 1)) % n
    shift = view.game_number - 1
    g.first_factions = tuple(view.players[(s - shift) % n].faction for s in range(n))
    g._events = []
    g._pending = ()
    g._outcome = None
    g.setup_events = ()
    g.board = with_suits(BOARDS[view.map], {c.id: c.suit for c in view.clearings})
    g.woodland = _woodland(g, view)
    g.supply = dict(view.item_supply)
    g.discard = list(view.discard)
    g.available = list(view.available_dominance)
    g.players = []
    for p in view.players:
        rules = FACTION_RULES[p.faction]
        player = Player(p.seat, p.faction, type(rules.new_board()).from_public(dict(p.board)))
        pawn = dict(p.board).get("pawn")
        if pawn is not None and pawn != "":  # the Vagabond's pawn, shown on his board
            g.woodland.place_pawn(pawn)
        player.vp = p.vp
        player.crafted = list(p.crafted)
        player.items = list(p.items)
        player.used = tuple(p.used)
        player.dominance = p.dominance or None
        player.coalition = None if p.coalition < 0 else p.coalition
        g.players.append(player)
    g.seat_of = {p.faction: p.seat for p in g.players}
    g.players[seat].hand = list(view.players[seat].hand)
    g.deck = []
    g.current = view.current
    g.turns = view.turn
    g.winner = None
    classes = _step_classes()
    g.stack = [_step(classes, s.step, s.stage, s.seat, s.fields) for s in view.active]
    unseen, held = _unseen(g, view, seat)
    sizes = {p.seat: p.hand_count for p in view.players}
    dealt = sum(sizes[p] for p in held) - sum(len(cards) for cards in held.values())
    dealt += sum(len(g.players[p].board.hidden_cards()) for p in held)  # others' supporters
    if len(unseen) != view.deck_count + dealt:
        raise IllegalDecision(
            f"the view does not add up: {len(unseen)} unseen cards for a deck of "
            f"{view.deck_count} and {dealt} cards in other hands"
        )
    return g.redeal(seat, unseen, held, sizes, g.rng, view)


def _woodland(g: RootState, view: RootView) -> Woodland:
    w = Woodland(g.board, ruins=False)
    for c in view.clearings:
        for faction, count in c.warriors:
            w.place_warriors(faction, c.id, count)
        for owner, kind in c.buildings:
            if kind == RUIN and not owner:
                w.add_ruin(c.id)
            else:
                w.add_building(owner, kind, c.id)
        for owner, kind in c.tokens:
            w.add_token(owner, kind, c.id)
    return w


def _unseen(g: RootState, view: RootView, seat: int) -> tuple[list[str], dict[int, list[str]]]:
    """The cards not seen anywhere, and those of them the other hand is known to hold: named
    by a step in progress (a played ambush, a card waiting for its Decree column). This assumes
    a named card that is not face up is in that hand, not reshuffled into the deck (never seen
    in 150 random contests; the determinize tests would show it)."""
    seen: Counter[str] = Counter(view.players[seat].hand) + Counter(view.discard)
    seen += Counter(g.players[seat].board.hidden_cards())  # the seat's own supporters
    seen += Counter(view.available_dominance)
    for p in g.players:
        seen += Counter(p.crafted)
        if p.dominance is not None:
            seen[p.dominance] += 1
        for name, value in p.board.public().items():
            if name.startswith("decree_"):
                seen += Counter(c for c in value if c in CARD_BY_ID)
    unseen = list((Counter(c.id for c in standard_deck(g.n)) - seen).elements())
    others = [p.seat for p in g.players if p.seat != seat]
    named = sorted(cards_named(v for s in view.active for _name, v in s.fields) - set(seen))
    held: dict[int, list[str]] = {p: [] for p in others}
    for card in named:
        holder = others[0] if len(others) == 1 else _holder(view, card)
        if holder not in held:
            raise IllegalDecision(f"the view names {card} in no other seat's hand")
        held[holder].append(card)
    return [c for c in unseen if c not in named], held


#: Steps whose named card is in another seat's hand than the step's: (step class, card field)
#: -> the field holding that seat (a played ambush is the defender's until discarded).
_HELD_BY: dict[tuple[str, str], str] = {("Battle", "ambush"): "defender"}


def _holder(view: RootView, card: str) -> int:
    """The seat whose hand holds ``card``, named by a step in progress (three or more players:
    the step's own seat unless ``_HELD_BY`` says otherwise)."""
    for s in view.active:
        fields = dict(s.fields)
        for name, value in s.fields:
            if card in cards_named((value,)):
                by = _HELD_BY.get((s.step, name))
                return int(fields[by]) if by is not None else s.seat
    raise IllegalDecision(f"no step names {card}")


def _step(classes: dict[str, type[Step]], name: str, stage: str, seat: int, fields: Any) -> Step:
    cls = classes.get(name)
    if cls is None:
        raise IllegalDecision(f"unknown step {name!r} in the view")
    step = cls.__new__(cls)
    step.seat, step.stage = seat, stage
    for field, value in fields:
        setattr(step, field, value)
    return step
