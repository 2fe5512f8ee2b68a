"""What the search needs from each game (``ismcts``): how a seat rebuilds a playable position
from its own view (``from_view``), how an unfinished position is projected to final scores and
where its next scoring stage is, and how rollouts choose.

Every piece comes from the game's registered ``Hooks`` (``games.contract``), found by looking
the game up: a new game gets a search bot by registering its ``rebuild`` (and its ``greedy``
bot), and optionally an ``evaluation`` module, a ``greedy_rollout`` and a ``rollout_sight``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from games.contract import Decision, GameState, Hooks, hooks_of, load_hook
from games.policies.base import DecisionContext, Policy
from games.policies.ismcts_rewards import Partners, Projection

Rebuild = Callable[[Any, int], GameState]
Rollout = Callable[[GameState, Decision, random.Random], int]
Stage = Callable[[GameState], int]


class NoRebuild(LookupError):
    """The game has no ``from_view``: a search bot cannot rebuild positions from a view."""


def hooks_for(game: str) -> Hooks:
    """The hooks the game called ``game`` registers (none for a game not registered)."""
    from games.registry import games

    return hooks_of(games().get(game))


def rebuild_for(game: str) -> Rebuild:
    """The game's ``from_view``: how a seat outside the referee rebuilds a position."""
    ref = hooks_for(game).rebuild
    if ref is None:
        raise NoRebuild(f"ismcts has no rebuild for {game}")
    return cast(Rebuild, load_hook(ref))


def evaluation_for(game: str) -> tuple[Projection, Stage, Partners | None] | None:
    """The game's projection of final scores and its stage counter, if it has them: its
    ``evaluation`` module's ``projected(state)`` is each seat's projected final score, its
    ``stage(state)`` counts the game's scoring stages passed (a ``stage`` rollout runs until
    the next one), and its optional ``partners(state)`` names the seats that win or lose
    together (``ismcts_rewards``)."""
    ref = hooks_for(game).evaluation
    if ref is None:
        return None
    module = load_hook(ref)
    partners = getattr(module, "partners", None)
    return (
        cast(Projection, module.projected),
        cast(Stage, module.stage),
        cast("Partners | None", partners),
    )


def greedy_policy(game: str, seed: int) -> Policy:
    from games.policies.registry import make_policy

    return make_policy("greedy", game, seed)


def rollout_for(game: str, name: str, seed: int) -> Rollout:
    """How rollouts choose: uniformly, or as the game's greedy bot would (on the rollout's
    state itself if the game registers a ``greedy_rollout``, else from the seat's view)."""
    if name == "random":
        return lambda state, decision, rng: rng.randrange(len(decision.options))
    hooks = hooks_for(game)
    if hooks.greedy_rollout is not None:
        return cast(Rollout, load_hook(hooks.greedy_rollout))
    policy = greedy_policy(game, seed)
    sight = _rollout_sight(hooks)

    def greedy_choice(state: GameState, decision: Decision, rng: random.Random) -> int:
        seat = decision.seat
        return policy.choose(DecisionContext(game, seat, decision, lambda: sight(state, seat)))

    return greedy_choice


def _rollout_sight(hooks: Hooks) -> Callable[[Any, int], Any]:
    """What the greedy player is shown in a rollout: the seat's observation, or the part of
    it the greedy player reads if the game registers a ``rollout_sight``."""
    if hooks.rollout_sight is not None:
        return cast(Callable[[Any, int], Any], load_hook(hooks.rollout_sight))
    return lambda state, seat: state.observe(seat)
