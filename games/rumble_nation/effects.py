"""The shape shared by every card effect: a small resumable step machine.

A card is played as a sequence of small decisions. An effect object remembers what was chosen
so far (plain fields, so it copies cheaply and can be written into an observation), offers the
options of its next step - only options that can still be completed legally - and applies the
chosen one. ``choose`` returns True once the card is fully resolved.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option

if TYPE_CHECKING:
    from games.rumble_nation.state import RumbleNationState


@dataclasses.dataclass(slots=True)
class Effect:
    """Base of all tactic and daimyo card effects. ``seat`` is the player using the card."""

    card: ClassVar[str]
    seat: int

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        """Whether the card's effect can be carried out now (unusable cards are not offered)."""
        raise NotImplementedError

    def step(self) -> str:
        """Short name of the current step, e.g. ``source``; the decision kind is card.step."""
        raise NotImplementedError

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        raise NotImplementedError

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        raise NotImplementedError

    def kind(self) -> str:
        return f"{self.card}.{self.step()}"

    def copy(self) -> Effect:
        return dataclasses.replace(self)

    def fields(self) -> dict[str, Any]:
        """Plain fields for an observation (everything about a card in play is public)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def opponents_in(s: RumbleNationState, area: int, seat: int, at_least: int = 1) -> list[int]:
    """Opponents of ``seat`` with at least ``at_least`` soldiers in ``area``."""
    row = s.soldiers[area]
    return [p for p in range(s.n) if p != seat and row[p] >= at_least]


def has_opponent_row(row: list[int], seat: int, at_least: int) -> bool:
    return any(count >= at_least for p, count in enumerate(row) if p != seat)


def has_opponent(s: RumbleNationState, area: int, seat: int, at_least: int = 1) -> bool:
    row = s.soldiers[area]
    if at_least == 1:
        return sum(row) > row[seat]
    return has_opponent_row(row, seat, at_least)
