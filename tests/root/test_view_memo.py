"""The woodland's per-clearing memo (games/root/woodland.py ``memo``) never serves a stale
clearing view: after every decision of random games, and in copies, the view equals one built
with the memo emptied."""

from __future__ import annotations

import random

import pytest

from games.contract import GameConfig
from games.root.game import GAME
from games.root.state import RootState


def _fresh_view(state: RootState, seat: int | None) -> object:
    saved = list(state.woodland.memo)
    state.woodland.memo[:] = [None] * len(saved)
    try:
        return state.observe(seat)
    finally:
        state.woodland.memo[:] = saved


@pytest.mark.parametrize(("players", "variant"), [(2, "autumn"), (4, "winter")])
def test_memoized_clearings_equal_fresh_ones(players: int, variant: str) -> None:
    for seed in range(3):
        state = GAME.new(GameConfig(players, variant), seed)
        assert isinstance(state, RootState)
        rng = random.Random(seed)
        steps = 0
        while (pending := state.pending()) and steps < 600:
            decision = pending[0]
            assert state.observe(decision.seat) == _fresh_view(state, decision.seat)
            state.apply(decision.seat, rng.randrange(len(decision.options)))
            steps += 1
            if steps % 50 == 0:
                copy = state.clone()
                assert isinstance(copy, RootState)
                assert copy.observe(None) == _fresh_view(copy, None)
        assert steps > 100
