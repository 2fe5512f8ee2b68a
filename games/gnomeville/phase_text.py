"""One readable line for each event of phases 3-5 and the end of the game.

``describe.py`` (the build phase's events) asks :func:`describe_phase` first and falls back to
its own texts when it returns None, so each event kind is described where it is emitted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Event

Data = Mapping[str, Any]


def _seat(d: Data) -> str:
    """Players are numbered from 1 in logs, as in the other games (seats count from 0)."""
    seat = d.get("seat")
    return f"Player {seat + 1}" if isinstance(seat, int) else "A player"


def _score(d: Data) -> str:
    why = d.get("why")
    if why == "stack":
        what = f"an upgrade stack of {d['height']}"
    elif why == "event":
        what = f"event {d['event']} (value {d['value']})"
    elif why == "full_board":
        what = "a full town board"
    elif why == "goal":
        what = (
            f"goal {d['goal']} ({d['side']}, value {d['value']} against Player {d['against'] + 1})"
        )
    else:
        what = str(why)
    return f"{_seat(d)} scores {d['vp']} VP for {what} (total {d['total']})"


def _bonus(d: Data) -> str:
    if d.get("taken") == "bonus":
        extra = f" ({d['tile']})" if "tile" in d else ""
        where = f" at {d['space']}" if "space" in d else ""
        return f"{_seat(d)} takes the {d['bonus']} delivery bonus{extra}{where}"
    if d.get("taken") == "mushrooms":
        n = d["mushrooms"]
        return f"{_seat(d)} takes {n} mushroom{'' if n == 1 else 's'} from the delivery"
    return f"{_seat(d)} takes 1 mushroom instead of the {d['bonus']} delivery bonus"


def _players(seats: Any) -> str:
    """Seats (from 0) as players (from 1): ``Players 2 and 3``."""
    names = [str(seat + 1) for seat in seats]
    if len(names) == 1:
        return f"Player {names[0]}"
    return f"Players {', '.join(names[:-1])} and {names[-1]}"


def _game_over(d: Data) -> str:
    scores = d["scores"]
    ranked = ", ".join(
        f"{n}. Player {seat + 1} {scores[seat]}" for n, seat in enumerate(d["ranking"], 1)
    )
    line = f"Game over: {ranked}"
    if d.get("shared"):
        line += "; sharing a place: " + "; ".join(_players(s) for s in d["shared"])
    if d.get("rank") is not None:
        line += f", rank: {d['rank'] or 'none'}"
    return line


_TEXTS: dict[str, Callable[[Data], str]] = {
    "ambush": lambda d: f"Ambush! Troll card {d['card']} for the stuck: {_players(d['seats'])}",
    "boulder": lambda d: f"{_seat(d)}: a boulder falls on {d['space']}",
    "boulder_smashed": lambda d: (
        f"{_seat(d)}: the gnome with a hammer on {d['space']} smashes the falling boulder "
        "(+1 mushroom)"
    ),
    "troll_crushed": lambda d: f"{_seat(d)}: a boulder crushes the troll on {d['space']}",
    "troll": lambda d: f"{_seat(d)}: a troll appears on {d['space']}",
    "spawn_ignored": lambda d: (
        f"{_seat(d)}: the troll spawn on {d['space']} is ignored "
        + {"boulder": "(a boulder is there)", "troll": "(a troll is there)"}.get(
            d["why"], "(three trolls already)"
        )
    ),
    "troll_defeated": lambda d: (
        f"{_seat(d)}: the gnome with a sword on {d['space']} defeats a troll (+1 mushroom)"
    ),
    "troll_moves": lambda d: f"{_seat(d)}: a troll moves from {d['space']} to {d['to']}",
    "destroyed": lambda d: (
        f"{_seat(d)}: the {d['tile']} on {d['space']} is destroyed by a {d['by']} "
        "(its tile goes back to the bag)"
    ),
    "exhausted": lambda d: (
        f"{_seat(d)}: gnome {d['gnome']}"
        + (f" on {d['space']}" if d["space"] else "")
        + f" is exhausted by a {d['by']}"
        + (f" and discards {d['ability']}" if d["ability"] else "")
    ),
    "restand": lambda d: f"{_seat(d)} places a new gnome stand on {d['space']}",
    "score": _score,
    "delivery": lambda d: (
        f"Special delivery {d['card']}: leader at {d['leader']} VP; bonus groups: "
        + ", ".join(f"Player {seat + 1} {n}" for seat, n in enumerate(d["groups"]))
    ),
    "delivery_bonus": _bonus,
    "washed": lambda d: f"{_seat(d)}: the river washes {', '.join(d['spaces'])} clean",
    "event_revealed": lambda d: f"Event {d['event']} is revealed for round {d['round']}",
    "bag_refilled": lambda d: (
        f"{_seat(d)} puts {d['tiles']} tiles back into the bag"
        + (" (the full board is cleared)" if d["full"] else "")
    ),
    "game_over": _game_over,
}


def describe_phase(event: Event) -> str | None:
    """The line for an event of phases 3-5 or the end; None for any other kind."""
    text = _TEXTS.get(event.kind)
    return None if text is None else text(event.data)


#: The event kinds described here (describe.py may check it has no overlap).
KINDS = frozenset(_TEXTS)
