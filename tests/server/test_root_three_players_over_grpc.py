"""Three-player Root (Marquise, Eyrie, Woodland Alliance) over real gRPC on both maps, with
dominance: the match plays to the end, a dominance card is activated on the way, the replay
verifies, and no seat ever sees another's hand or the Alliance's supporters."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from client_sdk import play
from games import GameConfig
from games.root.state import RootState
from games.root.view import RootView
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.replay import verify_file
from server.results import Reason
from server.settings import MatchSettings
from tests.server.test_end_to_end import RecordingBot

#: Seeds whose random play activates a dominance card early (found by playing them; the bots
#: and the referee are deterministic, so the same seeds replay the same matches).
SEEDS = {"autumn": 4, "winter": 1}


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_a_three_player_match_with_dominance_plays_to_the_end_over_grpc(
    board: str, tmp_path: Path
) -> None:
    seed = SEEDS[board]

    async def scenario() -> None:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(game="root", config=GameConfig(3, board), seed=seed)
            match, tickets = referee.create_match(settings)
            bots = [RecordingBot(seed * 10 + seat) for seat in range(3)]
            overs = await asyncio.gather(
                *(play(bot, referee.address, tickets[seat]) for seat, bot in enumerate(bots))
            )
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            state = match.state
            assert isinstance(state, RootState)
            outcome = state.outcome()
            assert outcome is not None
            assert sorted(p.faction for p in state.players) == ["alliance", "eyrie", "marquise"]
            assert any(p.dominance for p in state.players), "no dominance card was activated"
            for over in overs:
                assert over.reason == pb.RESULT_REASON_COMPLETED
                assert sorted(s.rank for s in over.seats) == [1, 2, 3]
                assert [s.score for s in over.seats] == list(outcome.scores)
            assert verify_file(Path(overs[0].replay_path)).decisions == match.decisions
            alliance = next(p.seat for p in state.players if p.faction == "alliance")
            saw_dominance = False
            for seat, bot in enumerate(bots):
                assert bot.requests
                for request in bot.requests:
                    view = request.observation
                    assert isinstance(view, RootView) and view.viewer == seat and view.map == board
                    for player in view.players:
                        if player.seat != seat:
                            assert player.hand == ()
                    board_values = dict(view.players[alliance].board)
                    if seat != alliance:
                        assert "supporter_cards" not in board_values
                    saw_dominance |= any(p.dominance for p in view.players)
                    saw_dominance |= any(o.key.startswith("activate:") for o in request.options)
            assert saw_dominance

    asyncio.run(asyncio.wait_for(scenario(), 120))
