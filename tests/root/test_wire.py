"""Root views and options survive the wire unchanged, for every decision of several games."""

from __future__ import annotations

import random

import pytest

from games import GameConfig
from games.root import GAME
from kassen import wire
from kassen.wire.root import ViewEncoder, view_to_proto


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_root_views_and_options_round_trip(board: str) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        state = GAME.new(GameConfig(2, board, {"games": 1}), seed)
        encoders = [ViewEncoder(), ViewEncoder()]
        rng = random.Random(seed)
        while state.pending():
            decision = state.pending()[0]
            kinds.add(decision.kind)
            for option in decision.options:
                assert wire.option_from_proto(wire.option_to_proto(GAME.name, option)) == option
            for seat in (decision.seat, None):
                view = state.observe(seat)
                message = wire.observation_to_proto(GAME.name, view)
                assert wire.observation_from_proto(message) == view
            # The referee's incremental encoder gives the same message as a full encoding.
            view = state.observe(decision.seat)
            assert encoders[decision.seat].encode(view) == view_to_proto(view)
            state.apply(decision.seat, rng.randrange(len(decision.options)))
    assert {"marquise.action", "eyrie.decree_column", "move.count"} <= kinds


def test_an_option_argument_without_a_wire_form_is_refused() -> None:
    from games.contract import Option

    with pytest.raises(TypeError, match="no wire form"):
        wire.option_to_proto(GAME.name, Option("x", "x", ("x", 1.5)))
