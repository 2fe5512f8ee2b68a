"""The six daimyo cards of the advanced game: when each is offered, each step, and the effect.

Positions are built with ``scenario.position(advanced=True, ...)``; seat 0 holds the card and
is to move. Rulings (Rn) are in ``games/rumble_nation/rulings.py``.
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


def daimyo_area(state: RumbleNationState, seat: int = 0) -> str | None:
    return state.observe(None).seats[seat].daimyo_area


def assert_done(state: RumbleNationState, next_seat: int = 1) -> None:
    """The card is resolved and the turn passed on."""
    assert state.effect is None
    assert state.current == next_seat


ALL_CARDS = ["uesugi", "oda", "takeda", "mori", "chosokabe", "otomo"]


def everything_usable(card: str) -> RumbleNationState:
    """Daimyo in Kyo (land and sea links), own and opponent soldiers there and next door."""
    return position(
        advanced=True,
        soldiers={"kyo": {0: 2, 1: 2}, "yoshida": {1: 1}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: card},
    )


# ------------------------------------------------------------------ every card


@pytest.mark.parametrize("card", ALL_CARDS)
def test_daimyo_card_is_offered_when_the_daimyo_is_on_the_map(card: str) -> None:
    state = everything_usable(card)
    assert kind(state) == "turn"
    assert keys(state) == ["roll", f"daimyo:{card}"]


@pytest.mark.parametrize("card", ALL_CARDS)
def test_daimyo_card_not_offered_while_the_daimyo_is_in_stock(card: str) -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 2, 1: 2}, "yoshida": {1: 1}},
        daimyo_cards={0: card},
        display=("scout",),
    )
    assert state.daimyo_in_stock[0]
    assert offered(state) == {"tactic:scout"}


@pytest.mark.parametrize("card", ALL_CARDS)
def test_using_a_daimyo_card_reveals_it(card: str) -> None:
    state = everything_usable(card)
    assert state.daimyo_revealed[0] is False
    assert state.observe(0).seats[0].daimyo_card == card
    assert state.observe(1).seats[0].daimyo_card is None
    choose(state, f"daimyo:{card}")
    assert state.daimyo_revealed[0] is True
    assert state.observe(1).seats[0].daimyo_card == card
    assert state.observe(1).seats[0].daimyo_revealed is True


@pytest.mark.parametrize("card", ALL_CARDS)
def test_daimyo_card_not_offered_after_the_cutoff(card: str) -> None:
    state = everything_usable(card)
    state.cutoff = True
    state._settle()
    assert state.current == 0
    assert kind(state) == "after_roll"  # R4: the roll was the only option, so it was taken


def test_daimyo_card_is_used_only_once() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 2}, "oko": {1: 2}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "oda"},
        display=("scout", "support"),
    )
    assert offered(state) == {"daimyo:oda", "tactic:scout", "tactic:support"}
    choose(state, "daimyo:oda")
    choose(state, "inabayama")
    choose(state, "alone")
    assert_done(state)
    choose(state, "tactic:scout")  # seat 1: source forced (oko)
    choose(state, "usuki")
    assert state.current == 0
    assert offered(state) == {"tactic:support"}


def test_daimyo_card_still_offered_after_a_tactic_card() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 2}, "oko": {1: 2}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "oda"},
        display=("support", "scout"),
    )
    choose(state, "tactic:support")  # destination forced: kyo
    choose(state, "tactic:scout")  # seat 1: source forced (oko)
    choose(state, "usuki")
    assert state.current == 0
    assert offered(state) == {"daimyo:oda"}


# ------------------------------------------------------------------ Uesugi


def uesugi(soldiers: int, at: str = "kyo") -> RumbleNationState:
    return position(
        advanced=True,
        soldiers={at: {0: soldiers}, "oko": {1: 1}},
        daimyo_at={0: at},
        daimyo_cards={0: "uesugi"},
        display=("scout",),
    )


def test_uesugi_moves_up_to_three_soldiers_to_land_neighbours_R10() -> None:
    state = uesugi(4)
    assert "daimyo:uesugi" in offered(state)
    choose(state, "daimyo:uesugi")
    assert kind(state) == "uesugi.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu"}  # no oko (sea), no stop
    choose(state, "yoshida")
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "stop"}
    choose(state, "kiyosu")
    assert state.current == 0
    choose(state, "kiyosu")  # the third ends the card
    assert_done(state)
    assert count(state, "kyo", 0) == 1
    assert count(state, "yoshida", 0) == 1
    assert count(state, "kiyosu", 0) == 2
    assert daimyo_area(state) == "kyo"


def test_uesugi_stop_after_the_first_soldier_R10() -> None:
    state = uesugi(4)
    choose(state, "daimyo:uesugi")
    choose(state, "inabayama")
    choose(state, "stop")
    assert_done(state)
    assert count(state, "kyo", 0) == 3
    assert count(state, "inabayama", 0) == 1


def test_uesugi_ends_by_itself_when_no_soldier_is_left_R10() -> None:
    state = uesugi(2)
    choose(state, "daimyo:uesugi")
    choose(state, "yoshida")
    choose(state, "inabayama")
    assert_done(state)
    assert count(state, "kyo", 0) == 0
    assert count(state, "yoshida", 0) == 1
    assert count(state, "inabayama", 0) == 1


def test_uesugi_not_offered_without_own_soldier_in_the_daimyo_area() -> None:
    state = position(
        advanced=True,
        soldiers={"kiyosu": {0: 3}, "kyo": {1: 2}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "uesugi"},
        display=("scout",),
    )
    assert offered(state) == {"tactic:scout"}


def test_uesugi_not_offered_when_the_daimyo_area_has_no_land_link() -> None:
    state = uesugi(3, at="usuki")
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Oda


def oda(soldiers: int) -> RumbleNationState:
    return position(
        advanced=True,
        soldiers={"kyo": {0: soldiers, 1: 1}, "oko": {0: 1}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "oda"},
    )


def test_oda_moves_the_daimyo_with_one_escort() -> None:
    state = oda(2)
    choose(state, "daimyo:oda")
    assert kind(state) == "oda.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}
    choose(state, "oko")
    assert kind(state) == "oda.escort"
    assert set(keys(state)) == {"escort", "alone"}
    choose(state, "escort")
    assert_done(state)
    assert daimyo_area(state) == "oko"
    assert count(state, "kyo", 0) == 1
    assert count(state, "oko", 0) == 2
    assert count(state, "kyo", 1) == 1


def test_oda_moves_the_daimyo_alone() -> None:
    state = oda(2)
    choose(state, "daimyo:oda")
    choose(state, "kiyosu")
    choose(state, "alone")
    assert_done(state)
    assert daimyo_area(state) == "kiyosu"
    assert count(state, "kyo", 0) == 2
    assert count(state, "kiyosu", 0) == 0


def test_oda_without_soldier_in_the_area_does_not_ask_for_an_escort() -> None:
    state = oda(0)
    choose(state, "daimyo:oda")
    choose(state, "oko")
    assert_done(state)
    assert daimyo_area(state) == "oko"
    assert count(state, "oko", 0) == 1


# ------------------------------------------------------------------ Takeda


def test_takeda_moves_up_to_three_soldiers_of_the_chosen_opponent_R14() -> None:
    state = position(
        3,
        advanced=True,
        soldiers={"kyo": {0: 1, 1: 4, 2: 2}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "takeda"},
    )
    choose(state, "daimyo:takeda")
    assert kind(state) == "takeda.opponent"
    assert set(keys(state)) == {"seat:1", "seat:2"}
    choose(state, "seat:1")
    assert kind(state) == "takeda.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}  # land and sea (R9)
    choose(state, "oko")
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko", "stop"}
    choose(state, "oko")
    choose(state, "yoshida")  # the third ends the card
    assert_done(state)
    assert count(state, "kyo", 1) == 1
    assert count(state, "oko", 1) == 2
    assert count(state, "yoshida", 1) == 1
    assert count(state, "kyo", 2) == 2
    assert count(state, "kyo", 0) == 1
    assert daimyo_area(state) == "kyo"


def test_takeda_ends_when_the_chosen_opponent_has_none_left_R14() -> None:
    state = position(
        3,
        advanced=True,
        soldiers={"kiyosu": {1: 2, 2: 3}},
        daimyo_at={0: "kiyosu"},
        daimyo_cards={0: "takeda"},
    )
    choose(state, "daimyo:takeda")
    choose(state, "seat:1")
    choose(state, "kyo")
    choose(state, "kyo")
    assert_done(state)
    assert count(state, "kiyosu", 1) == 0
    assert count(state, "kyo", 1) == 2
    assert count(state, "kiyosu", 2) == 3


def test_takeda_stop_after_the_first_soldier_R10() -> None:
    state = position(
        advanced=True,
        soldiers={"kiyosu": {1: 3}},
        daimyo_at={0: "kiyosu"},
        daimyo_cards={0: "takeda"},
    )
    choose(state, "daimyo:takeda")  # the only opponent is taken (R4)
    assert kind(state) == "takeda.destination"
    assert "stop" not in keys(state)
    choose(state, "odawara")
    choose(state, "stop")
    assert_done(state)
    assert count(state, "kiyosu", 1) == 2
    assert count(state, "odawara", 1) == 1


def test_takeda_not_offered_without_opponent_in_the_daimyo_area() -> None:
    state = position(
        advanced=True,
        soldiers={"kiyosu": {0: 2}, "kyo": {1: 3}},
        daimyo_at={0: "kiyosu"},
        daimyo_cards={0: "takeda"},
        display=("scout",),
    )
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Mōri


def mori(stock: int) -> RumbleNationState:
    return position(
        advanced=True,
        soldiers={"usuki": {0: 1}, "kyo": {1: 1}},
        stock={0: stock},
        daimyo_at={0: "usuki"},
        daimyo_cards={0: "mori"},
        display=("scout",),
    )


def test_mori_places_up_to_three_stock_soldiers_next_to_the_daimyo_R10() -> None:
    state = mori(10)
    assert "daimyo:mori" in offered(state)
    choose(state, "daimyo:mori")
    assert kind(state) == "mori.destination"
    assert set(keys(state)) == {"yoshida", "oko", "shuri"}  # no stop before the first
    choose(state, "shuri")
    assert set(keys(state)) == {"yoshida", "oko", "shuri", "stop"}
    choose(state, "shuri")
    choose(state, "oko")  # the third ends the card
    assert_done(state)
    assert count(state, "shuri", 0) == 2
    assert count(state, "oko", 0) == 1
    assert count(state, "usuki", 0) == 1
    assert state.stock[0] == 7


def test_mori_stop_after_the_first_soldier_R10() -> None:
    state = mori(10)
    choose(state, "daimyo:mori")
    choose(state, "yoshida")
    choose(state, "stop")
    assert_done(state)
    assert count(state, "yoshida", 0) == 1
    assert state.stock[0] == 9


def test_mori_emptying_the_stock_ends_the_card_takes_a_sword_and_cuts_off_R13() -> None:
    state = mori(2)
    choose(state, "daimyo:mori")
    choose(state, "oko")
    choose(state, "oko")
    assert_done(state)
    assert count(state, "oko", 0) == 2
    assert state.stock[0] == 0
    assert state.sword[0] == 2
    assert state.cutoff is True
    assert kind(state) == "after_roll"  # seat 1 may no longer use Scout


def test_mori_not_offered_with_an_empty_soldier_stock_R7() -> None:
    state = mori(0)
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Chōsokabe


def chosokabe(soldiers: int, at: str = "usuki") -> RumbleNationState:
    return position(
        advanced=True,
        soldiers={at: {0: soldiers}, "odawara": {1: 1}},
        daimyo_at={0: at},
        daimyo_cards={0: "chosokabe"},
        display=("scout",),
    )


def test_chosokabe_moves_the_daimyo_and_soldiers_from_a_fixed_origin_R10() -> None:
    state = chosokabe(2)
    assert "daimyo:chosokabe" in offered(state)
    choose(state, "daimyo:chosokabe")
    assert kind(state) == "chosokabe.move"
    assert set(keys(state)) == {
        "soldier:yoshida",
        "soldier:oko",
        "soldier:shuri",
        "daimyo:yoshida",
        "daimyo:oko",
        "daimyo:shuri",
    }
    choose(state, "daimyo:oko")
    assert daimyo_area(state) == "oko"
    # Still from usuki (the origin), not from the daimyo's new area oko.
    assert set(keys(state)) == {"soldier:yoshida", "soldier:oko", "soldier:shuri", "stop"}
    choose(state, "soldier:shuri")
    choose(state, "soldier:yoshida")
    assert_done(state)
    assert count(state, "usuki", 0) == 0
    assert count(state, "shuri", 0) == 1
    assert count(state, "yoshida", 0) == 1
    assert count(state, "kyo", 0) == 0


def test_chosokabe_moves_at_most_three_pieces_R10() -> None:
    state = chosokabe(4)
    choose(state, "daimyo:chosokabe")
    choose(state, "soldier:oko")
    choose(state, "soldier:oko")
    choose(state, "soldier:shuri")
    assert_done(state)
    assert count(state, "usuki", 0) == 1
    assert count(state, "oko", 0) == 2
    assert count(state, "shuri", 0) == 1
    assert daimyo_area(state) == "usuki"


def test_chosokabe_ends_by_itself_when_nothing_is_left_at_the_origin_R10() -> None:
    state = chosokabe(1, at="kyo")
    choose(state, "daimyo:chosokabe")
    assert set(keys(state)) == {"soldier:oko", "daimyo:oko"}
    choose(state, "daimyo:oko")
    assert set(keys(state)) == {"soldier:oko", "stop"}
    choose(state, "soldier:oko")
    assert_done(state)
    assert daimyo_area(state) == "oko"
    assert count(state, "oko", 0) == 1
    assert count(state, "kyo", 0) == 0


def test_chosokabe_stop_after_the_first_piece_R10() -> None:
    state = chosokabe(3)
    choose(state, "daimyo:chosokabe")
    choose(state, "soldier:shuri")
    choose(state, "stop")
    assert_done(state)
    assert count(state, "usuki", 0) == 2
    assert count(state, "shuri", 0) == 1
    assert daimyo_area(state) == "usuki"


def test_chosokabe_not_offered_when_the_daimyo_area_has_no_sea_link() -> None:
    state = chosokabe(3, at="kiyosu")
    assert offered(state) == {"tactic:scout"}


# ------------------------------------------------------------------ Ōtomo


def test_otomo_replaces_an_opponent_soldier_in_two_different_areas_R15() -> None:
    state = position(
        3,
        advanced=True,
        soldiers={
            "kyo": {0: 1, 1: 1},
            "yoshida": {1: 1, 2: 1},
            "oko": {2: 2},
            "kiyosu": {0: 1},
            "usuki": {1: 1},
        },
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "otomo"},
    )
    choose(state, "daimyo:otomo")
    assert kind(state) == "otomo.area"
    # Adjacent areas with an opponent soldier (not kyo itself, not usuki, not kiyosu).
    assert set(keys(state)) == {"yoshida", "oko"}
    choose(state, "yoshida")
    assert kind(state) == "otomo.opponent"
    assert set(keys(state)) == {"seat:1", "seat:2"}
    choose(state, "seat:2")
    assert count(state, "yoshida", 2) == 0
    assert count(state, "yoshida", 1) == 1
    assert count(state, "yoshida", 0) == 1
    assert kind(state) == "otomo.area"
    assert set(keys(state)) == {"oko", "stop"}  # yoshida again is not allowed (R15)
    choose(state, "oko")  # the only opponent there is taken (R4); two areas end the card
    assert_done(state)
    assert count(state, "oko", 2) == 1
    assert count(state, "oko", 0) == 1
    assert state.stock == [12, 13, 15]


def test_otomo_one_area_only_even_with_two_opponent_soldiers_there_R15() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 1}, "yoshida": {1: 3}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "otomo"},
    )
    choose(state, "daimyo:otomo")  # area and opponent are forced (R4)
    assert_done(state)
    assert count(state, "yoshida", 1) == 2
    assert count(state, "yoshida", 0) == 1
    assert state.stock == [14, 14]


def test_otomo_stop_after_the_first_area_R10() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 1}, "yoshida": {1: 1}, "oko": {1: 1}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "otomo"},
    )
    choose(state, "daimyo:otomo")
    assert set(keys(state)) == {"yoshida", "oko"}
    choose(state, "oko")
    assert set(keys(state)) == {"yoshida", "stop"}
    choose(state, "stop")
    assert_done(state)
    assert count(state, "oko", 0) == 1
    assert count(state, "oko", 1) == 0
    assert count(state, "yoshida", 1) == 1


def test_otomo_not_offered_without_opponent_in_an_adjacent_area() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 1, 1: 2}, "usuki": {1: 2}},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "otomo"},
        display=("scout",),
    )
    assert offered(state) == {"tactic:scout"}


def test_otomo_not_offered_with_an_empty_soldier_stock_R7() -> None:
    state = position(
        advanced=True,
        soldiers={"kyo": {0: 1}, "yoshida": {1: 2}},
        stock={0: 0},
        daimyo_at={0: "kyo"},
        daimyo_cards={0: "otomo"},
        display=("scout",),
    )
    assert offered(state) == {"tactic:scout"}
