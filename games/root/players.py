"""One player of a Root game: hand, score, crafted cards and items, and the faction's board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.root.cards import CARD_BY_ID
from games.root.faction import FactionBoard


class InCoalition(Protocol):
    """A player, or its view: the seat it formed a coalition with (None or -1: none)."""

    @property
    def coalition(self) -> int | None: ...


def is_enemy(players: Sequence[InCoalition], seat: int, other: int) -> bool:
    """Whether ``other`` is an enemy of ``seat``: the Law's one definition (Enemy, in the
    glossary): "any other player that you are not in a coalition with" (Law 9.2.8). A
    Vagabond in a coalition and his partner are not enemies either way: neither battles,
    strikes or removes the other (Law 4.3, 9.5.6), and an effect removing all enemy pieces
    (a revolt, a favor card) spares the other's pieces, and so the Vagabond's items (Full
    Removal, Law 9.2.2.I). Every "enemy" of the engine and the bots asks this."""
    return other != seat and players[seat].coalition != other and players[other].coalition != seat


class Player:
    """A seat's side of the current game. ``hand`` is private; the rest is public."""

    __slots__ = (
        "board",
        "coalition",
        "crafted",
        "dominance",
        "faction",
        "hand",
        "items",
        "seat",
        "used",
        "vp",
    )

    def __init__(self, seat: int, faction: str, board: FactionBoard) -> None:
        self.seat = seat
        self.faction = faction
        self.hand: list[str] = []
        self.vp = 0
        #: Persistent-effect cards in the play area (card ids), in crafting order.
        self.crafted: list[str] = []
        #: Items in the Crafted Items box.
        self.items: list[str] = []
        #: Once-per-turn effects already used this turn (effect ids), reset when a turn starts.
        self.used: tuple[str, ...] = ()
        self.board = board
        #: The activated dominance card (Law 3.3.1), in the play area for good; None if none.
        #: While set, the seat scores no VP (``vp`` stays as it was when activated).
        self.dominance: str | None = None
        #: The seat this Vagabond formed a coalition with by activating ``dominance`` (Law
        #: 9.2.8, RT22): he wins when it wins. None if none.
        self.coalition: int | None = None

    def crafted_with(self, effect: str) -> str | None:
        """The card id of the crafted card with ``effect`` (at most one: Law 4.1.4), or None."""
        for card_id in self.crafted:
            if CARD_BY_ID[card_id].effect == effect:
                return card_id
        return None

    def copy(self) -> Player:
        new = Player.__new__(Player)
        new.seat = self.seat
        new.faction = self.faction
        new.hand = list(self.hand)
        new.vp = self.vp
        new.crafted = list(self.crafted)
        new.items = list(self.items)
        new.used = self.used
        new.board = self.board.copy()
        new.dominance = self.dominance
        new.coalition = self.coalition
        return new

    def canonical(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.faction,
            tuple(self.hand),
            self.vp,
            tuple(self.crafted),
            tuple(self.items),
            self.used,
            self.board.canonical(),
            self.dominance,
            self.coalition,
        )
