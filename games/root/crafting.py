"""Crafting (Law 4.1): activate crafting pieces matching a card's cost, then resolve the card.

A faction's crafting pieces (Marquise workshops, Eyrie roosts) take the suit of their clearing,
and each is activated at most once per turn. A cost icon of a suit needs a piece of that suit; a
three-colour icon (``ANY``, only Royal Claim) takes a piece of any suit, and since which pieces
it uses matters for later crafts that turn, each distinct way to pay is its own option.

- items: take the item from the supply (no item left: the card cannot be crafted), score the
  card's VP (the faction may change it: Disdain for Trade), discard the card;
- favors: remove every enemy piece in clearings of the suit (1 VP per building/token), discard;
- persistent effects: into the play area; never two with the same effect (Law 4.1.4).
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.root.cards import CARD_BY_ID, FAVOR, ITEM, PERSISTENT, Card
from games.root.maps import clearings_of_suit
from games.root.steps import DONE, FINISHED, Options, Step
from games.root.suits import ANY, CLEARING_SUITS

if TYPE_CHECKING:
    from games.root.state import RootState

Pieces = tuple[int, int, int]  # unused crafting pieces by suit: fox, rabbit, mouse


def payments(cost: tuple[str, ...], pieces: Pieces) -> list[Pieces]:
    """Every distinct way to pay ``cost`` from ``pieces`` (as pieces used per suit)."""
    fixed = [cost.count(s) for s in CLEARING_SUITS]
    if any(f > p for f, p in zip(fixed, pieces, strict=True)):
        return []
    wild = cost.count(ANY)
    if wild == 0:
        return [(fixed[0], fixed[1], fixed[2])]
    left = [p - f for p, f in zip(pieces, fixed, strict=True)]
    found = []
    for extra in product(*(range(n + 1) for n in left)):
        if sum(extra) == wild:
            found.append((fixed[0] + extra[0], fixed[1] + extra[1], fixed[2] + extra[2]))
    return found


def can_craft(g: RootState, seat: int, card: Card) -> bool:
    """Whether the card itself may be crafted now (ignoring pieces): item in the supply, no
    duplicate persistent effect."""
    if not card.craftable:
        return False
    if card.kind == ITEM:
        return card.item is not None and g.supply.get(card.item, 0) > 0
    if card.kind == PERSISTENT:
        return all(CARD_BY_ID[c].effect != card.effect for c in g.players[seat].crafted)
    return True


def _craft_option(card_id: str, pay: Pieces, wild: bool) -> Option:
    key = f"craft:{card_id}"
    label = f"craft {CARD_BY_ID[card_id].name}"
    if wild:
        spent = "/".join(f"{n}{s[0]}" for n, s in zip(pay, CLEARING_SUITS, strict=True) if n)
        key += f":{spent}"
        label += f" ({spent})"
    return Option(key, label, ("craft", card_id, *pay))


class Craft(Step):
    """Craft any number of cards with this turn's unused crafting pieces, then done."""

    __slots__ = ("left",)
    name = "craft"

    left: Pieces

    def __init__(self, seat: int, pieces: dict[str, int]) -> None:
        super().__init__(seat, "card")
        self.left = (pieces.get("fox", 0), pieces.get("rabbit", 0), pieces.get("mouse", 0))

    def options_now(self, g: RootState) -> list[Option]:
        found: list[Option] = []
        if not any(self.left):
            return found
        seen: set[str] = set()
        for card_id in g.players[self.seat].hand:
            card = CARD_BY_ID[card_id]
            if card_id in seen or not can_craft(g, self.seat, card):
                continue
            seen.add(card_id)
            wild = ANY in card.cost
            for pay in payments(card.cost, self.left):
                found.append(_craft_option(card_id, pay, wild))
        return found

    def advance(self, g: RootState) -> Options:
        if self.stage != "card":
            return FINISHED
        found = self.options_now(g)
        if not found:
            return FINISHED
        return (*found, DONE)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if value[0] == "done":
            self.stage = "over"
            return
        card_id = value[1]
        pay = value[2:5]
        self.left = (self.left[0] - pay[0], self.left[1] - pay[1], self.left[2] - pay[2])
        craft(g, self.seat, CARD_BY_ID[card_id])


def craft(g: RootState, seat: int, card: Card) -> None:
    """Resolve a crafted card (its cost already paid)."""
    player = g.players[seat]
    player.hand.remove(card.id)
    g.emit("craft", seat=seat, card=card.id)
    if card.kind == ITEM:
        assert card.item is not None
        g.supply[card.item] -= 1
        player.items.append(card.item)
        g.discard_card(card.id)
        g.score(seat, g.rules(seat).craft_vp(g, seat, card), "craft")
    elif card.kind == PERSISTENT:
        player.crafted.append(card.id)
    elif card.kind == FAVOR:
        g.discard_card(card.id)
        favor(g, seat, card.suit)


def favor(g: RootState, seat: int, suit: str) -> None:
    """Remove all enemy pieces in clearings of ``suit``; removal effects trigger after all."""
    lost: list[tuple[int, int, int]] = []
    w = g.woodland
    for c in clearings_of_suit(g.board, suit):
        for enemy in g.enemies(seat):
            n = w.warriors(g.faction_of(enemy), c)
            if n:
                g.remove_warriors(enemy, c, n, by=seat, trigger=False)
                lost.append((enemy, c, n))
            for kind in g.pieces_of(enemy, c):
                g.remove_piece(enemy, c, kind, by=seat)
            g.rules(enemy).full_removal(g, enemy, c, seat)  # the Vagabond, Law 9.2.2.1
    for enemy, c, n in lost:
        g.rules(enemy).warriors_removed(g, enemy, c, n)
