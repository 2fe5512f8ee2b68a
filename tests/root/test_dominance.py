"""Dominance cards (Law 3.3), rule by rule, in three-player positions (seat 0 Marquise, 1 Eyrie,
2 Alliance: ``positions.three_player_position``), and rulings RT16-RT20."""

from __future__ import annotations

import pytest

from games.contract import GameConfig
from games.root.cards import CARD_BY_ID, DOMINANCE_IDS, standard_deck
from games.root.game import GAME
from games.root.lineup import unavailable
from games.root.positions import three_player_position as position
from games.root.state import RootState
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE
from kassen.wire.root import ViewEncoder, view_from_proto, view_to_proto
from tests.root.helpers import choose, decision, keys

NOT_YET = unavailable(3)
pytestmark = pytest.mark.skipif(NOT_YET is not None, reason=NOT_YET or "")

FOX_CLEARINGS = (1, 6, 8, 12)  # Autumn's printed fox clearings
MARQUISE_SEAT, EYRIE_SEAT, ALLIANCE_SEAT = 0, 1, 2


def events_of(g: RootState, key: str) -> list[str]:
    d = decision(g)
    index = [o.key for o in d.options].index(key)
    return [e.kind for e in g.apply(d.seat, index)]


def at_birdsong_of(g: RootState, seat: int) -> list[str]:
    """Start the turn of ``seat`` from scratch (nothing on the stack); the events of that run."""
    g.stack = []
    g.current = (seat - 1) % g.n
    return [e.kind for e in g.resume()]


# -- the cards --------------------------------------------------------------------------------


def test_the_four_dominance_cards_are_in_three_player_decks_only() -> None:
    """Law 5.1 step 3: two players remove them (the Japanese rules summary:
    2人プレイ時は圧倒カードは使用しません)."""
    assert sorted(DOMINANCE_IDS) == [
        "dominance_bird",
        "dominance_fox",
        "dominance_mouse",
        "dominance_rabbit",
    ]
    assert not set(DOMINANCE_IDS) & {c.id for c in standard_deck(2)}
    assert set(DOMINANCE_IDS) <= {c.id for c in standard_deck(3)}
    two = GAME.new(GameConfig(2, "autumn", {"games": 1}), 3)
    three = GAME.new(GameConfig(3, "autumn"), 3)
    in_play = [*three.deck, *(c for p in three.players for c in p.hand)]
    assert len(in_play) + sum(len(p.board.hidden_cards()) for p in three.players) == 54
    assert not set(DOMINANCE_IDS) & {*two.deck, *(c for p in two.players for c in p.hand)}


# -- activating (Law 3.3.1) -------------------------------------------------------------------


def test_rt17_activation_needs_10_vp_and_is_offered_at_start_and_end_of_daylight() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}}, hands={MARQUISE: ("dominance_fox",)}, vp={MARQUISE: 9}
    )
    assert decision(g).kind == "marquise.action"  # 9 VP: nothing to offer, nothing asked
    g = position(
        warriors={1: {MARQUISE: 2}}, hands={MARQUISE: ("dominance_fox",)}, vp={MARQUISE: 10}
    )
    assert decision(g).kind == "cards.daylight_start"
    assert keys(g) == ["activate:dominance_fox", "done"]
    choose(g, "done")
    while decision(g).kind == "marquise.action" or decision(g).seat != MARQUISE_SEAT:
        choose(g, "done")
    assert decision(g).kind == "cards.daylight_end"
    assert keys(g) == ["activate:dominance_fox", "done"]
    choose(g, "activate:dominance_fox")
    assert g.players[MARQUISE_SEAT].dominance == "dominance_fox"


def test_rt17_every_faction_gets_the_window() -> None:
    for faction in (EYRIE, ALLIANCE):
        g = position(
            warriors={1: {MARQUISE: 2}, 3: {EYRIE: 2}, 6: {ALLIANCE: 1}},
            hands={faction: ("dominance_mouse", "anvil")},
            vp={faction: 11},
            current=faction,
        )
        while decision(g).kind != "cards.daylight_start":
            d = decision(g)  # keep the dominance card in hand (not in the Decree)
            g.apply(d.seat, next(i for i, o in enumerate(d.options) if "dominance" not in o.key))
        assert decision(g).seat == g.seat_of[faction]
        assert "activate:dominance_mouse" in keys(g)


def test_rt17_dominance_is_offered_beside_each_daylight_action_choice() -> None:
    """Marquise actions, Eyrie Decree cards, Alliance Mobilize/Train (as RT7's card effects)."""
    g = position(
        warriors={1: {MARQUISE: 3}, 5: {MARQUISE: 1}},
        hands={MARQUISE: ("anvil", "sword")},
        vp={MARQUISE: 12},
        available=("dominance_fox",),
    )
    assert decision(g).kind == "cards.daylight_start"
    choose(g, "done")  # not at the start of Daylight: it is offered again beside the actions
    assert decision(g).kind == "marquise.action"
    assert "take:dominance_fox:anvil" in keys(g) and "action:march" in keys(g)
    choose(g, "take:dominance_fox:anvil")
    assert decision(g).kind == "marquise.action"  # no action spent
    assert "activate:dominance_fox" in keys(g)
    choose(g, "activate:dominance_fox")
    assert g.players[MARQUISE_SEAT].dominance == "dominance_fox"
    assert decision(g).kind == "marquise.action"
    for faction, kind in ((EYRIE, "eyrie.order"), (ALLIANCE, "alliance.daylight")):
        g = position(
            warriors={1: {MARQUISE: 2}, 3: {EYRIE: 3}, 6: {ALLIANCE: 1}},
            hands={faction: ("sword", "investments", "mouse_in_a_sack", "crossbow_mouse")},
            available=("dominance_mouse",),
            current=faction,
        )
        while decision(g).kind != kind:
            d = decision(g)
            answers = [o.key for o in d.options if "dominance" not in o.key and o.key != "done"]
            choose(g, "done" if d.kind.startswith("cards.") or not answers else answers[0])
        assert any(k.startswith("take:dominance_mouse:") for k in keys(g)), keys(g)


def test_rt19_an_activated_card_leaves_the_hand_and_ends_scoring() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}},
        hands={MARQUISE: ("dominance_fox", "dominance_bird", "anvil")},
        vp={MARQUISE: 14},
    )
    assert keys(g) == ["activate:dominance_bird", "activate:dominance_fox", "done"]
    assert "dominance_activated" in events_of(g, "activate:dominance_fox")
    me = g.players[MARQUISE_SEAT]
    assert me.hand == ["dominance_bird", "anvil"] and me.dominance == "dominance_fox"
    # Law 3.3.2: one activated card for good, never replaced: no second activation.
    assert "activate:dominance_bird" not in keys(g)
    g.score(MARQUISE_SEAT, 5, "test")
    g.score(MARQUISE_SEAT, -2, "test")
    assert me.vp == 14  # the marker is off the track: nothing scored, nothing lost
    view = g.observe(EYRIE_SEAT)
    assert view.players[MARQUISE_SEAT].dominance == "dominance_fox"
    assert view.players[MARQUISE_SEAT].hand_count == 2  # not in the hand (no hand limit)


# -- winning (Law 3.3.1.1, 3.3.1.2) -----------------------------------------------------------


def test_rt18_three_ruled_clearings_of_the_suit_win_at_the_start_of_birdsong() -> None:
    three = {c: {MARQUISE: 1} for c in FOX_CLEARINGS[:3]}
    g = position(
        warriors={**three, 3: {EYRIE: 2}}, dominance={MARQUISE: "dominance_fox"}, current=EYRIE
    )
    # Activated and ruling: not a win at the start of another seat's Birdsong.
    assert g.winner is None and g.pending()
    at_birdsong_of(g, ALLIANCE_SEAT)
    assert g.winner is None and g.outcome() is None
    events = at_birdsong_of(g, MARQUISE_SEAT)
    assert "dominance_victory" in events
    assert events.index("dominance_victory") < events.index("game_over")
    outcome = g.outcome()
    assert outcome is not None and outcome.ranking[0] == MARQUISE_SEAT


def test_two_clearings_of_the_suit_or_clearings_of_another_suit_do_not_win() -> None:
    two = {c: {MARQUISE: 1} for c in FOX_CLEARINGS[:2]}
    g = position(
        warriors={**two, 2: {MARQUISE: 1}, 3: {EYRIE: 2}}, dominance={MARQUISE: "dominance_fox"}
    )
    at_birdsong_of(g, MARQUISE_SEAT)
    assert g.winner is None and g.pending()
    # A tie is not rule: three fox clearings, one shared evenly with the Alliance.
    three = {c: {MARQUISE: 1} for c in FOX_CLEARINGS[:3]}
    three[FOX_CLEARINGS[2]] = {MARQUISE: 1, ALLIANCE: 1}
    g = position(warriors={**three, 3: {EYRIE: 2}}, dominance={MARQUISE: "dominance_fox"})
    at_birdsong_of(g, MARQUISE_SEAT)
    assert g.winner is None


@pytest.mark.parametrize(
    ("corners", "wins"),
    [((1, 3), True), ((2, 4), True), ((1, 2), False), ((3, 4), False), ((1,), False)],
)
def test_rt18_bird_dominance_needs_two_opposite_corners(
    corners: tuple[int, ...], wins: bool
) -> None:
    warriors = {c: {EYRIE: 2} for c in corners}
    warriors[7] = {MARQUISE: 2}
    g = position(warriors=warriors, dominance={EYRIE: "dominance_bird"}, current=MARQUISE)
    events = at_birdsong_of(g, EYRIE_SEAT)
    assert (g.winner == EYRIE_SEAT) is wins
    assert ("dominance_victory" in events) is wins


def test_rt16_a_dominance_winner_ranks_first_and_the_others_by_vp() -> None:
    three = {c: {ALLIANCE: 1} for c in FOX_CLEARINGS[:3]}
    g = position(
        warriors={**three, 2: {MARQUISE: 1}, 3: {EYRIE: 1}},
        dominance={ALLIANCE: "dominance_fox"},
        vp={MARQUISE: 20, EYRIE: 25, ALLIANCE: 10},
    )
    at_birdsong_of(g, ALLIANCE_SEAT)
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.ranking == (ALLIANCE_SEAT, EYRIE_SEAT, MARQUISE_SEAT)
    assert tuple(outcome.scores) == (20, 25, 10)
    assert outcome.tiebreak["dominance"] == ("", "", "dominance_fox")


def test_rt16_equal_vp_go_to_the_seat_later_in_the_turn_order() -> None:
    g = position(warriors={1: {MARQUISE: 1}}, vp={MARQUISE: 7, EYRIE: 7, ALLIANCE: 7})
    start = g.start_seat
    later_first = sorted(range(3), key=lambda s: -((s - start) % 3))
    assert g.adjudicate().ranking == tuple(later_first)
    g.players[later_first[2]].vp = 8
    assert g.adjudicate().ranking[0] == later_first[2]


# -- available cards (Law 3.3.3, 3.3.4) ------------------------------------------------------


def test_a_spent_dominance_card_goes_beside_the_map_not_to_the_discard_pile() -> None:
    g = position(warriors={1: {MARQUISE: 2}}, hands={MARQUISE: ("dominance_rabbit", "anvil")})
    g.spend(MARQUISE_SEAT, "dominance_rabbit", "test")
    assert g.available == ["dominance_rabbit"] and "dominance_rabbit" not in g.discard
    assert g.observe(EYRIE_SEAT).available_dominance == ("dominance_rabbit",)


def test_rt20_an_available_card_is_taken_by_spending_a_card_of_its_suit() -> None:
    # cobbler_1 and cobbler_2 are copies (one option); birds are wild; foxes do not match.
    hand = ("cobbler_1", "cobbler_2", "ambush_bird_1", "anvil")
    g = position(
        warriors={1: {MARQUISE: 2}}, hands={MARQUISE: hand}, available=("dominance_rabbit",)
    )
    assert keys(g) == [
        "take:dominance_rabbit:ambush_bird_1",
        "take:dominance_rabbit:cobbler_1",
        "done",
    ]
    assert "dominance_taken" in events_of(g, "take:dominance_rabbit:cobbler_1")
    me = g.players[MARQUISE_SEAT]
    assert sorted(me.hand) == ["ambush_bird_1", "anvil", "cobbler_2", "dominance_rabbit"]
    assert g.available == [] and g.discard[-1] == "cobbler_1"
    assert "take:dominance_rabbit:ambush_bird_1" not in keys(g)


def test_rt20_the_bird_dominance_is_taken_only_with_a_bird_card() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}},
        hands={MARQUISE: ("anvil", "sword", "bake_sale")},
        available=("dominance_bird",),
    )
    assert decision(g).kind == "marquise.action"  # no bird card: nothing to take
    g = position(
        warriors={1: {MARQUISE: 2}},
        hands={MARQUISE: ("anvil", "armorers_1")},
        available=("dominance_bird", "dominance_fox"),
    )
    assert keys(g) == [
        "take:dominance_bird:armorers_1",
        "take:dominance_fox:anvil",
        "take:dominance_fox:armorers_1",
        "done",
    ]


def test_rt20_a_dominance_card_pays_for_another_which_becomes_available() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}},
        hands={MARQUISE: ("dominance_bird",)},
        available=("dominance_mouse",),
    )
    choose(g, "take:dominance_mouse:dominance_bird")
    assert g.players[MARQUISE_SEAT].hand == ["dominance_mouse"]
    assert g.available == ["dominance_bird"]


def test_rt17_a_card_taken_can_be_activated_in_the_same_window() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}},
        hands={MARQUISE: ("anvil",)},
        available=("dominance_fox",),
        vp={MARQUISE: 10},
    )
    choose(g, "take:dominance_fox:anvil")
    assert decision(g).kind == "cards.daylight_start"
    assert keys(g) == ["activate:dominance_fox", "done"]


# -- the wire and a rebuilt position ----------------------------------------------------------


def test_activated_and_available_cards_cross_the_wire_and_rebuild() -> None:
    g = position(
        warriors={1: {MARQUISE: 2}, 3: {EYRIE: 2}},
        hands={MARQUISE: ("anvil",)},
        dominance={EYRIE: "dominance_bird"},
        available=("dominance_fox", "dominance_mouse"),
        vp={EYRIE: 13},
    )
    encoder = ViewEncoder()
    first = g.observe(MARQUISE_SEAT)
    assert view_from_proto(view_to_proto(first)) == first
    assert encoder.encode(first) == view_to_proto(first)
    choose(g, "take:dominance_fox:anvil")
    second = g.observe(MARQUISE_SEAT)
    assert second.available_dominance == ("dominance_mouse",)
    assert view_from_proto(view_to_proto(second)) == second
    assert encoder.encode(second) == view_to_proto(second)
    rebuilt = RootState.from_view(second, 5)
    assert rebuilt.observe(MARQUISE_SEAT) == second
    assert rebuilt.players[EYRIE_SEAT].dominance == "dominance_bird"
    assert rebuilt.pending() == g.pending()
    assert CARD_BY_ID["dominance_fox"].suit == "fox"
