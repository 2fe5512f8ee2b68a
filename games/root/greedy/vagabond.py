"""The greedy Vagabond: quests first, then explores, aid and crafting; he avoids fights.

Each Daylight action is scored by its verb alone (a quest or a ruin is VP now; aid builds
relationships and VP; battle and Strike make enemies and are left to the last), moves are
preferred to ending Daylight while boots are ready, a quest pays VP, and an item offered by
Aid is taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.greedy.turn import Scorer, Turn

_ACTION: dict[str, float] = {
    "quest": 10.0,
    "explore": 9.0,
    "craft": 7.0,
    "aid": 6.0,
    "repair": 5.0,
    "steal": 4.0,
    "day_labor": 4.0,
    "hideout": 1.0,
    "move": 2.0,
    "done": 0.0,
    "strike": -3.0,
    "battle": -5.0,
}


_TRACK = frozenset({"tea", "coin", "bag"})


def _hostile(turn: Turn) -> set[str]:
    """Factions Hostile to me (my public board's relationships)."""
    return {str(f) for f, v in turn.board.get("relations", ()) if int(v) < 0}


def _ready(turn: Turn) -> list[str]:
    """My face-up undamaged items (public board texts like ``boot``, ``boot:exhausted``)."""
    return [str(t) for t in turn.board.get("items", ()) if ":" not in str(t)]


def _action(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    hostile = _hostile(turn)
    # Aid would exhaust a tea, coin or bag, costing refreshes, cards or capacity (RV1).
    costly_aid = all(i in _TRACK for i in _ready(turn))
    for o in options:
        verb = str(o.value[0])
        if verb == "aid":
            receiver = turn.view.players[int(o.value[1])]
            if receiver.faction in hostile and not receiver.items:
                yield -1.0  # a Hostile faction never improves: only its items are worth it
                continue
            if costly_aid:
                yield 0.5
                continue
        yield _ACTION.get(verb, 0.0)


def _reward(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 2.0 if o.value[1] == "vp" else 1.0


def _take(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[0] == "take" else 0.0


def _keep_out(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Fights with an ally's warriors risk the alliance (RV14): the greedy fights alone, and
    moves alone."""
    for o in options:
        yield 1.0 if o.value[0] == "pass" else 0.0


#: Items kept longest over capacity (the first removed is the least useful).
_KEEP = ("boot", "torch", "sword", "hammer", "bag", "tea", "coin", "crossbow")


def _capacity(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Over capacity, remove the kind he holds most of, the less useful first."""
    held = [str(t).split(":")[0] for t in turn.board.get("items", ())]
    for o in options:
        item = str(o.value[1])
        yield held.count(item) - 0.1 * (_KEEP.index(item) if item in _KEEP else 0)


#: Ready items he would rather keep face up: tea, coins and bags only count on their tracks
#: face up (RV1), boots and torches carry his turn.
_READY_WORTH = {"tea": 5.0, "coin": 5.0, "bag": 4.0, "boot": 3.0, "torch": 2.0, "sword": 1.0}


def _exhaust(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Aid exhausts the item least worth keeping face up."""
    for o in options:
        yield -_READY_WORTH.get(str(o.value[1]), 0.0)


def _refresh(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Refresh undamaged items first, those worth most face up first."""
    for o in options:
        damaged = len(o.value) > 2 and bool(o.value[2])
        yield _READY_WORTH.get(str(o.value[1]), 0.5) - (10.0 if damaged else 0.0)


def _character(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[1] == "thief" else 0.0


#: Decision kinds only the Vagabond meets.
SCORERS: dict[str, Scorer] = {
    "vagabond.action": _action,
    "vagabond.quest_reward": _reward,
    "vagabond.aid_take": _take,
    "vagabond.character": _character,
    "vagabond.capacity": _capacity,
    "vagabond.aid_item": _exhaust,
    "vagabond.refresh": _refresh,
    "battle.ally": _keep_out,
    "vagabond.escort": _keep_out,
}
