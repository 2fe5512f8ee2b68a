"""The end of the game: most VP, the seed's tie-breaks (building tiles on the board, then
mushrooms), shared places (G50), the solo rank table, adjudication (G49) and whole games."""

from __future__ import annotations

import asyncio
import random

import pytest

from games.contract import GameConfig, Outcome
from games.gnomeville import GAME, GnomevilleState, scoring
from games.gnomeville.rulings import ruling
from games.policies.base import DecisionContext
from server.clock import SeatClock
from server.match import Match
from server.seats import LocalSeat, Seat
from server.settings import MatchSettings
from tests.gnomeville.helpers import play_random, put, town
from tests.gnomeville.late_phases import table


def _end(g: GnomevilleState) -> None:
    g.goals = []
    scoring.end_game(g)


def _outcome(g: GnomevilleState) -> Outcome:
    outcome = g.outcome()
    assert outcome is not None
    return outcome


def test_most_vp_wins() -> None:
    g = table(players=3)
    for t, vp in zip(g.towns, (10, 30, 20), strict=True):
        t.vp = vp
    _end(g)
    outcome = g.outcome()
    assert outcome is not None and g.is_over and g.pending() == ()
    assert outcome.scores == (10, 30, 20) and outcome.ranking == (1, 2, 0)
    assert outcome.tiebreak["shared"] == () and outcome.shared == ()


def test_a_vp_tie_goes_to_more_building_tiles_then_more_mushrooms() -> None:
    g = table(players=3)
    for t in g.towns:
        t.vp = 20
        t.mushrooms = 0
    put(town(g, 0), "market", "a1")
    put(town(g, 2), "market", "a1", "a2")
    _end(g)
    assert _outcome(g).ranking == (2, 0, 1)
    g = table(players=3)
    for t, mushrooms in zip(g.towns, (1, 4, 2), strict=True):
        t.vp = 20
        t.mushrooms = mushrooms
        put(t, "market", "a1")
    _end(g)
    assert _outcome(g).ranking == (1, 2, 0)


def test_g50_still_tied_players_share_the_place_listed_by_seat() -> None:
    assert "share the place" in ruling("G50")
    g = table(players=4)
    for t, vp in zip(g.towns, (12, 20, 12, 20), strict=True):
        t.vp = vp
        t.mushrooms = 3
    _end(g)
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.ranking == (1, 3, 0, 2)
    assert outcome.tiebreak["shared"] == ((1, 3), (0, 2))
    assert outcome.shared == ((1, 3), (0, 2))  # the contract's field: first and third places
    assert [outcome.rank_of(s) for s in range(4)] == [3, 1, 3, 1]
    assert g.final["shared"] == ((1, 3), (0, 2))


class _Passer:
    """Passes whenever it can: draws nothing, buys nothing, takes the first of anything else."""

    def choose(self, ctx: DecisionContext) -> int:
        keys = [o.key for o in ctx.decision.options]
        for key in ("pass", "done"):
            if key in keys:
                return keys.index(key)
        return 0


def test_g50_two_passing_players_win_together_in_the_outcome_and_the_match_result() -> None:
    """The seed's end of the game: 同点の場合は、最も多くの建物タイルを町に配置しているプレイヤーが
    勝ち、それでも同点の場合は、最も多くのキノコが残っているプレイヤーが勝ちます。まだ同点が続く場合は、
    それらのプレイヤー全員が勝利を分け合います. Two players who pass whenever they can (standard,
    seed 1) end on 29/29 VP, no buildings, 2/2 mushrooms: both win, so the outcome's ``shared``
    names them and the referee gives both seats rank 1 (not seat 0 alone)."""
    assert "share the place" in ruling("G50") and "Outcome.shared" in ruling("G50")
    settings = MatchSettings(game="gnomeville", config=GameConfig(2, "standard"), seed=1)
    g = GAME.new(settings.config, settings.seed)
    seats: list[Seat] = [
        LocalSeat(i, SeatClock(settings.time_control), _Passer(), f"passer{i}") for i in range(2)
    ]
    match = Match("passers", GAME, settings, seats, None, state=g)
    result = asyncio.run(match.run())
    outcome = _outcome(g)
    assert outcome.scores == (29, 29)
    assert outcome.tiebreak["buildings"] == (0, 0) and outcome.tiebreak["mushrooms"] == (2, 2)
    assert outcome.ranking == (0, 1) and outcome.shared == ((0, 1),)
    assert [outcome.rank_of(s) for s in (0, 1)] == [1, 1]
    assert {r.seat: r.rank for r in result.seats} == {0: 1, 1: 1}


@pytest.mark.parametrize(
    ("vp", "title"),
    [
        (95, "Truly the legendary Gnomeville!"),
        (80, "Truly the legendary Gnomeville!"),
        (79, "A master builder among us!"),
        (60, "A promising architect."),
        (50, "You call this a town?"),
        (40, "Better go paint rainbows."),
        (39, ""),
    ],
)
def test_the_solo_rank_table(vp: int, title: str) -> None:
    g = table(players=1)
    town(g).vp = vp
    _end(g)
    assert _outcome(g).tiebreak["rank"] == title
    assert g.final["rank"] == title


def test_g49_a_game_stopped_early_is_ranked_as_it_stands() -> None:
    assert "as the towns stand" in ruling("G49")
    g = table(players=2)
    town(g, 0).vp, town(g, 1).vp = 3, 9
    outcome = g.adjudicate()
    assert outcome.ranking == (1, 0) and outcome.tiebreak["adjudicated"] is True
    assert not g.is_over  # adjudication does not end the game
    _end(g)
    assert g.adjudicate() == g.outcome()


def test_end_game_scores_the_goals_before_ranking() -> None:
    g = table(players=2)
    card = [goal.id for goal in g.pack.goals].index("goal-09")
    g.goals = [(0, 1, card, 0)]  # most mushrooms: 4
    town(g, 0).mushrooms, town(g, 1).mushrooms = 5, 1
    town(g, 1).vp = 3
    scoring.end_game(g)
    assert _outcome(g).scores == (4, 3)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_whole_random_games_end_with_a_full_ranking(players: int) -> None:
    for seed in range(3):
        g = GAME.new(GameConfig(players, "standard"), seed)
        play_random(g, random.Random(seed))
        outcome = g.outcome()
        assert outcome is not None and g.round == 5
        assert sorted(outcome.ranking) == list(range(players))
        assert outcome.scores == tuple(t.vp for t in g.towns)
        assert g.events_up == 3
        kinds = [e.kind for e in g._events]
        assert kinds[-1] == "game_over"


def test_every_event_of_phases_three_to_five_reads_as_one_line() -> None:
    from games.contract import Event
    from games.gnomeville.phase_text import KINDS, describe_phase

    seen: set[str] = set()
    for players in (1, 3):
        for seed in range(4):
            g = GAME.new(GameConfig(players, "standard", {"sides": "back"}), seed)
            rng = random.Random(seed)
            while g.pending():
                d = g.pending()[0]
                for event in g.apply(d.seat, rng.randrange(len(d.options))):
                    line = describe_phase(event)
                    if event.kind in KINDS:
                        assert line and "\n" not in line and line == GAME.describe(event)
                        seen.add(event.kind)
                    else:
                        assert line is None
    assert {"boulder", "troll", "troll_moves", "score", "delivery", "game_over"} <= seen
    assert describe_phase(Event("no-such-kind", {})) is None
