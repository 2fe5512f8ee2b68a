"""Uniformly random play over the legal options, from its own seed (reproducible)."""

from __future__ import annotations

import random

from games.policies.base import DecisionContext
from games.rng import below


class RandomPolicy:
    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, ctx: DecisionContext) -> int:
        return below(self._rng, len(ctx.decision.options))
