"""Phase 4, score, and the end of the game.

Phase 4 in the seed's order: 1 each upgrade stack (G2), 2 the face-up events leftmost first,
3 the full-board bonus, 4 (multiplayer) the special delivery (``goals.py`` has the adjacency
goals, ``deliveries.py`` the delivery bonuses). After round 5's phase 4 the game ends: the
adjacency goals score and the most VP wins; ties go to the most building tiles on the town
board, then the most mushrooms left, then the tied players share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.contract import Outcome
from games.gnomeville.content import SPACES, MultiEvent, SoloEvent
from games.gnomeville.metrics import metric

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState
    from games.gnomeville.town import Town


def stack_vp(height: int) -> int:
    """G2: a stack of height h scores h plus a bonus of min(max(h - 4, 0), 5)."""
    return height + min(max(height - 4, 0), 5)


def split(points: int, ways: int) -> int:
    """``points`` shared by ``ways`` players, rounding up (the seed's ties)."""
    return -(-points // ways)


def place_points(values: Sequence[int], best: str, first: int, second: int) -> list[int]:
    """Points per player for a multiplayer event (the seed's ties).

    The best value scores ``first``; a tie for it splits ``first + second`` evenly among the
    tied (rounding up) and no second place is given. Otherwise the next best value scores
    ``second``, a tie for it splitting ``second`` (rounding up). With two players there is no
    second place; a tie for first still splits first plus second (G16). Nobody meeting the
    condition is an ordinary tie (G16).
    """
    n = len(values)
    out = [0] * n
    ordered = sorted(set(values), reverse=best == "most")
    top = [p for p in range(n) if values[p] == ordered[0]]
    if len(top) > 1:
        for p in top:
            out[p] = split(first + second, len(top))
        return out
    out[top[0]] = first
    if n > 2 and len(ordered) > 1:
        runners = [p for p in range(n) if values[p] == ordered[1]]
        for p in runners:
            out[p] = split(second, len(runners))
    return out


def solo_points(value: int, event: SoloEvent) -> int:
    """A solo event: the highest threshold the town reaches scores (0 if none)."""
    reached = [
        vp for at, vp in event.thresholds if (value >= at if event.best == "most" else value <= at)
    ]
    return max(reached, default=0)


def add_vp(g: GnomevilleState, town: Town, vp: int, why: str, **data: Any) -> None:
    if vp:
        town.vp += vp
    g.emit(None, "score", seat=town.seat, vp=vp, total=town.vp, why=why, **data)


def score_round(g: GnomevilleState) -> None:
    """Phase 4, steps 1-3: upgrade stacks, face-up events (leftmost first), full boards."""
    for town in g.towns:
        for stack in town.stacks:
            add_vp(g, town, stack_vp(len(stack)), "stack", height=len(stack))
    for card in g.events[: g.events_up]:
        score_event(g, card)
    full_vp = g.pack.components.full_board_vp
    for town in g.towns:
        if not any(town.is_empty(s) for s in range(SPACES)):
            town.full = True
            add_vp(g, town, full_vp, "full_board")


def score_event(g: GnomevilleState, card: int) -> None:
    event: MultiEvent | SoloEvent
    if g.solo:
        event = g.pack.solo_events[card]
        town = g.towns[0]
        value = metric(g, town, event.metric)
        add_vp(g, town, solo_points(value, event), "event", event=event.id, value=value)
        return
    event = g.pack.multi_events[card]
    values = [metric(g, town, event.metric) for town in g.towns]
    points = place_points(values, event.best, event.first, event.second)
    for town, vp in zip(g.towns, points, strict=True):
        add_vp(g, town, vp, "event", event=event.id, value=values[town.seat])


def begin_deliveries(g: GnomevilleState) -> None:
    """Phase 4, step 4 (multiplayer): the special delivery."""
    from games.gnomeville.deliveries import begin_deliveries as begin

    begin(g)


# ---------------------------------------------------------------------- the end


def end_game(g: GnomevilleState) -> None:
    """After round 5's phase 4: the adjacency goals, then the final ranking."""
    from games.gnomeville.goals import score_goals

    score_goals(g)
    outcome = standing(g)
    g.emit(
        None,
        "game_over",
        scores=list(outcome.scores),
        ranking=list(outcome.ranking),
        **{k: v for k, v in outcome.tiebreak.items() if k != "adjudicated"},
    )
    g.final.update(outcome.tiebreak)
    g.finish(outcome)


def standing(g: GnomevilleState, adjudicated: bool = False) -> Outcome:
    """The ranking as the towns stand: most VP, then most building tiles on the town board,
    then most mushrooms left; players still tied share the place (the seed: まだ同点が続く場合は、
    それらのプレイヤー全員が勝利を分け合います; ruling G50, lower places alike): each tied group is
    consecutive in the ranking, listed by seat, and is named in ``Outcome.shared`` (so results,
    ratings and ladders give its seats one place) and in ``tiebreak["shared"]``. Solo: the
    rank title from the seed's table."""
    key = [(town.vp, town.buildings_on_board(), town.mushrooms) for town in g.towns]
    ranking = tuple(sorted(range(g.players), key=lambda s: (tuple(-x for x in key[s]), s)))
    shared: list[tuple[int, ...]] = []
    i = 0
    while i < len(ranking):
        j = i
        while j + 1 < len(ranking) and key[ranking[j + 1]] == key[ranking[i]]:
            j += 1
        if j > i:
            shared.append(ranking[i : j + 1])
        i = j + 1
    tiebreak: dict[str, Any] = {
        "buildings": tuple(k[1] for k in key),
        "mushrooms": tuple(k[2] for k in key),
        "shared": tuple(shared),
    }
    if g.solo:
        tiebreak["rank"] = solo_rank(g, g.towns[0].vp)
    if adjudicated:
        tiebreak["adjudicated"] = True
    return Outcome(tuple(town.vp for town in g.towns), ranking, tiebreak, tuple(shared))


def solo_rank(g: GnomevilleState, vp: int) -> str:
    """The seed's solo table (80+ ... 40+); below the last line, no rank ("")."""
    reached = [
        (at_least, title) for at_least, title in g.pack.components.solo_ranks if vp >= at_least
    ]
    return max(reached)[1] if reached else ""


def adjudicate(g: GnomevilleState) -> Outcome:
    """Ruling G49: a game stopped before its end is ranked as the towns stand (VP so far, no
    goals), by the same tie-breaks."""
    outcome = g.outcome()
    if outcome is not None:
        return outcome
    return standing(g, adjudicated=True)
