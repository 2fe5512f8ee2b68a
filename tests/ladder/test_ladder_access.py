"""Who may call what on a ladder, and a Seek refused for coming too often, over real gRPC.

Without an organiser token a ladder listens on loopback only, and whoever reaches it is the
organiser: ListBots and SetBotStatus answer without a token, as ``kassen serve`` lets a
loopback caller create matches. RegisterBot never needs a token. A bot that opens Seek
streams too often is refused RESOURCE_EXHAUSTED with the wait, and the SDK waits that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from client_sdk.builtin import GreedyBot
from client_sdk.ladder import RETRY_AFTER_KEY, Retry, bearer, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.grpc_service import SEEK_BURST, SEEKS_PER_SECOND
from tournament.ladder_service.service import LadderSettings, PoolKey
from tournament.storage import connect

#: No house bots: nothing is ever matched, so Seek streams only come and go.
EMPTY = LadderSettings(pools=(PoolKey("rumble-nation", "base", 2),), tick_s=0.05)


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite'}"


def test_without_an_organiser_token_a_loopback_caller_is_the_organiser(database: str) -> None:
    asyncio.run(asyncio.wait_for(tokenless(database), 120))


async def tokenless(database: str) -> None:
    async with (
        running_ladder(connect(database), EMPTY) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        bot = await stub.RegisterBot(lpb.RegisterBotRequest(name="plain", game="rumble-nation"))
        listed = await stub.ListBots(lpb.ListBotsRequest())  # no metadata at all
        assert [b.name for b in listed.bots] == ["plain"]
        paused = await stub.SetBotStatus(
            lpb.SetBotStatusRequest(bot_id=bot.bot_id, status="paused", reason="by hand")
        )
        assert (paused.bot.status, paused.bot.status_reason) == ("paused", "by hand")


def test_a_ladder_beyond_loopback_without_a_token_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kassen",
            "ladder",
            "serve",
            "--address",
            "0.0.0.0:0",
            "--web",
            "none",
            "--db",
            f"sqlite:///{tmp_path / 'runs' / 'ladder.sqlite'}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if not k.startswith("KASSEN_ADMIN")},
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "0.0.0.0:0 is not a loopback address" in line
    assert "pause and revoke bots" in line and "--admin-token-file" in line
    assert not (tmp_path / "runs").exists()  # refused before the database was made


def test_a_bot_that_seeks_too_often_is_told_to_wait_and_the_sdk_waits(database: str) -> None:
    asyncio.run(asyncio.wait_for(seeks_too_often(database), 120))


async def seeks_too_often(database: str) -> None:
    async with (
        running_ladder(connect(database), EMPTY) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        bot = await stub.RegisterBot(lpb.RegisterBotRequest(name="jumpy", game="rumble-nation"))
        for _ in range(SEEK_BURST):
            seek = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
            first = await asyncio.wait_for(seek.read(), 30)
            assert isinstance(first, lpb.SeekResponse) and first.HasField("seeking")
            seek.cancel()
        refused = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
        with pytest.raises(grpc.aio.AioRpcError) as too_often:
            await refused.read()
        assert too_often.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "opens Seek streams too often: try again in" in (too_often.value.details() or "")
        trailing = dict(too_often.value.trailing_metadata() or ())
        advertised = int(trailing[RETRY_AFTER_KEY]) / 1000
        assert 0.5 <= advertised <= 1 / SEEKS_PER_SECOND  # the burst is spent
        while bot.bot_id in service.seekers:  # the last stream's end has reached the ladder
            await asyncio.sleep(0.02)
        retries: list[Retry] = []
        playing = asyncio.create_task(
            seek_and_play(
                lambda: GreedyBot(1),
                service.referee.address,
                bot.token,
                on_retry=retries.append,
            )
        )
        while bot.bot_id not in service.seekers:
            await asyncio.sleep(0.02)
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
    # Refused once, it waited what the ladder asked (not its own short first backoff) and
    # was let in at the next try.
    (retry,) = retries
    assert "asks to wait" in retry.problem and "too often" in retry.problem
    assert retry.delay_s >= 0.4, retry
