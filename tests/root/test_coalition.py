"""Coalitions (Law 9.2.8 with 3.3; four players): the Vagabond activates a dominance card to join
the player with the fewest VP and wins when it wins; a result with two winners (RT22, RT23).

The Vagabond is not registered in ``factions.FACTION_RULES`` yet, so these tests seat the
Vagabond engineer's committed class (``games/root/vagabond.py``, setup only) through a
monkeypatched rule table, and test the coalition on the state directly, not through his turn.
The ``can_form_coalition`` flag is forced on in a test-only subclass in case his class does not
set it yet."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import ClassVar

import pytest

from games.contract import GameConfig
from games.policies.random_policy import RandomPolicy
from games.root import dominance
from games.root.game import GAME
from games.root.rebuild import from_view
from games.root.state import RootState
from games.root.vagabond import Vagabond
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, VAGABOND
from kassen.wire.root import ViewEncoder, view_from_proto, view_to_proto
from server.clock import SeatClock
from server.match import Match
from server.seats import LocalSeat, Seat
from server.settings import MatchSettings

SEATING = (MARQUISE, EYRIE, ALLIANCE, VAGABOND)
M, E, A, V = range(4)


class _Vagabond(Vagabond):
    can_form_coalition: ClassVar[bool] = True


@pytest.fixture(autouse=True)
def _with_the_vagabond(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from games.root import factions

    monkeypatch.setattr(
        factions, "FACTION_RULES", {**factions.FACTION_RULES, VAGABOND: _Vagabond()}
    )
    yield


def four(vp: tuple[int, int, int, int] = (0, 0, 0, 0), seed: int = 3) -> RootState:
    g = GAME.new(GameConfig(4, "autumn", {"factions": ",".join(SEATING)}), seed)
    for seat, points in enumerate(vp):
        g.players[seat].vp = points
    return g


def keys(g: RootState, seat: int) -> list[str]:
    return [o.key for o in dominance.options(g, seat)]


def test_rt22_the_vagabond_forms_a_coalition_instead_of_activating() -> None:
    g = four((5, 3, 4, 12))
    g.players[V].hand = ["dominance_fox", "anvil"]
    assert keys(g, V) == ["coalition:dominance_fox:1"]  # the fewest VP: the Eyrie
    g.players[M].hand = ["dominance_fox"]
    g.players[M].vp = 10
    assert keys(g, M) == ["activate:dominance_fox"]  # the others activate as before
    # Below 10 VP he cannot activate a dominance card at all (Law 3.3.1).
    g.players[V].vp = 9
    assert keys(g, V) == []


def test_rt22_on_a_tie_he_chooses_and_never_a_seat_that_activated() -> None:
    g = four((3, 3, 7, 10))
    g.players[V].hand = ["dominance_bird"]
    assert dominance.coalition_partners(g, V) == (M, E)
    assert keys(g, V) == ["coalition:dominance_bird:0", "coalition:dominance_bird:1"]
    g.players[M].dominance = "dominance_mouse"  # its marker is off the track
    assert dominance.coalition_partners(g, V) == (E,)
    g.players[E].dominance = "dominance_rabbit"
    assert dominance.coalition_partners(g, V) == (A,)


def test_rt22_no_coalition_with_three_players() -> None:
    g = GAME.new(GameConfig(3, "autumn", {"factions": "marquise,eyrie,vagabond"}), 1)
    v = next(p.seat for p in g.players if p.faction == VAGABOND)
    g.players[v].vp = 15
    g.players[v].hand = ["dominance_fox"]
    assert dominance.coalition_partners(g, v) == ()
    assert keys(g, v) == []  # nor may he activate it for himself


def test_rt22_a_coalition_freezes_his_score_and_wins_nothing_by_ruling() -> None:
    g = four((5, 3, 4, 12))
    g.players[V].hand = ["dominance_fox"]
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    me = g.players[V]
    assert me.hand == [] and me.dominance == "dominance_fox" and me.coalition == E
    assert any(e.kind == "coalition_formed" for e in g._events)
    g.score(V, 5, "test")
    assert me.vp == 12
    assert dominance.ruled_goal(g, V) == ()
    dominance.check_victory(g, V)
    assert g.winner is None
    assert keys(g, V) == []  # one card, for good


def test_rt23_the_partner_wins_and_the_vagabond_wins_with_it() -> None:
    g = four((5, 3, 4, 12))
    g.players[V].hand = ["dominance_fox"]
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    g.players[E].vp = 29
    g.score(E, 1, "test")  # 30 VP: the Eyrie wins (Law 3.1), and so does the Vagabond
    assert g.winner == E
    g.resume()
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.ranking == (E, V, M, A)
    assert outcome.tiebreak["winners"] == (E, V)
    assert outcome.tiebreak["coalition"] == (-1, -1, -1, E)
    assert outcome.shared == ((E, V),)  # two winners share first place
    assert [outcome.rank_of(s) for s in (E, V, M, A)] == [1, 1, 3, 4]


def test_rt23_the_match_result_gives_both_coalition_winners_rank_1() -> None:
    g = four((5, 3, 4, 12))
    g.players[V].hand = ["dominance_fox"]
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    g.players[E].vp = 29
    g.score(E, 1, "test")
    g.resume()
    settings = MatchSettings(game="root", config=g.config, seed=3)
    seats: list[Seat] = [
        LocalSeat(i, SeatClock(settings.time_control), RandomPolicy(i), f"bot{i}") for i in range(4)
    ]
    match = Match("coalition", GAME, settings, seats, None, state=g)
    result = asyncio.run(match.run())
    ranks = {r.seat: r.rank for r in result.seats}
    assert [ranks[s] for s in (E, V, M, A)] == [1, 1, 3, 4]


def test_rt23_another_winner_leaves_the_vagabond_ranked_after_his_partner() -> None:
    g = four((5, 3, 4, 12))
    g.players[V].hand = ["dominance_fox"]
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    g.players[M].vp = 30
    g.check_victory()
    g.resume()
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.ranking == (M, A, E, V)
    assert outcome.tiebreak["winners"] == (M,)
    assert outcome.shared == () and outcome.rank_of(V) == 4


def test_rt16_a_stopped_four_player_game_is_ranked_by_vp_with_four_seats() -> None:
    g = four((5, 3, 4, 12))
    outcome = g.adjudicate()
    assert outcome.ranking == (V, M, A, E) and outcome.tiebreak["adjudicated"]
    assert outcome.scores == (5, 3, 4, 12)
    g.players[V].hand = ["dominance_fox"]
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    outcome = g.adjudicate()
    assert outcome.ranking == (M, A, E, V)  # RT23: right after his partner
    assert outcome.tiebreak["coalition"] == (-1, -1, -1, E)


def give(g: RootState, seat: int, card: str) -> None:
    """Swap ``card`` into ``seat``'s hand for one of its cards, wherever it is (cards kept)."""
    for holder in (g.deck, *(p.hand for p in g.players)):
        if card in holder:
            holder[holder.index(card)] = g.players[seat].hand[0]
            g.players[seat].hand[0] = card
            return
    raise AssertionError(card)


def test_the_coalition_is_public_and_round_trips_over_the_wire() -> None:
    g = four((5, 3, 4, 12))
    give(g, V, "dominance_fox")
    encoder = ViewEncoder()
    before = g.observe(M)
    assert encoder.encode(before) == view_to_proto(before)
    dominance.choose(g, V, ("coalition", "dominance_fox", E))
    for seat in (None, M, E, A, V):
        view = g.observe(seat)
        assert view.players[V].coalition == E and view.players[V].dominance == "dominance_fox"
        assert all(p.coalition == -1 for p in view.players[:V])
        assert view_from_proto(view_to_proto(view)) == view
    view = g.observe(M)
    assert encoder.encode(view) == view_to_proto(view)
    option = dominance.coalition_option("dominance_fox", E)
    assert option.key == "coalition:dominance_fox:1"
    rebuilt = from_view(g.observe(V), 7)
    assert rebuilt.players[V].coalition == E and rebuilt.players[M].coalition is None
