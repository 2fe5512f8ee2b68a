"""What a policy is given, and what it must answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from games.contract import Decision


class DecisionContext:
    """One request to decide: the seat, the decision, and the seat's observation.

    The observation is built only when a policy asks for it (``random`` never does), which
    keeps in-process tournaments fast.

    ``budget_s``: the seconds this decision may take, from the referee's clock (the free time
    per decision, not the bank), or None when nobody keeps a clock. A searching policy stops
    well inside it (``games.policies.ismcts``); the others ignore it.
    """

    __slots__ = ("_observation", "_observe", "budget_s", "decision", "game", "seat")

    def __init__(
        self,
        game: str,
        seat: int,
        decision: Decision,
        observe: Callable[[], Any],
        budget_s: float | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.decision = decision
        self._observe = observe
        self._observation: Any = None
        self.budget_s = budget_s

    @property
    def observation(self) -> Any:
        if self._observation is None:
            self._observation = self._observe()
        return self._observation


class Policy(Protocol):
    """Chooses an option index for each decision request."""

    def choose(self, ctx: DecisionContext) -> int: ...


def thinks(policy: Policy) -> bool:
    """Whether ``policy`` searches, taking real time per decision (a class attribute
    ``thinks = True``): a referee runs such a local policy in a worker thread, so that its
    event loop keeps serving the other seats and matches (their answers, clocks and pings)."""
    return bool(getattr(policy, "thinks", False))


class Budgeted:
    """A policy told the clock's free time per decision when its caller's context carries no
    budget (an in-process referee that does not pass one yet): a search then stops inside the
    clock instead of drawing on the bank."""

    def __init__(self, policy: Policy, budget_s: float) -> None:
        self.policy = policy
        self.budget_s = budget_s
        self.thinks = thinks(policy)

    def choose(self, ctx: DecisionContext) -> int:
        if ctx.budget_s is None:
            ctx.budget_s = self.budget_s
        return self.policy.choose(ctx)
