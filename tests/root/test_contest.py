"""The contest around the games: two games with swapped factions (the Japanese rules summary), victory at
30, tiebreaks, adjudication, the shared deck, hidden hands and determinization (RT1-RT8)."""

from __future__ import annotations

import random

import pytest

from games.contract import GameConfig, InvalidConfig, replay
from games.root import GAME
from games.root.cards import HAND_LIMIT, standard_deck
from games.root.crafting import Craft
from games.root.hand_limit import HandLimit
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from games.root.state import RootState
from tests.root.helpers import choose, decision, keys


def play_random(g: RootState, seed: int, limit: int = 20_000) -> RootState:
    rng = random.Random(seed)
    for _ in range(limit):
        pending = g.pending()
        if not pending:
            break
        d = pending[0]
        g.apply(d.seat, rng.randrange(len(d.options)))
    return g


def test_rt1_a_two_player_contest_is_two_games_with_totalled_scores() -> None:
    g = GAME.new(GameConfig(2, "autumn"), 4)
    factions_1 = tuple(p.faction for p in g.players)
    starter_1 = g.current
    seen_game_2 = False
    rng = random.Random(4)
    while g.pending():
        d = g.pending()[0]
        g.apply(d.seat, rng.randrange(len(d.options)))
        if g.game_number == 2 and not seen_game_2:
            seen_game_2 = True
            # RT2: the seats swap factions and the other seat starts game 2.
            assert tuple(p.faction for p in g.players) == factions_1[::-1]
            assert g.current == 1 - starter_1
            # RT1: game 2 is set up afresh: no VP yet, 3 cards each, full deck less hands.
            assert [p.vp for p in g.players] == [0, 0]
            assert len(g.deck) == len(standard_deck(2)) - 6 and g.discard == []
    outcome = g.outcome()
    assert outcome is not None and len(g.results) == 2
    assert outcome.scores == tuple(sum(r[s] for r in g.results) for s in range(2))
    for (winner, _turns), result in zip(g.winners, g.results, strict=True):
        assert result[winner] >= 30 > result[1 - winner]
    totals = outcome.scores
    if totals[0] != totals[1]:
        assert outcome.ranking[0] == (0 if totals[0] > totals[1] else 1)


def test_rt2_factions_and_start_player_are_dealt_by_the_seed() -> None:
    firsts = set()
    starters = set()
    for seed in range(30):
        g = GAME.new(GameConfig(2, "autumn", {"games": 1}), seed)
        firsts.add(g.players[0].faction)
        starters.add(g.current)
        again = GAME.new(GameConfig(2, "autumn", {"games": 1}), seed)
        assert again.canonical() == g.canonical()
    assert firsts == {MARQUISE, EYRIE} and starters == {0, 1}


def test_rt3_equal_totals_go_to_more_wins_then_the_faster_win() -> None:
    g = GAME.new(GameConfig(2, "autumn"), 1)
    g.results = [(30, 20), (25, 35)]
    g.winners = [(0, 40), (1, 30)]
    g.game_number = 2
    outcome = g._final_outcome()
    assert outcome.scores == (55, 55)
    assert outcome.ranking == (1, 0), "equal totals and one win each: the faster win"
    g.winners = [(0, 30), (1, 30)]
    outcome = g._final_outcome()
    assert outcome.ranking[0] != g.first_starter, "then the seat that did not start game 1"
    g.results = [(30, 20), (30, 20)]
    g.winners = [(0, 50), (0, 50)]
    assert g._final_outcome().ranking == (0, 1)


def test_rt4_adjudication_ranks_by_total_so_far_ties_to_the_seat_not_on_turn() -> None:
    g = position(vp={MARQUISE: 12, EYRIE: 9})
    outcome = g.adjudicate()
    assert outcome.scores == (12, 9) and outcome.ranking == (MARQUISE_SEAT, EYRIE_SEAT)
    g.players[EYRIE_SEAT].vp = 12
    g.current = MARQUISE_SEAT
    assert g.adjudicate().ranking == (EYRIE_SEAT, MARQUISE_SEAT)
    g.results, g.game_number = [(10, 0)], 2  # as if in game 2 after a 10-0 game 1
    assert g.adjudicate().scores == (22, 12)


def test_rt5_reaching_thirty_ends_the_game_at_once() -> None:
    g = position(
        vp={MARQUISE: 28},
        hands={MARQUISE: ("protection_racket",), EYRIE: ()},
        hold=True,
        step=Craft(MARQUISE_SEAT, {"rabbit": 2}),
    )
    choose(g, "craft:protection_racket")
    outcome = g.outcome()
    assert outcome is not None and g.pending() == ()
    assert outcome.scores == (31, 0) and outcome.ranking == (MARQUISE_SEAT, EYRIE_SEAT)


def test_games_option_is_checked() -> None:
    with pytest.raises(InvalidConfig, match="1 or 2 games"):
        GAME.new(GameConfig(2, "autumn", {"games": 3}), 1)
    with pytest.raises(InvalidConfig, match="variant"):
        GAME.new(GameConfig(2, "spring"), 1)
    with pytest.raises(InvalidConfig, match="players"):
        GAME.new(GameConfig(5, "autumn"), 1)


def test_winter_deals_its_suit_markers_from_the_seed() -> None:
    boards = set()
    for seed in range(6):
        g = GAME.new(GameConfig(2, "winter", {"games": 1}), seed)
        suits = tuple(g.clearing_suit(c) for c in range(1, 13))
        assert sorted(suits) == sorted(("fox",) * 4 + ("rabbit",) * 4 + ("mouse",) * 4)
        boards.add(suits)
    assert len(boards) > 1


# ------------------------------------------------- the deck (Law 2.1, the Japanese rules summary)


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_it_runs_out() -> None:
    g = position(hands={MARQUISE: (), EYRIE: ()})
    pile = list(g.deck)
    g.discard = pile[2:]
    g.deck = pile[:2]
    drawn = g.draw(MARQUISE_SEAT, 4)
    assert len(drawn) == 4 and drawn[:2] == pile[:2][::-1]
    assert g.discard == [] and len(g.deck) == len(pile) - 4


def test_drawing_from_an_empty_deck_and_pile_draws_what_there_is() -> None:
    g = position(hands={MARQUISE: (), EYRIE: ()})
    g.deck, g.discard = ["anvil"], []
    assert g.draw(MARQUISE_SEAT, 3) == ["anvil"]
    assert g.draw(MARQUISE_SEAT, 1) == []


def test_hand_limit_discards_one_chosen_card_at_a_time_down_to_five() -> None:
    hand = ("anvil", "sword", "bake_sale", "investments", "ambush_fox", "cobbler_1", "cobbler_2")
    g = position(hands={MARQUISE: hand, EYRIE: ()}, hold=True, step=HandLimit(MARQUISE_SEAT))
    assert decision(g).kind == "hand_limit.discard"
    assert len(keys(g)) == 7
    choose(g, "discard:anvil")
    choose(g, "discard:cobbler_2")
    assert len(g.players[MARQUISE_SEAT].hand) == HAND_LIMIT
    assert {"anvil", "cobbler_2"} <= set(g.discard)


# ---------------------------------------------------------------- hidden information


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    g = play_random(GAME.new(GameConfig(2, "autumn", {"games": 1}), 3), 3, limit=60)
    for seat in (0, 1):
        view = g.observe(seat)
        assert view.players[seat].hand == tuple(g.players[seat].hand)
        other = view.players[1 - seat]
        assert other.hand == () and other.hand_count == len(g.players[1 - seat].hand)
    spectator = g.observe(None)
    assert all(p.hand == () for p in spectator.players)


def test_rt6_determinize_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    g = play_random(GAME.new(GameConfig(2, "autumn", {"games": 1}), 9), 9, limit=80)
    changed = False
    for seed in range(10):
        for seat in (0, 1):
            d = g.determinize(seat, seed)
            assert d.observe(seat) == g.observe(seat)
            other = d.players[1 - seat].hand
            assert len(other) == len(g.players[1 - seat].hand)
            assert sorted(other + d.deck) == sorted(g.players[1 - seat].hand + g.deck)
            changed |= other != g.players[1 - seat].hand
    assert changed, "the hidden cards were never redealt"
    assert g.determinize(0, 1).pending() == g.pending()


def test_clone_is_independent_and_replay_reproduces_the_game() -> None:
    config = GameConfig(2, "winter", {"games": 1})
    g = play_random(GAME.new(config, 21), 21, limit=150)
    copy = g.clone()
    before = g.digest()
    play_random(copy, 5, limit=50)
    assert g.digest() == before
    again = replay(GAME, config, 21, g.history)
    assert again.digest() == g.digest()


def test_rt12_vp_never_go_below_zero() -> None:
    g = position(vp={EYRIE: 2}, hold=True)
    g.score(EYRIE_SEAT, -5, "humiliate")
    assert g.players[EYRIE_SEAT].vp == 0
    g.score(EYRIE_SEAT, 3, "test")
    assert g.players[EYRIE_SEAT].vp == 3


def test_decision_scenarios_put_seat_zero_before_each_rare_kind() -> None:
    from games.root.positions import decision_scenarios

    expected = {
        "ambush": "battle.ambush",
        "foil": "battle.foil",
        "attacker_effects": "battle.attacker_effects",
        "defender_effects": "battle.defender_effects",
        "effects_first": "battle.effects_first",
        "remove": "battle.remove",
        "field_hospitals": "marquise.field_hospitals",
        "card_windows": "cards.birdsong",
        "birdsong_end": "cards.birdsong_end",
        "hand_limit": "hand_limit.discard",
        # The Woodland Alliance's rare decisions (three players).
        "alliance_outrage": "alliance.outrage",
        "alliance_organize": "alliance.organize",
        "alliance_discard": "alliance.discard",
        "alliance_birdsong_effects": "alliance.spread",
        "alliance_daylight_effects": "alliance.daylight",
        # Dominance (three players): activate, or take an available card (RT17).
        "dominance_activate": "cards.daylight_start",
        "dominance_take": "cards.daylight_start",
        # Four players: the Vagabond's rare decisions, and a new roost.
        "vagabond_character": "vagabond.character",
        "vagabond_refresh": "vagabond.refresh",
        "vagabond_aid": "vagabond.aid_item",
        "vagabond_quest_reward": "vagabond.quest_reward",
        "vagabond_hideout": "vagabond.hideout",
        "vagabond_damage": "vagabond.damage",
        "vagabond_battle_damage": "battle.remove",
        "vagabond_capacity": "vagabond.capacity",
        "vagabond_coalition": "cards.daylight_start",
        "vagabond_battle": "battle.defender",
        "vagabond_escort": "vagabond.escort",
        "vagabond_battle_ally": "battle.ally",
        "eyrie_roost": "eyrie.roost",
    }
    scenarios = decision_scenarios()
    assert set(scenarios) == set(expected)
    for name, g in scenarios.items():
        d = decision(g)
        assert (d.seat, d.kind) == (0, expected[name]) and len(d.options) >= 2


def test_the_end_of_a_contest_is_announced_with_totals_games_won_and_the_ranking() -> None:
    g = play_random(GAME.new(GameConfig(2, "autumn"), 11), 11)
    outcome = g.outcome()
    assert outcome is not None
    # Replaying collects the events: the last one announces the contest's result (RT3).
    state = GAME.new(GameConfig(2, "autumn"), 11)
    events = []
    for seat, index in g.history:
        events.extend(state.apply(seat, index))
    last = events[-1]
    assert last.kind == "contest_over" and last.private_to is None
    assert last.data["totals"] == outcome.scores
    assert last.data["ranking"] == outcome.ranking
    assert last.data["wins"] == tuple(sum(1 for w, _ in g.winners if w == s) for s in range(2))
    text = GAME.describe(last)
    assert text.startswith("Contest over") and f"1. Player {outcome.ranking[0] + 1}" in text
