"""The twelve tactic cards: when each is offered, the choices each step offers, and the effect.

Positions are built with ``scenario.position``; seat 0 is to move unless said otherwise.
Rulings (Rn) are in ``games/rumble_nation/rulings.py``.
"""

from __future__ import annotations

import pytest

from games.rumble_nation.state import RumbleNationState
from tests.rumble_nation.scenario import choose, count, keys, kind, position


def offered(state: RumbleNationState) -> set[str]:
    """The cards offered at the start of the current turn (R4: a forced roll means none)."""
    if kind(state) == "after_roll":
        assert not state.rerolled
        return set()
    assert kind(state) == "turn"
    return set(keys(state)) - {"roll"}


def assert_played(state: RumbleNationState, card: str, seat: int = 0, next_seat: int = 1) -> None:
    """The card was taken from the display by ``seat`` and the turn passed to ``next_seat``."""
    assert card not in state.tactic_display
    assert state.tactic_used[seat] == card
    assert state.effect is None
    assert state.current == next_seat


# ------------------------------------------------------------------ general availability


def test_only_usable_cards_from_the_display_are_offered() -> None:
    state = position(soldiers={"kyo": {0: 1}}, display=("scout", "retreat", "rebel"))
    assert kind(state) == "turn"
    assert keys(state) == ["roll", "tactic:scout"]


def test_a_player_who_used_a_tactic_card_is_not_offered_another() -> None:
    state = position(
        soldiers={"kyo": {0: 3}, "oko": {1: 2}}, display=("scout", "support", "retreat")
    )
    choose(state, "tactic:scout")  # the source is forced: kyo
    choose(state, "yoshida")
    assert state.current == 1
    assert offered(state) == {"tactic:support", "tactic:retreat"}
    choose(state, "tactic:support")  # the destination is forced: oko
    assert state.current == 0
    assert state.tactic_display == ["retreat"]
    # Retreat would be usable (3 soldiers on the map), but seat 0 already used Scout.
    assert offered(state) == set()
    assert kind(state) == "after_roll"


def test_no_card_is_offered_after_the_cutoff() -> None:
    state = position(soldiers={"kyo": {0: 3}}, display=("scout", "retreat"))
    assert offered(state) == {"tactic:scout", "tactic:retreat"}
    state.cutoff = True
    state._settle()
    assert state.current == 0
    assert kind(state) == "after_roll"  # R4: the roll was the only option, so it was taken


def test_support_emptying_the_stock_takes_a_sword_and_cuts_off_cards_R13() -> None:
    state = position(
        soldiers={"kyo": {0: 2}, "oko": {1: 2}}, stock={0: 1}, display=("support", "scout")
    )
    choose(state, "tactic:support")  # the destination is forced: kyo
    assert count(state, "kyo", 0) == 3
    assert state.stock[0] == 0
    assert state.sword[0] == 2
    assert state.sword[1] == 0
    assert state.cutoff is True
    assert_played(state, "support")
    # Seat 1 could use Scout before the cut-off; now its turn starts with the roll (R4).
    assert kind(state) == "after_roll"
    assert state.current == 1


# ------------------------------------------------------------------ the daimyo is no soldier


def test_scout_not_offered_when_only_the_daimyo_is_on_the_map() -> None:
    state = position(
        advanced=True, soldiers={"oko": {1: 2}}, daimyo_at={0: "kyo"}, display=("scout", "rebel")
    )
    assert offered(state) == {"tactic:rebel"}


def test_pair_cards_do_not_count_the_daimyo_as_a_soldier() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 1}, "oko": {1: 2}},
        daimyo_at={0: "kyo"},
        display=("over_the_mountain", "marine", "sub_squad", "retreat", "scout"),
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Scout


def test_scout_moves_one_soldier_to_any_adjacent_area_land_or_sea_R9() -> None:
    state = position(soldiers={"kyo": {0: 2}, "usuki": {0: 1}}, display=("scout", "retreat"))
    assert "tactic:scout" in offered(state)
    choose(state, "tactic:scout")
    assert kind(state) == "scout.source"
    assert set(keys(state)) == {"kyo", "usuki"}
    choose(state, "kyo")
    assert kind(state) == "scout.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}
    choose(state, "oko")
    assert count(state, "kyo", 0) == 1
    assert count(state, "oko", 0) == 1
    assert count(state, "usuki", 0) == 1
    assert state.stock[0] == 15
    assert_played(state, "scout")


def test_scout_not_offered_without_own_soldier_on_map() -> None:
    state = position(soldiers={"kyo": {1: 2}}, display=("scout", "rebel"))
    assert offered(state) == {"tactic:rebel"}


# ------------------------------------------------------------------ Over the Mountain


def test_over_the_mountain_moves_two_soldiers_to_one_land_neighbour() -> None:
    state = position(
        soldiers={"kyo": {0: 3}, "kiyosu": {0: 2}, "usuki": {0: 2}, "inabayama": {0: 1}},
        display=("over_the_mountain", "scout"),
    )
    assert "tactic:over_the_mountain" in offered(state)
    choose(state, "tactic:over_the_mountain")
    assert kind(state) == "over_the_mountain.source"
    assert set(keys(state)) == {"kyo", "kiyosu"}  # usuki has 2 but no land link
    choose(state, "kyo")
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu"}  # not oko (sea)
    choose(state, "inabayama")
    assert count(state, "kyo", 0) == 1
    assert count(state, "inabayama", 0) == 3
    assert count(state, "kiyosu", 0) == 2
    assert count(state, "usuki", 0) == 2
    assert_played(state, "over_the_mountain")


@pytest.mark.parametrize("area", ["shuri", "usuki", "oko", "tokuyama"])
def test_over_the_mountain_not_offered_when_the_pair_has_no_land_link(area: str) -> None:
    state = position(soldiers={area: {0: 2}, "kyo": {0: 1}}, display=("over_the_mountain", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_over_the_mountain_not_offered_with_single_soldiers_only() -> None:
    state = position(
        soldiers={"kyo": {0: 1}, "kiyosu": {0: 1}}, display=("over_the_mountain", "scout")
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Marine


def test_marine_moves_two_soldiers_to_one_sea_neighbour() -> None:
    state = position(soldiers={"usuki": {0: 2}, "kiyosu": {0: 3}}, display=("marine", "scout"))
    assert "tactic:marine" in offered(state)
    choose(state, "tactic:marine")
    # kiyosu has no sea link, so usuki is the only source and is taken (R4).
    assert kind(state) == "marine.destination"
    assert set(keys(state)) == {"yoshida", "oko", "shuri"}
    choose(state, "shuri")
    assert count(state, "usuki", 0) == 0
    assert count(state, "shuri", 0) == 2
    assert count(state, "kiyosu", 0) == 3
    assert_played(state, "marine")


def test_marine_sources_are_areas_with_two_soldiers_and_a_sea_link() -> None:
    state = position(
        soldiers={"kyo": {0: 2}, "kiyosu": {0: 3}, "yonezawa": {0: 2}, "oko": {0: 1}},
        display=("marine", "scout"),
    )
    choose(state, "tactic:marine")
    assert set(keys(state)) == {"kyo", "yonezawa"}
    choose(state, "kyo")  # kyo's only sea neighbour is oko: taken (R4)
    assert count(state, "kyo", 0) == 0
    assert count(state, "oko", 0) == 3
    assert_played(state, "marine")


def test_marine_not_offered_when_the_pairs_have_only_land_links() -> None:
    state = position(
        soldiers={"kiyosu": {0: 3}, "odawara": {0: 2}, "kyo": {0: 1}},
        display=("marine", "scout"),
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Sub Squad


def test_sub_squad_moves_half_rounded_down_to_one_adjacent_area() -> None:
    state = position(
        soldiers={"kyo": {0: 5}, "usuki": {0: 2}, "oko": {0: 1}},
        display=("sub_squad", "scout"),
    )
    assert "tactic:sub_squad" in offered(state)
    choose(state, "tactic:sub_squad")
    assert kind(state) == "sub_squad.source"
    assert set(keys(state)) == {"kyo", "usuki"}  # oko has a single soldier
    choose(state, "kyo")
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}
    choose(state, "oko")
    assert count(state, "kyo", 0) == 3
    assert count(state, "oko", 0) == 3
    assert_played(state, "sub_squad")


def test_sub_squad_not_offered_without_an_area_of_two() -> None:
    state = position(
        soldiers={"kyo": {0: 1}, "oko": {0: 1}, "usuki": {1: 4}}, display=("sub_squad", "scout")
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Ninja


def test_ninja_moves_one_soldier_to_any_other_own_area_without_adjacency() -> None:
    state = position(
        soldiers={"shuri": {0: 2}, "tokuyama": {0: 1}, "kyo": {0: 1}, "odawara": {1: 2}},
        display=("ninja", "scout"),
    )
    assert "tactic:ninja" in offered(state)
    choose(state, "tactic:ninja")
    assert kind(state) == "ninja.source"
    assert set(keys(state)) == {"shuri", "tokuyama", "kyo"}
    choose(state, "shuri")
    assert kind(state) == "ninja.destination"
    assert set(keys(state)) == {"tokuyama", "kyo"}  # own areas other than the source
    choose(state, "tokuyama")
    assert count(state, "shuri", 0) == 1
    assert count(state, "tokuyama", 0) == 2
    assert count(state, "kyo", 0) == 1
    assert_played(state, "ninja")


def test_ninja_not_offered_with_soldiers_in_one_area_only() -> None:
    state = position(soldiers={"kyo": {0: 4}, "oko": {1: 1}}, display=("ninja", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_ninja_not_offered_when_the_other_area_holds_only_the_daimyo_R8() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 3}},
        daimyo_at={0: "tokuyama"},
        display=("ninja", "scout"),
    )
    assert offered(state) == {"tactic:scout"}


def test_ninja_destination_needs_own_soldier_not_the_daimyo_R8() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 2}, "oko": {0: 1}, "kiyosu": {0: 1}},
        daimyo_at={0: "tokuyama"},
        display=("ninja", "scout"),
    )
    choose(state, "tactic:ninja")
    choose(state, "kyo")
    assert set(keys(state)) == {"oko", "kiyosu"}


# ------------------------------------------------------------------ Entering Kyo


def test_entering_kyo_moves_soldiers_one_at_a_time_until_stop_R11() -> None:
    state = position(
        soldiers={"yoshida": {0: 2}, "oko": {0: 1}, "kiyosu": {0: 1}, "usuki": {0: 3}},
        display=("entering_kyo", "scout"),
    )
    assert "tactic:entering_kyo" in offered(state)
    choose(state, "tactic:entering_kyo")
    assert kind(state) == "entering_kyo.source"
    assert set(keys(state)) == {"yoshida", "oko", "kiyosu"}  # no stop before the first
    choose(state, "yoshida")
    assert set(keys(state)) == {"yoshida", "oko", "kiyosu", "stop"}
    choose(state, "oko")  # Okō is a sea neighbour of Kyo
    assert set(keys(state)) == {"yoshida", "kiyosu", "stop"}
    choose(state, "stop")
    assert count(state, "kyo", 0) == 2
    assert count(state, "yoshida", 0) == 1
    assert count(state, "oko", 0) == 0
    assert count(state, "kiyosu", 0) == 1
    assert count(state, "usuki", 0) == 3
    assert_played(state, "entering_kyo")


def test_entering_kyo_ends_by_itself_when_no_neighbour_soldier_is_left() -> None:
    state = position(soldiers={"inabayama": {0: 2}}, display=("entering_kyo", "scout"))
    choose(state, "tactic:entering_kyo")  # the only source is taken (R4)
    assert count(state, "kyo", 0) == 1
    assert set(keys(state)) == {"inabayama", "stop"}
    choose(state, "inabayama")
    assert count(state, "kyo", 0) == 2
    assert count(state, "inabayama", 0) == 0
    assert_played(state, "entering_kyo")


def test_entering_kyo_not_offered_without_soldier_next_to_kyo() -> None:
    state = position(
        soldiers={"kyo": {0: 3}, "usuki": {0: 2}, "yoshida": {1: 2}},
        display=("entering_kyo", "scout"),
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Support


def test_support_places_one_stock_soldier_where_you_have_soldiers() -> None:
    state = position(
        soldiers={"kyo": {0: 1}, "shuri": {0: 2}, "oko": {1: 2}}, display=("support", "scout")
    )
    assert "tactic:support" in offered(state)
    choose(state, "tactic:support")
    assert kind(state) == "support.destination"
    assert set(keys(state)) == {"kyo", "shuri"}
    choose(state, "shuri")
    assert count(state, "shuri", 0) == 3
    assert count(state, "kyo", 0) == 1
    assert state.stock[0] == 14
    assert state.on_map[0] == 4
    assert state.stock[1] == 16
    assert_played(state, "support")


def test_support_not_offered_with_an_empty_stock() -> None:
    state = position(soldiers={"kyo": {0: 3}}, stock={0: 0}, display=("support", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_support_not_offered_when_only_the_daimyo_is_in_stock_R7() -> None:
    state = position(
        advanced=True, soldiers={"kyo": {0: 3}}, stock={0: 0}, display=("support", "scout")
    )
    assert state.daimyo_in_stock[0]
    assert offered(state) == {"tactic:scout"}


def test_support_not_offered_without_own_soldier_on_map() -> None:
    state = position(soldiers={"kyo": {1: 3}}, display=("support", "rebel"))
    assert offered(state) == {"tactic:rebel"}


# ------------------------------------------------------------------ Rebel


def test_rebel_swaps_an_opponent_soldier_for_one_of_yours() -> None:
    state = position(
        3,
        soldiers={"kyo": {1: 2, 2: 1}, "oko": {0: 1, 2: 1}, "usuki": {0: 2}},
        display=("rebel", "scout", "retreat", "ninja"),
    )
    assert "tactic:rebel" in offered(state)
    choose(state, "tactic:rebel")
    assert kind(state) == "rebel.area"
    assert set(keys(state)) == {"kyo", "oko"}  # areas holding an opponent soldier
    choose(state, "kyo")
    assert kind(state) == "rebel.opponent"
    assert set(keys(state)) == {"seat:1", "seat:2"}
    choose(state, "seat:2")
    assert count(state, "kyo", 2) == 0
    assert count(state, "kyo", 1) == 2
    assert count(state, "kyo", 0) == 1
    assert state.stock == [14, 16, 17]
    assert_played(state, "rebel")


def test_rebel_not_offered_without_opponent_on_map() -> None:
    state = position(soldiers={"kyo": {0: 3}}, display=("rebel", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_rebel_not_offered_with_an_empty_stock() -> None:
    state = position(soldiers={"kyo": {0: 3, 1: 1}}, stock={0: 0}, display=("rebel", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_rebel_not_offered_when_only_the_daimyo_is_in_stock_R7() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 3, 1: 1}},
        stock={0: 0},
        display=("rebel", "scout"),
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Exile


def test_exile_moves_an_opponent_soldier_out_of_a_shared_area() -> None:
    state = position(
        soldiers={
            "kyo": {0: 1, 1: 2},
            "usuki": {0: 1},
            "kiyosu": {1: 3},
            "shuri": {0: 2, 1: 1},
        },
        display=("exile", "scout"),
    )
    assert "tactic:exile" in offered(state)
    choose(state, "tactic:exile")
    assert kind(state) == "exile.area"
    assert set(keys(state)) == {"kyo", "shuri"}  # you AND an opponent there
    choose(state, "kyo")  # the only opponent is taken (R4)
    assert kind(state) == "exile.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}
    choose(state, "oko")
    assert count(state, "kyo", 1) == 1
    assert count(state, "oko", 1) == 1
    assert count(state, "kyo", 0) == 1
    assert state.stock == [14, 12]
    assert_played(state, "exile")


def test_exile_opponent_choice_lists_opponents_in_the_area() -> None:
    state = position(
        3,
        soldiers={"kyo": {0: 1, 1: 1, 2: 2}, "oko": {2: 1}},
        display=("exile", "scout", "retreat", "ninja"),
    )
    choose(state, "tactic:exile")  # kyo is the only shared area (R4)
    assert kind(state) == "exile.opponent"
    assert set(keys(state)) == {"seat:1", "seat:2"}
    choose(state, "seat:2")
    choose(state, "kiyosu")
    assert count(state, "kyo", 2) == 1
    assert count(state, "kiyosu", 2) == 1
    assert count(state, "kyo", 1) == 1
    assert_played(state, "exile")


def test_exile_not_offered_when_no_area_is_shared_with_an_opponent() -> None:
    state = position(soldiers={"kyo": {0: 2}, "oko": {1: 2}}, display=("exile", "scout"))
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Prisoner


def test_prisoner_pulls_an_opponent_soldier_into_an_adjacent_own_area() -> None:
    state = position(
        soldiers={
            "kyo": {0: 1, 1: 1},
            "inabayama": {0: 1},
            "usuki": {0: 1},
            "kiyosu": {1: 2},
            "shuri": {1: 1},
            "tokuyama": {1: 1},
        },
        display=("prisoner", "scout"),
    )
    assert "tactic:prisoner" in offered(state)
    choose(state, "tactic:prisoner")
    assert kind(state) == "prisoner.area"
    # tokuyama's only neighbour (yonezawa) holds none of seat 0's soldiers.
    assert set(keys(state)) == {"kyo", "kiyosu", "shuri"}
    choose(state, "kiyosu")  # the only opponent is taken (R4)
    assert kind(state) == "prisoner.destination"
    assert set(keys(state)) == {"kyo", "inabayama"}  # adjacent areas with own soldiers
    choose(state, "inabayama")
    assert count(state, "kiyosu", 1) == 1
    assert count(state, "inabayama", 1) == 1
    assert count(state, "inabayama", 0) == 1
    assert_played(state, "prisoner")


def test_prisoner_not_offered_when_no_own_soldier_is_adjacent() -> None:
    state = position(soldiers={"shuri": {0: 2}, "odawara": {1: 2}}, display=("prisoner", "scout"))
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Decoy


def test_decoy_moves_one_own_and_two_opponent_soldiers_together() -> None:
    state = position(soldiers={"kyo": {0: 1, 1: 3}}, display=("decoy", "scout"))
    assert "tactic:decoy" in offered(state)
    choose(state, "tactic:decoy")  # area and opponent are forced (R4)
    assert kind(state) == "decoy.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}
    choose(state, "kiyosu")
    assert count(state, "kyo", 0) == 0
    assert count(state, "kyo", 1) == 1
    assert count(state, "kiyosu", 0) == 1
    assert count(state, "kiyosu", 1) == 2
    assert_played(state, "decoy")


def test_decoy_moves_only_the_chosen_opponent() -> None:
    state = position(
        3,
        soldiers={
            "kyo": {0: 1, 1: 2, 2: 2},
            "usuki": {0: 1, 2: 2},
            "oko": {0: 2, 1: 1, 2: 1},
        },
        display=("decoy", "scout", "retreat", "ninja"),
    )
    choose(state, "tactic:decoy")
    assert kind(state) == "decoy.area"
    assert set(keys(state)) == {"kyo", "usuki"}  # oko: no single opponent has 2
    choose(state, "kyo")
    assert kind(state) == "decoy.opponent"
    assert set(keys(state)) == {"seat:1", "seat:2"}
    choose(state, "seat:2")
    choose(state, "oko")
    assert count(state, "kyo", 1) == 2
    assert count(state, "kyo", 2) == 0
    assert count(state, "oko", 2) == 3
    assert count(state, "oko", 0) == 3
    assert_played(state, "decoy")


def test_decoy_not_offered_when_the_opponent_has_only_one_soldier_there() -> None:
    state = position(soldiers={"kyo": {0: 2, 1: 1}, "oko": {1: 3}}, display=("decoy", "scout"))
    assert offered(state) == {"tactic:scout"}


def test_decoy_not_offered_when_two_opponents_have_one_each() -> None:
    state = position(
        3, soldiers={"kyo": {0: 1, 1: 1, 2: 1}}, display=("decoy", "scout", "ninja", "exile")
    )
    assert offered(state) == {"tactic:scout", "tactic:exile"}


# ------------------------------------------------------------------ Retreat


def test_retreat_returns_two_soldiers_from_one_or_two_areas_R12() -> None:
    state = position(soldiers={"kyo": {0: 2}, "oko": {0: 1}}, display=("retreat", "scout"))
    assert "tactic:retreat" in offered(state)
    choose(state, "tactic:retreat")
    assert kind(state) == "retreat.first"
    assert set(keys(state)) == {"kyo", "oko"}
    choose(state, "kyo")
    assert kind(state) == "retreat.second"
    assert set(keys(state)) == {"kyo", "oko"}  # the same area again is allowed
    choose(state, "kyo")
    assert count(state, "kyo", 0) == 0
    assert count(state, "oko", 0) == 1
    assert state.stock[0] == 17
    assert state.on_map[0] == 1
    assert_played(state, "retreat")


def test_retreat_second_soldier_from_another_area_R12() -> None:
    state = position(soldiers={"kyo": {0: 1}, "oko": {0: 2}}, display=("retreat", "scout"))
    choose(state, "tactic:retreat")
    choose(state, "kyo")  # the second must then come from oko: taken (R4)
    assert count(state, "kyo", 0) == 0
    assert count(state, "oko", 0) == 1
    assert state.stock[0] == 17
    assert_played(state, "retreat")


def test_retreat_not_offered_with_one_soldier_on_map() -> None:
    state = position(soldiers={"kyo": {0: 1, 1: 3}}, display=("retreat", "scout"))
    assert offered(state) == {"tactic:scout"}
