"""The Marquise de Cat (Law 6): setup, the keep, Field Hospitals, Birdsong wood, the Daylight
actions (each one offered only when it can be completed) and Evening draws.

Most tests play against a passive stand-in for the Eyrie (no setup, empty phases), so they test
the Marquise alone; positions are built on the Autumn board by editing the woodland and hands,
then the game is driven through its decisions by option key. Autumn facts used: clearing 1 (fox,
1 slot) is adjacent to 5 (rabbit, 2 slots), 9 (mouse, 2) and 10 (rabbit, 2 with a ruin); 12 (fox,
ruin) is adjacent to 4, 7, 9, 10 and 11; 3 is the corner opposite 1.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.contract import Event, Option
from games.root import marquise as mq
from games.root.crafting import favor
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING, Faction, FactionBoard
from games.root.factions import FACTION_RULES
from games.root.hand_limit import HandLimit
from games.root.marquise import (
    MARQUISE_RULINGS,
    Daylight,
    Marquise,
    MarquiseBoard,
    keep_clearing,
)
from games.root.state import RootState
from games.root.steps import DONE, PASS, Step
from games.root.tracks import RECRUITER, SAWMILL, WORKSHOP
from games.root.woodland import EYRIE, KEEP, MARQUISE, WOOD, Woodland
from tests.conftest import Depth
from tests.root.helpers import choose, decision, keys, new_game, seat_of

RULES = Marquise()


# -- a passive opponent and position helpers -----------------------------------------------------


class _PassiveBoard(FactionBoard):
    __slots__ = ()

    def copy(self) -> _PassiveBoard:
        return self

    def canonical(self) -> tuple[Any, ...]:
        return ()

    def public(self) -> dict[str, Any]:
        return {}


class _PassiveEyrie(Faction):
    """Stands in for the Eyrie: sets up nothing and does nothing on its turns."""

    name = EYRIE
    warriors = 20
    setup_order = 1

    def new_board(self) -> FactionBoard:
        return _PassiveBoard()

    def setup(self, g: RootState, seat: int) -> None:
        return None

    def phase(self, g: RootState, seat: int, phase: str) -> None:
        return None

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        return {}


class _Hold(Step):
    """A floor under the steps a test runs: the game stops here instead of playing on."""

    __slots__ = ()
    name = "hold"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "wait")

    def advance(self, g: RootState) -> tuple[Option, ...]:
        return (DONE, PASS)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        raise AssertionError("the test went past its steps")


@pytest.fixture
def g(monkeypatch: pytest.MonkeyPatch) -> RootState:
    """A fresh game (seed 1) whose Marquise setup is due; the Eyrie is passive."""
    monkeypatch.setitem(FACTION_RULES, EYRIE, _PassiveEyrie())  # type: ignore[index]
    return new_game(1)


def board(g: RootState) -> MarquiseBoard:
    b = g.players[seat_of(g, MARQUISE)].board
    assert isinstance(b, MarquiseBoard)
    return b


def set_up(g: RootState, keep: int = 1, buildings: tuple[int, int, int] = (1, 5, 9)) -> int:
    """Run the Marquise setup with these choices (sawmill, workshop, recruiter)."""
    choose(g, f"clearing:{keep}")
    for c in buildings:
        if decision(g).kind.startswith("marquise."):
            choose(g, f"clearing:{c}")
    return seat_of(g, MARQUISE)


def blank(g: RootState, keep: int = 1) -> int:
    """An empty map with just the keep at ``keep``, a full wood supply and empty hands."""
    set_up(g)
    m = seat_of(g, MARQUISE)
    g.woodland = Woodland(g.board)
    b = board(g)
    b.wood, b.keep = 8, keep
    if keep:
        g.woodland.add_token(MARQUISE, KEEP, keep)
    for p in g.players:
        p.hand = []
    g.stack = [_Hold(m)]
    return m


def put(
    g: RootState,
    c: int,
    warriors: int = 0,
    buildings: tuple[str, ...] = (),
    wood: int = 0,
    eyrie: int = 0,
) -> None:
    w = g.woodland
    if warriors:
        w.place_warriors(MARQUISE, c, warriors)
    for kind in buildings:
        w.add_building(MARQUISE, kind, c)
    for _ in range(wood):
        w.add_token(MARQUISE, WOOD, c)
        board(g).wood -= 1
    if eyrie:
        w.place_warriors(EYRIE, c, eyrie)


def held(g: RootState) -> bool:
    """Whether every step a test started has finished (only the floor is left)."""
    return len(g.stack) == 1 and decision(g).kind == "hold.wait"


def pushed(g: RootState) -> list[str]:
    return [type(s).__name__ for s in g.stack[1:]]


def resume(g: RootState, *steps: Any) -> None:
    """Put ``steps`` on the stack and run the game to its next decision."""
    g.stack.extend(steps)
    g._pending = ()
    g.resume()


def daylight(g: RootState, m: int, actions: int = 3) -> Daylight:
    """Start the Marquise's Daylight actions (after crafting)."""
    step = Daylight(m)
    step.stage = "action"
    step.actions = actions
    resume(g, step)
    return step


def act(g: RootState, key: str) -> tuple[Event, ...]:
    d = decision(g)
    index = [o.key for o in d.options].index(key)
    return g.apply(d.seat, index)


def wood_map(g: RootState) -> dict[int, int]:
    return {c: n for c in range(1, 13) if (n := mq.wood_at(g, c))}


def actions_offered(g: RootState) -> list[str]:
    assert decision(g).kind == "marquise.action"
    return [k for k in keys(g) if k.startswith("action:")]


# -- setup (Law 6.3) -------------------------------------------------------------------------------


def test_setup_offers_every_corner_for_the_keep(g: RootState) -> None:
    d = decision(g)
    assert d.seat == seat_of(g, MARQUISE)
    assert d.kind == "marquise.keep"
    assert keys(g) == ["clearing:1", "clearing:2", "clearing:3", "clearing:4"]


def test_setup_garrison_and_starting_buildings(g: RootState) -> None:
    m = seat_of(g, MARQUISE)
    choose(g, "clearing:1")
    w = g.woodland
    assert [w.warriors(MARQUISE, c) for c in range(1, 13)] == [1, 1, 0] + [1] * 9
    assert (MARQUISE, KEEP) in w.tokens(1)
    assert keep_clearing(g) == 1 and RULES.keep_clearing(g, m) == 1
    assert decision(g).kind == "marquise.sawmill"
    # Keep clearing and adjacent clearings with an open slot (10 has a ruin in one of two).
    assert keys(g) == ["clearing:1", "clearing:5", "clearing:9", "clearing:10"]
    choose(g, "clearing:1")
    assert decision(g).kind == "marquise.workshop"
    assert keys(g) == ["clearing:5", "clearing:9", "clearing:10"]  # clearing 1 is full now
    choose(g, "clearing:10")
    assert decision(g).kind == "marquise.recruiter"
    assert keys(g) == ["clearing:5", "clearing:9"]  # 10's last slot is taken
    choose(g, "clearing:9")
    assert w.buildings(1) == ((MARQUISE, SAWMILL),)
    assert (MARQUISE, WORKSHOP) in w.buildings(10)
    assert w.buildings(9) == ((MARQUISE, RECRUITER),)
    assert g.warriors_in_supply(m) == 25 - 11
    assert board(g).keep == 1 and board(g).public()["keep_in_game"] is True


def test_rm10_keep_only_where_the_starting_buildings_fit(g: RootState) -> None:
    # Fill the slots around corner 4 (4: 1 slot; 8: 2; 9: 2; 12: 2 with a ruin).
    w = g.woodland
    for c, n in ((4, 1), (8, 2), (9, 2), (12, 1)):
        for _ in range(n):
            w.add_building(EYRIE, "roost", c)
    resume(g)
    assert keys(g) == ["clearing:1", "clearing:2", "clearing:3"]


# -- the keep (Law 6.2.2) ----------------------------------------------------------------------


def test_keep_blocks_other_players_placing_there(g: RootState) -> None:
    m = set_up(g, keep=2, buildings=(2, 2, 5))
    e = seat_of(g, EYRIE)
    assert not g.may_place(e, 2)
    assert g.may_place(m, 2)
    assert all(g.may_place(e, c) for c in range(1, 13) if c != 2)
    assert RULES.blocks_placement(g, m, e, 2) and not RULES.blocks_placement(g, m, m, 2)


def test_rm11_removed_keep_leaves_the_game(g: RootState) -> None:
    m = blank(g, keep=1)
    e = seat_of(g, EYRIE)
    g.remove_piece(m, 1, KEEP, by=e)
    assert board(g).keep == 0 and keep_clearing(g) is None
    assert board(g).public() == {"wood": 8, "keep": 0, "keep_in_game": False}
    assert (MARQUISE, KEEP) not in g.woodland.tokens(1)
    assert g.may_place(e, 1)
    assert g.players[e].vp == 1


def test_rm11_wood_paid_or_removed_goes_back_to_supply(g: RootState) -> None:
    m = blank(g)
    put(g, 5, wood=2)
    assert board(g).wood == 6
    g.remove_piece(m, 5, WOOD, by=seat_of(g, EYRIE))
    assert board(g).wood == 7 and wood_map(g) == {5: 1}


# -- Field Hospitals (Law 6.2.3) -----------------------------------------------------------------


def test_field_hospitals_offers_matching_cards_and_moves_the_warriors(g: RootState) -> None:
    m = blank(g, keep=1)
    e = seat_of(g, EYRIE)
    put(g, 12, warriors=3)  # fox clearing
    g.players[m].hand = ["anvil", "root_tea_mouse", "crossbow_bird"]
    g.remove_warriors(m, 12, 2, by=e)
    resume(g)
    d = decision(g)
    assert d.seat == m and d.kind == "marquise.field_hospitals"
    assert keys(g) == ["hospital:anvil", "hospital:crossbow_bird", "pass"]
    choose(g, "hospital:anvil")
    assert g.woodland.warriors(MARQUISE, 1) == 2
    assert g.woodland.warriors(MARQUISE, 12) == 1
    assert "anvil" in g.discard and "anvil" not in g.players[m].hand


def test_field_hospitals_pass_leaves_warriors_in_supply(g: RootState) -> None:
    m = blank(g, keep=1)
    put(g, 12, warriors=3)
    g.players[m].hand = ["anvil"]
    g.remove_warriors(m, 12, 3, by=seat_of(g, EYRIE))
    resume(g)
    choose(g, "pass")
    assert g.woodland.warriors(MARQUISE, 1) == 0
    assert g.woodland.warriors_on_map(MARQUISE) == 0
    assert g.players[m].hand == ["anvil"]


def test_field_hospitals_not_offered_without_a_matching_card(g: RootState) -> None:
    m = blank(g, keep=1)
    put(g, 12, warriors=3)
    g.players[m].hand = ["root_tea_mouse", "bake_sale"]  # mouse, rabbit: not fox, not bird
    g.remove_warriors(m, 12, 1, by=seat_of(g, EYRIE))
    assert pushed(g) == []


def test_field_hospitals_not_offered_once_the_keep_is_gone(g: RootState) -> None:
    m = blank(g, keep=1)
    e = seat_of(g, EYRIE)
    put(g, 12, warriors=3)
    g.players[m].hand = ["anvil"]
    g.remove_piece(m, 1, KEEP, by=e)
    g.remove_warriors(m, 12, 1, by=e)
    assert pushed(g) == []


def test_rm1_field_hospitals_from_the_keep_clearing_and_own_effects(g: RootState) -> None:
    m = blank(g, keep=1)
    put(g, 1, warriors=2)
    g.players[m].hand = ["anvil"]
    g.remove_warriors(m, 1, 1, by=m)  # e.g. the Marquise's own Tax Collector
    assert pushed(g) == ["FieldHospitals"]
    resume(g)
    choose(g, "hospital:anvil")
    assert g.woodland.warriors(MARQUISE, 1) == 2


def test_rm2_keep_removed_in_the_same_favor_stops_field_hospitals(g: RootState) -> None:
    m = blank(g, keep=1)
    put(g, 12, warriors=2)
    put(g, 1, warriors=1)
    g.players[m].hand = ["anvil", "foxfolk_steel"]
    favor(g, seat_of(g, EYRIE), "fox")  # removes everything in fox clearings 1, 6, 8, 12
    assert board(g).keep == 0
    assert pushed(g) == []


def test_rm3_one_card_moves_all_warriors_of_one_removal(g: RootState) -> None:
    m = blank(g, keep=1)
    put(g, 12, warriors=4)
    put(g, 9, warriors=1)
    g.players[m].hand = ["anvil", "mouse_in_a_sack"]
    e = seat_of(g, EYRIE)
    g.remove_warriors(m, 12, 4, by=e)
    g.remove_warriors(m, 9, 1, by=e)
    resume(g)
    assert keys(g) == ["hospital:mouse_in_a_sack", "pass"]  # the later removal, clearing 9
    choose(g, "hospital:mouse_in_a_sack")
    assert keys(g) == ["hospital:anvil", "pass"]
    choose(g, "hospital:anvil")
    assert g.woodland.warriors(MARQUISE, 1) == 5
    assert g.players[m].hand == []


# -- Birdsong (Law 6.4) ----------------------------------------------------------------------------


def test_birdsong_places_one_wood_per_sawmill(g: RootState) -> None:
    m = blank(g)
    put(g, 5, buildings=(SAWMILL, SAWMILL))
    put(g, 9, buildings=(SAWMILL,))
    assert RULES.phase(g, m, BIRDSONG) is None
    assert wood_map(g) == {5: 2, 9: 1}
    assert board(g).wood == 5


def test_rm4_birdsong_wood_shortage_is_a_choice(g: RootState) -> None:
    m = blank(g)
    put(g, 5, buildings=(SAWMILL, SAWMILL))
    put(g, 9, buildings=(SAWMILL,))
    put(g, 12, wood=6)
    step = RULES.phase(g, m, BIRDSONG)
    assert step is not None
    resume(g, step)
    # Two wood for three sawmills: {5, 5} or {5, 9}; the first 5 is forced.
    assert decision(g).kind == "marquise.sawmills"
    assert keys(g) == ["clearing:5", "clearing:9"]
    assert wood_map(g) == {5: 1, 12: 6}
    choose(g, "clearing:9")
    assert wood_map(g) == {5: 1, 9: 1, 12: 6}
    assert board(g).wood == 0


def test_birdsong_without_wood_places_nothing(g: RootState) -> None:
    m = blank(g)
    put(g, 5, buildings=(SAWMILL,))
    put(g, 12, wood=8)
    assert RULES.phase(g, m, BIRDSONG) is None
    assert wood_map(g) == {12: 8}


# -- Daylight (Law 6.5) ----------------------------------------------------------------------------


def test_daylight_crafts_with_workshops_first(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=1, buildings=(WORKSHOP,))  # rabbit workshop
    g.players[m].hand = ["a_visit_to_friends", "anvil"]  # rabbit boot; anvil needs fox
    assert RULES.crafting_pieces(g, m) == {"rabbit": 1}
    step = RULES.phase(g, m, DAYLIGHT)
    resume(g, step)
    assert decision(g).kind == "craft.card"
    assert keys(g) == ["craft:a_visit_to_friends", "done"]
    choose(g, "craft:a_visit_to_friends")
    assert g.players[m].vp == 1
    assert decision(g).kind == "marquise.action"


def test_all_actions_offered_when_possible(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=2, buildings=(SAWMILL,), wood=1)
    put(g, 5, warriors=1, buildings=(RECRUITER,), eyrie=1)
    put(g, 9, warriors=1, buildings=(WORKSHOP,))
    g.players[m].hand = ["anvil"]  # fox, matches the sawmill's clearing 1
    daylight(g, m)
    assert keys(g) == [
        "action:battle",
        "action:march",
        "action:recruit",
        "action:build",
        "action:overwork",
        "done",
    ]


def test_battle_action(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=3, eyrie=1)
    step = daylight(g, m)
    events = act(g, "action:battle")
    assert any(ev.kind == "battle" and ev.data["clearing"] == 5 for ev in events)
    assert step.actions == 2


def test_no_battle_without_enemies(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=3)
    put(g, 9, eyrie=2)  # no Marquise warrior there
    daylight(g, m)
    assert "action:battle" not in actions_offered(g)


def test_march_is_two_moves_the_second_optional(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=3)
    put(g, 4, warriors=1)
    step = daylight(g, m)
    choose(g, "action:march")
    assert decision(g).kind == "move.origin"
    assert keys(g) == ["clearing:1", "clearing:4"]  # the first move has no "done"
    choose(g, "clearing:1")
    assert decision(g).kind == "move.destination"
    assert keys(g) == ["clearing:5", "clearing:9", "clearing:10"]
    choose(g, "clearing:5")
    choose(g, "count:2")
    assert decision(g).kind == "move.origin"
    assert keys(g) == ["clearing:1", "clearing:4", "clearing:5", "done"]
    choose(g, "clearing:5")
    choose(g, "clearing:2")
    choose(g, "count:2")
    w = g.woodland
    assert (w.warriors(MARQUISE, 1), w.warriors(MARQUISE, 5), w.warriors(MARQUISE, 2)) == (1, 0, 2)
    assert step.actions == 2 and decision(g).kind == "marquise.action"


def test_rm7_march_second_move_may_be_skipped(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=2)
    step = daylight(g, m)
    choose(g, "action:march")
    choose(g, "clearing:9")
    choose(g, "count:1")
    choose(g, "done")
    assert decision(g).kind == "marquise.action" and step.actions == 2
    assert g.woodland.warriors(MARQUISE, 9) == 1


def test_recruit_once_per_turn(g: RootState) -> None:
    m = blank(g)
    put(g, 5, buildings=(RECRUITER, RECRUITER))
    put(g, 9, warriors=1, buildings=(RECRUITER,))
    daylight(g, m)
    choose(g, "action:recruit")
    w = g.woodland
    assert (w.warriors(MARQUISE, 5), w.warriors(MARQUISE, 9)) == (2, 2)
    assert "action:recruit" not in actions_offered(g)


def test_rm5_recruit_shortage_and_empty_supply(g: RootState) -> None:
    m = blank(g)
    put(g, 5, buildings=(RECRUITER,))
    put(g, 9, buildings=(RECRUITER,))
    put(g, 12, warriors=24)
    daylight(g, m)
    choose(g, "action:recruit")
    assert decision(g).kind == "marquise.recruiters"
    assert keys(g) == ["clearing:5", "clearing:9"]
    choose(g, "clearing:9")
    assert g.woodland.warriors(MARQUISE, 9) == 1 and g.warriors_in_supply(m) == 0
    # A new turn with an empty supply: no Recruit.
    blank_step = Daylight(m)
    blank_step.stage = "action"
    g.stack = []
    resume(g, blank_step)
    assert "action:recruit" not in actions_offered(g)


def test_no_recruit_without_recruiters(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=1, buildings=(SAWMILL,))
    daylight(g, m)
    assert "action:recruit" not in actions_offered(g)


def test_build_costs_and_vp_follow_the_tracks(g: RootState) -> None:
    m = blank(g)
    # Two sawmills on the map: the third costs 2 wood and scores 2 VP.
    put(g, 9, warriors=2, buildings=(SAWMILL, SAWMILL), wood=2)
    put(g, 5, warriors=1, buildings=(WORKSHOP,))
    put(g, 1, warriors=1, buildings=(RECRUITER,))
    put(g, 10, warriors=1)
    daylight(g, m)
    choose(g, "action:build")
    assert decision(g).kind == "marquise.build"
    # Workshop #2 costs 1, recruiter #2 costs 1, sawmill #3 costs 2: all payable from 9.
    assert keys(g) == ["build:sawmill", "build:workshop", "build:recruiter"]
    choose(g, "build:sawmill")
    assert decision(g).kind == "marquise.build_clearing"
    assert keys(g) == ["clearing:5", "clearing:10"]  # ruled with a slot (1 and 9 are full)
    choose(g, "clearing:5")
    assert g.players[m].vp == 2
    assert wood_map(g) == {} and board(g).wood == 8
    assert (MARQUISE, SAWMILL) in g.woodland.buildings(5)


def test_build_scores_workshop_track(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=1, buildings=(WORKSHOP,), wood=1)
    daylight(g, m)
    choose(g, "action:build")
    # One workshop on the map: the second costs 1 and scores 2 VP; first sawmill and first
    # recruiter cost 0 (their track space 1 is empty).
    assert keys(g) == ["build:sawmill", "build:workshop", "build:recruiter"]
    choose(g, "build:workshop")
    assert g.players[m].vp == 2 and wood_map(g) == {}


def test_build_not_offered_without_enough_wood(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=3, buildings=(SAWMILL, WORKSHOP))
    put(g, 9, warriors=3, buildings=(RECRUITER,))
    daylight(g, m)
    assert "action:build" not in actions_offered(g)


def test_build_not_where_unruled_or_full(g: RootState) -> None:
    m = blank(g)
    put(g, 5, warriors=1, buildings=(SAWMILL, WORKSHOP), wood=2)  # full, ruled
    put(g, 9, warriors=1, eyrie=1, buildings=(RECRUITER,))  # ruled (2 v 1) with a slot
    put(g, 2, warriors=1, eyrie=1)  # tied: not ruled
    put(g, 10, eyrie=2)  # Eyrie's
    put(g, 1, warriors=1)  # ruled, 1 slot open
    daylight(g, m)
    choose(g, "action:build")
    choose(g, "build:sawmill")
    # 5 is full, 2 and 10 not ruled; 1 and 9 connect to 5's wood through ruled clearings.
    assert keys(g) == ["clearing:1", "clearing:9"]


def test_wood_connected_only_through_ruled_clearings(g: RootState) -> None:
    m = blank(g)
    put(g, 9, warriors=1, buildings=(SAWMILL, SAWMILL))  # full; the third sawmill costs 2
    put(g, 1, warriors=1)
    put(g, 5, warriors=1, wood=1)  # 5 - 1 - 9 all ruled: one wood in that region
    put(g, 7, warriors=1, wood=1)  # 7 - 12 - 9, but 12 is the Eyrie's: cut off
    put(g, 12, eyrie=2)
    # No region holds 2 wood; the first workshop and recruiter cost nothing.
    assert mq.build_sites(g, m) == {WORKSHOP: [1, 5, 7], RECRUITER: [1, 5, 7]}
    g.woodland.remove_warriors(EYRIE, 12, 2)
    g.woodland.place_warriors(MARQUISE, 12, 1)  # now 7 - 12 - 9 - 1 - 5 is one region
    assert mq.build_sites(g, m)[SAWMILL] == [1, 5, 7, 12]
    g.woodland.place_warriors(EYRIE, 1, 1)  # a tie at 1 is the Eyrie's: 5's wood is cut off
    assert SAWMILL not in mq.build_sites(g, m)
    put(g, 9, wood=1)  # 7 - 12 - 9 has 2 wood again
    assert mq.build_sites(g, m)[SAWMILL] == [7, 12]


def test_rm8_paying_wood_asks_which_clearings_once_per_combination(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=1, wood=1)
    put(g, 9, warriors=1, buildings=(SAWMILL, SAWMILL), wood=2)
    put(g, 5, warriors=1)
    daylight(g, m)
    choose(g, "action:build")
    choose(g, "build:sawmill")  # the third: 2 wood, region {1, 5, 9} holds 3
    choose(g, "clearing:5")
    assert decision(g).kind == "marquise.pay_wood"
    assert keys(g) == ["clearing:1", "clearing:9"]  # {1, 9} or {9, 9}
    choose(g, "clearing:9")
    # After a 9, only 9s remain in ascending order: the second is automatic.
    assert wood_map(g) == {1: 1}
    assert g.players[m].vp == 2


def test_exact_wood_is_paid_automatically(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=1, wood=1)
    put(g, 9, warriors=1, buildings=(SAWMILL, SAWMILL), wood=1)
    put(g, 5, warriors=1, buildings=(WORKSHOP,))
    step = daylight(g, m)
    choose(g, "action:build")
    choose(g, "build:sawmill")  # 2 wood, exactly the region's 2: no question asked
    choose(g, "clearing:5")
    assert wood_map(g) == {}
    assert g.woodland.buildings(5) == ((MARQUISE, WORKSHOP), (MARQUISE, SAWMILL))
    assert decision(g).kind == "marquise.action" and step.actions == 2


def test_overwork_places_wood_for_a_matching_card(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=1, buildings=(SAWMILL,))  # fox
    put(g, 9, warriors=1, buildings=(SAWMILL,))  # mouse
    g.players[m].hand = ["anvil", "crossbow_bird", "bake_sale"]
    step = daylight(g, m)
    choose(g, "action:overwork")
    assert decision(g).kind == "marquise.overwork"
    assert keys(g) == ["clearing:1", "clearing:9"]
    choose(g, "clearing:1")
    assert decision(g).kind == "marquise.overwork_card"
    assert keys(g) == ["spend:anvil", "spend:crossbow_bird"]
    choose(g, "spend:anvil")
    assert wood_map(g) == {1: 1} and board(g).wood == 7
    assert g.players[m].hand == ["crossbow_bird", "bake_sale"]
    assert step.actions == 2


def test_overwork_not_offered_without_matching_card_or_sawmill(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=1, buildings=(SAWMILL,))  # fox
    put(g, 5, warriors=1, buildings=(WORKSHOP,))  # rabbit, no sawmill
    g.players[m].hand = ["bake_sale", "root_tea_mouse"]  # rabbit, mouse
    daylight(g, m)
    assert "action:overwork" not in actions_offered(g)


def test_rm9_overwork_needs_wood_in_supply(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=1, buildings=(SAWMILL,))
    put(g, 12, wood=8)
    g.players[m].hand = ["anvil"]
    daylight(g, m)
    assert "action:overwork" not in actions_offered(g)


def test_rm6_bird_cards_buy_extra_actions_when_none_are_left(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=3)
    g.players[m].hand = ["crossbow_bird", "anvil", "ambush_bird_1"]
    step = daylight(g, m, actions=1)
    assert "hawks:crossbow_bird" not in keys(g)  # actions left: no need
    choose(g, "action:march")
    choose(g, "clearing:5")
    choose(g, "count:1")
    choose(g, "done")
    assert decision(g).kind == "marquise.action"
    assert keys(g) == ["hawks:crossbow_bird", "hawks:ambush_bird_1", "done"]
    choose(g, "hawks:ambush_bird_1")
    assert step.actions == 1 and g.players[m].hand == ["crossbow_bird", "anvil"]
    assert "ambush_bird_1" in g.discard
    assert actions_offered(g) == ["action:march", "action:build"]


def test_rm6_no_bird_spent_if_no_action_could_follow(g: RootState) -> None:
    m = blank(g)
    put(g, 1, buildings=(SAWMILL,))  # no warriors anywhere: only Overwork could be taken
    put(g, 12, wood=7)
    g.players[m].hand = ["crossbow_bird"]
    daylight(g, m, actions=0)
    # The one bird card would be needed for the Overwork it buys: nothing to ask, Daylight ends.
    assert held(g)
    assert g.players[m].hand == ["crossbow_bird"]
    # With a second matching card the bird can buy an Overwork.
    g.players[m].hand.append("anvil")
    daylight(g, m, actions=0)
    assert keys(g) == ["hawks:crossbow_bird", "done"]


def test_rm12_daylight_may_end_early(g: RootState) -> None:
    m = blank(g)
    put(g, 1, warriors=3)
    step = daylight(g, m)
    assert keys(g)[-1] == "done"
    choose(g, "done")
    assert step.stage == "over"


# -- Evening (Law 6.6) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("recruiters", "draws"), [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)]
)
def test_evening_draws_by_recruiter_track(g: RootState, recruiters: int, draws: int) -> None:
    m = blank(g)
    for c in (2, 5, 7, 8, 9, 11)[:recruiters]:
        put(g, c, buildings=(RECRUITER,))
    step = RULES.phase(g, m, EVENING)
    assert isinstance(step, HandLimit)
    assert len(g.players[m].hand) == draws


def test_evening_hand_limit(g: RootState) -> None:
    m = blank(g)
    g.players[m].hand = ["anvil", "sword", "bake_sale", "investments", "root_tea_fox"]
    step = RULES.phase(g, m, EVENING)
    resume(g, step)
    assert decision(g).kind == "hand_limit.discard"
    choose(g, "discard:anvil")
    assert len(g.players[m].hand) == 5


def test_rulings_are_documented() -> None:
    assert sorted(MARQUISE_RULINGS, key=lambda k: int(k[2:])) == [f"RM{i}" for i in range(1, 13)]


# -- smoke: random full games ----------------------------------------------------------------------


def _eyrie_ready() -> bool:
    from pathlib import Path

    import games.root.eyrie as eyrie

    return "class EyrieBoard" in Path(eyrie.__file__).read_text()


@pytest.mark.skipif(not _eyrie_ready(), reason="games/root/eyrie.py is still a placeholder")
def test_smoke_random_games(depth: Depth) -> None:
    """Seeds 0..199 with ``--slow`` (0..59 by default): random games run to the end."""
    import random

    start = time.perf_counter()
    decisions = 0
    for seed in range(depth(fast=60, slow=200)):
        game = new_game(seed)
        rng = random.Random(seed)
        for _ in range(20_000):
            if game.is_over:
                break
            d = decision(game)
            game.apply(d.seat, rng.randrange(len(d.options)))
            decisions += 1
    assert decisions > 0
    assert time.perf_counter() - start < 120
