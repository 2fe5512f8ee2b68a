"""Prepared positions (games/root/positions.py) hold only what a real game can hold."""

from __future__ import annotations

import pytest

from games.root.invariants import check_invariants
from games.root.marquise import MarquiseBoard
from games.root.positions import EYRIE, MARQUISE, MARQUISE_SEAT, decision_scenarios, position
from games.root.tracks import MARQUISE_WOOD_TOKENS


def _board(g: object) -> MarquiseBoard:
    board = g.players[MARQUISE_SEAT].board  # type: ignore[attr-defined]
    assert isinstance(board, MarquiseBoard)
    return board


def test_the_marquise_board_follows_the_keep_and_wood_placed() -> None:
    """Law 6.2.2: the keep is where its token is; Law 6.3 step 1: eight wood tokens in all,
    so those on the map are not in her supply."""
    g = position(
        warriors={3: {MARQUISE: 1}},
        tokens={3: ((MARQUISE, "keep"), (MARQUISE, "wood")), 5: ((MARQUISE, "wood"),)},
        hold=True,
    )
    assert _board(g).keep == 3 and _board(g).wood == MARQUISE_WOOD_TOKENS - 2
    assert not g.may_place(1 - MARQUISE_SEAT, 3) and g.may_place(1 - MARQUISE_SEAT, 1)


def test_without_a_keep_token_the_keep_is_out_of_the_game() -> None:
    """No keep on the map: the Marquise's board says so (Law 6.2.2: it cannot come back), so no
    clearing is closed to the Eyrie and Field Hospitals has nowhere to send warriors."""
    g = position(warriors={1: {MARQUISE: 2}, 12: {EYRIE: 1}}, hold=True)
    assert _board(g).keep == 0
    assert all(g.may_place(1 - MARQUISE_SEAT, c) for c in range(1, 13))


def test_a_position_no_game_can_reach_is_refused() -> None:
    """Nine wood tokens, or 26 Marquise warriors, exceed the box (Law 1.5.1 Limits)."""
    with pytest.raises(AssertionError, match="wood"):
        position(tokens={c: ((MARQUISE, "wood"),) for c in range(1, 10)}, hold=True)
    with pytest.raises(AssertionError, match="warriors"):
        position(warriors={1: {MARQUISE: 13}, 2: {MARQUISE: 13}}, hold=True)


def test_every_prepared_decision_scenario_keeps_the_invariants() -> None:
    for name, g in decision_scenarios().items():
        try:
            check_invariants(g)
        except AssertionError as broken:
            raise AssertionError(f"scenario {name}: {broken}") from None
