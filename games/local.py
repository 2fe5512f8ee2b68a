"""Play one game in-process with built-in policies: the loop behind ``kassen play``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from games.contract import Event, Game, GameConfig, GameState
from games.policies.base import DecisionContext, Policy


def play_local(
    game: Game,
    config: GameConfig,
    seed: int,
    policies: Sequence[Policy],
    on_events: Callable[[tuple[Event, ...]], None] | None = None,
    max_decisions: int = 100_000,
    budget_s: float | None = None,
) -> GameState:
    """Play to the end (or ``max_decisions``) and return the final state.

    Simultaneous decisions are answered in seat order, which keeps the game reproducible.
    ``budget_s``: the time each decision may take, told to the policies (a search stops
    inside it); None: no clock.
    """
    state = game.new(config, seed)
    if on_events is not None:
        on_events(getattr(state, "setup_events", ()))
    for _ in range(max_decisions):
        pending = state.pending()
        if not pending:
            break
        for decision in pending:
            seat = decision.seat
            ctx = DecisionContext(game.name, seat, decision, partial(state.observe, seat), budget_s)
            events = state.apply(seat, policies[seat].choose(ctx))
            if on_events is not None:
                on_events(events)
    return state
