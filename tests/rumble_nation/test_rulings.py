"""One test per ruling of games/rumble_nation/rulings.py (the id is in each test's name).

Rulings covered by the card tests (R7, R8, R10, R13, R14, R15) are named there; the last test
here checks that every ruling id is named by some test.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

from games import GameConfig
from games.rumble_nation import GAME
from games.rumble_nation.board import AREA_INDEX
from games.rumble_nation.daimyo import DAIMYO_EFFECTS
from games.rumble_nation.rulings import RULINGS, ruling
from games.rumble_nation.state import RumbleNationState
from games.rumble_nation.war import resolve_battle
from tests.rumble_nation.scenario import choose, count, keys, kind, position


def test_R1_daimyo_alone_makes_an_area_eligible_for_reinforcements() -> None:
    assert "daimyo counts" in ruling("R1")
    # usuki (castle 2) is won by seat 0; oko (3) holds only seat 0's daimyo.
    state = position(
        2, advanced=True, soldiers={"usuki": {0: 1}, "oko": {1: 1}}, daimyo_at={0: "oko"}
    )
    state.sword = [2, 1]
    resolve_battle(state, 2)
    assert state.reinforcements[AREA_INDEX["oko"]] == [1, 0]


def test_R2_short_pool_serves_targets_in_castle_order_and_refills_from_resolved_areas() -> None:
    state = position(
        3, soldiers={"usuki": {0: 1}, "oko": {0: 1}, "shuri": {0: 1}, "yoshida": {0: 1}}
    )
    state.sword = [3, 2, 1]
    state.pool = 3
    resolve_battle(state, 2)  # usuki: targets oko (3), shuri (4), yoshida (5), 2 each
    assert state.reinforcements[AREA_INDEX["oko"]][0] == 2
    assert state.reinforcements[AREA_INDEX["shuri"]][0] == 1
    assert state.reinforcements[AREA_INDEX["yoshida"]][0] == 0
    assert state.pool == 0
    resolve_battle(state, 3)  # oko resolved: its 2 go back, then oko's win sends 2 to yoshida
    assert state.reinforcements[AREA_INDEX["yoshida"]][0] == 2
    assert state.pool == 0


def test_R3_other_seats_never_see_an_unrevealed_daimyo_card() -> None:
    state = GAME.new(GameConfig(4, "advanced"), 5)
    while state.phase == "draft":
        state.apply(state.pending()[0].seat, 0)
    for viewer in range(4):
        view = state.observe(viewer)
        for seat, seen in enumerate(view.seats):
            assert (seen.daimyo_card is not None) == (seat == viewer)
        assert view.daimyo_seen == state.daimyo_seen[viewer]
    spectator = state.observe(None)
    assert all(seen.daimyo_card is None for seen in spectator.seats)
    assert spectator.daimyo_seen == ()


def _drafted(players: int, seed: int) -> RumbleNationState:
    """An advanced game just after a seeded random draft."""
    state = GAME.new(GameConfig(players, "advanced"), seed)
    rng = random.Random(seed)
    while state.phase == "draft":
        decision = state.pending()[0]
        state.apply(decision.seat, rng.randrange(len(decision.options)))
    return state


def test_R3_determinization_keeps_own_card_and_is_consistent_with_what_was_seen() -> None:
    """Earlier pickers can only hold display cards the viewer did not see at its pick (they took
    them); later pickers hold cards the viewer left. Never a card that was not on offer."""
    for players in (2, 3, 4):
        for game_seed in range(10):
            state = _drafted(players, game_seed)
            order = state.draft_order
            display = set(state.daimyo_display)
            for viewer in range(players):
                seen = set(state.daimyo_seen[viewer])
                mine = order.index(viewer)
                for seed in range(10):
                    guess = state.determinize(viewer, seed)
                    assert guess.daimyo_card[viewer] == state.daimyo_card[viewer]
                    assert len(set(guess.daimyo_card)) == players
                    for p in order[mine + 1 :]:
                        assert guess.daimyo_card[p] in seen - {state.daimyo_card[viewer]}
                    for p in order[:mine]:
                        assert guess.daimyo_card[p] in display - seen, (players, viewer, p)


def test_R3_determinization_during_the_draft_keeps_the_offer_and_the_display() -> None:
    """Mid-draft, a seat that has not picked only knows the earlier pickers took display cards;
    the seat picking now also sees what is left (its options), so that offer stays."""
    for game_seed in range(10):
        state = GAME.new(GameConfig(4, "advanced"), game_seed)
        state.apply(state.pending()[0].seat, game_seed % 5)  # one card taken, three to go
        picker = state.pending()[0].seat
        first = state.draft_order[0]
        display = set(state.daimyo_display)
        for viewer in range(4):
            for seed in range(10):
                guess = state.determinize(viewer, seed)
                taken = guess.daimyo_card[first]
                assert taken in display and taken not in guess.draft_remaining
                assert set(guess.draft_remaining) == display - {taken}
                if viewer in (first, picker):
                    assert guess.daimyo_card == state.daimyo_card
                    assert guess.pending() == state.pending()
                else:
                    options = guess.pending()[0].options
                    assert [o.value[1] for o in options] == guess.draft_remaining


def test_R3_determinization_keeps_a_turn_question_only_the_daimyo_card_allows() -> None:
    """R4 shows that an opponent asked to start its turn, with no tactic card usable to it,
    holds a usable daimyo card: every sample keeps that question (and the seat's view)."""
    found = 0
    for game_seed in range(40):
        if found == 5:
            break
        state = _drafted(4, game_seed)
        rng = random.Random(game_seed)
        while state.pending() and found < 5:
            p = state.current
            if state.step == "turn" and keys(state) == [
                "roll",
                f"daimyo:{state.daimyo_card[p]}",
            ]:
                viewer = (p + 1) % 4
                unusable = [
                    c for c in state.daimyo_display if not DAIMYO_EFFECTS[c].usable(state, p)
                ]
                if unusable:  # a sample could lose the question
                    found += 1
                    for seed in range(20):
                        guess = state.determinize(viewer, seed)
                        card = guess.daimyo_card[p]
                        assert card is not None and DAIMYO_EFFECTS[card].usable(guess, p)
                        assert guess.observe(viewer) == state.observe(viewer)
                        assert keys(guess) == ["roll", f"daimyo:{card}"]
            decision = state.pending()[0]
            state.apply(decision.seat, rng.randrange(len(decision.options)))
    assert found == 5, "no position with that question in 40 games"


def test_R4_single_option_decisions_are_taken_by_the_engine() -> None:
    state = position(2, soldiers={"oko": {0: 1}}, display=("entering_kyo", "scout"))
    choose(state, "tactic:entering_kyo")
    # Only one source (Okō) and one soldier: the card resolves without another question.
    assert count(state, "kyo", 0) == 1 and count(state, "oko", 0) == 0
    assert state.current == 1


def test_R9_unqualified_adjacency_uses_land_and_sea() -> None:
    state = position(2, soldiers={"kyo": {0: 1}}, display=("scout", "support"))
    choose(state, "tactic:scout")
    assert kind(state) == "scout.destination"
    assert set(keys(state)) == {"yoshida", "inabayama", "kiyosu", "oko"}


def test_R11_entering_kyo_takes_soldiers_one_by_one_from_sea_neighbour_too() -> None:
    state = position(
        2, soldiers={"oko": {0: 2}, "kiyosu": {0: 1}}, display=("entering_kyo", "scout")
    )
    choose(state, "tactic:entering_kyo")
    assert set(keys(state)) == {"oko", "kiyosu"}
    choose(state, "oko")
    assert set(keys(state)) == {"oko", "kiyosu", "stop"}
    choose(state, "kiyosu")
    choose(state, "stop")
    assert count(state, "kyo", 0) == 2 and count(state, "oko", 0) == 1


def test_R12_retreat_second_soldier_may_come_from_the_same_area() -> None:
    state = position(2, soldiers={"kyo": {0: 2}, "oko": {0: 1}}, display=("retreat", "scout"))
    choose(state, "tactic:retreat")
    choose(state, "kyo")
    assert kind(state) == "retreat.second" and set(keys(state)) == {"kyo", "oko"}
    choose(state, "kyo")
    assert count(state, "kyo", 0) == 0 and state.stock[0] == 18 - 1


def _rulings_named_by_tests() -> set[str]:
    """Ruling ids in the names or docstrings of test functions in this folder."""
    named: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                named.update(re.findall(r"(?<![A-Za-z0-9])R\d+(?!\d)", text))
    return named


def test_every_ruling_is_named_by_a_test() -> None:
    missing = sorted(set(RULINGS) - _rulings_named_by_tests(), key=lambda r: int(r[1:]))
    assert not missing, f"rulings without a test: {missing}"


def test_rulings_doc_matches_code() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "rulings" / "rumble-nation.md").read_text()
    for ruling_id, text in RULINGS.items():
        assert f"| {ruling_id} | {text} |" in doc, f"{ruling_id} differs in docs/rulings"


def test_R16_unfinished_game_is_adjudicated_by_the_war_on_the_current_board() -> None:
    state = position(3, soldiers={"kyo": {0: 2, 1: 1}, "tokuyama": {2: 1}})
    before = state.canonical()
    outcome = state.adjudicate()
    # kyo (6): seat 0 large, seat 1 small (3); tokuyama (12): seat 2 alone.
    assert outcome.scores == (6, 3, 12)
    assert outcome.ranking == (2, 0, 1)
    assert state.canonical() == before  # adjudicating does not touch the game
