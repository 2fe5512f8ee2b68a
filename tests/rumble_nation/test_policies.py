"""The built-in policies: reproducible random play, and a greedy player that beats it."""

from __future__ import annotations

import random

import pytest

from games import GameConfig
from games.local import play_local
from games.policies import UnknownPolicy, make_policy
from games.rumble_nation import GAME, RumbleNationState
from games.rumble_nation.greedy import evaluate


def _play(config: GameConfig, seed: int, names: list[str]) -> RumbleNationState:
    policies = [make_policy(name, GAME.name, seed * 10 + i) for i, name in enumerate(names)]
    state = play_local(GAME, config, seed, policies)
    assert isinstance(state, RumbleNationState)
    return state


def test_random_policy_is_reproducible_from_its_seed() -> None:
    a = _play(GameConfig(3), 4, ["random"] * 3)
    b = _play(GameConfig(3), 4, ["random"] * 3)
    assert a.history == b.history


@pytest.mark.parametrize(
    ("players", "variant", "at_least"),
    [(2, "base", 0.68), (2, "advanced", 0.68), (4, "base", 0.45)],
)
def test_greedy_beats_random_clearly(players: int, variant: str, at_least: float) -> None:
    games, wins = 60, 0
    for seed in range(games):
        greedy_seat = seed % players
        names = ["greedy" if p == greedy_seat else "random" for p in range(players)]
        outcome = _play(GameConfig(players, variant), 500 + seed, names).outcome()
        assert outcome is not None
        wins += outcome.ranking[0] == greedy_seat
    # A random seat wins 1/players of the time; greedy must do far better.
    assert wins / games >= at_least


def test_view_rebuilds_the_same_position() -> None:
    for variant in ("base", "advanced"):
        for seed in range(30):
            state = GAME.new(GameConfig(3, variant), seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(5, 40)):
                decision = state.pending()[0]
                state.apply(decision.seat, rng.randrange(len(decision.options)))
                if not state.pending():
                    break
            if not state.pending() or state.phase == "draft":
                continue
            seat = state.pending()[0].seat
            rebuilt = RumbleNationState.from_view(state.observe(seat), seed=1)
            mine, theirs = state.canonical(), rebuilt.canonical()
            # Everything but hidden daimyo cards (index 10) and the dice stream (last) matches.
            assert mine[:10] == theirs[:10] and mine[11:-1] == theirs[11:-1]
            assert rebuilt.daimyo_card[seat] == state.daimyo_card[seat]
            assert [o.key for o in rebuilt.pending()[0].options] == [
                o.key for o in state.pending()[0].options
            ]


def test_evaluation_prefers_leading_in_a_high_castle() -> None:
    from tests.rumble_nation.scenario import position

    low = position(2, soldiers={"usuki": {0: 2}})  # castle 2
    high = position(2, soldiers={"tokuyama": {0: 2}})  # castle 12
    assert evaluate(high, 0) > evaluate(low, 0) > 0
    assert evaluate(high, 1) < 0


def test_unknown_policy_names_the_choices() -> None:
    with pytest.raises(UnknownPolicy, match="random, greedy"):
        make_policy("alphazero", GAME.name)
