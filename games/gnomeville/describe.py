"""One readable line per Gnomeville event, for logs and spectators.

The build phase's events (drawing, placing, moving, activating, upgrading) are rendered here;
the other phases' events by ``phase_text.describe_phase`` where that module exists, and any
event nobody knows as a generic ``kind: key=value`` line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Event

Data = Mapping[str, Any]


def _a(noun: object) -> str:
    """``a market``, ``an armory``."""
    text = str(noun)
    return f"{'an' if text[:1] in 'aeiou' else 'a'} {text}"


def _seat(d: Data) -> str:
    """Players are numbered from 1 in logs, as in the other games (seats count from 0)."""
    seat = d.get("seat")
    return f"Player {seat + 1}" if isinstance(seat, int) else "A player"


def _gnome(d: Data) -> str:
    return f"gnome {d.get('gnome', '?')}"


def _pass(d: Data) -> str:
    reason = d.get("reason", "")
    why = {"empty bag": " (the bag is empty)", "no space": " (the tile fits nowhere)"}.get(
        reason, ""
    )
    return f"{_seat(d)} passes{why}"


def _second_chance(d: Data) -> str:
    how = "its redraw card" if d.get("by") == "redraw" else "the second chance"
    return f"{_seat(d)} returns the {d['tile']} to the bag with {how}"


def _reveal(d: Data) -> str:
    tiles = [f"seat {s}: {t}" for s, t in enumerate(d.get("tiles", ())) if t]
    return "Revealed: " + (", ".join(tiles) if tiles else "nothing")


def _graduate(d: Data) -> str:
    ability = d.get("ability", "")
    card = f" with the ability {ability}" if ability else " (no ability card left)"
    return f"{_seat(d)}: {_gnome(d)} graduates{card}"


def _stew(d: Data) -> str:
    by = "its stew card" if d.get("gnome", -1) == -1 else f"{_gnome(d)} at the tavern"
    return f"{_seat(d)} fills its stew ({by})"


_LINES: dict[str, Callable[[Data], str]] = {
    "draw": lambda d: f"{_seat(d)} draws {_a(d['tile'])}",
    "pass": _pass,
    "second_chance": _second_chance,
    "unplaceable": lambda d: f"{_seat(d)} cannot place the {d['tile']}: it goes back to the bag",
    "place": lambda d: f"{_seat(d)} places {_a(d['tile'])} on {d['space']}",
    "gnome_tile": lambda d: (
        f"{_seat(d)} covers stump {d['stump']} with a gnome tile: {d['movement']} movement"
    ),
    "stuck": lambda d: f"{_seat(d)} is stuck (third gnome tile): it moves, then stops building",
    "move": lambda d: f"{_seat(d)}: {_gnome(d)} moves {d['start']} -> {d['to']} ({d['left']} left)",
    "stop": lambda d: f"{_seat(d)} stops moving ({d['forfeited']} movement forfeited)",
    "sprint": lambda d: (
        f"{_seat(d)}: {_gnome(d)} sprints: {d['movement']} movement more ({d['left']} left)"
    ),
    "mushroom": lambda d: (
        f"{_seat(d)}: {_gnome(d)} finds {d['amount']} mushroom(s) on {d['space']} "
        f"({d['total']} in all)"
    ),
    "boulder_broken": lambda d: f"{_seat(d)}: {_gnome(d)} smashes the boulder on {d['space']}",
    "troll_defeated": lambda d: f"{_seat(d)}: {_gnome(d)} defeats the troll on {d['space']}",
    "buy": lambda d: f"{_seat(d)} buys {_a(d['tile'])} for {d['cost']} mushroom(s)",
    "deploy": lambda d: f"{_seat(d)} deploys {_gnome(d)} on {d['space']}",
    "stew": _stew,
    "hammer": lambda d: f"{_seat(d)}: {_gnome(d)} takes a hammer",
    "sword": lambda d: f"{_seat(d)}: {_gnome(d)} takes a sword",
    "graduate": _graduate,
    "academy_draw": lambda d: (
        f"{_seat(d)}: {_gnome(d)} draws the abilities {' and '.join(d['cards'])}"
    ),
    "ability_returned": lambda d: f"{_seat(d)} puts {d['ability']} at the bottom of its pile",
    "ability": lambda d: f"{_seat(d)}: {_gnome(d)} uses its {d['ability']} card",
    "destroy": lambda d: f"{_seat(d)} destroys the {d['what']} on {d['space']} (from {d['by']})",
    "stacked": lambda d: (
        f"{_seat(d)} stacks the {d['tile']}s on {', '.join(d['spaces'])} (stack of {d['height']})"
    ),
    "upgrade": lambda d: f"{_seat(d)} upgrades to {_a(d['tile'])} on {d['space']}",
    "upgrade_blocked": lambda d: (
        f"{_seat(d)}: the {d['tile']}s on {', '.join(d['spaces'])} cannot upgrade "
        "(no tile left to take)"
    ),
    "reveal": _reveal,
    "round": lambda d: f"Round {d['round']}: troll card {d['troll_card']} is revealed",
    "side": lambda d: f"{_seat(d)} plays town #{d['town']}",
}


def generic(event: Event) -> str:
    data = ", ".join(f"{k}={v}" for k, v in event.data.items())
    return f"{event.kind}: {data}" if data else event.kind


def describe(event: Event) -> str:
    """One line for ``event``."""
    line = _LINES.get(event.kind)
    if line is not None:
        try:
            return line(event.data)
        except (KeyError, TypeError, ValueError):
            return generic(event)
    try:
        phase_text = importlib.import_module("games.gnomeville.phase_text")
    except ImportError:
        return generic(event)
    text = phase_text.describe_phase(event)
    return text if isinstance(text, str) and text else generic(event)
