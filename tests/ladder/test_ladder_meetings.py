"""Authors' bots meet each other on the ladder, over real gRPC on loopback.

Two bots seeking in one pool at the same time used to play only house bots: each was matched
the moment it was free, and bots with one match at a time are rarely free at the same
moment. Now authors' bots come before house bots, and a bot that could only be seated with
house bots waits (up to the gathering window) while another author's bot is busy.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import grpc
import pytest

from client_sdk.builtin import GreedyBot, RandomBot
from client_sdk.ladder import bearer, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.settings import TimeControl
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderSettings, PoolKey
from tournament.storage import connect

POOL = PoolKey("rumble-nation", "base", 2)
#: Like the default ladder: three house bots, so that a house bot is always free.
SETTINGS = LadderSettings(
    pools=(POOL,),
    house_bots=tuple(
        HouseBot(name, policy, "rumble-nation", "base", (2,))
        for name, policy in (
            ("house-greedy-1", "greedy"),
            ("house-greedy-2", "greedy"),
            ("house-random", "random"),
        )
    ),
    time_control=TimeControl(decision_ms=2000, bank_ms=5000),
    tick_s=0.05,
    gather_s=30.0,  # far longer than a match here: only the design decides who meets
)
MATCHES = 8


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite'}"


async def register(stub: lrpc.LadderAsyncStub, name: str) -> lpb.RegisterBotResponse:
    return await stub.RegisterBot(
        lpb.RegisterBotRequest(name=name, owner=name, game="rumble-nation", player_counts=[2])
    )


def test_two_authors_bots_seeking_together_meet_in_all_but_their_first_and_last_match(
    database: str,
) -> None:
    """Bound: after the first meeting both bots are freed by the same match end, so they meet
    again at once. The exceptions are the first match of the bot whose Seek arrived first
    (the other is not connected yet: it plays house bots at once, not held) and the last
    match of the bot that still wants one when the other has left. So MATCHES - 1 of the
    8 matches of each are meetings; the test allows one more house match for a second Seek
    that arrives late on a busy machine."""
    asyncio.run(asyncio.wait_for(two_authors(database), 180))


async def two_authors(database: str) -> None:
    async with running_ladder(connect(database), SETTINGS) as service:
        address = service.referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = lrpc.LadderStub(channel)
            alpha = await register(stub, "alpha")
            beta = await register(stub, "beta")
        runs = await asyncio.gather(
            seek_and_play(lambda: GreedyBot(1), address, alpha.token, max_matches=MATCHES),
            seek_and_play(lambda: RandomBot(2), address, beta.token, max_matches=MATCHES),
        )
    assert [len(run.matches) for run in runs] == [MATCHES, MATCHES]
    opponents = [[m.opponents for m in run.matches] for run in runs]
    met = [
        sum(o == [other] for o in seen)
        for seen, other in zip(opponents, ["beta", "alpha"], strict=True)
    ]
    print(f"meetings: {met} of {MATCHES}")
    assert min(met) >= MATCHES - 2, opponents
    ids = [{m.assignment.match_id for m in run.matches} for run in runs]
    assert len(ids[0] & ids[1]) == met[0] == met[1]


def test_a_lone_bot_plays_house_bots_at_once(database: str) -> None:
    """Registered authors' bots that are not connected hold nobody: with a 30 s window, three
    matches of a lone bot take far less than one window."""
    asyncio.run(asyncio.wait_for(lone(database), 180))


async def lone(database: str) -> None:
    async with running_ladder(connect(database), SETTINGS) as service:
        address = service.referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = lrpc.LadderStub(channel)
            alone = await register(stub, "lone")
            await register(stub, "absent")
        started = time.monotonic()
        run = await seek_and_play(lambda: GreedyBot(1), address, alone.token, max_matches=3)
        took = time.monotonic() - started
    assert [m.opponents[0].startswith("house-") for m in run.matches] == [True] * 3
    assert took < SETTINGS.gather_s, took


def test_a_bot_waits_for_a_busy_author_at_most_the_window(database: str) -> None:
    asyncio.run(asyncio.wait_for(held(database), 180))


async def held(database: str) -> None:
    # A slow clock and join window: a match whose bot does not join stays running.
    settings = dataclasses.replace(
        SETTINGS,
        time_control=TimeControl(decision_ms=60_000, bank_ms=0),
        join_timeout_ms=60_000,
        gather_s=1.5,
    )
    async with running_ladder(connect(database), settings) as service:
        address = service.referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = lrpc.LadderStub(channel)
            busy = await register(stub, "busy")
            waiting = await register(stub, "waiting")
            # "busy" takes a match and never joins it: it stays connected and busy.
            seek = stub.Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(busy.token))
            while True:
                message = await asyncio.wait_for(seek.read(), 30)
                assert isinstance(message, lpb.SeekResponse)
                if message.HasField("assignment"):
                    break
            started = time.monotonic()
            run = await seek_and_play(lambda: GreedyBot(2), address, waiting.token, max_matches=1)
            took = time.monotonic() - started
            seek.cancel()
    # It waited one window for "busy", then played a house bot.
    assert run.matches[0].opponents[0].startswith("house-")
    assert settings.gather_s <= took < 30, took
