"""Properties over thousands of seeded random games, 2/3/4 players, base and advanced.

The game counts are those of ``--slow`` (CI); the default depth plays a fifth of them (a third
for the step-by-step checks) with the same assertions.
"""

from __future__ import annotations

import random

import pytest

from games import GameConfig, replay
from games.rumble_nation import GAME, RumbleNationState
from games.rumble_nation.components import REINFORCEMENT_POOL, SOLDIERS_ADVANCED, SOLDIERS_BASE
from games.rumble_nation.state import OFF_MAP
from tests.conftest import Depth

CONFIGS = [GameConfig(n, v) for v in ("base", "advanced") for n in (2, 3, 4)]
IDS = [f"{c.players}p-{c.variant}" for c in CONFIGS]
GAMES_PER_CONFIG = 1000  # with --slow; 200 by default


def random_game(config: GameConfig, seed: int, check_each_step: bool = False) -> RumbleNationState:
    state = GAME.new(config, seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(10_000):
        pending = state.pending()
        if not pending:
            return state
        decision = pending[0]
        state.apply(decision.seat, rng.randrange(len(decision.options)))
        if check_each_step:
            assert_conserved(state)
    raise AssertionError("the game did not end within 10,000 decisions")


def assert_conserved(state: RumbleNationState) -> None:
    total = SOLDIERS_ADVANCED if state.advanced else SOLDIERS_BASE
    for p in range(state.n):
        on_map = sum(row[p] for row in state.soldiers)
        assert on_map == state.on_map[p]
        assert on_map + state.stock[p] == total
        assert min(row[p] for row in state.soldiers) >= 0
        if state.advanced:
            assert state.daimyo_in_stock[p] == (state.daimyo_at[p] == OFF_MAP)
    assert sum(map(sum, state.reinforcements)) + state.pool == REINFORCEMENT_POOL


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_random_games_end_with_consistent_scores_and_strict_ranking(
    config: GameConfig, depth: Depth
) -> None:
    for seed in range(depth(fast=GAMES_PER_CONFIG // 5, slow=GAMES_PER_CONFIG)):
        state = random_game(config, seed)
        outcome = state.outcome()
        assert outcome is not None
        # Every piece was placed, every area resolved, every player holds a sword chip.
        assert all(s == 0 for s in state.stock) and all(state.resolved)
        assert sorted(state.sword) == list(range(1, config.players + 1))
        assert_conserved(state)
        # Scores are exactly the tokens taken; each large token at most once.
        for p in range(config.players):
            value = sum(c if size == "large" else c // 2 for c, size in state.tokens[p])
            assert value == outcome.scores[p]
        larges = [c for t in state.tokens for c, size in t if size == "large"]
        assert len(larges) == len(set(larges))
        # The ranking is a permutation ordered by (score, sword), with no ties.
        assert sorted(outcome.ranking) == list(range(config.players))
        keys = [(outcome.scores[p], state.sword[p]) for p in outcome.ranking]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pieces_are_conserved_after_every_decision(config: GameConfig, depth: Depth) -> None:
    for seed in range(depth(fast=20, slow=60)):
        random_game(config, 10_000 + seed, check_each_step=True)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_replaying_seed_and_decisions_reproduces_the_identical_game(
    config: GameConfig, depth: Depth
) -> None:
    for seed in range(depth(fast=30, slow=100)):
        state = random_game(config, 20_000 + seed)
        again = replay(GAME, config, state.seed, state.history)
        assert again.canonical() == state.canonical()
        assert again.digest() == state.digest()
        assert again.outcome() == state.outcome()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_never_show_another_seats_unrevealed_daimyo(
    players: int, depth: Depth
) -> None:
    config = GameConfig(players, "advanced")
    for seed in range(depth(fast=20, slow=60)):
        state = GAME.new(config, 30_000 + seed)
        rng = random.Random(seed)
        while state.pending():
            for viewer in [None, *range(players)]:
                view = state.observe(viewer)
                for p, seen in enumerate(view.seats):
                    if p != viewer and not state.daimyo_revealed[p]:
                        assert seen.daimyo_card is None
                    if state.daimyo_revealed[p] or p == viewer:
                        assert seen.daimyo_card == state.daimyo_card[p]
                # Nothing in the public view names a card that is still hidden.
                if viewer is None:
                    hidden = {
                        state.daimyo_card[p] for p in range(players) if not state.daimyo_revealed[p]
                    }
                    assert not hidden & set(repr(view.seats).split("'"))
            decision = state.pending()[0]
            state.apply(decision.seat, rng.randrange(len(decision.options)))


def test_different_decisions_give_different_games() -> None:
    a = random_game(GameConfig(4), 1)
    b = GAME.new(GameConfig(4), 1)
    rng = random.Random(99)
    while b.pending():
        d = b.pending()[0]
        b.apply(d.seat, rng.randrange(len(d.options)))
    assert a.digest() != b.digest()
