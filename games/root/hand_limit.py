"""End of Evening: discard down to the hand limit of five (Law 6.6.2, 7.6.3; the Japanese rules
summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.root.cards import HAND_LIMIT
from games.root.steps import FINISHED, Options, Step, card_option

if TYPE_CHECKING:
    from games.root.state import RootState


class HandLimit(Step):
    """Discard one card at a time, of the seat's choice, until at most five are left."""

    __slots__ = ()
    name = "hand_limit"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "discard")

    def advance(self, g: RootState) -> Options:
        hand = g.players[self.seat].hand
        if len(hand) <= HAND_LIMIT:
            return FINISHED
        return tuple(card_option(c, "discard") for c in sorted(set(hand)))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        g.spend(self.seat, value[1], "hand_limit")
