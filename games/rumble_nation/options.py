"""Option constructors for Rumble Nation, interned so that a decision costs no allocation.

Keys are stable strings a bot in any language can match on:
``roll``, ``reroll``, ``place:<castle>:<soldiers>[:daimyo]``, ``tactic:<card>``,
``daimyo:<card>``, ``<area>`` (a step that picks an area), ``seat:<n>``, ``stop`` ...
"""

from __future__ import annotations

from functools import cache

from games.contract import Option
from games.rumble_nation.board import AREAS
from games.rumble_nation.cards import DAIMYO_BY_ID, TACTIC_BY_ID

ROLL = Option("roll", "Roll the dice", ("roll",))
REROLL = Option("reroll", "Reroll all three dice", ("reroll",))
STOP = Option("stop", "Stop here", ("stop",))
ESCORT = Option("escort", "Take one soldier along", ("escort", True))
ALONE = Option("alone", "Move the daimyo alone", ("escort", False))


@cache
def place(castle: int, soldiers: int, with_daimyo: bool) -> Option:
    """Deploy ``soldiers`` (plus the daimyo if ``with_daimyo``) into the area of ``castle``.

    Named by castle number, as the dice name it: the option does not depend on the layout.
    """
    what = f"{soldiers} soldier{'s' if soldiers != 1 else ''}"
    if with_daimyo:
        what = f"the daimyo and {what}" if soldiers else "the daimyo"
    key = f"place:{castle}:{soldiers}" + (":daimyo" if with_daimyo else "")
    return Option(key, f"Place {what} on castle {castle}", ("place", castle, soldiers, with_daimyo))


@cache
def tactic(card: str) -> Option:
    return Option(f"tactic:{card}", f"Use tactic card {TACTIC_BY_ID[card].name}", ("tactic", card))


@cache
def daimyo_card(card: str) -> Option:
    return Option(f"daimyo:{card}", f"Use daimyo card {DAIMYO_BY_ID[card].name}", ("daimyo", card))


@cache
def draft(card: str) -> Option:
    return Option(f"draft:{card}", f"Take daimyo card {DAIMYO_BY_ID[card].name}", ("draft", card))


@cache
def area(index: int) -> Option:
    return Option(AREAS[index].id, AREAS[index].name, ("area", index))


@cache
def seat(index: int) -> Option:
    return Option(f"seat:{index}", f"Player {index + 1}", ("seat", index))


@cache
def piece_to(piece: str, index: int) -> Option:
    """Chōsokabe: move a ``soldier`` or the ``daimyo`` to an area (value ``move_<piece>``)."""
    return Option(
        f"{piece}:{AREAS[index].id}",
        f"Move a {piece} to {AREAS[index].name}",
        (f"move_{piece}", index),
    )


def areas(indices: list[int] | tuple[int, ...]) -> tuple[Option, ...]:
    return tuple([area(i) for i in indices])
