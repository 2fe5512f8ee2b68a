"""Root matches over real gRPC on loopback: two-game contests on both maps, hidden hands,
the typed observation and options, replays, and the adjudication limit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from client_sdk import RandomBot, play
from games import GameConfig
from games.root.view import RootView
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.replay import verify_file
from server.results import Reason
from server.settings import MatchSettings
from tests.server.test_end_to_end import RecordingBot

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 120))


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_a_two_game_contest_plays_to_the_end_over_grpc(board: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(game="root", config=GameConfig(2, board), seed=17)
            match, tickets = referee.create_match(settings)
            bots = [RecordingBot(1), RecordingBot(2)]
            overs = await asyncio.gather(
                *(play(bot, referee.address, tickets[i]) for i, bot in enumerate(bots))
            )
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            outcome = match.state.outcome()
            assert outcome is not None and len(match.state.results) == 2
            for over in overs:
                assert over.reason == pb.RESULT_REASON_COMPLETED
                assert sorted(s.rank for s in over.seats) == [1, 2]
                assert [s.score for s in over.seats] == list(outcome.scores)
            assert verify_file(Path(overs[0].replay_path)).decisions == match.decisions
            for seat, bot in enumerate(bots):
                assert bot.requests and all(r.seat == seat for r in bot.requests)
                games_seen = set()
                for request in bot.requests:
                    view = request.observation
                    assert isinstance(view, RootView) and view.viewer == seat and view.map == board
                    games_seen.add(view.game_number)
                    mine, theirs = view.players[seat], view.players[1 - seat]
                    assert len(mine.hand) == mine.hand_count
                    assert theirs.hand == ()
                    assert all(o.value and isinstance(o.value[0], str) for o in request.options)
                assert games_seen == {1, 2}
                # Private events (the cards drawn) reach only their owner.
                for event in bot.events:
                    if event.kind in ("drew", "looked_at_hand", "card_taken_detail"):
                        data = json.loads(event.data_json)
                        assert seat in (data["seat"], data.get("target")), event
                drew = [e for e in bot.events if e.kind == "drew"]
                assert drew and all(json.loads(e.data_json)["seat"] == seat for e in drew)

    run(scenario())


def test_a_wandering_contest_is_adjudicated_by_total_vp(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(
                game="root", config=GameConfig(2, "autumn"), seed=5, max_decisions=150
            )
            match, tickets = referee.create_match(settings)
            overs = await asyncio.gather(
                *(play(RandomBot(i), referee.address, tickets[i]) for i in range(2))
            )
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.ADJUDICATED
            totals = match.state.totals()
            over = overs[0]
            assert over.reason == pb.RESULT_REASON_ADJUDICATED
            assert [s.score for s in over.seats] == list(totals)
            best = max(range(2), key=lambda s: (totals[s], s != match.state.current))
            assert next(s.rank for s in over.seats if s.seat == best) == 1

    run(scenario())
