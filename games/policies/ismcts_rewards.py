"""What a rollout's end is worth to each seat, in [0, 1]: the search's reward (``ismcts``).

A finished game: ``0.9 * place + 0.1 * score share`` (place 1 for first, 0 for last, shared
places share; the score share between the lowest and the highest score). An unfinished one is
judged by the game's projected final scores, or its ``adjudicate()``; with ``margin`` > 0 by
each seat's score against the best other's, ``0.5 + 0.5 * tanh(difference / margin)``, which
still moves when a rollout changes the margin but not the order. Solo: the score alone.

Partners win or lose together, as Root's coalitions do. A game's ``partners(state)`` gives,
for each seat, the seat whose projection judges it (itself, unless its own score no longer
decides its result: a Vagabond in a coalition is judged by his partner's). Seats judged by
the same seat are not each other's rivals (else the partner would see her own result as the
best other's, and a lead would be worth nothing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from games.contract import GameState

#: Weight of the score against place in a seat's reward.
SCORE_WEIGHT = 0.1
#: A solo score of this many points is worth a reward of 0.75.
SOLO_SCALE = 50.0

#: Each seat's projected final score for an unfinished position (``games/<game>/evaluate.py``).
Projection = Callable[[GameState], tuple[float, ...]]
#: For each seat, the seat whose projection judges it (itself unless it shares another's result).
Partners = Callable[[GameState], tuple[int, ...]]


def rewards(
    state: GameState,
    margin: float = 0.0,
    projection: Projection | None = None,
    partners: Partners | None = None,
) -> list[float]:
    """Each seat's reward for a finished or unfinished position (see the module docstring);
    ``projection``: judge an unfinished position by it rather than by ``adjudicate()``;
    ``partners``: who shares whose result there."""
    finished = state.outcome()
    if finished is None and projection is not None:
        projected = projection(state)
        if len(projected) > 1:
            team = partners(state) if partners is not None else tuple(range(len(projected)))
            projected = tuple(projected[team[seat]] for seat in range(len(projected)))
            if margin > 0:
                return margin_rewards(projected, margin, team)
            return place_rewards(projected)
    outcome = finished or state.adjudicate()
    n = len(outcome.ranking)
    if n == 1:
        score = outcome.scores[0]
        return [0.5 + 0.5 * score / (abs(score) + SOLO_SCALE)]
    scores = tuple(float(v) for v in outcome.scores)
    if margin > 0 and finished is None:
        return margin_rewards(scores, margin)
    places = [(n - outcome.rank_of(seat)) / (n - 1) for seat in range(n)]
    return _with_shares(places, scores)


def margin_rewards(
    scores: Sequence[float], margin: float, partners: Sequence[int] = ()
) -> list[float]:
    """Each seat's score against the best rival's (a seat judged by another seat, in
    ``partners``: the seat judging each seat), squashed by ``tanh`` over ``margin``."""
    judge = list(partners) or list(range(len(scores)))
    out = []
    for s, own in enumerate(scores):
        rivals = [v for o, v in enumerate(scores) if judge[o] != judge[s]]
        best = max(rivals) if rivals else own
        out.append(0.5 + 0.5 * math.tanh((own - best) / margin))
    return out


def place_rewards(scores: Sequence[float]) -> list[float]:
    """Place (shared places share) and score share, as for a finished game, from scores."""
    n = len(scores)
    places = []
    for own in scores:
        above = sum(1 for v in scores if v > own)
        level = sum(1 for v in scores if v == own)
        places.append((n - 1 - above - (level - 1) / 2) / (n - 1))
    return _with_shares(places, scores)


def _with_shares(places: Sequence[float], scores: Sequence[float]) -> list[float]:
    low, high = min(scores), max(scores)
    spread = high - low
    return [
        (1 - SCORE_WEIGHT) * place + SCORE_WEIGHT * ((own - low) / spread if spread else 0.5)
        for place, own in zip(places, scores, strict=True)
    ]
