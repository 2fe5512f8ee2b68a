"""The Vagabond (Law 9): board, characters, setup, quests, relationships, items (RV1-RV7)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.root.items import (
    BAG,
    BOOT,
    COIN,
    CROSSBOW,
    HAMMER,
    ITEM_SUPPLY,
    RUIN_ITEMS,
    SWORD,
    TEA,
    TORCH,
)
from games.root.maps import CLEARING_IDS
from games.root.rulings import RULINGS
from games.root.state import RootState
from games.root.suits import FOX, MOUSE, RABBIT
from games.root.vagabond import (
    ALLIED,
    CHARACTERS,
    HOSTILE,
    INDIFFERENT,
    QUEST_BY_ID,
    QUESTS,
    RANGER,
    THIEF,
    TINKER,
    VAGABOND_RULINGS,
    Vagabond,
    VagabondBoard,
    VagabondSetup,
    complete_quest,
    infamy,
    quest_options,
    revolt_damage,
    warrior_removed,
)
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE
from tests.root.helpers import new_game


def board_with(*items: str) -> VagabondBoard:
    board = VagabondBoard()
    for item in items:
        board.gain(item)
    return board


def set_up_game(character: str = THIEF, forest: str | None = None) -> tuple[RootState, int]:
    """A two-player game whose seat 1 is given a Vagabond board and set up by his setup step."""
    g = new_game(1)
    seat = 1
    g.players[seat].board = Vagabond().new_board()
    step = VagabondSetup(seat)
    options = step.advance(g)
    assert step.kind() == "vagabond.character"
    assert [o.key for o in options] == ["character:thief", "character:tinker", "character:ranger"]
    step.choose(g, ("character", character))
    options = step.advance(g)
    assert step.kind() == "vagabond.forest"
    forests = [o.value[1] for o in options]
    assert forests == [f.id for f in g.board.forests]
    step.choose(g, ("forest", forest or forests[0]))
    assert step.advance(g) == ()
    return g, seat


def test_characters_and_their_items() -> None:
    assert CHARACTERS[THIEF].items == (BOOT, TORCH, TEA, SWORD)
    assert CHARACTERS[TINKER].items == (BOOT, TORCH, BAG, HAMMER)
    assert CHARACTERS[RANGER].items == (BOOT, TORCH, CROSSBOW, SWORD)
    assert [c.special for c in CHARACTERS.values()] == ["steal", "day_labor", "hideout"]


def test_fifteen_quests_five_per_suit() -> None:
    assert len(QUESTS) == 15 == len(QUEST_BY_ID)
    assert Counter(q.suit for q in QUESTS) == {FOX: 5, RABBIT: 5, MOUSE: 5}
    assert QUEST_BY_ID["mouse_escort"].items == (BOOT, BOOT)
    assert QUEST_BY_ID["fox_fundraising"].items == (TEA, COIN)


@pytest.mark.parametrize("character", [THIEF, TINKER, RANGER])
def test_rv1_rv2_setup_takes_own_items_ruins_quests_and_relations(character: str) -> None:
    """RV1: starting items are his own (the supply is untouched); RV2: one ruin item under each
    ruin; three quests face up; the pawn in the chosen forest; every other faction
    Indifferent."""
    g, seat = set_up_game(character, forest=None)
    board = g.players[seat].board
    assert isinstance(board, VagabondBoard)
    assert board.character == character
    assert sorted(i for i, _, _ in board.items) == sorted(CHARACTERS[character].items)
    assert all(not e and not d for _, e, d in board.items)
    assert g.supply == dict(ITEM_SUPPLY)
    ruins = [c for c in CLEARING_IDS if g.woodland.has_ruin(c)]
    assert sorted(board.ruins) == ruins
    assert sorted(board.ruins.values()) == sorted(RUIN_ITEMS)
    assert len(board.quests) == 3 and len(board.quest_deck) == 12
    assert isinstance(g.woodland.pawn, str)
    assert board.relations == {g.faction_of(0): INDIFFERENT}


def test_rv1_tracks_refresh_draw_and_capacity() -> None:
    """RV1: 3 + 2 per tea, 1 + 1 per coin, 6 + 2 per bag; damaged ones do not count; at most
    three count."""
    board = board_with(BOOT, TORCH)
    assert (board.refresh_count(), board.evening_draw(), board.capacity()) == (3, 1, 6)
    for item in (TEA, TEA, COIN, BAG):
        board.gain(item)
    assert (board.refresh_count(), board.evening_draw(), board.capacity()) == (7, 2, 8)
    board.exhaust(TEA)
    assert board.refresh_count() == 7  # exhausted still on the track
    board.damage(TEA)
    assert board.refresh_count() == 5
    for _ in range(4):
        board.gain(BAG)
    assert board.capacity() == 6 + 2 * 3


def test_rv3_capacity_counts_damaged_and_track_items() -> None:
    """RV3: every item counts toward capacity, damaged, exhausted and track items included."""
    board = board_with(BOOT, BOOT, SWORD, SWORD, TORCH, TEA)
    assert board.over_capacity() == 0
    board.gain(HAMMER)
    board.damage(HAMMER)
    assert board.over_capacity() == 1
    board.gain(BAG)  # the bag counts and raises capacity by 2
    assert board.over_capacity() == 0
    board.damage(BAG)
    assert board.over_capacity() == 2
    board.remove(BAG)
    board.remove(HAMMER)
    assert board.over_capacity() == 0


def test_exhaust_damage_repair_refresh() -> None:
    board = board_with(SWORD, SWORD, BOOT)
    assert board.max_hits() == 2
    board.exhaust(SWORD)
    assert board.max_hits() == 2  # exhausted swords still cap hits
    board.damage(SWORD)  # the exhausted one first
    assert (SWORD, True, True) in board.items and board.ready(SWORD)
    assert board.max_hits() == 1
    board.repair(SWORD)
    assert (SWORD, True, False) in board.items
    assert board.refresh_up_to(5) == 1
    assert all(not e for _, e, _ in board.items)
    with pytest.raises(ValueError):
        board.repair(BOOT)
    board.damage(BOOT)
    board.repair_all()
    assert all(not d for _, _, d in board.items)


def test_rv4_relationship_track_and_allied_aid() -> None:
    """RV4: 1 aid to the first space (+1), 2 more to the second (+2), 3 more to Allied (+2);
    each aid while Allied +2; a Hostile faction never improves."""
    board = VagabondBoard()
    board.relations = {MARQUISE: INDIFFERENT, EYRIE: INDIFFERENT}
    assert board.aid(MARQUISE) == (1, True)
    assert board.aid(MARQUISE) == (0, False)
    assert board.aid(MARQUISE) == (2, True)
    assert [board.aid(MARQUISE) for _ in range(3)] == [(0, False), (0, False), (2, True)]
    assert board.relations[MARQUISE] == ALLIED
    assert board.aid(MARQUISE) == (2, False)
    assert warrior_removed(board, EYRIE, infamy_allowed=True) == 0
    assert board.relations[EYRIE] == HOSTILE
    assert board.aid(EYRIE) == (0, False)
    assert board.relations[EYRIE] == HOSTILE


def test_rv5_infamy_only_in_battle_on_his_turn_after_hostility() -> None:
    """RV5: no infamy for the warrior that made the faction Hostile, nor by Strike, nor on
    another's turn; +1 for each later piece removed in battle on his turn."""
    board = VagabondBoard()
    board.relations = {ALLIANCE: INDIFFERENT}
    assert infamy(board, ALLIANCE, in_battle=True, own_turn=True) == 0
    assert warrior_removed(board, ALLIANCE, infamy_allowed=True) == 0
    assert infamy(board, ALLIANCE, in_battle=True, own_turn=True) == 1
    assert infamy(board, ALLIANCE, in_battle=False, own_turn=True) == 0  # Strike
    assert infamy(board, ALLIANCE, in_battle=True, own_turn=False) == 0  # defending
    assert warrior_removed(board, ALLIANCE, infamy_allowed=True) == 1
    assert warrior_removed(board, ALLIANCE, infamy_allowed=False) == 0


def test_quests_need_ready_items_and_score_by_suit() -> None:
    board = board_with(SWORD, SWORD, TORCH, BOOT, BOOT)
    board.quests = ["mouse_expel_bandits", "mouse_escort", "fox_errand"]
    board.quest_deck = ["rabbit_guard_duty"]
    assert quest_options(board, MOUSE) == ("mouse_expel_bandits", "mouse_escort")
    assert quest_options(board, FOX) == ()
    assert complete_quest(board, "mouse_expel_bandits") == 1
    assert board.quests == ["mouse_escort", "fox_errand", "rabbit_guard_duty"]
    assert quest_options(board, MOUSE) == ("mouse_escort",)
    assert complete_quest(board, "mouse_escort") == 2
    assert quest_options(board, MOUSE) == ()
    assert board.quest_deck == []


def test_rv6_revolt_damages_three_items() -> None:
    """RV6: a revolt in his clearing damages three undamaged items, his choice first."""
    board = board_with(BOOT, SWORD, TORCH, TEA, HAMMER)
    assert revolt_damage(board, (TORCH,)) == (TORCH, BOOT, HAMMER)
    assert board.count(SWORD) == 1 and board.count(TORCH) == 0
    assert revolt_damage(board) == (SWORD, TEA)


def test_board_copy_canonical_and_public_round_trip() -> None:
    g, seat = set_up_game(TINKER)
    board = g.players[seat].board
    assert isinstance(board, VagabondBoard)
    copy = board.copy()
    assert copy.canonical() == board.canonical()
    copy.exhaust(BOOT)
    assert copy.canonical() != board.canonical()
    again = VagabondBoard.from_public(board.public())
    assert again.public() == board.public()


def test_rv7_and_every_vagabond_ruling_is_in_the_rulings() -> None:
    """RV7 (resting only in a forest) and the other RV rulings are listed with the rest."""
    for ruling_id, text in VAGABOND_RULINGS.items():
        assert RULINGS[ruling_id] == text
    assert "forest" in VAGABOND_RULINGS["RV7"]
