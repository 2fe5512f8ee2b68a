"""The bundled bots: the built-in policies of ``games.policies`` behind the Bot interface."""

from __future__ import annotations

import random

from client_sdk.bot import Bot, Request
from games.contract import Decision
from games.policies import make_policy
from games.policies.base import DecisionContext, Policy


class PolicyBot(Bot):
    """Plays a built-in policy (``random`` or ``greedy``) over the wire."""

    def __init__(self, policy_name: str, seed: int | None = None) -> None:
        self.name = policy_name
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._policy: Policy | None = None

    def choose(self, request: Request) -> int:
        if self._policy is None:
            self._policy = make_policy(self.name, request.game, self._seed)
        decision = Decision(request.seat, request.kind, request.options)
        return self._policy.choose(
            DecisionContext(request.game, request.seat, decision, lambda: request.observation)
        )


class RandomBot(PolicyBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__("random", seed)


class GreedyBot(PolicyBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__("greedy", seed)


BUNDLED = {"random": RandomBot, "greedy": GreedyBot}
