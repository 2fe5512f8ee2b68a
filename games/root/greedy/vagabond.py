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


def _action(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield _ACTION.get(str(o.value[0]), 0.0)


def _reward(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 2.0 if o.value[1] == "vp" else 1.0


def _take(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[0] == "take" else 0.0


def _character(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[1] == "thief" else 0.0


#: Decision kinds only the Vagabond meets.
SCORERS: dict[str, Scorer] = {
    "vagabond.action": _action,
    "vagabond.quest_reward": _reward,
    "vagabond.aid_take": _take,
    "vagabond.character": _character,
}
