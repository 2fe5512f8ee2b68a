"""A projection of each town's final score from an unfinished game, for search bots.

The adjudicated standing (ruling G49: VP so far, no goals) cannot see what a position is
worth later: the adjacency goals score only at the end, this round's upgrade stacks and face-up
events only in phase 4, and mushrooms and sword or hammer gnomes pay in later rounds. A search
that rolls out a few decisions and then adjudicates learns to skip purchases and draws. Here
each town's projected final VP are

* its VP so far;
* before this round's phase 4: what phase 4 would give now (its stacks, ruling G2; the face-up
  events as the towns stand; a full board);
* the adjacency goals as the towns stand now, at ``GOAL_WEIGHT`` (a goal's metric still moves:
  fitted on greedy self-play, the goals now explain about a third of the goals at the end);
* for every round still to be scored after this one: ``MUSHROOM`` a mushroom held and ``TOOL``
  a deployed gnome with a sword or a hammer (small, positive, and capped by the rounds left).

It reads the state a search rebuilt from its own seat's view (``GnomevilleState.from_view``),
nothing else. ``stage`` counts the rounds scored: a search rolls out until the next one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.gnomeville.content import SPACES
from games.gnomeville.goals import goal_points
from games.gnomeville.metrics import metric
from games.gnomeville.scoring import place_points, solo_points, stack_vp

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

#: Share of the adjacency goals as they stand now that a projection counts.
GOAL_WEIGHT = 0.4
#: VP per round still to be scored: a mushroom held, a deployed gnome with a sword or hammer.
MUSHROOM = 0.3
TOOL = 0.7
#: Phases of a round before its phase 4 scoring.
BEFORE_SCORING = ("sides", "build", "enemy")
ROUNDS = 5


def stage(g: GnomevilleState) -> int:
    """Rounds scored so far: 0 before round 1's phase 4, 5 only at the end (the last round's
    special deliveries and the goals belong to its scoring)."""
    if g.outcome() is not None:
        return ROUNDS
    if g.phase in BEFORE_SCORING or g.phase == "setup" or g.round >= ROUNDS:
        return max(g.round - 1, 0)
    return g.round


def projected(g: GnomevilleState) -> tuple[float, ...]:
    """Each town's projected final VP (the final scores if the game is over)."""
    outcome = g.outcome()
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    towns = g.towns
    result = [float(town.vp) for town in towns]
    if g.phase in BEFORE_SCORING:
        for seat, vp in enumerate(_round_points(g)):
            result[seat] += vp
    for seat, vp in enumerate(_goal_points(g)):
        result[seat] += GOAL_WEIGHT * vp
    later = ROUNDS - max(g.round, 1)  # rounds to be scored after this one
    if later > 0:
        for seat, town in enumerate(towns):
            tools = sum(
                1
                for gnome in town.deployed()
                if town.has_sword(gnome, g.pack) or town.has_hammer(gnome, g.pack)
            )
            result[seat] += later * (MUSHROOM * town.mushrooms + TOOL * tools)
    return tuple(result)


def _round_points(g: GnomevilleState) -> list[int]:
    """What phase 4 would give each town if it came now (stacks, face-up events, full boards)."""
    points = [sum(stack_vp(len(stack)) for stack in town.stacks) for town in g.towns]
    for card in g.events[: g.events_up]:
        if g.solo:
            event = g.pack.solo_events[card]
            points[0] += solo_points(metric(g, g.towns[0], event.metric), event)
        else:
            multi = g.pack.multi_events[card]
            values = [metric(g, town, multi.metric) for town in g.towns]
            for seat, vp in enumerate(place_points(values, multi.best, multi.first, multi.second)):
                points[seat] += vp
    full_vp = g.pack.components.full_board_vp
    for seat, town in enumerate(g.towns):
        if not any(town.is_empty(s) for s in range(SPACES)):
            points[seat] += full_vp
    return points


def _goal_points(g: GnomevilleState) -> list[int]:
    """The adjacency goals scored as the towns stand now."""
    points = [0] * g.players
    for a, b, card, face in g.goals:
        side = g.pack.goals[card].sides[face]
        va, vb = metric(g, g.towns[a], side.metric), metric(g, g.towns[b], side.metric)
        pa, pb = goal_points(va, vb, side.best, side.win, side.tie)
        points[a] += pa
        points[b] += pb
    return points
