"""Setup and the deployment phase (the Deluxe edition's instructions, sections 3-4①; the Board Game Arena walkthrough, 準備 /
配置フェイズ)."""

from __future__ import annotations

from collections import Counter

import pytest

from games import GameConfig, IllegalDecision, InvalidConfig
from games.rumble_nation import GAME
from games.rumble_nation.board import ADJ, AREA_INDEX, LAND_LINKS, SEA_LINKS
from games.rumble_nation.cards import DAIMYO_CARDS, TACTIC_CARDS
from games.rumble_nation.state import split_options
from tests.rumble_nation.scenario import choose, count, keys, kind, position, set_dice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_every_castle_token_once(players: int) -> None:
    state = GAME.new(GameConfig(players), seed=players)
    assert sorted(state.castle_of) == list(range(2, 13))
    for area, castle in enumerate(state.castle_of):
        assert state.area_of[castle] == area


@pytest.mark.parametrize(
    ("players", "cards", "swords"), [(2, 3, [2, 1]), (3, 4, [3, 2, 1]), (4, 5, [4, 3, 2, 1])]
)
def test_setup_display_and_sword_chips_by_player_count(
    players: int, cards: int, swords: list[int]
) -> None:
    state = GAME.new(GameConfig(players), seed=11)
    assert len(state.tactic_display) == cards
    assert len(set(state.tactic_display)) == cards
    assert set(state.tactic_display) <= {card.id for card in TACTIC_CARDS}
    assert state.swords_left == swords
    assert state.stock == [18] * players
    assert state.pool == 30


def test_setup_shuffles_differ_by_seed_and_repeat_by_seed() -> None:
    layouts = {tuple(GAME.new(GameConfig(4), seed).castle_of) for seed in range(20)}
    assert len(layouts) > 15
    assert GAME.new(GameConfig(4), 5).canonical() == GAME.new(GameConfig(4), 5).canonical()


def test_start_player_is_random_over_seats() -> None:
    starts = Counter(GAME.new(GameConfig(4), seed).start_player for seed in range(400))
    assert set(starts) == {0, 1, 2, 3}
    assert min(starts.values()) > 60


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_2_to_4_is_refused(players: int) -> None:
    with pytest.raises(InvalidConfig, match="2, 3, 4 players"):
        GAME.new(GameConfig(players), 0)


def test_map_has_ten_land_and_six_sea_links_and_kyo_neighbours() -> None:
    assert len(LAND_LINKS) == 10 and len(SEA_LINKS) == 6
    kyo = AREA_INDEX["kyo"]
    names = {a for a, i in AREA_INDEX.items() if i in ADJ[kyo]}
    assert names == {"yoshida", "inabayama", "kiyosu", "oko"}


def test_turn_offers_roll_and_usable_cards_only() -> None:
    state = position(2, display=("scout", "rebel", "retreat"))
    # Empty board: no card is usable, so the only choice, rolling, is taken at once (R4).
    assert kind(state) == "after_roll" and len(state.dice) == 3
    state = position(2, soldiers={"kyo": {0: 2, 1: 1}}, display=("scout", "rebel", "retreat"))
    assert keys(state) == ["roll", "tactic:scout", "tactic:rebel", "tactic:retreat"]


def test_single_die_gives_soldiers_1_2_3() -> None:
    options = split_options((1, 3, 5), stock=18, daimyo=False, rerolled=True)
    # pair 3+5=8 with die 1 -> 1 soldier; pair 1+5=6 with 3 -> 2; pair 1+3=4 with 5 -> 3
    assert [o.key for o in options] == ["place:8:1", "place:6:2", "place:4:3"]
    options = split_options((2, 4, 6), stock=18, daimyo=False, rerolled=True)
    assert [o.key for o in options] == ["place:10:1", "place:8:2", "place:6:3"]


def test_reroll_is_offered_once_and_rerolls_all_three_dice() -> None:
    state = position(2, soldiers={"kyo": {0: 1}})
    set_dice(state, (1, 1, 2))
    assert keys(state)[0] == "reroll"
    choose(state, "reroll")
    assert state.rerolled or state.current == 1  # rerolled, or the only split was taken (R4)
    rolls = [e for e in state._events if e.kind == "roll"]
    assert len(rolls) == 1 and rolls[0].data["reroll"] is True
    if state.current == 0:
        assert "reroll" not in keys(state)


def test_identical_splits_are_one_option_R5() -> None:
    options = split_options((3, 3, 3), stock=18, daimyo=False, rerolled=False)
    assert [o.key for o in options] == ["reroll", "place:6:2"]
    # 2,2,5: pair 7 with 2, pair 7 with 2, pair 4 with 5 -> two distinct placements.
    options = split_options((2, 2, 5), stock=18, daimyo=False, rerolled=True)
    assert [o.key for o in options] == ["place:7:1", "place:4:3"]


def test_placing_is_capped_by_stock_R5() -> None:
    options = split_options((5, 1, 1), stock=2, daimyo=False, rerolled=True)
    assert {o.key for o in options} == {"place:2:2", "place:6:1"}


def test_after_rolling_the_player_must_place() -> None:
    state = position(2, soldiers={"kyo": {0: 1}}, display=("scout",))
    set_dice(state, (1, 2, 6))
    assert all(k == "reroll" or k.startswith("place:") for k in keys(state))


def test_deploy_places_soldiers_in_the_area_of_the_pair_sum() -> None:
    state = position(2)
    set_dice(state, (6, 1, 3))  # pair 6+1 = 7 (inabayama in LAYOUT), single 3 -> 2 soldiers
    choose(state, "place:7:2")
    assert count(state, "inabayama", 0) == 2
    assert state.stock[0] == 16
    assert state.current == 1


def test_deploy_may_join_any_area_even_with_opponents() -> None:
    state = position(2, soldiers={"inabayama": {1: 4}})
    set_dice(state, (6, 1, 5))
    choose(state, "place:7:3")
    assert count(state, "inabayama", 0) == 3 and count(state, "inabayama", 1) == 4


def test_players_with_empty_stock_are_skipped_and_take_a_sword() -> None:
    state = position(3, stock={0: 1, 1: 5, 2: 5})
    set_dice(state, (1, 1, 6))
    choose(state, "place:7:1")  # last soldier of seat 0
    assert state.sword[0] == 3 and state.swords_left == [2, 1]
    assert state.cutoff
    for _ in range(6):
        assert state.current != 0
        set_dice(state, (1, 1, 2))
        choose(state, state.pending()[0].options[-1].key)


def test_advanced_game_has_16_soldiers_and_a_daimyo() -> None:
    state = GAME.new(GameConfig(3, "advanced"), 3)
    assert state.stock == [16, 16, 16]
    assert state.daimyo_in_stock == [True, True, True]
    assert len(state.daimyo_display) == 4
    assert set(state.daimyo_display) <= {c.id for c in DAIMYO_CARDS}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_daimyo_draft_runs_counter_clockwise_from_the_start_players_right(players: int) -> None:
    state = GAME.new(GameConfig(players, "advanced"), 21)
    start = state.start_player
    expected = [(start - 1 - i) % players for i in range(players)]
    seen = []
    while state.phase == "draft":
        decision = state.pending()[0]
        assert decision.kind == "daimyo_draft"
        assert len(decision.options) == players + 1 - len(seen)
        seen.append(decision.seat)
        state.apply(decision.seat, 0)
    assert seen == expected
    assert all(card is not None for card in state.daimyo_card)
    assert len(set(state.daimyo_card)) == players
    assert state.current == start


def test_daimyo_is_optional_when_enough_soldiers_R6() -> None:
    options = split_options((2, 3, 5), stock=10, daimyo=True, rerolled=True)
    got = [o.key for o in options]
    assert "place:8:1" in got and "place:8:0:daimyo" in got
    assert "place:7:2" in got and "place:7:1:daimyo" in got


def test_daimyo_is_forced_when_soldiers_run_short_R6() -> None:
    options = split_options((1, 1, 6), stock=1, daimyo=True, rerolled=True)
    # single 6 wants 3 pieces but only 1 soldier + daimyo remain: both must go.
    assert "place:2:1:daimyo" in [o.key for o in options]
    assert "place:2:1" not in [o.key for o in options]
    options = split_options((1, 1, 6), stock=0, daimyo=True, rerolled=True)
    assert {o.key for o in options} == {"place:2:0:daimyo", "place:7:0:daimyo"}


def test_placing_the_daimyo_puts_it_on_the_map() -> None:
    state = position(2, advanced=True)
    set_dice(state, (6, 1, 3))
    choose(state, "place:7:1:daimyo")
    assert state.daimyo_at[0] == AREA_INDEX["inabayama"]
    assert not state.daimyo_in_stock[0]
    assert count(state, "inabayama", 0) == 1 and state.stock[0] == 15


def test_stock_with_only_the_daimyo_is_not_empty() -> None:
    state = position(2, advanced=True, stock={0: 0})
    assert not state.stock_empty(0)
    set_dice(state, (1, 1, 6))
    choose(state, "place:2:0:daimyo")
    assert state.stock_empty(0) and state.sword[0] == 2


def test_wrong_seat_or_index_is_refused_without_change() -> None:
    state = position(2, soldiers={"kyo": {0: 1}}, display=("scout",))
    before = state.canonical()
    with pytest.raises(IllegalDecision):
        state.apply(1, 0)
    with pytest.raises(IllegalDecision):
        state.apply(0, 99)
    with pytest.raises(IllegalDecision):
        state.apply(0, -1)
    assert state.canonical() == before
