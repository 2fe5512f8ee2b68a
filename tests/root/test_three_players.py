"""Three players: the trio of the Japanese rules summary, the ``factions`` option, setup
order, one game."""

from __future__ import annotations

import random

import pytest

from games.contract import GameConfig, InvalidConfig, replay
from games.root.game import GAME
from games.root.lineup import LINEUPS, unavailable
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE
from tests.conftest import Depth

NOT_YET = unavailable(3)
needs_alliance = pytest.mark.skipif(NOT_YET is not None, reason=NOT_YET or "")
#: A random game longer than this many decisions is a bug.
LIMIT = 30_000


def test_root_takes_two_or_three_players_and_a_factions_option() -> None:
    assert GAME.player_counts == (2, 3, 4)
    assert "factions" in GAME.option_keys
    # The Japanese rules summary: 3人：猫野候国＋鷲巣王朝＋森林連合.
    assert LINEUPS[3] == (MARQUISE, EYRIE, ALLIANCE)


def test_a_three_player_game_without_the_alliance_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.root import factions

    without = {f: rules for f, rules in factions.FACTION_RULES.items() if f != ALLIANCE}
    monkeypatch.setattr(factions, "FACTION_RULES", without)
    assert unavailable(2) is None
    with pytest.raises(InvalidConfig, match="needs the alliance faction"):
        GAME.new(GameConfig(3, "autumn"), 1)
    GAME.new(GameConfig(2, "autumn"), 1)  # two players do not need it


def test_the_factions_option_seats_two_players_and_game_2_still_swaps() -> None:
    for order in ("eyrie,marquise", "marquise,eyrie"):
        g = GAME.new(GameConfig(2, "autumn", {"factions": order}), 3)
        assert tuple(p.faction for p in g.players) == tuple(order.split(","))
    # Naming the factions does not change the rest of the seed's chance (the deal is drawn).
    named = GAME.new(GameConfig(2, "autumn", {"factions": "eyrie,marquise"}), 5)
    dealt = GAME.new(GameConfig(2, "autumn"), 5)
    assert named.first_starter == dealt.first_starter


@pytest.mark.parametrize(
    ("players", "value", "message"),
    [
        (2, "marquise", "seats marquise, eyrie"),
        (2, "marquise,marquise", "seats marquise, eyrie"),
        (2, "marquise,alliance", "seats marquise, eyrie"),
        (3, "marquise,eyrie", "seats 3 of marquise, eyrie, alliance, vagabond"),
        (3, "marquise,eyrie,eyrie", "seats 3 of marquise, eyrie, alliance, vagabond"),
        (3, "marquise,eyrie,lizards", "seats 3 of marquise, eyrie, alliance, vagabond"),
        (4, "marquise,eyrie,alliance", "seats marquise, eyrie, alliance, vagabond"),
        (2, 7, "comma list"),
    ],
)
def test_a_bad_factions_option_is_refused(players: int, value: object, message: str) -> None:
    if players == 3 and NOT_YET is not None:
        pytest.skip(NOT_YET)
    with pytest.raises(InvalidConfig, match=message):
        GAME.new(GameConfig(players, "autumn", {"factions": value}), 1)


@needs_alliance
def test_rt15_three_players_play_one_game() -> None:
    g = GAME.new(GameConfig(3, "autumn"), 1)
    assert g.games == 1
    with pytest.raises(InvalidConfig, match="one game"):
        GAME.new(GameConfig(3, "autumn", {"games": 2}), 1)


@needs_alliance
def test_three_player_factions_are_dealt_at_random_or_as_named() -> None:
    seen = set()
    for seed in range(30):
        g = GAME.new(GameConfig(3, "autumn"), seed)
        seating = tuple(p.faction for p in g.players)
        assert sorted(seating) == sorted(LINEUPS[3])
        seen.add(seating)
    assert len(seen) == 6  # every seating occurs
    g = GAME.new(GameConfig(3, "winter", {"factions": "alliance,marquise,eyrie"}), 2)
    assert tuple(p.faction for p in g.players) == (ALLIANCE, MARQUISE, EYRIE)


@needs_alliance
def test_rt15_setup_runs_in_the_laws_order_whatever_the_seats() -> None:
    """Law 5.1 step 7 (the Japanese rules summary: 猫野候国→鷲巣王朝→森林連合→放浪部族): the
    Marquise sets up first, then the Eyrie, then the Alliance, from any seating; the start player
    is drawn at random."""
    starters = set()
    for seed, seating in enumerate(("alliance,eyrie,marquise", "eyrie,alliance,marquise")):
        for shift in range(4):
            g = GAME.new(GameConfig(3, "autumn", {"factions": seating}), 10 * seed + shift)
            starters.add(g.start_seat)
            order = []
            while g.pending() and g.turns == 0:
                d = g.pending()[0]
                order.append(g.players[d.seat].faction)
                g.apply(d.seat, 0)
            ranks = [LINEUPS[3].index(f) for f in order]
            assert order and ranks == sorted(ranks), order
    assert len(starters) > 1


@needs_alliance
def test_random_three_player_games_end_and_replay_identically(depth: Depth) -> None:
    for seed in range(depth(6, 30)):
        config = GameConfig(3, ("autumn", "winter")[seed % 2])
        g = GAME.new(config, seed)
        rng = random.Random(seed)
        for _ in range(LIMIT):
            if not g.pending():
                break
            d = g.pending()[0]
            g.apply(d.seat, rng.randrange(len(d.options)))
        outcome = g.outcome()
        if outcome is None:  # the referee's limit: adjudicated, every seat ranked
            outcome = g.adjudicate()
        else:
            assert outcome.ranking[0] == g.winners[-1][0] and len(g.results) == 1
        assert sorted(outcome.ranking) == [0, 1, 2]
        assert replay(GAME, config, seed, g.history).canonical() == g.canonical()
