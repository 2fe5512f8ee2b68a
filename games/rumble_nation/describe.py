"""Readable log lines for Rumble Nation events (for ``kassen play`` and spectators)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Event
from games.rumble_nation.board import AREA_INDEX, AREAS
from games.rumble_nation.cards import DAIMYO_BY_ID, TACTIC_BY_ID


def _p(seat: int) -> str:
    return f"Player {seat + 1}"


def _area(area_id: str) -> str:
    return AREAS[AREA_INDEX[area_id]].name


def _setup(d: Mapping[str, Any]) -> str:
    castles = ", ".join(
        f"{_area(a)} {c}" for a, c in sorted(d["castles"].items(), key=lambda x: x[1])
    )
    cards = ", ".join(TACTIC_BY_ID[c].name for c in d["tactic_display"])
    return f"Castles: {castles}\nTactic cards on display: {cards}\n{_p(d['start_player'])} starts"


def _deploy(d: Mapping[str, Any]) -> str:
    what = f"{d['soldiers']} soldier{'s' if d['soldiers'] != 1 else ''}"
    if d["daimyo"]:
        what += " and the daimyo"
    return f"  {_p(d['seat'])} places {what} in {_area(d['area'])} ({d['castle']})"


def _battle(d: Mapping[str, Any]) -> str:
    powers = ", ".join(f"P{p + 1}={v}" for p, v in enumerate(d["power"]) if v)
    line = f"  Castle {d['castle']} {_area(d['area'])}: {powers} -> {_p(d['winner'])} takes {d['large']}"
    if d["second"] is not None:
        line += f", {_p(d['second'])} takes {d['small']}"
    return line


def _move(d: Mapping[str, Any]) -> str:
    piece = (
        "the daimyo"
        if d["piece"] == "daimyo"
        else f"{d['count']} soldier{'s' if d['count'] != 1 else ''}"
    )
    return f"    {piece} of {_p(d['owner'])}: {_area(d['src'])} -> {_area(d['dst'])}"


def _game_over(d: Mapping[str, Any]) -> str:
    lines = ["Final scores: " + ", ".join(f"{_p(p)} {s}" for p, s in enumerate(d["scores"]))]
    lines += [f"  {rank}. {_p(p)} ({d['scores'][p]})" for rank, p in enumerate(d["ranking"], 1)]
    return "\n".join(lines)


_LINES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "setup": _setup,
    "daimyo_display": lambda d: (
        "Daimyo cards on display: " + ", ".join(DAIMYO_BY_ID[c].name for c in d["cards"])
    ),
    "daimyo_drafted": lambda d: f"{_p(d['seat'])} takes a daimyo card (face down)",
    "roll": lambda d: (
        f"{_p(d['seat'])} {'re' if d['reroll'] else ''}rolls " + " ".join(map(str, d["dice"]))
    ),
    "deploy": _deploy,
    "tactic": lambda d: f"  {_p(d['seat'])} uses tactic card {TACTIC_BY_ID[d['card']].name}",
    "daimyo_card": lambda d: (
        f"  {_p(d['seat'])} reveals daimyo card {DAIMYO_BY_ID[d['card']].name}"
    ),
    "move": _move,
    "to_stock": lambda d: (
        f"    {d['count']} soldier(s) of {_p(d['owner'])} leave {_area(d['area'])} for the stock"
    ),
    "from_stock": lambda d: (
        f"    {d['count']} soldier(s) of {_p(d['owner'])} enter {_area(d['area'])} from the stock"
    ),
    "sword": lambda d: f"  {_p(d['seat'])} has placed everything and takes sword chip {d['value']}",
    "cutoff": lambda d: "  From now on no card may be used.",
    "war": lambda d: "War phase",
    "battle": _battle,
    "set_aside": lambda d: (
        f"  Castle {d['castle']} {_area(d['area'])}: nobody there, token set aside"
    ),
    "reinforce": lambda d: (
        f"    {_p(d['seat'])} sends {d['count']} reinforcement(s) to {_area(d['area'])} ({d['castle']})"
    ),
    "game_over": _game_over,
}


def describe(event: Event) -> str:
    line = _LINES.get(event.kind)
    return line(event.data) if line else f"{event.kind}: {dict(event.data)}"
