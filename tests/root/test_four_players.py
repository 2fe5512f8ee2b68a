"""Four players and every three-player subset of the four factions: lineups, the ``factions``
option, setup order (not turn order), one game, adjudication with four seats."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.contract import GameConfig, InvalidConfig, replay
from games.root.game import GAME
from games.root.lineup import CHOICES, LINEUPS, unavailable
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, VAGABOND
from tests.conftest import Depth

NOT_YET = unavailable(4)
needs_vagabond = pytest.mark.skipif(NOT_YET is not None, reason=NOT_YET or "")
LIMIT = 40_000
SUBSETS = [",".join(c) for c in combinations(LINEUPS[4], 3)]


def test_rt21_four_players_seat_all_four_factions_and_three_any_three() -> None:
    assert LINEUPS[4] == (MARQUISE, EYRIE, ALLIANCE, VAGABOND)
    assert CHOICES[3] == CHOICES[4] == LINEUPS[4]
    assert CHOICES[2] == LINEUPS[2] == (MARQUISE, EYRIE)
    # RT21: without the option, three players play the trio of the Japanese rules summary.
    assert LINEUPS[3] == (MARQUISE, EYRIE, ALLIANCE)
    assert len(SUBSETS) == 4


def test_a_lineup_without_the_vagabond_registered_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.root import factions

    without = {f: rules for f, rules in factions.FACTION_RULES.items() if f != VAGABOND}
    monkeypatch.setattr(factions, "FACTION_RULES", without)
    for config in (
        GameConfig(4, "autumn"),
        GameConfig(4, "winter", {"factions": "vagabond,alliance,eyrie,marquise"}),
        GameConfig(3, "autumn", {"factions": "marquise,vagabond,eyrie"}),
    ):
        with pytest.raises(InvalidConfig, match="needs the vagabond faction"):
            GAME.new(config, 1)
    GAME.new(GameConfig(3, "autumn"), 1)  # the default trio does not need him
    GAME.new(GameConfig(3, "autumn", {"factions": "eyrie,alliance,marquise"}), 1)


@pytest.mark.parametrize("subset", SUBSETS)
def test_every_three_player_subset_sets_up_in_the_laws_order(subset: str) -> None:
    """Law 5.1 step 7: the factions set up in the order A Marquise, B Eyrie, C Alliance,
    D Vagabond whatever their seats (setup order is not turn order)."""
    why = unavailable(3, None, tuple(subset.split(",")))
    if why is not None:
        pytest.skip(why)
    for seating in (subset, ",".join(reversed(subset.split(",")))):
        for seed in range(3):
            g = GAME.new(GameConfig(3, "winter", {"factions": seating}), seed)
            assert tuple(p.faction for p in g.players) == tuple(seating.split(","))
            assert g.games == 1
            order: list[str] = []
            while g.pending() and g.turns == 0:
                d = g.pending()[0]
                order.append(g.players[d.seat].faction)
                g.apply(d.seat, 0)
            ranks = [LINEUPS[4].index(f) for f in order]
            assert ranks == sorted(ranks), order


@pytest.mark.parametrize("subset", SUBSETS)
def test_random_games_of_every_three_player_subset_end_and_replay(
    subset: str, depth: Depth
) -> None:
    why = unavailable(3, None, tuple(subset.split(",")))
    if why is not None:
        pytest.skip(why)
    for seed in range(depth(2, 8)):
        config = GameConfig(3, ("autumn", "winter")[seed % 2], {"factions": subset})
        _play_and_replay(config, seed)


@needs_vagabond
def test_four_players_play_one_game_with_all_four_factions() -> None:
    seen = set()
    for seed in range(40):
        g = GAME.new(GameConfig(4, "autumn"), seed)
        assert g.games == 1
        seating = tuple(p.faction for p in g.players)
        assert sorted(seating) == sorted(LINEUPS[4])
        seen.add(seating)
    assert len(seen) > 10
    with pytest.raises(InvalidConfig, match="one game"):
        GAME.new(GameConfig(4, "autumn", {"games": 2}), 1)


@needs_vagabond
def test_random_four_player_games_end_and_replay_identically(depth: Depth) -> None:
    for seed in range(depth(4, 20)):
        _play_and_replay(GameConfig(4, ("autumn", "winter")[seed % 2]), seed)


def _play_and_replay(config: GameConfig, seed: int) -> None:
    g = GAME.new(config, seed)
    rng = random.Random(seed)
    for _ in range(LIMIT):
        if not g.pending():
            break
        d = g.pending()[0]
        g.apply(d.seat, rng.randrange(len(d.options)))
    outcome = g.outcome()
    if outcome is None:  # the referee's limit: adjudicated (RT16), every seat ranked
        outcome = g.adjudicate()
    else:
        assert outcome.ranking[0] == g.winners[-1][0] and len(g.results) == 1
    assert sorted(outcome.ranking) == list(range(config.players))
    assert replay(GAME, config, seed, g.history).canonical() == g.canonical()
