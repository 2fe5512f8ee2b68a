"""What the search needs from each game (``ismcts``): how a seat rebuilds a playable position
from its own view (``from_view``), how an unfinished position is projected to final scores and
where its next scoring stage is, and how rollouts choose.

A new game gets a search bot by adding its ``from_view`` to ``rebuild_for`` and, optionally, a
projection module to ``EVALUATION``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, cast

from games.contract import Decision, GameState
from games.policies.base import DecisionContext, Policy
from games.policies.ismcts_rewards import Projection

Rebuild = Callable[[Any, int], GameState]
Rollout = Callable[[GameState, Decision, random.Random], int]
Stage = Callable[[GameState], int]

#: Per game, the module judging an unfinished position (``leaf=evaluate`` or ``stage``): its
#: ``projected(state)`` is each seat's projected final score, its ``stage(state)`` counts the
#: game's scoring stages passed (a ``stage`` rollout runs until the next one).
EVALUATION: dict[str, str] = {
    "gnomeville": "games.gnomeville.evaluate",
    "root": "games.root.evaluate",
}


class NoRebuild(LookupError):
    """The game has no ``from_view``: a search bot cannot rebuild positions from a view."""


def rebuild_for(game: str) -> Rebuild:
    """The game's ``from_view``: how a seat outside the referee rebuilds a position."""
    if game == "rumble-nation":
        from games.rumble_nation.state import RumbleNationState

        return cast(Rebuild, RumbleNationState.from_view)
    if game == "root":
        from games.root.state import RootState

        return cast(Rebuild, RootState.from_view)
    if game == "gnomeville":
        from games.gnomeville.state import GnomevilleState

        return cast(Rebuild, GnomevilleState.from_view)
    raise NoRebuild(f"ismcts has no rebuild for {game}")


def evaluation_for(game: str) -> tuple[Projection, Stage] | None:
    """The game's projection of final scores and its stage counter, if it has them."""
    name = EVALUATION.get(game)
    if name is None:
        return None
    module = importlib.import_module(name)
    return cast(Projection, module.projected), cast(Stage, module.stage)


def greedy_policy(game: str, seed: int) -> Policy:
    from games.policies.registry import make_policy

    return make_policy("greedy", game, seed)


def _rumble_greedy(state: GameState, decision: Decision, rng: random.Random) -> int:
    """Rumble Nation's greedy choice on the determinized state itself (the policy would
    rebuild the state from an observation first: the same choice, ten times slower)."""
    from games.rumble_nation import greedy

    options = decision.options
    seat = decision.seat
    if decision.kind == "daimyo_draft":
        return min(
            range(len(options)),
            key=lambda i: greedy.DAIMYO_PREFERENCE.index(options[i].value[1]),
        )
    base = greedy.evaluate(state, seat)  # type: ignore[arg-type]
    scores: list[float] = []
    for index, option in enumerate(options):
        what = option.value[0]
        if what == "roll":
            scores.append(base + greedy.ROLL_VALUE)
        elif what == "reroll":
            scores.append(base + greedy.REROLL_BELOW)
        else:
            trial = state.clone()
            trial.apply(seat, index)
            scores.append(greedy._best_completion(trial, seat, [greedy.SEARCH_BUDGET]))  # type: ignore[arg-type]
    best = max(scores)
    ties = [i for i, v in enumerate(scores) if v >= best - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def rollout_for(game: str, name: str, seed: int) -> Rollout:
    """How rollouts choose: uniformly, or as the game's greedy bot would from the seat's view."""
    if name == "random":
        return lambda state, decision, rng: rng.randrange(len(decision.options))
    if game == "rumble-nation":
        return _rumble_greedy
    policy = greedy_policy(game, seed)
    sight = _rollout_sight(game)

    def greedy_choice(state: GameState, decision: Decision, rng: random.Random) -> int:
        seat = decision.seat
        return policy.choose(DecisionContext(game, seat, decision, lambda: sight(state, seat)))

    return greedy_choice


def _rollout_sight(game: str) -> Callable[[Any, int], Any]:
    """What the greedy player is shown in a rollout: the seat's observation, or in Gnomeville
    only the part of it the greedy player reads (``SeatSight``: the same choices, a rollout
    step about a third cheaper)."""
    if game == "gnomeville":
        from games.gnomeville.view import seat_sight

        return seat_sight
    return lambda state, seat: state.observe(seat)
