"""A ladder whose matches are played by a ``kassen serve --workers 2`` process: the matches
are spread over both workers, connected bots follow their assignments there, and a submitted
bot is validated and played in sandboxes beside that referee, not beside the ladder. Real
processes, real gRPC, real bubblewrap."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from client_sdk.builtin import RandomBot
from client_sdk.ladder import LadderMatch, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.sandbox.host import detect
from server.settings import ServerSettings
from tests.kassen_processes import free_port, launch
from tests.ladder.test_submitted import (
    ORGANISER,
    POOL,
    bearer,
    python_bot,
    register,
    settings,
    until_state,
    upload,
)
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.fleet import FleetSettings, RemoteReferee
from tournament.storage import connect

pytestmark = pytest.mark.system
KASSEN = [sys.executable, "-m", "kassen"]


@contextlib.contextmanager
def referee_process(folder: Path, *flags: str) -> Iterator[str]:
    """``kassen serve --workers 2`` on a free loopback port (logging to a file); its address."""
    address = f"127.0.0.1:{free_port()}"
    process = launch(
        ["serve", "--address", address, "--workers", "2", "--store", "none",
         "--replays", str(folder / "replays"), *flags],
        address, folder / "referee.log", folder, '"serving"', within_s=60,
    )  # fmt: skip
    try:
        yield address
    finally:
        process.stop()


def test_connected_bots_play_on_both_workers_of_a_referee(passable: Path) -> None:
    with referee_process(passable) as address:
        asyncio.run(_connected(passable, address))


async def _connected(folder: Path, referee: str) -> None:
    engine = connect(f"sqlite:///{folder / 'ladder.sqlite'}")
    ladder_settings = dataclasses.replace(
        settings(folder), submissions=None, referees=FleetSettings(addresses=(referee,))
    )
    async with running_ladder(
        engine, ladder_settings, remote=[RemoteReferee(referee, None)]
    ) as service:
        async with grpc.aio.insecure_channel(service.referee.address) as channel:
            _bot_id, token = await register(lrpc.LadderStub(channel), "two-workers")
        seen: list[LadderMatch] = []
        run = await seek_and_play(
            lambda: RandomBot(2), service.referee.address, token, max_matches=4,
            on_match=seen.append,
        )  # fmt: skip
    assert not run.errors and len(run.results) == 4
    assert {m.assignment.referee_address for m in seen} == {referee}
    workers = {m.assignment.match_id.split("-")[0] for m in seen}
    assert workers == {"w0", "w1"}, [m.assignment.match_id for m in seen]


@pytest.mark.skipif(
    detect().problem is not None, reason=f"submitted bots need a sandbox: {detect().problem}"
)
def test_a_submitted_bot_runs_beside_the_referee_that_hosts_its_match(passable: Path) -> None:
    sandboxes = passable / "referee-sandboxes"
    with referee_process(
        passable, "--run-submitted", "python", "--sandbox-folder", str(sandboxes)
    ) as address:
        asyncio.run(asyncio.wait_for(_submitted(passable, address), 240))
    log = (passable / "referee.log").read_text(errors="replace")
    assert "runs submitted bots" in log


async def _submitted(folder: Path, referee: str) -> None:
    engine = connect(f"sqlite:///{folder / 'ladder.sqlite'}")
    ladder_settings = dataclasses.replace(
        settings(folder), referees=FleetSettings(addresses=(referee,))
    )
    async with (
        running_ladder(
            engine,
            ladder_settings,
            server_settings=ServerSettings(admin_token=ORGANISER),
            remote=[RemoteReferee(referee, None)],
        ) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        bot_id, token = await register(stub, "runs-far")
        await stub.SubmitBot(iter(upload(python_bot())), metadata=bearer(token))
        version = await until_state(stub, token, 1)
        assert version.state == "ready", version.summary
        deadline = time.monotonic() + 90
        while True:
            rows = (await stub.GetLadder(lpb.GetLadderRequest(game=POOL.game))).rows
            mine = [r for r in rows if r.bot_id == bot_id]
            if mine and mine[0].games >= 2:
                break
            assert time.monotonic() < deadline, f"the submitted bot did not play: {rows}"
            await asyncio.sleep(0.2)
        # Validation and rated matches alike were hosted by the referee's workers.
        assert not service.referee.matches
        assert "validation match w" in version.summary or "(match w" in version.summary
        logs = await stub.GetBotLog(lpb.GetBotLogRequest(version=1), metadata=bearer(token))
        assert logs.match_ids and all(m.startswith("w") for m in logs.match_ids)
        assert "COMPLETED" in logs.validation_log
