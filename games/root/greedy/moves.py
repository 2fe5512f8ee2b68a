"""Moves for both factions: a move is worth how much it improves ``position`` on the map.

Moves are tried on a ``MapModel`` copy. For the Eyrie, a move that would make a later card of
their Decree impossible costs ``TURMOIL``. Each extra warrior moved costs a little, so the
smallest move with the best gain is preferred.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.greedy.decree import TURMOIL, Decree, remaining_decree
from games.root.greedy.map_model import MapModel
from games.root.greedy.position import position
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS


def move_gain(turn: Turn, m: MapModel, a: int, b: int, n: int, decree: Decree | None) -> float:
    """How much moving ``n`` warriors from ``a`` to ``b`` improves my position."""
    trial = m.copy()
    trial.move(turn.me, a, b, n)
    gain = position(trial, turn.me, turn.enemy) - position(m, turn.me, turn.enemy)
    if decree is not None and not decree.feasible(trial, search=False):
        gain -= TURMOIL
    return gain


def best_move(turn: Turn, origins: Iterable[int] | None = None) -> tuple[float, int, int, int]:
    """The best move now, as (gain, origin, destination, count)."""
    m = turn.map
    decree = remaining_decree(turn)
    best = (-1e9, 0, 0, 0)
    for a in origins if origins is not None else CLEARING_IDS:
        n = m.w(turn.me, a)
        for b in m.destinations(turn.me, a):
            for k in range(1, n + 1):
                gain = move_gain(turn, m, a, b, k, decree) - 0.01 * k
                if gain > best[0]:
                    best = (gain, a, b, k)
    return best


def _move_origin(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    for o in options:
        if o.value[0] == "done":
            yield 0.05
            continue
        a = o.value[1]
        yield max(
            (
                move_gain(turn, m, a, b, k, decree) - 0.01 * k
                for b in m.destinations(turn.me, a)
                for k in range(1, m.w(turn.me, a) + 1)
            ),
            default=-1e9,
        )


def _move_destination(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    a = int(turn.field("origin", "move"))
    for o in options:
        b = o.value[1]
        yield max(
            move_gain(turn, m, a, b, k, decree) - 0.01 * k for k in range(1, m.w(turn.me, a) + 1)
        )


def _move_count(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    a = int(turn.field("origin", "move"))
    b = int(turn.field("destination", "move"))
    for o in options:
        k = o.value[1]
        yield move_gain(turn, m, a, b, k, decree) - 0.01 * k


SCORERS: dict[str, Scorer] = {
    "move.origin": _move_origin,
    "move.destination": _move_destination,
    "move.count": _move_count,
}
