"""The war phase, scoring and the final ranking (the Deluxe edition's instructions, sections 4②-5;
the Board Game Arena walkthrough, 戦争フェイズ)."""

from __future__ import annotations

from games.rumble_nation.board import AREA_INDEX
from games.rumble_nation.state import RumbleNationState
from games.rumble_nation.war import resolve_battle, resolve_war
from tests.rumble_nation.scenario import position


def _war(state: RumbleNationState, swords: list[int]) -> list[tuple[str, dict[str, object]]]:
    state.sword = swords
    state._events = []
    resolve_war(state)
    return [(e.kind, dict(e.data)) for e in state._events]


def _battle(events: list[tuple[str, dict[str, object]]], castle: int) -> dict[str, object]:
    return next(d for k, d in events if k in ("battle", "set_aside") and d["castle"] == castle)


def test_battles_resolve_in_castle_order_2_to_12() -> None:
    state = position(2, soldiers={"usuki": {0: 1}, "tokuyama": {1: 1}, "kyo": {0: 1}})
    events = _war(state, [2, 1])
    order = [d["castle"] for k, d in events if k in ("battle", "set_aside")]
    assert order == list(range(2, 13))


def test_highest_power_takes_the_large_token() -> None:
    state = position(3, soldiers={"kyo": {0: 2, 1: 3, 2: 1}})
    events = _war(state, [3, 2, 1])
    battle = _battle(events, 6)
    assert battle["winner"] == 1 and battle["second"] == 0
    assert state.score == [3, 6, 0]
    assert (6, "large") in state.tokens[1] and (6, "small") in state.tokens[0]


def test_tie_goes_to_the_higher_sword_chip() -> None:
    state = position(3, soldiers={"kyo": {0: 2, 1: 2, 2: 2}})
    _war(state, [1, 3, 2])
    assert state.score == [0, 6, 3]


def test_two_players_have_no_small_tokens() -> None:
    state = position(2, soldiers={"kyo": {0: 3, 1: 2}})
    _war(state, [1, 2])
    assert state.score == [6, 0]


def test_alone_in_an_area_means_no_small_token() -> None:
    state = position(4, soldiers={"tokuyama": {2: 1}})
    events = _war(state, [4, 3, 2, 1])
    assert _battle(events, 12)["second"] is None
    assert state.score == [0, 0, 12, 0]


def test_empty_area_token_is_set_aside() -> None:
    state = position(2, soldiers={"kyo": {0: 1}})
    events = _war(state, [2, 1])
    assert ("set_aside", {"area": "usuki", "castle": 2}) in events
    assert sum(state.score) == 6


def test_small_token_is_half_the_large_rounded_down() -> None:
    state = position(3, soldiers={"inabayama": {0: 2, 1: 1}, "tokuyama": {0: 1, 2: 3}})
    _war(state, [3, 2, 1])
    assert (7, "small") in state.tokens[1] and state.score[1] == 3
    assert (12, "small") in state.tokens[0] and state.score[0] == 7 + 6


def test_daimyo_counts_two_in_war() -> None:
    state = position(2, advanced=True, soldiers={"kyo": {0: 1, 1: 2}}, daimyo_at={0: "kyo"})
    _war(state, [1, 2])
    assert state.score == [6, 0]


def test_winner_reinforces_adjacent_unresolved_areas_with_own_soldiers_2p() -> None:
    # usuki (2) neighbours: yoshida (5), oko (3), shuri (4). Seat 0 is in oko and shuri.
    state = position(
        2, soldiers={"usuki": {0: 1}, "oko": {0: 1, 1: 1}, "shuri": {0: 1}, "yoshida": {1: 2}}
    )
    state.sword = [1, 2]
    state._events = []
    resolve_battle(state, 2)
    assert state.reinforcements[AREA_INDEX["oko"]] == [1, 0]
    assert state.reinforcements[AREA_INDEX["shuri"]] == [1, 0]
    assert state.reinforcements[AREA_INDEX["yoshida"]] == [0, 0]
    assert state.pool == 28


def test_reinforcements_are_two_per_area_with_3_players_and_count_as_power() -> None:
    state = position(3, soldiers={"usuki": {0: 1}, "oko": {0: 1, 1: 2}})
    events = _war(state, [1, 2, 3])
    # After usuki, seat 0 has 1 soldier + 2 reinforcements in oko against 2: it wins castle 3.
    assert _battle(events, 3)["winner"] == 0
    assert ("reinforce", {"seat": 0, "area": "oko", "castle": 3, "count": 2}) in events


def test_no_reinforcement_into_resolved_areas() -> None:
    # kyo (6) is adjacent to oko (3): when kyo is resolved, oko is already resolved.
    state = position(2, soldiers={"kyo": {0: 1}, "oko": {0: 1, 1: 3}})
    events = _war(state, [2, 1])
    assert not [d for k, d in events if k == "reinforce" and d["area"] == "oko"]


def test_final_ranking_by_score_then_sword_without_ties() -> None:
    state = position(3, soldiers={"kyo": {0: 1}, "inabayama": {1: 1}, "shuri": {2: 2}})
    # seat 0: 6, seat 1: 7, seat 2: 4 -> ranking 1, 0, 2
    state.sword = [1, 3, 2]
    resolve_war(state)
    outcome = state._final_outcome()
    assert outcome.ranking == (1, 0, 2)


def test_equal_scores_rank_by_sword() -> None:
    # seat 0 takes kyo (6); seat 1 takes usuki (2) and shuri (4): 6 each.
    state = position(2, soldiers={"kyo": {0: 1}, "usuki": {1: 1}, "shuri": {1: 1}})
    state.sword = [1, 2]
    resolve_war(state)
    assert state.score == [6, 6]
    assert state._final_outcome().ranking == (1, 0)
    state.sword = [2, 1]
    assert state._final_outcome().ranking == (0, 1)
