"""Prepared positions (games/root/positions.py) hold only what a real game can hold."""

from __future__ import annotations

import random

import pytest

from games import get_game
from games.root.invariants import check_invariants
from games.root.lineup import unavailable
from games.root.marquise import MarquiseBoard
from games.root.positions import EYRIE, MARQUISE, MARQUISE_SEAT, decision_scenarios, position
from games.root.state import RootState
from games.root.tracks import MARQUISE_WOOD_TOKENS
from server.conformance import whole_games
from tests.test_docs_option_keys import UNREACHABLE, row_of


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


# -- the conformance kit meets every kind of decision, four players too ------------------------


def _seat_zero_decisions(
    g: RootState, last: bool, count: int = 8
) -> list[tuple[str, tuple[str, ...]]]:
    """The first ``count`` decisions seat 0 is asked from ``g`` (kind, option keys), every seat
    answering its first option (its last if ``last``)."""
    g = g.clone()
    found: list[tuple[str, tuple[str, ...]]] = []
    while g.pending() and len(found) < count:
        d = g.pending()[0]
        if d.seat == 0:
            found.append((d.kind, tuple(o.key for o in d.options)))
        g.apply(d.seat, len(d.options) - 1 if last else 0)
    return found


def _met_in_positions() -> set[tuple[str, str]]:
    """(kind, option verb) of seat 0's first decisions in the prepared positions."""
    return {
        (kind, key.split(":")[0])
        for g in decision_scenarios().values()
        for last in (False, True)
        for kind, keys in _seat_zero_decisions(g, last)
        for key in keys
    }


@pytest.mark.skipif(unavailable(4) is not None, reason="four players need the Vagabond")
def test_prepared_positions_put_seat_zero_before_every_vagabond_decision() -> None:
    """Every kind of the Vagabond's (the docs' table lists every kind the engine asks, which
    tests/test_docs_option_keys.py checks), his items taking hits in battle, a coalition, the
    choice of a defender among two enemies and an Allied faction's warriors brought along or
    fought with come to seat 0 within its first few decisions
    of a prepared position, not only by luck in whole games (where seat 0 is the Vagabond in
    one game of four at most)."""
    met = _met_in_positions()
    kinds = {kind for kind, _ in met}
    vagabond = {kind for kind in row_of("root") if kind.startswith("vagabond.")}
    assert len(vagabond) >= 11  # character, forest, refresh, slip, action, aid (2), ...
    assert vagabond - kinds == set()
    for kind, verb in (
        ("battle.remove", "damage"),
        ("cards.daylight_start", "coalition"),
        ("battle.defender", "seat"),
        ("vagabond.aid_take", "take"),
        # Allied warriors along in his moves (RV15) and in his battles (RV14).
        ("vagabond.escort", "escort"),
        ("battle.ally", "ally"),
    ):
        assert (kind, verb) in met, f"no prepared position offers seat 0 {verb}: in {kind}"


#: Random streams the whole games are played with below: seat 0's own choices (a bot's, in
#: the kit) decide whether a common kind comes up; a kind met in none of them is a rare one
#: that needs a prepared position.
STREAMS = 5


@pytest.mark.skipif(unavailable(4) is not None, reason="four players need the Vagabond")
def test_the_kit_meets_every_kind_of_decision_in_seat_zero() -> None:
    """``kassen bot check --game root``: the whole games it plays (as it seeds them, every seat
    answering at random here) and the prepared positions together ask seat 0 every kind of
    decision the engine can ask (the docs' table, less the kinds no game can reach)."""
    game = get_game("root")
    met = {kind for kind, _ in _met_in_positions()}
    for stream in range(STREAMS):
        for index, config in enumerate(whole_games(game)):
            seed = 11 + config.players + index  # the kit's seeds (run_battery)
            g = game.new(config, seed)
            rng = random.Random(stream)
            while g.pending():
                d = g.pending()[0]
                if d.seat == 0:
                    met.add(d.kind)
                g.apply(d.seat, rng.randrange(len(d.options)))
    reachable = set(row_of("root")) - set(UNREACHABLE["root"])
    assert reachable - met == set()
