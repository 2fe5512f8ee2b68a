"""``MatchEnded`` tells each bot what happened to its own seat, over real gRPC on loopback:
the match's reason is the same for every seat (COMPLETED), a bot that answered an option that
does not exist hears ILLEGAL_ANSWER with the detail, its opponent hears COMPLETED."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import grpc

from client_sdk.bot import Bot, Request
from client_sdk.builtin import GreedyBot
from client_sdk.ladder import seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from server.settings import TimeControl
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderSettings, PoolKey
from tournament.storage import connect

SETTINGS = LadderSettings(
    pools=(PoolKey("rumble-nation", "base", 2),),
    house_bots=(HouseBot("house-random", "random", "rumble-nation", "base", (2,)),),
    time_control=TimeControl(decision_ms=2000, bank_ms=5000),
    pause_after_failures=0,  # the cheat keeps failing: it must not be paused here
    tick_s=0.05,
    gather_s=30.0,
)


class OutOfRange(Bot):
    """Answers an option that does not exist (one past the last)."""

    name = "out-of-range"

    def choose(self, request: Request) -> int:
        return len(request.options)


def test_each_bot_hears_its_own_seats_failure(tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(own_failures(f"sqlite:///{tmp_path / 'l.sqlite'}"), 180))


async def own_failures(database: str) -> None:
    heard: dict[str, dict[str, lpb.MatchEnded]] = {"honest": {}, "cheat": {}}
    both = asyncio.Event()

    def listener(name: str, other: str) -> Callable[[lpb.MatchEnded], None]:
        def on_ended(ended: lpb.MatchEnded) -> None:
            heard[name][ended.match_id] = ended
            if ended.match_id in heard[other]:
                both.set()

        return on_ended

    async with running_ladder(connect(database), SETTINGS) as service:
        address = service.referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = lrpc.LadderStub(channel)
            tokens = {}
            for name in heard:
                registered = await stub.RegisterBot(
                    lpb.RegisterBotRequest(name=name, game="rumble-nation", player_counts=[2])
                )
                tokens[name] = registered.token
        players = [
            asyncio.create_task(
                seek_and_play(make, address, tokens[name], on_ended=listener(name, other))
            )
            for name, other, make in (
                ("honest", "cheat", lambda: GreedyBot(1)),
                ("cheat", "honest", OutOfRange),
            )
        ]
        await asyncio.wait_for(both.wait(), 120)  # a match they both played has ended
        for player in players:
            player.cancel()
        for player in players:
            with contextlib.suppress(asyncio.CancelledError):
                await player
    (shared, *_) = heard["honest"].keys() & heard["cheat"].keys()
    honest, cheat = heard["honest"][shared], heard["cheat"][shared]
    assert honest.reason == cheat.reason == pb.RESULT_REASON_COMPLETED  # the match's
    assert cheat.seat_reason == pb.RESULT_REASON_ILLEGAL_ANSWER
    assert "out of range" in cheat.detail
    assert honest.seat_reason == pb.RESULT_REASON_COMPLETED and honest.detail == ""
    assert {honest.seat, cheat.seat} == {0, 1}
    assert (honest.rank, cheat.rank) == (1, 2)  # a forfeited seat ranks last
    # Every MatchEnded the cheat heard (house matches too) names its failure.
    assert all(e.seat_reason == pb.RESULT_REASON_ILLEGAL_ANSWER for e in heard["cheat"].values())
