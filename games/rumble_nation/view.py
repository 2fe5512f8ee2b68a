"""What a seat (or a spectator) sees of a Rumble Nation game: plain, immutable data.

Everything is public except the daimyo cards: a seat sees its own card, the display it saw when
it drafted, and the cards others have revealed by using them (R3). Nothing here references the
engine's internals, so the same view can be rebuilt from the wire in the SDK. Views are
named tuples: cheap to build for every decision, and comparable field by field.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class AreaView(NamedTuple):
    id: str
    castle: int
    soldiers: tuple[int, ...]
    reinforcements: tuple[int, ...]
    daimyo: tuple[bool, ...]
    resolved: bool


class PlayerView(NamedTuple):
    stock: int
    daimyo_in_stock: bool
    daimyo_area: str | None
    sword: int
    tactic_used: str | None
    #: Known only to the player itself until it is revealed by use.
    daimyo_card: str | None
    daimyo_revealed: bool
    score: int
    tokens: tuple[tuple[int, str], ...]


class RumbleNationView(NamedTuple):
    viewer: int | None
    players: int
    variant: str
    phase: str
    step: str
    current: int
    start_player: int
    areas: tuple[AreaView, ...]
    seats: tuple[PlayerView, ...]
    tactic_display: tuple[str, ...]
    swords_left: tuple[int, ...]
    cutoff: bool
    dice: tuple[int, ...]
    rerolled: bool
    reinforcement_pool: int
    daimyo_display: tuple[str, ...]
    #: The daimyo cards the viewer saw on the display when it drafted (R3).
    daimyo_seen: tuple[str, ...]
    draft_order: tuple[int, ...]
    #: The card being played and its progress; public, everyone sees a card resolve.
    effect: dict[str, Any] | None = None
