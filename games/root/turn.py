"""A turn: Birdsong, Daylight, Evening (Law 1.1.2), with the shared card windows around them.

Every faction's turn has the same frame: effects that happen "at start of" a phase come before
the faction's own part of it (Law 1.1.2), so the turn runs, in order: Better Burrow Bank and the
Birdsong card window, the faction's Birdsong, a last Birdsong window; Command Warren and the
Daylight card window, the faction's Daylight, a last Daylight window; Cobbler, the faction's
Evening (card windows: see ``card_effects``; where they sit is ruling RT7).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from games.root.card_effects import CardWindow, better_burrow_bank
from games.root.dominance import check_victory
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING
from games.root.steps import FINISHED, Options, Step

if TYPE_CHECKING:
    from games.root.state import RootState

#: The turn's stages in order; each runs a shared window or the faction's phase.
STAGES: tuple[str, ...] = (
    "start",
    "birdsong_cards",
    "birdsong",
    "birdsong_end",
    "daylight_start",
    "daylight",
    "daylight_end",
    "evening_start",
    "evening",
    "end",
)
_NEXT: dict[str, str] = dict(pairwise(STAGES))


class Turn(Step):
    """The frame of one seat's turn; the phases themselves are child steps."""

    __slots__ = ()
    name = "turn"

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        while self.stage != "end":
            stage = self.stage = _NEXT[self.stage]
            child: Step | None = None
            if stage == "birdsong_cards":
                g.emit("turn", seat=seat, turn=g.turns, faction=g.faction_of(seat))
                if g.players[seat].dominance is not None:
                    check_victory(g, seat)  # first thing at the start of Birdsong (RT18)
                    if g.winner is not None:
                        return FINISHED
                better_burrow_bank(g, seat)
                child = CardWindow.open(g, seat, "birdsong")
            elif stage == "birdsong":
                child = g.rules(seat).phase(g, seat, BIRDSONG)
                if child is None:  # nothing asked since the start window: no second one (RT7)
                    self.stage = "birdsong_end"
            elif stage == "birdsong_end":
                child = CardWindow.open(g, seat, "birdsong_end")
            elif stage == "daylight_start":
                child = CardWindow.open(g, seat, "daylight_start")
            elif stage == "daylight":
                child = g.rules(seat).phase(g, seat, DAYLIGHT)
            elif stage == "daylight_end":
                child = CardWindow.open(g, seat, "daylight_end")
            elif stage == "evening_start":
                child = CardWindow.open(g, seat, "evening")
            elif stage == "evening":
                child = g.rules(seat).phase(g, seat, EVENING)
            if child is not None:
                g.push(child)
                return FINISHED
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        raise AssertionError("a turn frame asks nothing itself")
