"""One decision's reading of the view, shared by every scoring rule.

Each decision is scored from scratch: who the bot is, its enemy, its faction board, a fresh
``MapModel`` and the fields of the steps in progress (the battle being fought, the move being
made). Scoring rules are plain functions of this reading and the options.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.contract import Option
from games.root.greedy.map_model import EYRIE, MARQUISE, MapModel
from games.root.players import is_enemy
from games.root.view import RootView, StepView


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(_text(v) for v in value)
    return str(value)


def text_fields(step: StepView) -> dict[str, str]:
    """A step's fields as text ("" is falsy, "0" is not; tuples comma-joined): the rules read
    fields this way so that a field holding 0 still counts as present."""
    return {name: _text(value) for name, value in step.fields}


class Turn:
    """One decision's reading of the view: who I am, the map, the steps in progress."""

    def __init__(self, view: RootView, seat: int) -> None:
        self.view = view
        self.seat = seat
        player = view.players[seat]
        self.me = player.faction
        self.player = player
        #: Every enemy faction at the table (``players.is_enemy``: every other one but a
        #: coalition partner, Law 9.2.8).
        self.enemies: tuple[str, ...] = tuple(
            p.faction for p in view.players if is_enemy(view.players, seat, p.seat)
        )
        #: The enemy the two-player yardsticks look at: the Eyrie for the Marquise, else the
        #: Marquise, unless that is a coalition partner (then the first enemy).
        enemy = EYRIE if self.me == MARQUISE else MARQUISE
        self.enemy = enemy if enemy in self.enemies or not self.enemies else self.enemies[0]
        self.board: dict[str, Any] = dict(player.board)
        self.map = MapModel(view)
        self.fields: dict[str, str] = text_fields(view.active[-1]) if view.active else {}

    def field(self, name: str, step: str | None = None) -> str:
        """A field of the innermost step in progress (named ``step``, if given) that has it."""
        for active in reversed(self.view.active):
            if step is None or active.name == step:
                found = text_fields(active)
                if name in found:
                    return found[name]
        return ""

    def safety(self, c: int) -> float:
        """How safe my pieces are in ``c``: my warriors against enemy ones there and next door."""
        m = self.map
        near = sum(m.w(self.enemy, n) for n in m.neighbours[c])
        return m.w(self.me, c) - 2.0 * m.w(self.enemy, c) - 0.3 * near


#: Scores the options of one decision kind, one number per option (higher is better).
Scorer = Callable[[Turn, Sequence[Option]], Iterable[float]]
