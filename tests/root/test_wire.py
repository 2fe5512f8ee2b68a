"""Root views and options survive the wire unchanged, for every decision of several games.

The default depth plays one game a configuration (two with two players), ``--slow`` three."""

from __future__ import annotations

import random

import pytest

from games import GameConfig
from games.root import GAME
from games.root.lineup import unavailable
from kassen import wire
from kassen.wire.root import ViewEncoder, view_to_proto
from tests.conftest import Depth

THREE = unavailable(3)
FOUR = unavailable(4)


@pytest.mark.parametrize(
    ("board", "players"),
    [
        ("autumn", 2),
        ("winter", 2),
        pytest.param("autumn", 3, marks=pytest.mark.skipif(THREE is not None, reason=f"{THREE}")),
        pytest.param("winter", 3, marks=pytest.mark.skipif(THREE is not None, reason=f"{THREE}")),
        pytest.param("autumn", 4, marks=pytest.mark.skipif(FOUR is not None, reason=f"{FOUR}")),
        pytest.param("winter", 4, marks=pytest.mark.skipif(FOUR is not None, reason=f"{FOUR}")),
    ],
)
def test_root_views_and_options_round_trip(board: str, players: int, depth: Depth) -> None:
    kinds: set[str] = set()
    verbs: set[str] = set()
    dominance = False  # a view with an activated or available dominance card crossed the wire
    games = depth(fast=2 if players == 2 else 1, slow=3)
    for seed in range(games) if players == 2 else range(1, 1 + games):
        options = {"games": 1} if players == 2 else {}
        state = GAME.new(GameConfig(players, board, options), seed)
        encoders = [ViewEncoder() for _ in range(players)]
        rng = random.Random(seed)
        while state.pending():
            decision = state.pending()[0]
            kinds.add(decision.kind)
            for option in decision.options:
                verbs.add(option.value[0])
                assert wire.option_from_proto(wire.option_to_proto(GAME.name, option)) == option
            for seat in (decision.seat, None):
                view = state.observe(seat)
                message = wire.observation_to_proto(GAME.name, view)
                assert wire.observation_from_proto(message) == view
            # The referee's incremental encoder gives the same message as a full encoding.
            view = state.observe(decision.seat)
            assert encoders[decision.seat].encode(view) == view_to_proto(view)
            dominance |= bool(view.available_dominance) or any(p.dominance for p in view.players)
            state.apply(decision.seat, rng.randrange(len(decision.options)))
    assert {"marquise.action", "eyrie.decree_column", "move.count"} <= kinds
    if players == 3:  # dominance: its options and the facts of the view
        assert {"activate", "take"} <= verbs and dominance


def test_an_option_argument_without_a_wire_form_is_refused() -> None:
    from games.contract import Option

    with pytest.raises(TypeError, match="no wire form"):
        wire.option_to_proto(GAME.name, Option("x", "x", ("x", 1.5)))
