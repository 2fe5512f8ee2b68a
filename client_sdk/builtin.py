"""The bundled bots: the built-in policies of ``games.policies`` behind the Bot interface."""

from __future__ import annotations

import random

from client_sdk.bot import Bot, Request
from games.contract import Decision
from games.policies import make_policy
from games.policies.base import DecisionContext, Policy


class PolicyBot(Bot):
    """Plays a built-in policy (``random``, ``greedy``, ``ismcts`` or an ``ismcts:...`` spec)
    over the wire. The policy is given the decision's free time from the referee's clock
    (``decision_ms``, not the bank) as its budget, and only the decoded observation."""

    def __init__(self, policy_name: str, seed: int | None = None) -> None:
        self.name = policy_name
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._policy: Policy | None = None

    def choose(self, request: Request) -> int:
        if self._policy is None:
            self._policy = make_policy(self.name, request.game, self._seed)
        decision = Decision(request.seat, request.kind, request.options)
        budget = request.decision_ms / 1000.0 if request.decision_ms > 0 else None
        observation = request.observation
        return self._policy.choose(
            DecisionContext(request.game, request.seat, decision, lambda: observation, budget)
        )


class RandomBot(PolicyBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__("random", seed)


class GreedyBot(PolicyBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__("greedy", seed)


class IsmctsBot(PolicyBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__("ismcts", seed)


BUNDLED = {"random": RandomBot, "greedy": GreedyBot, "ismcts": IsmctsBot}
