"""A position rebuilt from a seat's observation looks the same to that seat and plays on."""

from __future__ import annotations

import random

import pytest

from games.contract import GameConfig, IllegalDecision
from games.root import GAME
from games.root.state import RootState
from kassen import wire


def test_rebuilt_positions_match_the_seat_view_and_offer_the_same_decisions() -> None:
    checked = 0
    for seed in range(12):
        board = "autumn" if seed % 2 else "winter"
        state = GAME.new(GameConfig(2, board, {"games": 2 if seed < 4 else 1}), seed)
        rng = random.Random(seed)
        while state.pending():
            decision = state.pending()[0]
            if rng.random() < 0.08:
                view = state.observe(decision.seat)
                # Through the wire, as a remote bot receives it.
                view = wire.observation_from_proto(wire.observation_to_proto(GAME.name, view))
                rebuilt = RootState.from_view(view, seed=rng.randrange(10**6))
                assert rebuilt.observe(decision.seat) == view
                assert rebuilt.pending() == state.pending()
                # It plays on: a few random answers are legal in the rebuilt game.
                for _ in range(20):
                    pending = rebuilt.pending()
                    if not pending:
                        break
                    rebuilt.apply(pending[0].seat, rng.randrange(len(pending[0].options)))
                checked += 1
            state.apply(decision.seat, rng.randrange(len(decision.options)))
    assert checked > 200


def test_a_spectator_view_cannot_be_rebuilt() -> None:
    state = GAME.new(GameConfig(2, "autumn", {"games": 1}), 1)
    with pytest.raises(IllegalDecision, match="spectator"):
        RootState.from_view(state.observe(None), seed=1)
