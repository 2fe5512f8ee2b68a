"""Pieces on the map: rule (Law 2.5, 7.2.2, 9.2.2), movement (Law 4.2, 4.2.1) and slots (Law 2.2).

Each test builds the smallest position that decides one rule, on the Autumn board, whose
adjacency is checked against the digest in test_data.py.
"""

from __future__ import annotations

import pytest

from games.root.maps import AUTUMN
from games.root.tracks import SAWMILL, WORKSHOP
from games.root.woodland import (
    ALLIANCE,
    EYRIE,
    FOX_BASE,
    KEEP,
    MARQUISE,
    ROOST,
    RUIN,
    SYMPATHY,
    VAGABOND,
    WOOD,
    Woodland,
)


@pytest.fixture
def wood() -> Woodland:
    return Woodland(AUTUMN)


# -- rule -----------------------------------------------------------------------------------------


def test_empty_clearing_has_no_ruler(wood: Woodland) -> None:
    assert all(wood.ruler(c) is None for c in range(1, 13))


def test_rule_by_warriors(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1, 3)
    wood.place_warriors(ALLIANCE, 1, 2)
    assert wood.ruler(1) == MARQUISE
    assert wood.rules(MARQUISE, 1)
    assert not wood.rules(ALLIANCE, 1)


def test_rule_by_buildings(wood: Woodland) -> None:
    # 2 Marquise buildings beat 1 Alliance warrior, with no Marquise warrior there.
    wood.add_building(MARQUISE, SAWMILL, 2)
    wood.add_building(MARQUISE, WORKSHOP, 2)
    wood.place_warriors(ALLIANCE, 2)
    assert wood.ruler(2) == MARQUISE
    # Warriors and buildings add up: 1 warrior + 1 base beat 1 warrior, and tie 2.
    wood.add_building(ALLIANCE, FOX_BASE, 9)
    wood.place_warriors(ALLIANCE, 9)
    wood.place_warriors(MARQUISE, 9)
    assert wood.ruler(9) == ALLIANCE
    wood.place_warriors(MARQUISE, 9)
    assert wood.ruler(9) is None


def test_tokens_do_not_count_toward_rule(wood: Woodland) -> None:
    wood.add_token(MARQUISE, WOOD, 5)
    wood.add_token(MARQUISE, WOOD, 5)
    wood.add_token(MARQUISE, KEEP, 5)
    assert wood.ruler(5) is None
    wood.add_token(ALLIANCE, SYMPATHY, 5)
    wood.place_warriors(ALLIANCE, 5)
    wood.place_warriors(MARQUISE, 5)
    # 1 vs 1 warriors: 3 Marquise tokens and 1 sympathy change nothing.
    assert wood.ruler(5) is None


def test_tie_means_no_ruler(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 7, 2)
    wood.place_warriors(ALLIANCE, 7, 2)
    assert wood.ruler(7) is None
    assert not wood.rules(MARQUISE, 7) and not wood.rules(ALLIANCE, 7)


def test_lords_of_the_forest_eyrie_wins_ties(wood: Woodland) -> None:
    wood.place_warriors(EYRIE, 3, 1)
    wood.place_warriors(MARQUISE, 3, 1)
    assert wood.ruler(3) == EYRIE
    # Three-way tie for most: still the Eyrie.
    wood.add_building(EYRIE, ROOST, 8)
    wood.place_warriors(MARQUISE, 8)
    wood.place_warriors(ALLIANCE, 8)
    assert wood.ruler(8) == EYRIE
    # Tied, but not for most: nobody.
    wood.place_warriors(EYRIE, 12)
    wood.place_warriors(MARQUISE, 12, 2)
    wood.place_warriors(ALLIANCE, 12, 2)
    assert wood.ruler(12) is None


def test_lords_of_the_forest_needs_an_eyrie_piece(wood: Woodland) -> None:
    # Nobody anywhere: a 0-0 "tie" does not give the Eyrie rule.
    assert not wood.rules(EYRIE, 4)
    # Only tokens: everyone is at 0 pieces, the Eyrie still do not rule.
    wood.add_token(MARQUISE, WOOD, 4)
    assert wood.ruler(4) is None
    # Others tied without the Eyrie present: nobody.
    wood.place_warriors(MARQUISE, 4)
    wood.place_warriors(ALLIANCE, 4)
    assert wood.ruler(4) is None


def test_pawn_does_not_rule_or_break_rule(wood: Woodland) -> None:
    wood.place_pawn(6)
    assert wood.ruler(6) is None
    wood.place_warriors(MARQUISE, 6)
    assert wood.ruler(6) == MARQUISE
    with pytest.raises(ValueError):
        wood.place_warriors(VAGABOND, 6)


def test_ruled_by_lists_clearings(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1)
    wood.place_warriors(MARQUISE, 11)
    wood.place_warriors(EYRIE, 11)
    assert wood.ruled_by(MARQUISE) == (1,)
    assert wood.ruled_by(EYRIE) == (11,)


# -- movement -------------------------------------------------------------------------------------


def test_move_allowed_when_ruling_origin(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1, 2)
    wood.place_warriors(ALLIANCE, 5, 3)
    assert wood.rules(MARQUISE, 1) and wood.rules(ALLIANCE, 5)
    assert wood.can_move(MARQUISE, 1, 5)


def test_move_allowed_when_ruling_destination_only(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1, 1)
    wood.place_warriors(ALLIANCE, 1, 1)  # nobody rules 1
    wood.add_building(MARQUISE, SAWMILL, 9)  # Marquise rule 9 with a building only
    assert wood.ruler(1) is None and wood.rules(MARQUISE, 9)
    assert wood.can_move(MARQUISE, 1, 9)
    assert not wood.can_move(MARQUISE, 1, 5)  # 5 is empty: ruled by nobody
    assert wood.move_destinations(MARQUISE, 1) == (9,)


def test_move_refused_when_ruling_neither(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1, 1)
    wood.place_warriors(ALLIANCE, 1, 2)
    wood.place_warriors(ALLIANCE, 10, 1)
    assert not wood.can_move(MARQUISE, 1, 10)
    assert not wood.can_move(MARQUISE, 1, 5)
    assert wood.move_destinations(MARQUISE, 1) == ()
    assert wood.move_sources(MARQUISE) == ()
    with pytest.raises(ValueError):
        wood.move(MARQUISE, 1, 10)


def test_move_only_along_paths(wood: Woodland) -> None:
    for c in range(1, 13):
        wood.place_warriors(MARQUISE, c)  # Marquise rule everywhere
    assert wood.can_move(MARQUISE, 1, 10)
    assert not wood.can_move(MARQUISE, 1, 3)  # not adjacent
    assert not wood.can_move(MARQUISE, 1, 1)
    # Autumn river links (5-10, 10-11, 11-7, 7-4) are not paths.
    for a, b in AUTUMN.river:
        assert not wood.can_move(MARQUISE, a, b)
        assert not wood.can_move(MARQUISE, b, a)
    assert wood.move_destinations(MARQUISE, 12) == (4, 7, 9, 10, 11)
    assert wood.move_destinations(MARQUISE, 10) == (1, 2, 12)


def test_no_warriors_no_move(wood: Woodland) -> None:
    wood.add_building(MARQUISE, SAWMILL, 1)  # rules 1 without warriors
    wood.place_warriors(MARQUISE, 5)
    assert wood.rules(MARQUISE, 1)
    assert not wood.can_move(MARQUISE, 1, 5)
    assert not wood.can_move(EYRIE, 5, 1)
    assert wood.move_sources(MARQUISE) == (5,)


def test_eyrie_moves_out_of_a_tied_clearing(wood: Woodland) -> None:
    wood.place_warriors(EYRIE, 2)
    wood.place_warriors(MARQUISE, 2)
    wood.place_warriors(MARQUISE, 6, 2)
    # The Eyrie rule 2 by Lords of the Forest; the Marquise rule neither 2 nor 5.
    assert wood.move_destinations(EYRIE, 2) == (5, 6, 10)
    assert wood.move_destinations(MARQUISE, 2) == (6,)


def test_move_carries_warriors(wood: Woodland) -> None:
    wood.place_warriors(ALLIANCE, 11, 3)
    wood.move(ALLIANCE, 11, 12, 2)
    assert wood.warriors(ALLIANCE, 11) == 1
    assert wood.warriors(ALLIANCE, 12) == 2
    with pytest.raises(ValueError):
        wood.move(ALLIANCE, 11, 12, 2)  # only one left


def test_vagabond_is_nimble(wood: Woodland) -> None:
    wood.place_pawn("c")
    assert wood.move_sources(VAGABOND) == ()  # in a forest: not a clearing move
    wood.place_pawn(1)
    wood.place_warriors(MARQUISE, 1, 3)
    wood.place_warriors(EYRIE, 5, 3)
    assert wood.move_destinations(VAGABOND, 1) == (5, 9, 10)
    assert not wood.can_move(VAGABOND, 5, 2)  # the pawn is not in 5
    wood.move(VAGABOND, 1, 5)
    assert wood.pawn == 5


# -- slots, tokens, copying -----------------------------------------------------------------------


def test_ruins_start_in_their_slots(wood: Woodland) -> None:
    ruined = {c for c in range(1, 13) if wood.has_ruin(c)}
    assert ruined == {6, 10, 11, 12}
    assert wood.buildings(6) == ((None, RUIN),)
    assert wood.free_slots(11) == 2
    assert sum(wood.free_slots(c) for c in range(1, 13)) == 22 - 4
    assert Woodland(AUTUMN, ruins=False).free_slots(11) == 3


def test_full_slots_refuse_a_building(wood: Woodland) -> None:
    wood.add_building(MARQUISE, SAWMILL, 1)  # the corner's only slot
    with pytest.raises(ValueError):
        wood.add_building(EYRIE, ROOST, 1)
    wood.add_building(MARQUISE, SAWMILL, 10)  # 2 slots, 1 a ruin
    with pytest.raises(ValueError):
        wood.add_building(MARQUISE, WORKSHOP, 10)
    assert wood.buildings(10) == ((None, RUIN), (MARQUISE, SAWMILL))
    wood.remove_ruin(10)
    wood.add_building(MARQUISE, WORKSHOP, 10)
    assert wood.free_slots(10) == 0


def test_ruins_do_not_rule(wood: Woodland) -> None:
    wood.place_warriors(ALLIANCE, 6)
    assert wood.ruler(6) == ALLIANCE


def test_bad_pieces_refused(wood: Woodland) -> None:
    with pytest.raises(ValueError):
        wood.add_building(EYRIE, SAWMILL, 2)
    with pytest.raises(ValueError):
        wood.add_token(EYRIE, WOOD, 2)
    with pytest.raises(ValueError):
        wood.remove_warriors(MARQUISE, 2)
    with pytest.raises(ValueError):
        wood.remove_building(MARQUISE, SAWMILL, 2)
    with pytest.raises(ValueError):
        wood.place_warriors(MARQUISE, 13)
    with pytest.raises(ValueError):
        wood.place_warriors("cats", 1)
    wood.add_token(ALLIANCE, SYMPATHY, 2)
    with pytest.raises(ValueError):
        wood.add_token(ALLIANCE, SYMPATHY, 2)  # one sympathy per clearing
    wood.remove_token(ALLIANCE, SYMPATHY, 2)
    assert wood.tokens(2) == ()


def test_copy_is_independent(wood: Woodland) -> None:
    wood.place_warriors(MARQUISE, 1, 2)
    wood.add_building(MARQUISE, SAWMILL, 2)
    wood.add_token(MARQUISE, WOOD, 2)
    wood.place_pawn(3)
    twin = wood.copy()
    twin.place_warriors(EYRIE, 1, 5)
    twin.remove_warriors(MARQUISE, 1, 2)
    twin.remove_building(MARQUISE, SAWMILL, 2)
    twin.remove_token(MARQUISE, WOOD, 2)
    twin.remove_ruin(6)
    twin.place_pawn(7)
    assert wood.warriors(MARQUISE, 1) == 2 and wood.warriors(EYRIE, 1) == 0
    assert wood.buildings(2) == ((MARQUISE, SAWMILL),)
    assert wood.tokens(2) == ((MARQUISE, WOOD),)
    assert wood.has_ruin(6)
    assert wood.pawn == 3
    assert wood.ruler(1) == MARQUISE and twin.ruler(1) == EYRIE
