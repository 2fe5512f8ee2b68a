"""End-game scoring of the adjacency goals.

One goal card lies between each pair of neighbours (three cards between the two players of a
2-player game). A card compares the two towns by its face-up side's metric: the better town
scores the side's winning value and the other nothing; a tie adds the winning and the tie value
and splits the sum evenly, rounding up (ruling G5; the seed's example: 5 + 2 -> 4 each).
A metric nobody "meets" (both 0) is an ordinary tie (G16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.gnomeville.metrics import better, metric

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def goal_points(a: int, b: int, best: str, win: int, tie: int) -> tuple[int, int]:
    """Points for the two towns with values ``a`` and ``b`` on one goal side."""
    if a == b:
        each = -(-(win + tie) // 2)
        return each, each
    return (win, 0) if better(best, a, b) else (0, win)


def score_goals(g: GnomevilleState) -> None:
    """Score every adjacency goal, in the order they were laid out."""
    from games.gnomeville.scoring import add_vp

    for a, b, card, face in g.goals:
        goal = g.pack.goals[card]
        side = goal.sides[face]
        town_a, town_b = g.towns[a], g.towns[b]
        va, vb = metric(g, town_a, side.metric), metric(g, town_b, side.metric)
        pa, pb = goal_points(va, vb, side.best, side.win, side.tie)
        for town, vp, value, other in ((town_a, pa, va, b), (town_b, pb, vb, a)):
            add_vp(g, town, vp, "goal", goal=goal.id, side=side.name, value=value, against=other)
