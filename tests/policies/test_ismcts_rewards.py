"""The search's reward for a rollout's end (games/policies/ismcts_rewards.py)."""

from __future__ import annotations

import math
import random

import pytest

from games import GameConfig, GameState, get_game
from games.policies.ismcts_rewards import (
    SCORE_WEIGHT,
    margin_rewards,
    place_rewards,
    rewards,
)


def test_place_rewards_share_a_shared_place() -> None:
    first, second, third = place_rewards([30.0, 20.0, 20.0])
    assert first == pytest.approx(1.0)  # first place and the highest score
    assert second == third == pytest.approx((1 - SCORE_WEIGHT) * 0.25)  # places 2-3 shared
    assert place_rewards([5.0, 5.0]) == pytest.approx([0.5, 0.5])


def test_margin_rewards_follow_the_difference_to_the_best_other() -> None:
    ahead, behind, last = margin_rewards([25.0, 20.0, 0.0], margin=5.0)
    assert ahead == pytest.approx(0.5 + 0.5 * math.tanh(1.0))
    assert behind == pytest.approx(0.5 + 0.5 * math.tanh(-1.0))
    assert last < behind < 0.5 < ahead
    # The order is the same, a wider lead is worth more: what place rewards cannot see.
    assert margin_rewards([40.0, 20.0], 5.0)[0] > margin_rewards([21.0, 20.0], 5.0)[0]


def played(game: str, players: int, seed: int, decisions: int | None = None) -> GameState:
    """A game of uniformly random choices, to its end or for ``decisions`` decisions."""
    state = get_game(game).new(GameConfig(players, get_game(game).variants[0]), seed)
    rng = random.Random(seed)
    while not state.is_over and (decisions is None or decisions > 0):
        decision = state.pending()[0]
        state.apply(decision.seat, rng.randrange(len(decision.options)))
        decisions = None if decisions is None else decisions - 1
    return state


@pytest.mark.parametrize("game", ["rumble-nation", "gnomeville"])
def test_a_finished_game_rewards_places_whatever_the_margin(game: str) -> None:
    state = played(game, 3, 3)
    outcome = state.outcome()
    assert outcome is not None
    values = rewards(state, margin=5.0)  # the margin is for unfinished positions only
    by_place = sorted(range(3), key=outcome.rank_of)
    assert values[by_place[0]] > values[by_place[1]] > values[by_place[2]]
    assert values[by_place[0]] >= 1 - SCORE_WEIGHT and values[by_place[2]] <= SCORE_WEIGHT


def test_an_unfinished_position_is_judged_by_the_projection_given() -> None:
    state = played("rumble-nation", 2, 5, decisions=10)
    assert state.outcome() is None
    assert rewards(state, projection=lambda _: (10.0, 0.0)) == pytest.approx([1.0, 0.0])
    assert rewards(state, 5.0, projection=lambda _: (0.0, 10.0)) == pytest.approx(
        [0.5 + 0.5 * math.tanh(-2.0), 0.5 + 0.5 * math.tanh(2.0)]
    )
    adjudicated = state.adjudicate()
    without = rewards(state)  # no projection: adjudicate(), by place
    assert without[adjudicated.ranking[0]] > without[adjudicated.ranking[1]]


def test_solo_is_the_score_alone() -> None:
    state = played("gnomeville", 1, 4)
    score = state.outcome().scores[0]  # type: ignore[union-attr]
    assert rewards(state) == pytest.approx([0.5 + 0.5 * score / (abs(score) + 50.0)])


def test_partners_share_a_projection_and_are_not_each_others_rivals() -> None:
    """A coalition (Root's RT23: the Vagabond wins or loses with his partner): seat 2 is judged
    by seat 0's projection, so he shares her lead; and she leads by her margin over the
    others, not over her own result counted again as his."""
    partners = (0, 1, 0, 3)
    alone = margin_rewards([20.0, 10.0, 20.0, 5.0], 5.0)
    together = margin_rewards([20.0, 10.0, 20.0, 5.0], 5.0, partners)
    assert alone[0] == pytest.approx(0.5) and alone[2] == pytest.approx(0.5)
    assert together[0] == together[2] == pytest.approx(0.5 + 0.5 * math.tanh(10.0 / 5.0))
    assert together[1] == pytest.approx(0.5 + 0.5 * math.tanh(-10.0 / 5.0))
    state = get_game("rumble-nation").new(GameConfig(4, "base"), 3)
    frozen = (20.0, 10.0, 5.0, 5.0)  # the partner's own VP no longer move (RT19)
    judged = rewards(state, 5.0, projection=lambda _: frozen, partners=lambda _: partners)
    assert judged[2] == judged[0] > 0.9
