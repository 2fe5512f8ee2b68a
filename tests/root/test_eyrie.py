"""The Eyrie Dynasties (Law 7): setup, Birdsong, the Decree, turmoil, Evening, leaders.

Most tests play against a stand-in Marquise that only places her keep (so the Eyrie's rules are
tested alone, whatever state ``marquise.py`` is in), set a position up by editing the woodland
and hands, run one Eyrie step on the stack above a ``Hold`` marker (the marker's decision says
"the step is over"), and answer decisions by key. Autumn map: fox 1 6 8 12, rabbit 3 4 5 10,
mouse 2 7 9 11; corners 1-3 and 2-4 are opposite.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

from games.contract import Option
from games.root import eyrie as eyrie_module
from games.root.battle import Battle
from games.root.cards import CARD_BY_ID
from games.root.eyrie import (
    EYRIE_RULINGS,
    VIZIERS,
    Eyrie,
    EyrieBirdsong,
    EyrieBoard,
    EyrieDaylight,
    tucked,
)
from games.root.faction import Faction, FactionBoard
from games.root.factions import FACTION_RULES
from games.root.state import RootState
from games.root.steps import Options, Step
from games.root.tracks import LEADER_BY_ID, LEADERS
from games.root.woodland import Woodland
from tests.conftest import Depth
from tests.root.helpers import choose, decision, keys, new_game

FOX_CARD = "anvil"  # fox item: hammer, 2 VP, costs fox
FOX_CARD_2 = "foxfolk_steel"
RABBIT_CARD = "a_visit_to_friends"
MOUSE_CARD = "mouse_in_a_sack"
BIRD_CARD = "ambush_bird_1"
BIRD_CARD_2 = "crossbow_bird"


# -- a stand-in Marquise -------------------------------------------------------------------


class _StubBoard(FactionBoard):
    __slots__ = ()

    def copy(self) -> _StubBoard:
        return self

    def canonical(self) -> tuple[Any, ...]:
        return ()

    def public(self) -> dict[str, Any]:
        return {}


class StubMarquise(Faction):
    """Places the keep (and optional buildings) at setup; otherwise does nothing. The keep
    closes its clearing to others, as Law 6.2.2 says."""

    name: ClassVar[str] = "marquise"
    warriors: ClassVar[int] = 25
    setup_order: ClassVar[int] = 0

    def __init__(self, keep: int = 1, buildings: tuple[tuple[str, int], ...] = ()) -> None:
        self.keep = keep
        self.buildings = buildings

    def new_board(self) -> FactionBoard:
        return _StubBoard()

    def setup(self, g: RootState, seat: int) -> Step | None:
        if self.keep:
            g.woodland.add_token("marquise", "keep", self.keep)
        for kind, c in self.buildings:
            g.woodland.add_building("marquise", kind, c)
        return None

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        return None

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        return {}

    def blocks_placement(self, g: RootState, seat: int, placer: int, c: int) -> bool:
        return ("marquise", "keep") in g.woodland.tokens(c)


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> StubMarquise:
    marquise = StubMarquise()
    monkeypatch.setitem(FACTION_RULES, "marquise", marquise)  # type: ignore[index]
    return marquise


class Hold(Step):
    """Bottom-of-stack marker: its two-option decision means the step above it finished."""

    __slots__ = ()
    name = "test"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "hold")

    def advance(self, g: RootState) -> Options:
        return (Option("hold:a", "a", ("hold",)), Option("hold:b", "b", ("hold",)))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        raise AssertionError("the test only waits here")


# -- helpers -------------------------------------------------------------------------------


def set_up(seed: int = 1, leader: str = "commander") -> tuple[RootState, int]:
    """A game past setup (stub Marquise), ``leader`` chosen; returns (game, Eyrie seat)."""
    g = new_game(seed)
    e = g.seat_of["eyrie"]
    assert decision(g).kind == "eyrie.leader"
    choose(g, f"leader:{leader}")
    return g, e


def position(
    leader: str = "commander",
    hand: tuple[str, ...] = (),
    eyrie: dict[int, int] | None = None,
    cats: dict[int, int] | None = None,
    roosts: tuple[int, ...] = (),
    decree: tuple[tuple[str, ...], ...] | None = None,
    vp: int = 0,
) -> tuple[RootState, int, EyrieBoard]:
    """An emptied map with these pieces; the Eyrie's leader, hand, Decree and score."""
    g, e = set_up(leader=leader)
    g.woodland = Woodland(g.board)
    for c, n in (eyrie or {}).items():
        g.woodland.place_warriors("eyrie", c, n)
    for c, n in (cats or {}).items():
        g.woodland.place_warriors("marquise", c, n)
    for c in roosts:
        g.woodland.add_building("eyrie", "roost", c)
    p = g.players[e]
    p.hand = list(hand)
    p.vp = vp
    board = p.board
    assert isinstance(board, EyrieBoard)
    board.leader = leader
    board.decree = decree if decree is not None else tucked(leader)
    g.current = e
    return g, e, board


def run(g: RootState, step: Step) -> None:
    """Run ``step`` (above a Hold marker) until its first decision or its end."""
    g.stack = [Hold(step.seat), step]
    g.resume()


def finished(g: RootState) -> bool:
    return decision(g).kind == "test.hold"


def decree_of(*columns: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(columns)


def events(g: RootState, kind: str) -> list[dict[str, Any]]:
    return [dict(ev.data) for ev in g._events if ev.kind == kind]


# -- setup (Law 7.3) -----------------------------------------------------------------------


@pytest.mark.parametrize(("keep", "corner"), [(1, 3), (2, 4), (3, 1), (4, 2)])
def test_setup_roost_and_six_warriors_opposite_the_keep(
    stub: StubMarquise, keep: int, corner: int
) -> None:
    stub.keep = keep
    g = new_game(3)
    w = g.woodland
    assert w.buildings(corner) == (("eyrie", "roost"),)
    assert w.warriors("eyrie", corner) == 6
    assert w.warriors_on_map("eyrie") == 6
    assert decision(g).seat == g.seat_of["eyrie"]
    assert keys(g) == [f"leader:{leader.id}" for leader in LEADERS]


def test_re1_no_keep_the_eyrie_choose_any_corner(stub: StubMarquise) -> None:
    stub.keep = 0
    g = new_game(3)
    assert decision(g).kind == "eyrie.corner"
    assert keys(g) == ["clearing:1", "clearing:2", "clearing:3", "clearing:4"]
    choose(g, "clearing:2")
    assert g.woodland.warriors("eyrie", 2) == 6
    assert decision(g).kind == "eyrie.leader"


def test_re1_opposite_corner_full_other_free_corners_offered(stub: StubMarquise) -> None:
    stub.keep = 1
    stub.buildings = (("sawmill", 3),)  # corner 3 has a single slot
    g = new_game(3)
    assert decision(g).kind == "eyrie.corner"
    assert keys(g) == ["clearing:2", "clearing:4"]  # never the keep's corner


@pytest.mark.parametrize("leader", [leader.id for leader in LEADERS])
def test_leader_choice_tucks_the_viziers(stub: StubMarquise, leader: str) -> None:
    g, e = set_up(leader=leader)
    board = g.players[e].board
    assert isinstance(board, EyrieBoard)
    assert board.leader == leader
    assert board.deposed == ()
    columns = LEADER_BY_ID[leader].viziers
    expected = {
        f"decree_{name}": tuple(v for v, col in zip(VIZIERS, columns, strict=True) if col == name)
        for name in ("recruit", "move", "battle", "build")
    }
    assert board.public() == {"leader": leader, "deposed": (), **expected}
    assert sum(len(col) for col in board.decree) == 2


def test_board_copy_and_canonical_are_independent() -> None:
    board = EyrieBoard()
    board.leader = "despot"
    board.decree = tucked("despot")
    other = board.copy()
    other.leader = "builder"
    other.deposed = ("despot",)
    assert board.canonical() == ("despot", (), tucked("despot"))
    assert other.canonical() != board.canonical()


# -- Birdsong (Law 7.4) --------------------------------------------------------------------


def test_decree_add_two_cards_only_one_bird(stub: StubMarquise) -> None:
    hand = (BIRD_CARD, BIRD_CARD_2, FOX_CARD, RABBIT_CARD)
    g, e, board = position(hand=hand, roosts=(3,), eyrie={3: 1})
    run(g, EyrieBirdsong(e))
    assert decision(g).kind == "eyrie.decree_card"
    assert keys(g) == [f"decree:{c}" for c in hand]  # no "done": at least one card
    choose(g, f"decree:{BIRD_CARD}")
    assert decision(g).kind == "eyrie.decree_column"
    assert keys(g) == ["column:recruit", "column:move", "column:battle", "column:build"]
    choose(g, "column:battle")
    # the second card may not be a bird
    assert keys(g) == [f"decree:{FOX_CARD}", f"decree:{RABBIT_CARD}", "done"]
    choose(g, f"decree:{RABBIT_CARD}")
    choose(g, "column:battle")
    assert finished(g)  # no third card; a roost is on the map
    assert board.decree[2] == (*tucked("commander")[2], BIRD_CARD, RABBIT_CARD)
    assert g.players[e].hand == [BIRD_CARD_2, FOX_CARD]
    # the Decree is public: each card added is an event (events of the last answer here)
    assert events(g, "decree") == [{"seat": e, "card": RABBIT_CARD, "column": "battle"}]


def test_decree_one_card_then_done(stub: StubMarquise) -> None:
    g, e, board = position(hand=(FOX_CARD, MOUSE_CARD), roosts=(3,))
    run(g, EyrieBirdsong(e))
    choose(g, f"decree:{MOUSE_CARD}")
    choose(g, "column:recruit")
    assert keys(g) == [f"decree:{FOX_CARD}", "done"]
    choose(g, "done")
    assert finished(g)
    assert board.decree[0] == (MOUSE_CARD,)
    assert g.players[e].hand == [FOX_CARD]


def test_decree_non_bird_first_then_a_bird_is_allowed(stub: StubMarquise) -> None:
    g, e, board = position(hand=(FOX_CARD, BIRD_CARD, BIRD_CARD_2), roosts=(3,))
    run(g, EyrieBirdsong(e))
    choose(g, f"decree:{FOX_CARD}")
    choose(g, "column:build")
    assert keys(g) == [f"decree:{BIRD_CARD}", f"decree:{BIRD_CARD_2}", "done"]
    choose(g, f"decree:{BIRD_CARD_2}")
    choose(g, "column:build")
    assert finished(g)
    assert board.decree[3] == (FOX_CARD, BIRD_CARD_2)


def test_emergency_orders_draw_one_card_when_hand_is_empty(stub: StubMarquise) -> None:
    g, e, board = position(hand=(), roosts=(3,))
    top = g.deck[-1]
    run(g, EyrieBirdsong(e))
    # the one card drawn is the only card that can be added: taken without asking
    assert decision(g).kind == "eyrie.decree_column"
    assert events(g, "draw") == [{"seat": e, "count": 1}]
    choose(g, "column:move")
    assert finished(g)
    assert board.decree[1][-1] == top
    assert g.players[e].hand == []


def test_no_emergency_draw_with_a_card_in_hand(stub: StubMarquise) -> None:
    g, e, _ = position(hand=(FOX_CARD,), roosts=(3,))
    deck = len(g.deck)
    run(g, EyrieBirdsong(e))
    assert len(g.deck) == deck
    assert events(g, "draw") == []


def test_re3_empty_hand_and_empty_deck_add_nothing(stub: StubMarquise) -> None:
    g, e, board = position(hand=(), roosts=(3,))
    g.deck = []
    g.discard = []
    before = board.decree
    run(g, EyrieBirdsong(e))
    assert finished(g)
    assert board.decree == before
    assert events(g, "turmoil") == []


def test_new_roost_in_the_clearing_with_fewest_warriors(stub: StubMarquise) -> None:
    # every clearing holds warriors but 5 (a cat warrior elsewhere, two Eyrie in 9)
    cats = {c: 1 for c in range(1, 13) if c not in (5, 9)}
    g, e, _ = position(hand=(FOX_CARD,), cats=cats, eyrie={9: 2})
    run(g, EyrieBirdsong(e))
    choose(g, "column:recruit")  # the one card is taken without asking
    assert finished(g)
    assert g.woodland.buildings(5) == (("eyrie", "roost"),)
    assert g.woodland.warriors("eyrie", 5) == 3


def test_re2_fewest_warriors_not_fewest_pieces_and_ties_are_a_choice(stub: StubMarquise) -> None:
    cats = {c: 2 for c in range(1, 13)}
    cats[7] = 1  # 7 and 8: one warrior each, but 8 also holds two wood: 3 pieces
    cats[8] = 1
    g, e, _ = position(hand=(FOX_CARD,), cats=cats)
    g.woodland.add_token("marquise", "wood", 8)
    g.woodland.add_token("marquise", "wood", 8)
    g.woodland.add_token("marquise", "keep", 7)  # the keep closes 7 to the Eyrie
    run(g, EyrieBirdsong(e))
    choose(g, "column:recruit")
    assert finished(g)  # 7 is closed, so 8 is the only clearing with fewest warriors
    assert g.woodland.warriors("eyrie", 8) == 3
    # a tie is the Eyrie's choice
    cats = {c: 1 for c in range(1, 13)}
    cats.update({2: 0, 6: 0})
    g, e, _ = position(hand=(FOX_CARD,), cats={c: n for c, n in cats.items() if n})
    run(g, EyrieBirdsong(e))
    choose(g, "column:recruit")
    assert decision(g).kind == "eyrie.roost"
    assert keys(g) == ["clearing:2", "clearing:6"]
    choose(g, "clearing:6")
    assert g.woodland.buildings(6)[-1] == ("eyrie", "roost")


def test_re2_new_roost_with_short_supply_places_what_is_left(stub: StubMarquise) -> None:
    cats = {c: 1 for c in range(3, 13) if c != 5}
    g, e, _ = position(hand=(FOX_CARD,), eyrie={1: 9, 2: 9}, cats=cats)  # 18 of 20 on the map
    run(g, EyrieBirdsong(e))
    choose(g, "column:recruit")
    placed = [ev for ev in events(g, "place") if ev["piece"] == "warrior"]
    assert [(ev["clearing"], ev["count"]) for ev in placed] == [(5, 2)]
    assert g.woodland.warriors_on_map("eyrie") == 20


def test_no_new_roost_while_a_roost_is_on_the_map(stub: StubMarquise) -> None:
    g, e, _ = position(hand=(FOX_CARD,), roosts=(11,))
    run(g, EyrieBirdsong(e))
    choose(g, "column:recruit")
    assert finished(g)
    assert eyrie_module.roost_clearings(g) == (11,)


# -- Daylight: resolving the Decree (Law 7.5) ----------------------------------------------

EMPTY: tuple[str, ...] = ()


def daylight(g: RootState, e: int) -> None:
    """Run the Eyrie's Daylight (nothing to craft: the test hands hold no craftable card)."""
    run(g, EyrieDaylight(e))


def test_columns_resolve_left_to_right_each_card_once(stub: StubMarquise) -> None:
    # recruit (rabbit), move (bird), battle (nothing), build (fox)
    decree = decree_of((RABBIT_CARD,), (VIZIERS[0],), EMPTY, (FOX_CARD,))
    g, e, board = position(eyrie={3: 1, 1: 2}, roosts=(3,), cats={1: 1}, decree=decree)
    daylight(g, e)
    # recruit in rabbit 3 (the only rabbit roost) happened without asking; now the bird move
    assert g.woodland.warriors("eyrie", 3) == 2
    assert decision(g).kind == "move.origin"
    assert keys(g) == ["clearing:1", "clearing:3"]  # bird: any clearing; no "done"
    choose(g, "clearing:3")
    choose(g, "clearing:6")
    choose(g, "count:2")
    # build (fox): fox clearings the Eyrie rule are 1 (2 vs 1) and 6 (2 warriors)
    assert decision(g).kind == "eyrie.build"
    assert keys(g) == ["clearing:1", "clearing:6"]
    choose(g, "clearing:6")
    assert finished(g)
    assert ("eyrie", "roost") in g.woodland.buildings(6)
    assert board.decree == decree  # resolving keeps the cards on the Decree


def test_re9_order_within_a_column_is_chosen_by_suit(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD, VIZIERS[0], VIZIERS[1], RABBIT_CARD), EMPTY, EMPTY, EMPTY)
    g, e, _ = position(roosts=(1, 3), decree=decree)
    daylight(g, e)
    assert decision(g).kind == "eyrie.order"
    assert keys(g) == ["resolve:fox", "resolve:bird", "resolve:rabbit"]  # two birds: one option
    choose(g, "resolve:bird")
    assert decision(g).kind == "eyrie.recruit"
    assert keys(g) == ["clearing:1", "clearing:3"]
    choose(g, "clearing:1")
    assert keys(g) == ["resolve:fox", "resolve:bird", "resolve:rabbit"]
    choose(g, "resolve:bird")
    choose(g, "clearing:3")
    assert keys(g) == ["resolve:fox", "resolve:rabbit"]  # both birds taken
    choose(g, "resolve:rabbit")  # the only rabbit roost: 3
    assert finished(g)  # the fox card was the last one: placed in 1 without asking
    assert g.woodland.warriors("eyrie", 1) == 2
    assert g.woodland.warriors("eyrie", 3) == 2


def test_recruit_only_at_matching_roosts_charismatic_places_two(stub: StubMarquise) -> None:
    decree = decree_of((MOUSE_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, _ = position(leader="charismatic", roosts=(1, 2, 3), decree=decree)
    daylight(g, e)
    assert finished(g)
    assert [g.woodland.warriors("eyrie", c) for c in (1, 2, 3)] == [0, 2, 0]


def test_move_only_from_matching_clearings(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, (MOUSE_CARD,), EMPTY, EMPTY)
    g, e, _ = position(eyrie={1: 1, 2: 3, 9: 1}, decree=decree)
    daylight(g, e)
    assert decision(g).kind == "move.origin"
    assert keys(g) == ["clearing:2", "clearing:9"]  # fox 1 is not offered
    choose(g, "clearing:9")
    assert keys(g) == ["clearing:1", "clearing:4", "clearing:12"]
    choose(g, "clearing:4")
    assert finished(g)  # one warrior: moved without asking how many
    assert g.woodland.warriors("eyrie", 4) == 1


def test_battle_only_in_matching_clearings_with_an_enemy(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, (FOX_CARD,), EMPTY)
    g, e, _ = position(eyrie={1: 2, 6: 2, 8: 2, 3: 2}, cats={1: 1, 8: 1, 3: 1}, decree=decree)
    daylight(g, e)
    assert decision(g).kind == "battle.clearing"
    assert keys(g) == ["clearing:1", "clearing:8"]  # 6 has no enemy, rabbit 3 does not match
    assert isinstance(g.stack[-1], Battle)


def test_build_needs_rule_a_slot_and_no_roost(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, EMPTY, (RABBIT_CARD,))
    # rabbit: 3 (1 slot, roost already), 4 (ruled), 5 (tied: Lords of the Forest),
    # 10 (cats rule)
    g, e, _ = position(
        eyrie={3: 1, 4: 1, 5: 1, 10: 1}, cats={5: 1, 10: 2}, roosts=(3,), decree=decree
    )
    daylight(g, e)
    assert decision(g).kind == "eyrie.build"
    assert keys(g) == ["clearing:4", "clearing:5"]
    choose(g, "clearing:5")
    assert finished(g)
    assert g.woodland.buildings(5) == (("eyrie", "roost"),)


def test_build_not_in_the_keep_clearing(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, EMPTY, (RABBIT_CARD,))
    g, e, _ = position(eyrie={4: 1, 5: 1}, decree=decree)
    g.woodland.add_token("marquise", "keep", 4)
    daylight(g, e)
    assert finished(g)  # 5 was the only choice
    assert g.woodland.buildings(5) == (("eyrie", "roost"),)
    assert g.woodland.buildings(4) == ()


def test_crafting_comes_first_with_roosts_by_suit(stub: StubMarquise) -> None:
    g, e, _ = position(roosts=(1, 6, 3), hand=(FOX_CARD_2, MOUSE_CARD), decree=((),) * 4)
    assert Eyrie().crafting_pieces(g, e) == {"fox": 2, "rabbit": 1}
    daylight(g, e)
    assert decision(g).kind == "craft.card"
    # foxfolk steel costs 2 fox; the mouse bag costs a mouse piece the Eyrie lack
    assert keys(g) == [f"craft:{FOX_CARD_2}", "done"]
    choose(g, f"craft:{FOX_CARD_2}")
    assert g.players[e].vp == 1  # Disdain for Trade: 1 VP, not the printed 2
    assert g.players[e].items == ["sword"]
    assert finished(g)  # nothing else craftable, an empty Decree


# -- turmoil (Law 7.7) ---------------------------------------------------------------------


def assert_turmoil(g: RootState, e: int, board: EyrieBoard, old: str) -> None:
    assert events(g, "turmoil")
    assert decision(g).kind == "eyrie.leader"
    expected = [f"leader:{leader.id}" for leader in LEADERS if leader.id != old]
    assert keys(g) == expected


def test_turmoil_humiliate_purge_depose_rest(stub: StubMarquise) -> None:
    # commander: viziers on move and battle. Recruit with a fox card but no fox roost.
    decree = decree_of(
        (FOX_CARD,), (VIZIERS[0], BIRD_CARD), (VIZIERS[1],), (BIRD_CARD_2, RABBIT_CARD)
    )
    g, e, board = position(roosts=(3,), eyrie={3: 1}, decree=decree, vp=7)
    discard = len(g.discard)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")
    assert g.players[e].vp == 3  # 4 birds: two viziers, two bird cards
    assert board.decree == ((), (), (), ())  # purged, viziers still in hand of the board
    assert sorted(g.discard[discard:]) == sorted([FOX_CARD, BIRD_CARD, BIRD_CARD_2, RABBIT_CARD])
    assert not any(v in g.discard for v in VIZIERS)
    assert board.deposed == ("commander",)
    choose(g, "leader:despot")
    assert finished(g)  # Rest: nothing else of the Decree was taken
    assert board.leader == "despot"
    assert board.decree == tucked("despot")
    assert g.woodland.warriors("eyrie", 3) == 1


def test_re5_humiliate_stops_at_zero(stub: StubMarquise) -> None:
    decree = decree_of((BIRD_CARD,), EMPTY, EMPTY, EMPTY)  # bird recruit, no roost at all
    g, e, _ = position(decree=decree, vp=1)
    daylight(g, e)
    assert g.players[e].vp == 0
    assert [ev["vp"] for ev in events(g, "score")] == [-1]


def test_turmoil_when_move_has_no_origin(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, (RABBIT_CARD,), EMPTY, EMPTY)
    # a warrior in rabbit 5, but cats rule 5 and both its neighbours
    g, e, board = position(eyrie={5: 1, 6: 1}, cats={5: 2, 1: 1, 2: 1}, decree=decree)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")


def test_re10_turmoil_when_battle_has_no_enemy(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, (MOUSE_CARD,), EMPTY)
    g, e, board = position(eyrie={2: 3, 1: 1}, cats={1: 3, 7: 2}, decree=decree)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")


def test_turmoil_when_build_has_no_ruled_clearing(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, EMPTY, (FOX_CARD,))
    g, e, board = position(eyrie={1: 1, 8: 1}, cats={1: 2, 8: 2}, decree=decree)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")


def test_re8_turmoil_when_all_seven_roosts_are_on_the_map(stub: StubMarquise) -> None:
    decree = decree_of(EMPTY, EMPTY, EMPTY, (BIRD_CARD,))
    roosts = (1, 2, 3, 4, 5, 7, 8)
    g, e, board = position(eyrie={6: 1, **{c: 1 for c in roosts}}, roosts=roosts, decree=decree)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")
    assert ("eyrie", "roost") not in g.woodland.buildings(6)


def test_re4_recruit_without_warriors_in_supply_is_turmoil(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, board = position(eyrie={1: 10, 12: 10}, roosts=(1,), decree=decree)
    daylight(g, e)
    assert_turmoil(g, e, board, "commander")


def test_re4_charismatic_with_one_warrior_places_it_then_turmoil(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, board = position(leader="charismatic", eyrie={1: 10, 12: 9}, roosts=(1,), decree=decree)
    daylight(g, e)
    assert g.woodland.warriors("eyrie", 1) == 11
    assert_turmoil(g, e, board, "charismatic")


def test_depose_offers_only_face_up_leaders(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, board = position(leader="despot", decree=decree)
    board.deposed = ("builder",)
    daylight(g, e)
    assert keys(g) == ["leader:charismatic", "leader:commander"]
    choose(g, "leader:charismatic")
    assert board.deposed == ("builder", "despot")
    assert board.decree == tucked("charismatic")


def test_depose_with_one_face_up_leader_takes_it(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, board = position(leader="despot", decree=decree)
    board.deposed = ("builder", "commander")
    daylight(g, e)
    assert finished(g)
    assert board.leader == "charismatic"
    assert board.deposed == ("builder", "commander", "despot")


def test_re6_a_new_clutch_flips_all_four_face_up(stub: StubMarquise) -> None:
    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, EMPTY)
    g, e, board = position(leader="despot", decree=decree)
    board.deposed = ("builder", "commander", "charismatic")
    daylight(g, e)
    assert keys(g) == [f"leader:{leader.id}" for leader in LEADERS]  # despot included
    choose(g, "leader:builder")
    assert board.deposed == ()
    assert board.leader == "builder"
    assert board.decree == tucked("builder")


def test_re7_rest_then_the_turn_goes_on_to_evening(stub: StubMarquise) -> None:
    from games.root.turn import Turn

    decree = decree_of((FOX_CARD,), EMPTY, EMPTY, (RABBIT_CARD,))
    g, e, board = position(leader="despot", decree=decree, roosts=(3, 4, 5), eyrie={5: 1})
    board.deposed = ("builder", "commander")  # one face-up leader: no decision
    turn = Turn(e)
    turn.stage = "birdsong"  # Birdsong done: Daylight next
    g.stack = [Hold(e), turn]
    g._events = []
    g.players[e].hand = []
    g.resume()
    assert finished(g)
    assert g.woodland.buildings(4) == (("eyrie", "roost"),)  # no build: Daylight ended
    assert ("eyrie", "roost") not in g.woodland.buildings(10)
    assert [ev["why"] for ev in events(g, "score")] == ["roosts"]
    assert g.players[e].vp == 2  # three roosts


# -- Evening (Law 7.6) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roosts", "vp", "drawn"),
    [((), 0, 1), ((1,), 0, 1), ((1, 2), 1, 1), ((1, 2, 3), 2, 2), ((1, 2, 3, 4, 5, 7), 4, 3)],
)
def test_evening_scores_roosts_and_draws(
    stub: StubMarquise, roosts: tuple[int, ...], vp: int, drawn: int
) -> None:
    g, e, _ = position(roosts=roosts, hand=(FOX_CARD,))
    g._events = []
    step = Eyrie().phase(g, e, "evening")
    assert g.players[e].vp == vp
    assert len(g.players[e].hand) == 1 + drawn
    assert step is not None and step.kind() == "hand_limit.discard"


def test_evening_hand_limit_discards_to_five(stub: StubMarquise) -> None:
    hand = (FOX_CARD, FOX_CARD_2, RABBIT_CARD, MOUSE_CARD, BIRD_CARD)
    g, e, _ = position(roosts=(1, 2, 3), hand=hand)
    step = Eyrie().phase(g, e, "evening")
    assert step is not None
    run(g, step)
    assert decision(g).kind == "hand_limit.discard"
    assert len(keys(g)) == 7
    choose(g, f"discard:{FOX_CARD}")
    choose(g, f"discard:{RABBIT_CARD}")
    assert finished(g)
    assert len(g.players[e].hand) == 5


# -- leaders and Disdain for Trade (Law 7.2.3, 7.8) -----------------------------------------


@pytest.mark.parametrize(
    ("leader", "vp"), [("builder", 2), ("charismatic", 1), ("commander", 1), ("despot", 1)]
)
def test_disdain_for_trade_unless_builder(stub: StubMarquise, leader: str, vp: int) -> None:
    g, e, _ = position(leader=leader)
    assert Eyrie().craft_vp(g, e, CARD_BY_ID[FOX_CARD]) == vp  # anvil: printed 2 VP


def test_commander_extra_hit_only_attacking(stub: StubMarquise) -> None:
    g, e, _ = position(leader="commander")
    assert Eyrie().battle_extra_hits(g, e, True) == 1
    assert Eyrie().battle_extra_hits(g, e, False) == 0
    g, e, _ = position(leader="despot")
    assert Eyrie().battle_extra_hits(g, e, True) == 0


def battle_buildings(leader: str, seed: int) -> tuple[RootState, int, int]:
    """The Eyrie (one warrior) attack two undefended cat buildings in fox 8; returns the
    game, the Eyrie seat and how many buildings were removed."""
    decree = decree_of(EMPTY, EMPTY, (FOX_CARD,), EMPTY)
    g, e, _ = position(leader=leader, eyrie={8: 1}, decree=decree)
    g.rng = random.Random(seed)
    g.woodland.add_building("marquise", "sawmill", 8)
    g.woodland.add_building("marquise", "workshop", 8)
    g.players[1 - e].hand = []  # no ambush
    daylight(g, e)
    while not finished(g):
        assert decision(g).kind == "battle.remove"
        choose(g, keys(g)[0])
    removed = 2 - sum(1 for o, _ in g.woodland.buildings(8) if o == "marquise")
    return g, e, removed


@pytest.mark.parametrize("seed", range(8))
def test_commander_attacking_always_removes_both_buildings(stub: StubMarquise, seed: int) -> None:
    # rolled hits (at most 1, one warrior) + 1 defenseless + 1 commander >= 2
    g, e, removed = battle_buildings("commander", seed)
    assert removed == 2
    assert g.players[e].vp == 2


@pytest.mark.parametrize("seed", range(8))
def test_re11_despot_scores_one_extra_vp_per_battle(stub: StubMarquise, seed: int) -> None:
    g, e, removed = battle_buildings("despot", seed)
    assert removed >= 1  # the defenseless extra hit
    assert g.players[e].vp == removed + 1
    assert [ev["why"] for ev in events(g, "score")].count("despot") == 1


def test_builder_no_despot_vp_and_a_roll_of_zero_removes_one(stub: StubMarquise) -> None:
    results = {battle_buildings("builder", seed)[2] for seed in range(40)}
    assert results == {1, 2}  # without the Commander a zero roll happens


# -- rulings are recorded and tested ---------------------------------------------------------


def test_every_ruling_has_a_test() -> None:
    source = Path(__file__).read_text()
    names = set(re.findall(r"def (test_\w+)", source))
    for ruling in EYRIE_RULINGS:
        assert any(f"test_{ruling.lower()}_" in n for n in names), ruling
    assert set(EYRIE_RULINGS) == {f"RE{i}" for i in range(1, len(EYRIE_RULINGS) + 1)}


def test_faction_constants() -> None:
    assert Eyrie.warriors == 20
    assert Eyrie.setup_order == 1
    assert Eyrie.name == "eyrie"
    assert isinstance(Eyrie().new_board(), EyrieBoard)


# -- with the real Marquise ------------------------------------------------------------------

_MARQUISE_SOURCE = Path(__file__).parents[2] / "games" / "root" / "marquise.py"
needs_marquise = pytest.mark.skipif(
    "class MarquiseBoard" not in _MARQUISE_SOURCE.read_text(),
    reason="the Marquise is not written yet",
)


@needs_marquise
@pytest.mark.parametrize("seed", range(6))
def test_setup_against_the_real_marquise_is_opposite_her_keep(seed: int) -> None:
    g = new_game(seed)
    rng = random.Random(seed)
    while decision(g).kind != "eyrie.leader":
        d = decision(g)
        g.apply(d.seat, rng.randrange(len(d.options)))
    w = g.woodland
    keep = [c for c in (1, 2, 3, 4) if ("marquise", "keep") in w.tokens(c)]
    roost = eyrie_module.roost_clearings(g)
    assert len(keep) == 1
    assert roost == (g.board.clearing(keep[0]).opposite,)
    assert w.warriors("eyrie", roost[0]) == 6


@needs_marquise
def test_smoke_random_games(depth: Depth) -> None:
    """Seeds 0..199 with ``--slow`` (0..59 by default), random options, one game each, at most
    20,000 decisions: every game ends and the Eyrie's state stays consistent."""
    for seed in range(depth(fast=60, slow=200)):
        g = new_game(seed)
        rng = random.Random(seed)
        for _ in range(20_000):
            pending = g.pending()
            if not pending:
                break
            d = pending[0]
            g.apply(d.seat, rng.randrange(len(d.options)))
        assert g.is_over, seed
        e = g.seat_of["eyrie"]
        board = g.players[e].board
        assert isinstance(board, EyrieBoard)
        cards = [c for column in board.decree for c in column]
        assert sorted(c for c in cards if c in VIZIERS) == list(VIZIERS), seed
        assert board.leader in LEADER_BY_ID and board.leader not in board.deposed
        assert len(eyrie_module.roost_clearings(g)) <= 7
        assert g.woodland.warriors_on_map("eyrie") <= 20
