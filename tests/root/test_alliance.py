"""The Woodland Alliance (Law 8): setup, supporters, sympathy, Outrage, revolts, bases, Daylight,
Evening, Guerrilla War, crafting with sympathy, and properties of random three-player games.

Rule tests play a three-player game (seats: 0 Marquise, 1 Eyrie, 2 Alliance) past setup, empty
the map, set a position up by hand, run one step above a ``Hold`` marker (whose decision says
"the step is over"), and answer decisions by key. Autumn map: fox 1 6 8 12, rabbit 3 4 5 10,
mouse 2 7 9 11; clearing 6 has a ruin in one of its two slots, 1 and 3 one slot each.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games.contract import Event, GameConfig, Option, replay
from games.root import battle as battle_module
from games.root.alliance import (
    ALLIANCE_RULINGS,
    HIDDEN_CARD,
    AllianceBirdsong,
    AllianceBoard,
    AllianceDaylight,
    AllianceEvening,
    add_supporter,
    board_of,
)
from games.root.battle import Battle
from games.root.cards import standard_deck
from games.root.crafting import favor
from games.root.game import GAME
from games.root.invariants import check_invariants
from games.root.marquise import MarquiseBoard
from games.root.moving import Move
from games.root.state import RootState
from games.root.steps import Options, Step
from games.root.tracks import ALLIANCE_SYMPATHY_TOKENS, ALLIANCE_WARRIORS
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, SYMPATHY, Woodland
from tests.conftest import Depth
from tests.root.helpers import decision, keys

M, E, A = 0, 1, 2
SEATING = "marquise,eyrie,alliance"

FOX = ("anvil", "foxfolk_steel", "favor_of_the_foxes", "tax_collector_1", "root_tea_fox")
RABBIT = ("a_visit_to_friends", "bake_sale", "cobbler_1", "smugglers_trail", "root_tea_rabbit")
MOUSE = ("mouse_in_a_sack", "investments", "codebreakers_1", "sword", "root_tea_mouse")
BIRD = ("crossbow_bird", "woodland_runners", "birdy_bindle", "arms_trader", "armorers_1")


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


def table(seed: int = 1, board: str = "autumn") -> RootState:
    """A three-player game (Marquise, Eyrie, Alliance in seats 0-2) past setup."""
    g = GAME.new(GameConfig(3, board, {"factions": SEATING}), seed)
    while g.pending() and g.turns == 0:
        d = g.pending()[0]
        g.apply(d.seat, 0)
    return g


def _take(g: RootState, card_id: str) -> None:
    """Take a card out of wherever it is, so that each card is in one place."""
    piles = [g.deck, g.discard, *(p.hand for p in g.players)]
    piles.append(board_of(g, A).supporters)
    for pile in piles:
        if card_id in pile:
            pile.remove(card_id)
            return
    raise AssertionError(f"{card_id} is nowhere")


def position(
    *,
    warriors: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    sympathy: tuple[int, ...] = (),
    keep: int = 0,
    hands: Mapping[int, tuple[str, ...]] | None = None,
    supporters: tuple[str, ...] = (),
    officers: int = 0,
    current: int = A,
    seed: int = 1,
) -> RootState:
    """An emptied map holding these pieces; hands by seat (others emptied), the Alliance's
    supporters and officers. No step is running: ``run`` starts one."""
    g = table(seed)
    w = Woodland(g.board)
    for c, by_faction in (warriors or {}).items():
        for faction, count in by_faction.items():
            w.place_warriors(faction, c, count)
    for c, pieces in (buildings or {}).items():
        for faction, kind in pieces:
            w.add_building(faction, kind, c)
    for c in sympathy:
        w.add_token(ALLIANCE, SYMPATHY, c)
    marquise = g.players[M].board
    assert isinstance(marquise, MarquiseBoard)
    marquise.keep = keep
    if keep:
        w.add_token(MARQUISE, "keep", keep)
    g.woodland = w
    alliance = board_of(g, A)
    for p in g.players:
        g.deck.extend(p.hand)
        p.hand = []
    g.deck.extend(alliance.supporters)
    alliance.supporters = []
    for seat, cards in (hands or {}).items():
        for card_id in cards:
            _take(g, card_id)
        g.players[seat].hand = list(cards)
    for card_id in supporters:
        _take(g, card_id)
    alliance.supporters = list(supporters)
    alliance.officers = officers
    g.current = current
    g.turns = max(g.turns, 1)
    return g


def run(g: RootState, step: Step) -> list[Event]:
    """Run ``step`` (above a Hold marker) until its first decision or its end."""
    g.stack = [Hold(step.seat), step]
    return list(g.resume())


def finished(g: RootState) -> bool:
    return decision(g).kind == "test.hold"


def answer(g: RootState, key: str) -> list[Event]:
    """Like ``choose``, returning the events of the answer."""
    d = decision(g)
    for i, option in enumerate(d.options):
        if option.key == key:
            return list(g.apply(d.seat, i))
    raise AssertionError(f"no option {key!r} in {d.kind}: {[o.key for o in d.options]}")


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def spread(g: RootState) -> None:
    """Run the Alliance's Birdsong past any Revolt, to Spread Sympathy."""
    run(g, AllianceBirdsong(A))
    if decision(g).kind == "alliance.revolt":
        answer(g, "done")


def sympathy_at(g: RootState) -> tuple[int, ...]:
    return tuple(c for c in range(1, 13) if g.woodland.count_tokens(ALLIANCE, SYMPATHY, c))


# -- setup (Law 8.3) -------------------------------------------------------------------------


def test_ra12_setup_three_supporters_no_pieces_no_officers_no_decision() -> None:
    g = GAME.new(GameConfig(3, "autumn", {"factions": SEATING}), 4)
    board = board_of(g, A)
    assert len(board.supporters) == 3 and board.officers == 0
    assert len(g.players[A].hand) == 3  # the starting hand besides
    assert g.warriors_in_supply(A) == ALLIANCE_WARRIORS
    w = g.woodland
    assert not any(w.has_pieces(ALLIANCE, c) for c in range(1, 13))
    assert all(d.seat != A for d in g.pending())  # the Alliance asks nothing at setup
    private = [e for e in g.setup_events if e.kind == "supporter_card"]
    assert len(private) == 3 and {e.private_to for e in private} == {A}
    public = [e for e in g.setup_events if e.kind == "supporter"]
    assert [e.data["count"] for e in public] == [1, 2, 3]
    assert all(e.private_to is None for e in public)


# -- the Supporters stack (Law 8.2.3) --------------------------------------------------------


def test_stack_holds_five_without_a_base_the_excess_is_discarded_face_up() -> None:
    g = position(supporters=FOX[:5])
    g.stack = [Hold(A)]
    g._events = []
    add_supporter(g, A, "bake_sale", "test")
    assert len(board_of(g, A).supporters) == 5
    assert g.discard[-1] == "bake_sale"
    [event] = g._events
    assert event.kind == "discard" and event.private_to is None


def test_stack_is_unlimited_with_a_base_on_the_map() -> None:
    g = position(supporters=FOX[:5], buildings={2: ((ALLIANCE, "mouse_base"),)})
    add_supporter(g, A, "bake_sale", "test")
    assert len(board_of(g, A).supporters) == 6 and "bake_sale" not in g.discard


def test_supporters_are_hidden_from_other_seats_only_their_number_is_public() -> None:
    g = position(supporters=("anvil", "bake_sale"), officers=1)
    for seat in (M, E, None):
        board = dict(g.observe(seat).players[A].board)
        assert board == {"officers": 1, "supporters": 2}
    own = dict(g.observe(A).players[A].board)
    assert own == {"officers": 1, "supporters": 2, "supporter_cards": ("anvil", "bake_sale")}
    rebuilt = AllianceBoard.from_public(dict(g.observe(M).players[A].board))
    assert rebuilt.supporters == [HIDDEN_CARD, HIDDEN_CARD] and rebuilt.officers == 1


def test_ra1_bird_supporters_are_wild_for_spreading_sympathy() -> None:
    g = position(supporters=("crossbow_bird",))
    spread(g)
    assert decision(g).kind == "alliance.spread"
    assert keys(g) == [f"clearing:{c}" for c in range(1, 13)] + ["done"]
    answer(g, "clearing:7")  # a mouse clearing, paid with the bird
    assert sympathy_at(g) == (7,) and board_of(g, A).supporters == []
    assert "crossbow_bird" in g.discard


# -- Spread Sympathy (Law 8.4.2) -------------------------------------------------------------


def test_spread_costs_the_track_and_scores_the_space_uncovered() -> None:
    # Three tokens placed: the fourth costs 2 supporters and scores 1 VP. Unsympathetic
    # clearings next to 1, 5 and 10: 2 and 9 (mouse, no mouse supporter) and 12 (fox).
    g = position(sympathy=(1, 5, 10), supporters=("a_visit_to_friends", "anvil"))
    spread(g)
    assert finished(g)  # one fox supporter is not enough
    g = position(
        sympathy=(1, 5, 10),
        supporters=("a_visit_to_friends", "bake_sale", "anvil", "foxfolk_steel"),
    )
    spread(g)
    assert keys(g) == ["clearing:12", "done"]
    answer(g, "clearing:12")  # fox: the two fox cards go, no choice
    assert sympathy_at(g) == (1, 5, 10, 12)
    assert g.players[A].vp == 1
    assert sorted(board_of(g, A).supporters) == ["a_visit_to_friends", "bake_sale"]


def test_spread_scores_the_sympathy_track() -> None:
    vp: list[int] = []
    for placed in range(10):
        g = position(
            sympathy=tuple(range(1, 13))[:placed],
            supporters=("crossbow_bird", "woodland_runners", "birdy_bindle"),
        )
        spread(g)
        answer(g, keys(g)[0])
        while decision(g).kind == "alliance.supporter":
            answer(g, keys(g)[0])
        vp.append(g.players[A].vp)
    assert vp == [0, 1, 1, 1, 2, 2, 3, 4, 4, 4]


def test_spread_with_no_sympathy_goes_anywhere_but_the_keep_clearing() -> None:
    g = position(keep=1, supporters=("anvil",))
    run(g, AllianceBirdsong(A))
    assert keys(g) == ["clearing:6", "clearing:8", "clearing:12", "done"]  # fox, not the keep


def test_ra7_spread_must_be_adjacent_to_sympathy_even_when_it_cannot_pay_there() -> None:
    # Sympathy in 5 (next to 1 and 2); the keep closes 1. Fox supporters cannot pay for the
    # mouse clearing 2, and the fox clearings 6, 8, 12 are not adjacent: no Spread at all.
    g = position(sympathy=(5,), keep=1, supporters=("anvil", "foxfolk_steel"))
    spread(g)
    assert finished(g)
    g = position(sympathy=(5,), keep=1, supporters=("anvil", "mouse_in_a_sack"))
    spread(g)
    assert keys(g) == ["clearing:2", "done"]


def test_ra8_martial_law_costs_one_more_when_one_player_has_three_warriors() -> None:
    warriors = {7: {MARQUISE: 3}, 2: {MARQUISE: 2, EYRIE: 2}}
    g = position(warriors=warriors, supporters=("mouse_in_a_sack",))
    run(g, AllianceBirdsong(A))
    mouse = [k for k in keys(g) if k in ("clearing:2", "clearing:7", "clearing:9")]
    assert mouse == ["clearing:2", "clearing:9"]  # 7 is under Martial Law: 2 supporters
    g2 = position(warriors=warriors, supporters=("mouse_in_a_sack", "investments"))
    run(g2, AllianceBirdsong(A))
    assert "clearing:7" in keys(g2)
    answer(g2, "clearing:7")
    assert sympathy_at(g2) == (7,) and board_of(g2, A).supporters == []


def test_ra2_supporters_are_chosen_one_at_a_time_in_card_order() -> None:
    supporters = ("anvil", "foxfolk_steel", "crossbow_bird")
    g = position(sympathy=(1, 5, 10), supporters=supporters)
    spread(g)
    answer(g, "clearing:12")  # fox, 2 supporters of 3 matching
    assert decision(g).kind == "alliance.supporter"
    assert keys(g) == ["spend:anvil", "spend:crossbow_bird"]  # each pair once
    answer(g, "spend:crossbow_bird")  # the second must come after it: steel, no choice
    assert finished(g)
    assert sympathy_at(g) == (1, 5, 10, 12)
    assert board_of(g, A).supporters == ["anvil"]
    g = position(sympathy=(1, 5, 10), supporters=supporters)
    spread(g)
    answer(g, "clearing:12")
    answer(g, "spend:anvil")
    assert keys(g) == ["spend:crossbow_bird", "spend:foxfolk_steel"]


def test_no_spread_once_all_ten_tokens_are_placed() -> None:
    g = position(sympathy=tuple(range(1, 11)), supporters=BIRD)
    spread(g)
    assert finished(g)
    assert ALLIANCE_SYMPATHY_TOKENS == 10


# -- Outrage (Law 8.2.6) ---------------------------------------------------------------------


def test_ra4_outrage_by_a_move_once_per_move_the_mover_chooses_a_matching_card() -> None:
    g = position(
        warriors={5: {MARQUISE: 4}},
        sympathy=(1,),
        hands={M: ("anvil", "crossbow_bird", "bake_sale")},
        current=M,
    )
    run(g, Move(M, (5,)))
    answer(g, "clearing:1")
    events = answer(g, "count:4")
    assert decision(g).kind == "alliance.outrage" and decision(g).seat == M
    assert keys(g) == ["give:anvil", "give:crossbow_bird"]  # fox, and the bird
    events = answer(g, "give:crossbow_bird")
    assert board_of(g, A).supporters == ["crossbow_bird"]
    assert g.players[M].hand == ["anvil", "bake_sale"]
    assert finished(g)  # once per move, not per warrior
    details = of_kind(events, "supporter_card")
    assert {e.private_to for e in details} == {A, M}
    assert all(e.private_to is None for e in of_kind(events, "supporter"))


def test_moving_into_unsympathetic_or_own_sympathetic_clearings_outrages_no_one() -> None:
    g = position(warriors={5: {MARQUISE: 2}}, sympathy=(1,), hands={M: ("mouse_in_a_sack",)})
    g.current = M
    run(g, Move(M, (5,)))
    answer(g, "clearing:2")  # mouse, unsympathetic
    answer(g, "count:2")
    assert finished(g) and board_of(g, A).supporters == []
    g = position(warriors={1: {ALLIANCE: 2}}, sympathy=(5,), hands={A: ("a_visit_to_friends",)})
    run(g, Move(A, (1,)))
    answer(g, "clearing:5")
    answer(g, "count:2")
    assert finished(g) and board_of(g, A).supporters == []


def test_ra4_outrage_without_a_matching_card_shows_the_hand_and_draws_a_supporter() -> None:
    g = position(
        warriors={5: {EYRIE: 3}}, sympathy=(1,), hands={E: ("bake_sale", "sword")}, current=E
    )
    top = g.deck[-1]
    run(g, Move(E, (5,)))
    answer(g, "clearing:1")
    events = answer(g, "count:3")
    assert finished(g)
    assert board_of(g, A).supporters == [top]
    [shown] = of_kind(events, "showed_hand")
    assert shown.private_to == A and shown.data["cards"] == ("bake_sale", "sword")
    [outrage] = of_kind(events, "outrage")
    assert outrage.private_to is None and outrage.data["gave"] == 0
    assert g.players[A].hand == []  # drawn to the supporters, not the hand


def test_ra4_an_outrage_card_the_full_stack_cannot_hold_is_discarded() -> None:
    g = position(
        warriors={5: {MARQUISE: 1}}, sympathy=(1,), hands={M: ("anvil",)}, supporters=MOUSE
    )
    g.current = M
    run(g, Move(M, (5,)))
    answer(g, "clearing:1")
    assert finished(g)  # one option: given without asking
    assert g.discard[-1] == "anvil" and len(board_of(g, A).supporters) == 5


def test_ra5_outrage_for_a_token_removed_in_battle_comes_after_the_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dice = iter([3, 3])
    monkeypatch.setattr(battle_module, "roll_die", lambda g: next(dice))
    g = position(
        warriors={1: {EYRIE: 3}, 5: {MARQUISE: 1}},
        sympathy=(1,),
        hands={E: ("anvil", "foxfolk_steel")},
        current=E,
    )
    events = run(g, Battle(E, (1,)))  # the Alliance is the one enemy there: no defender asked
    kinds = [e.kind for e in events]
    assert "battle_over" in kinds
    assert decision(g).kind == "alliance.outrage" and decision(g).seat == E
    assert g.stack[-1].name == "alliance"  # the battle is over and gone
    assert not any(isinstance(s, Battle) for s in g.stack)
    assert g.players[E].vp == 1  # the token removed scores
    answer(g, "give:foxfolk_steel")
    assert board_of(g, A).supporters == ["foxfolk_steel"] and finished(g)


def test_ra4_a_favor_removing_two_tokens_outrages_twice() -> None:
    g = position(sympathy=(1, 6, 8), hands={M: ("anvil", "root_tea_fox")}, current=M)
    g.stack = [Hold(M)]
    favor(g, M, "fox")
    g.resume()
    assert decision(g).kind == "alliance.outrage"
    answer(g, keys(g)[0])  # the first of two fox cards; the second goes without asking
    assert finished(g)
    assert sympathy_at(g) == ()
    assert len(board_of(g, A).supporters) == 3  # two from the hand, then one drawn
    assert g.players[M].hand == [] and g.players[M].vp == 3


# -- Revolt (Law 8.4.1) ----------------------------------------------------------------------


def test_ra6_revolt_removes_every_enemy_piece_places_base_warriors_and_an_officer() -> None:
    g = position(
        warriors={8: {MARQUISE: 2, EYRIE: 1}, 3: {MARQUISE: 1}},
        buildings={8: ((MARQUISE, "sawmill"),)},
        sympathy=(8, 1, 12, 7),
        keep=3,
        supporters=("anvil", "foxfolk_steel", "crossbow_bird"),
        hands={M: ("root_tea_fox",)},
    )
    g.woodland.add_token(MARQUISE, "wood", 8)
    run(g, AllianceBirdsong(A))
    assert decision(g).kind == "alliance.revolt"
    assert keys(g) == ["clearing:1", "clearing:8", "clearing:12", "done"]
    answer(g, "clearing:8")
    assert keys(g) == ["spend:anvil", "spend:crossbow_bird"]  # RA2: each pair once
    answer(g, "spend:anvil")
    assert keys(g) == ["spend:crossbow_bird", "spend:foxfolk_steel"]
    answer(g, "spend:foxfolk_steel")
    w = g.woodland
    assert w.warriors(MARQUISE, 8) == 0 and w.warriors(EYRIE, 8) == 0
    assert w.buildings(8) == ((ALLIANCE, "fox_base"),)
    assert w.tokens(8) == ((ALLIANCE, SYMPATHY),)
    assert w.warriors(ALLIANCE, 8) == 3  # sympathetic fox clearings: 1, 8, 12
    assert board_of(g, A).officers == 1
    assert g.warriors_in_supply(A) == ALLIANCE_WARRIORS - 4
    assert g.players[A].vp == 2  # the sawmill and the wood
    # Field Hospitals comes after the revolt, for the Marquise's two warriors.
    assert decision(g).kind == "marquise.field_hospitals" and decision(g).seat == M
    answer(g, "hospital:root_tea_fox")
    assert w.warriors(MARQUISE, 3) == 3
    # The fox base is on the map: no second fox revolt; one bird left cannot spread (cost 2).
    assert finished(g)


def test_ra6_revolt_needs_a_slot_after_enemy_buildings_and_a_free_base() -> None:
    # Clearing 1 has one slot: full of a Marquise building it can revolt (the building goes);
    # clearing 6's free slot is the ruin's partner: holding a workshop it still can.
    supporters = ("anvil", "foxfolk_steel", "tax_collector_1", "root_tea_fox")
    g = position(
        buildings={1: ((MARQUISE, "workshop"),), 6: ((MARQUISE, "workshop"),)},
        sympathy=(1, 6),
        supporters=supporters,
    )
    run(g, AllianceBirdsong(A))
    assert keys(g)[:2] == ["clearing:1", "clearing:6"]
    g2 = position(
        buildings={6: ((EYRIE, "roost"),), 12: ((ALLIANCE, "fox_base"),)},
        sympathy=(6,),
        supporters=supporters,
    )
    run(g2, AllianceBirdsong(A))
    assert finished(g2)  # the fox base is already on the map (and 2, 3, 11 are not fox)


def test_ra6_the_keeps_clearing_can_revolt_and_the_keep_is_removed() -> None:
    g = position(keep=1, sympathy=(1,), supporters=("anvil", "foxfolk_steel"))
    run(g, AllianceBirdsong(A))
    assert keys(g) == ["clearing:1", "done"]
    answer(g, "clearing:1")
    assert g.woodland.buildings(1) == ((ALLIANCE, "fox_base"),)
    board = g.players[M].board
    assert isinstance(board, MarquiseBoard) and board.keep == 0
    assert g.players[A].vp == 1


def test_ra6_revolt_warriors_and_officer_as_many_as_the_supply_holds() -> None:
    g = position(
        warriors={5: {ALLIANCE: 9}},
        sympathy=(1, 6, 8, 12),
        supporters=("anvil", "foxfolk_steel"),
    )
    run(g, AllianceBirdsong(A))
    answer(g, "clearing:8")
    assert g.woodland.warriors(ALLIANCE, 8) == 1 and board_of(g, A).officers == 0


# -- losing a base (Law 8.2.4) ---------------------------------------------------------------


def test_ra10_a_lost_base_discards_its_suit_and_birds_and_half_the_officers() -> None:
    g = position(
        warriors={2: {MARQUISE: 3}},
        buildings={2: ((ALLIANCE, "mouse_base"),), 8: ((ALLIANCE, "fox_base"),)},
        supporters=("mouse_in_a_sack", "crossbow_bird", "anvil", "bake_sale"),
        officers=3,
        current=M,
    )
    g.stack = [Hold(M)]
    g.remove_piece(A, 2, "mouse_base", by=M)
    g.resume()
    board = board_of(g, A)
    assert sorted(board.supporters) == ["anvil", "bake_sale"]
    assert {"mouse_in_a_sack", "crossbow_bird"} <= set(g.discard)
    assert board.officers == 1  # 3 - 2 (half rounded up)
    assert g.warriors_in_supply(A) == ALLIANCE_WARRIORS - 1
    assert g.players[M].vp == 1


def test_ra10_the_last_base_lost_discard_down_to_five_supporters_chosen() -> None:
    many = ("anvil", "foxfolk_steel", "tax_collector_1", "a_visit_to_friends", "bake_sale")
    g = position(
        buildings={2: ((ALLIANCE, "mouse_base"),)},
        supporters=(*many, "cobbler_1", "mouse_in_a_sack"),
        current=M,
    )
    g.stack = [Hold(M)]
    g.remove_piece(A, 2, "mouse_base", by=M)
    g.resume()
    assert decision(g).kind == "alliance.discard" and decision(g).seat == A
    assert len(keys(g)) == 6
    answer(g, "discard:cobbler_1")
    assert finished(g) and sorted(board_of(g, A).supporters) == sorted(many)


def test_a_base_removed_can_be_placed_again_by_a_later_revolt() -> None:
    g = position(sympathy=(2,), supporters=("mouse_in_a_sack", "bake_sale"), current=M)
    g.woodland.add_building(ALLIANCE, "mouse_base", 7)
    g.stack = [Hold(M)]
    g.remove_piece(A, 7, "mouse_base", by=M)
    g.resume()
    assert board_of(g, A).supporters == ["bake_sale"]  # the mouse card went with the base
    board_of(g, A).supporters += ["investments", "codebreakers_1"]
    g.current = A
    run(g, AllianceBirdsong(A))
    assert keys(g) == ["clearing:2", "done"]


# -- Daylight (Law 8.5) ----------------------------------------------------------------------


def daylight(g: RootState) -> list[Event]:
    return run(g, AllianceDaylight(A))


def test_ra14_crafting_comes_first_each_sympathy_token_once() -> None:
    g = position(
        sympathy=(1, 7),
        hands={A: ("anvil", "crossbow_mouse", "mouse_in_a_sack", "bake_sale")},
    )
    assert g.rules(A).crafting_pieces(g, A) == {"fox": 1, "mouse": 1}
    daylight(g)
    assert decision(g).kind == "craft.card"
    assert set(keys(g)) == {"craft:anvil", "craft:crossbow_mouse", "craft:mouse_in_a_sack", "done"}
    answer(g, "craft:anvil")  # the fox token is used: only the mouse one is left
    assert keys(g) == ["craft:mouse_in_a_sack", "done"]
    answer(g, "craft:mouse_in_a_sack")
    assert g.players[A].items == ["hammer", "bag"]
    # Then Mobilize and Train; crafting is not offered again.
    assert decision(g).kind == "alliance.daylight"
    assert keys(g) == ["mobilize:bake_sale", "mobilize:crossbow_mouse", "done"]


def test_mobilize_adds_a_card_from_hand_to_the_supporters_privately() -> None:
    g = position(hands={A: ("anvil", "bake_sale")})
    daylight(g)
    assert keys(g) == ["mobilize:anvil", "mobilize:bake_sale", "done"]
    events = answer(g, "mobilize:bake_sale")
    assert board_of(g, A).supporters == ["bake_sale"] and g.players[A].hand == ["anvil"]
    assert [e.private_to for e in of_kind(events, "supporter_card")] == [A]
    assert all("bake_sale" not in str(e.data) for e in events if e.private_to is None)


def test_ra3_law_8_5_2_mobilize_at_a_full_stack_discards_the_card() -> None:
    """Law 8.5.2: Mobilize adds a card from hand to the stack, with no prerequisite; Law
    8.2.3.1: a supporter the stack cannot hold (five, no base on the map) is discarded."""
    g = position(hands={A: ("anvil", "bake_sale")}, supporters=MOUSE)
    daylight(g)
    assert keys(g) == ["mobilize:anvil", "mobilize:bake_sale", "done"]
    events = answer(g, "mobilize:bake_sale")
    assert board_of(g, A).supporters == list(MOUSE)  # still five
    assert g.players[A].hand == ["anvil"] and g.discard[-1] == "bake_sale"
    [discarded] = of_kind(events, "discard")
    assert discarded.private_to is None and discarded.data["card"] == "bake_sale"
    assert not of_kind(events, "supporter_card")
    # With a base on the map the stack has no limit: the card joins it.
    g2 = position(hands={A: ("anvil",)}, supporters=MOUSE, buildings={8: ((ALLIANCE, "fox_base"),)})
    daylight(g2)
    answer(g2, "mobilize:anvil")
    assert board_of(g2, A).supporters == [*MOUSE, "anvil"] and "anvil" not in g2.discard


def test_ra3_law_3_3_3_a_dominance_card_mobilized_at_a_full_stack_becomes_available() -> None:
    """Law 8.2.3.1 discards the card the full stack cannot hold, and Law 3.3.3 puts a dominance
    card that would be placed in the discard pile beside the map, available to take: so
    mobilizing at the limit is a real choice."""
    g = position(hands={A: ("anvil", "dominance_fox")}, supporters=MOUSE)
    assert g.available == []
    daylight(g)
    assert "mobilize:dominance_fox" in keys(g)
    answer(g, "mobilize:dominance_fox")
    assert g.available == ["dominance_fox"] and "dominance_fox" not in g.discard
    assert board_of(g, A).supporters == list(MOUSE) and g.players[A].hand == ["anvil"]
    check_invariants(g)


def test_ra9_train_spends_a_card_matching_a_base_on_the_map_for_an_officer() -> None:
    g = position(
        hands={A: ("anvil", "bake_sale", "crossbow_bird")},
        buildings={8: ((ALLIANCE, "fox_base"),)},
    )
    daylight(g)
    train = [k for k in keys(g) if k.startswith("train:")]
    assert train == ["train:anvil", "train:crossbow_bird"]  # fox, and the wild bird
    answer(g, "train:anvil")
    assert board_of(g, A).officers == 1 and "anvil" in g.discard
    assert g.warriors_in_supply(A) == ALLIANCE_WARRIORS - 1


def test_ra9_no_train_without_a_base_or_a_warrior_in_supply() -> None:
    g = position(hands={A: ("anvil",)}, supporters=MOUSE)
    daylight(g)
    assert keys(g) == ["mobilize:anvil", "done"]  # no base: nothing to train for
    g2 = position(
        hands={A: ("anvil",)},
        supporters=MOUSE,
        buildings={8: ((ALLIANCE, "fox_base"),)},
        warriors={8: {ALLIANCE: 7}},
        officers=3,
    )
    daylight(g2)
    assert not any(k.startswith("train:") for k in keys(g2))


# -- Evening (Law 8.6) -----------------------------------------------------------------------


def evening(g: RootState) -> list[Event]:
    return run(g, AllianceEvening(A, board_of(g, A).officers))


def test_ra11_military_operations_up_to_the_officers_and_may_stop() -> None:
    g = position(
        warriors={8: {ALLIANCE: 2}, 4: {MARQUISE: 1}},
        buildings={8: ((ALLIANCE, "fox_base"),)},
        sympathy=(8,),
        officers=2,
    )
    evening(g)
    assert decision(g).kind == "alliance.operation"
    assert keys(g) == ["action:move", "action:recruit", "done"]  # no enemy, 8 sympathetic
    answer(g, "action:recruit")  # one base: placed without asking
    assert g.woodland.warriors(ALLIANCE, 8) == 3
    answer(g, "action:move")
    assert decision(g).kind == "move.destination"  # the one origin is taken without asking
    answer(g, "clearing:4")
    answer(g, "count:2")
    # Two officers, two operations: then the Evening draw (1 + 1 base) without asking.
    assert finished(g)
    assert g.woodland.warriors(ALLIANCE, 4) == 2 and len(g.players[A].hand) == 2
    g = position(warriors={8: {ALLIANCE: 2}}, officers=3)
    evening(g)
    answer(g, "done")
    assert finished(g) and len(g.players[A].hand) == 1


def test_battle_and_organize_operations() -> None:
    g = position(warriors={5: {ALLIANCE: 3, EYRIE: 1}, 2: {ALLIANCE: 1}}, officers=2)
    evening(g)
    assert keys(g) == ["action:move", "action:battle", "action:organize", "done"]
    answer(g, "action:organize")
    assert decision(g).kind == "alliance.organize"
    assert keys(g) == ["clearing:2", "clearing:5"]
    answer(g, "clearing:2")
    assert sympathy_at(g) == (2,) and g.woodland.warriors(ALLIANCE, 2) == 0
    assert g.players[A].vp == 0  # the first token's space shows 0 VP
    events = answer(g, "action:battle")  # one clearing, one enemy: the dice roll at once
    assert of_kind(events, "battle") and of_kind(events, "battle_over")


def test_organize_scores_the_track_and_not_in_the_keep_clearing() -> None:
    g = position(
        warriors={1: {ALLIANCE: 1}, 7: {ALLIANCE: 1}},
        keep=1,
        sympathy=(2, 3, 4),
        officers=1,
    )
    evening(g)
    assert "action:organize" in keys(g)
    answer(g, "action:organize")  # only 7: the keep closes 1 to the Alliance
    assert sympathy_at(g) == (2, 3, 4, 7) and g.players[A].vp == 1


def test_ra12_evening_draws_one_plus_a_card_per_base_then_the_hand_limit() -> None:
    g = position(
        buildings={8: ((ALLIANCE, "fox_base"),), 2: ((ALLIANCE, "mouse_base"),)},
        hands={A: ("anvil", "bake_sale", "sword", "crossbow_bird")},
    )
    events = evening(g)  # no officers: straight to the draw
    [draw] = of_kind(events, "draw")
    assert draw.data["count"] == 3
    assert decision(g).kind == "hand_limit.discard" and len(g.players[A].hand) == 7
    answer(g, keys(g)[0])
    answer(g, keys(g)[0])
    assert len(g.players[A].hand) == 5 and finished(g)


# -- Guerrilla War (Law 8.2.2) ---------------------------------------------------------------


@pytest.mark.parametrize(("defender", "dealt", "taken"), [(A, 1, 3), (M, 3, 1)])
def test_guerrilla_war_the_alliance_defends_with_the_high_roll(
    monkeypatch: pytest.MonkeyPatch, defender: int, dealt: int, taken: int
) -> None:
    dice = iter([3, 1])
    monkeypatch.setattr(battle_module, "roll_die", lambda g: next(dice))
    faction = {A: ALLIANCE, M: MARQUISE}[defender]
    g = position(warriors={5: {EYRIE: 4, faction: 4}}, current=E)
    events = run(g, Battle(E, (5,)))  # one enemy there: no defender asked, no ambush in hand
    [roll] = of_kind(events, "roll")
    assert roll.data["attacker_hits"] == dealt and roll.data["defender_hits"] == taken
    assert g.woodland.warriors(faction, 5) == 4 - dealt
    assert g.woodland.warriors(EYRIE, 5) == 4 - taken


# -- a whole turn, the view, rebuilding --------------------------------------------------------


def test_a_turn_runs_birdsong_daylight_evening_and_the_view_round_trips() -> None:
    g = position(
        warriors={4: {ALLIANCE: 2}, 7: {EYRIE: 1}},
        sympathy=(8, 12),
        supporters=("anvil", "foxfolk_steel"),
        hands={A: ("bake_sale", "crossbow_bird")},
        officers=1,
        current=A,
    )
    g.begin(None)
    seen = []
    for _ in range(200):
        if not g.pending() or g.current != A:
            break
        d = decision(g)
        seen.append(d.kind)
        for seat in (M, E, A):
            view = g.observe(seat)
            again = RootState.from_view(view, 3)
            assert again.observe(seat) == view
        answer(g, keys(g)[0])
    assert {"alliance.revolt", "alliance.daylight", "alliance.operation"} <= set(seen)
    assert g.current != A  # the turn ended


def test_ra15_card_effects_beside_the_alliances_birdsong_and_daylight_choices() -> None:
    g = position(
        sympathy=(2,),
        supporters=("bake_sale",),
        hands={M: ("anvil",), A: ("investments",)},
        buildings={7: ((ALLIANCE, "mouse_base"),)},
    )
    g.players[A].crafted = ["royal_claim", "stand_and_deliver_1", "tax_collector_1"]
    for card_id in g.players[A].crafted:
        _take(g, card_id)
    g.woodland.place_warriors(ALLIANCE, 7, 1)
    spread(g)
    assert keys(g)[-3:] == ["use:royal_claim", "use:stand_and_deliver", "done"]
    events = answer(g, "use:royal_claim")  # rules nothing: 0 VP, but it is used up
    assert of_kind(events, "effect") and "royal_claim" in g.discard
    assert keys(g)[-2:] == ["use:stand_and_deliver", "done"]
    daylight(g)
    assert keys(g) == ["mobilize:investments", "train:investments", "use:tax_collector", "done"]
    answer(g, "use:tax_collector")  # one Alliance warrior on the map: taken without asking
    assert g.woodland.warriors(ALLIANCE, 7) == 0 and len(g.players[A].hand) == 2
    assert "tax_collector" in g.players[A].used and decision(g).kind == "alliance.daylight"
    assert not any(k.startswith("use:") for k in keys(g))


def test_ra15_an_alliance_birdsong_with_nothing_to_do_asks_nothing() -> None:
    g = position(supporters=(), hands={A: ("anvil",)})
    assert g.rules(A).phase(g, A, "birdsong") is None
    g = position(supporters=("anvil",))
    assert isinstance(g.rules(A).phase(g, A, "birdsong"), AllianceBirdsong)


def test_ra13_determinize_deals_the_supporters_again_for_other_seats_only() -> None:
    g = position(
        warriors={5: {ALLIANCE: 1}, 2: {MARQUISE: 1}},
        supporters=("anvil", "bake_sale", "sword"),
        hands={M: ("foxfolk_steel",), A: ("crossbow_bird",)},
        current=M,
    )
    g.begin(None)
    own = g.determinize(A, 1)
    assert sorted(board_of(own, A).supporters) == ["anvil", "bake_sale", "sword"]
    dealt = [sorted(board_of(g.determinize(M, seed), A).supporters) for seed in range(20)]
    assert all(len(cards) == 3 for cards in dealt)
    assert any(cards != ["anvil", "bake_sale", "sword"] for cards in dealt)
    for seed in range(5):
        sample = g.determinize(M, seed)
        assert sample.observe(M) == g.observe(M)
        rebuilt = RootState.from_view(g.observe(M), seed)
        assert rebuilt.observe(M) == g.observe(M)
        assert len(board_of(rebuilt, A).supporters) == 3
        assert HIDDEN_CARD not in board_of(rebuilt, A).supporters


def test_the_board_copies_and_canonical_forms_are_independent() -> None:
    board = AllianceBoard(["anvil"], 2)
    other = board.copy()
    other.supporters.append("sword")
    other.officers = 0
    assert board.canonical() == (("anvil",), 2) and other.canonical() == (("anvil", "sword"), 0)
    assert board.warriors_off_map() == 2 and board.hidden_cards() == ("anvil",)
    with pytest.raises(ValueError):
        board.set_hidden_cards(["a", "b"])


def test_every_ruling_has_an_id_and_text() -> None:
    assert list(ALLIANCE_RULINGS) == [f"RA{i}" for i in range(1, len(ALLIANCE_RULINGS) + 1)]


# -- random three-player games ---------------------------------------------------------------

DECK3 = Counter(c.id for c in standard_deck(3))
PRIVATE = {"drew", "looked_at_hand", "card_taken_detail", "supporter_card", "showed_hand"}


def _cards(g: RootState) -> Counter[str]:
    """Every card, wherever it is: deck, discard, hands, crafted, Decree, supporters, the
    dominance cards beside the map or activated."""
    found = Counter(g.deck) + Counter(g.discard) + Counter(getattr(g, "available", []))
    for p in g.players:
        found += Counter(p.hand) + Counter(p.crafted) + Counter(p.board.hidden_cards())
        dominance = getattr(p, "dominance", None)
        if dominance:
            found[dominance] += 1
        for name, column in p.board.public().items():
            if name.startswith("decree_"):
                found += Counter(c for c in column if not c.startswith("loyal_vizier"))
    return found


def check(g: RootState) -> None:
    a = g.seat_of[ALLIANCE]
    w = g.woodland
    check_invariants(g)
    assert _cards(g) == DECK3, "a card is lost or doubled"
    assert len(sympathy_at(g)) <= ALLIANCE_SYMPATHY_TOKENS
    board = board_of(g, a)
    assert w.warriors_on_map(ALLIANCE) + board.officers <= ALLIANCE_WARRIORS
    assert g.warriors_in_supply(a) >= 0
    for kind in ("fox_base", "rabbit_base", "mouse_base"):
        sites = w.building_sites(ALLIANCE, kind)
        assert len(sites) <= 1
        assert all(g.clearing_suit(c) == kind.split("_")[0] for c in sites)
    if not any(w.building_sites(ALLIANCE, k) for k in ("fox_base", "rabbit_base", "mouse_base")):
        on_stack = g.stack and g.stack[-1].kind() == "alliance.discard"
        assert len(board.supporters) <= 5 or on_stack
    for seat in range(g.n):
        if seat != a:
            values = dict(g.observe(seat).players[a].board)
            assert "supporter_cards" not in values
            assert values["supporters"] == len(board.supporters)


def play(seed: int, board: str) -> tuple[RootState, int]:
    g = GAME.new(GameConfig(3, board), seed)
    rng = random.Random(seed)
    for event in g.setup_events:
        assert event.kind not in PRIVATE or event.private_to is not None
    taken = 0
    while g.pending() and taken < 20_000:
        d = g.pending()[0]
        for event in g.apply(d.seat, rng.randrange(len(d.options))):
            assert event.kind not in PRIVATE or event.private_to is not None, event
        taken += 1
        if taken % 5 == 0:
            check(g)
    assert not g.pending(), f"seed {seed} did not end"
    check(g)
    return g, taken


def seeds(depth: Depth) -> Iterator[tuple[int, str]]:
    for seed in range(depth(fast=16, slow=60)):
        yield seed, "autumn" if seed % 2 else "winter"


def test_random_three_player_games_end_conserve_cards_and_hide_supporters(depth: Depth) -> None:
    winners: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed, board in seeds(depth):
        g, _ = play(seed, board)
        outcome = g.outcome()
        assert outcome is not None
        winners[g.faction_of(outcome.ranking[0])] += 1
        config = GameConfig(3, board)
        again = replay(GAME, config, seed, g.history)
        assert again.digest() == g.digest() and again.outcome() == outcome
        assert isinstance(again, RootState)
        for event in again.setup_events:
            kinds[event.kind] += 1
    assert set(winners) <= {MARQUISE, EYRIE, ALLIANCE}
    assert kinds["supporter_card"] > 0


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_alliance_views_and_options_round_trip_on_the_wire(board: str) -> None:
    """The Alliance's board (its supporter cards in its own view, their number in the others')
    and its options survive the wire exactly, for every seat and the spectators."""
    from kassen import wire
    from kassen.wire.root import ViewEncoder, view_to_proto

    kinds: set[str] = set()
    for seed in (1,):  # tests/root/test_wire.py plays more three-player games, fewer views
        g = GAME.new(GameConfig(3, board), seed)
        encoders = [ViewEncoder() for _ in range(3)]
        rng = random.Random(seed)
        while g.pending():
            d = g.pending()[0]
            kinds.add(d.kind)
            for option in d.options:
                assert wire.option_from_proto(wire.option_to_proto(GAME.name, option)) == option
            for seat in (0, 1, 2, None):
                view = g.observe(seat)
                assert wire.observation_from_proto(wire.observation_to_proto("root", view)) == view
            view = g.observe(d.seat)
            assert encoders[d.seat].encode(view) == view_to_proto(view)
            g.apply(d.seat, rng.randrange(len(d.options)))
    assert {"alliance.spread", "alliance.daylight", "alliance.supporter"} <= kinds


def test_random_games_reach_every_alliance_decision(depth: Depth) -> None:
    seen: Counter[str] = Counter()
    for seed, board in seeds(depth):
        g = GAME.new(GameConfig(3, board), seed)
        rng = random.Random(seed)
        while g.pending():
            d = g.pending()[0]
            seen[d.kind] += 1
            g.apply(d.seat, rng.randrange(len(d.options)))
    common = {
        "alliance.revolt",
        "alliance.spread",
        "alliance.supporter",
        "alliance.daylight",
        "alliance.operation",
        "alliance.outrage",
        "alliance.recruit",
    }
    assert common <= set(seen), common - set(seen)


# -- the greedy Alliance ---------------------------------------------------------------------

#: The six seatings of the three factions, so the greedy Alliance plays every seat.
SEATINGS = (
    "alliance,marquise,eyrie",
    "alliance,eyrie,marquise",
    "marquise,alliance,eyrie",
    "eyrie,alliance,marquise",
    "marquise,eyrie,alliance",
    "eyrie,marquise,alliance",
)


def test_greedy_alliance_beats_random_in_every_seat() -> None:
    """Measured when written (90 games per map, every seating 15 times, against random
    Marquise and Eyrie): Autumn 86/90 (30/30, 27/30, 29/30 in seats 0-2), Winter 83/90
    (27/30, 28/30, 28/30); a random Alliance in the same games wins 6/90 on each map."""
    from games.local import play_local
    from games.policies.base import Policy
    from games.policies.random_policy import RandomPolicy
    from games.root.greedy import GreedyPolicy

    wins: Counter[int] = Counter()
    for seed in range(18):
        seating = SEATINGS[seed % len(SEATINGS)]
        seat = seating.split(",").index(ALLIANCE)
        config = GameConfig(3, "autumn" if seed % 2 else "winter", {"factions": seating})
        bots: list[Policy] = [RandomPolicy(seed + 100 + s) for s in range(3)]
        bots[seat] = GreedyPolicy(seed)
        outcome = play_local(GAME, config, seed, bots).outcome()
        assert outcome is not None, f"seed {seed} did not finish"
        wins[seat] += outcome.ranking[0] == seat
    print(f"greedy Alliance vs random, wins by seat (of 6 each): {dict(sorted(wins.items()))}")
    assert sum(wins.values()) >= 12
    assert all(wins[seat] >= 3 for seat in range(3)), wins


def test_greedy_three_player_games_are_deterministic_and_finish() -> None:
    from functools import partial

    from games.policies.base import DecisionContext
    from games.root.greedy import GreedyPolicy

    def choices(seed: int) -> list[tuple[str, int]]:
        g = GAME.new(GameConfig(3, "autumn"), seed)
        bots = [GreedyPolicy(seed + s) for s in range(3)]
        made = []
        while g.pending():
            d = g.pending()[0]
            ctx = DecisionContext(GAME.name, d.seat, d, partial(g.observe, d.seat))
            index = bots[d.seat].choose(ctx)
            assert 0 <= index < len(d.options)
            made.append((d.kind, index))
            g.apply(d.seat, index)
            assert len(made) < 20_000
        assert g.outcome() is not None
        return made

    first = choices(3)
    assert first == choices(3)
    assert any(kind.startswith("alliance.") for kind, _ in first)
