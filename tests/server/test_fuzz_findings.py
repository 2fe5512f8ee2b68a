"""Defects the protocol fuzzer found (docs/reliability.md), each pinned by a test."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json

import structlog

from games import GameConfig
from games.policies import RandomPolicy
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.clock import SeatClock
from server.logs import configure
from server.referee import LocalBot
from server.results import Reason
from server.seats import DISPLACED, RemoteSeat
from server.settings import FailurePolicy, MatchSettings, TimeControl


def test_void_policy_names_every_seat_that_did_not_join() -> None:
    async def scenario() -> list[Reason]:
        async with running_server() as referee:
            settings = MatchSettings(
                game="rumble-nation",
                config=GameConfig(4, "base"),
                seed=5,
                failure_policy=FailurePolicy.VOID,
                join_timeout_ms=200,
            )
            local = {0: LocalBot(RandomPolicy(1), "r1"), 1: LocalBot(RandomPolicy(2), "r2")}
            match, _ = referee.create_match(settings, local=local)
            await asyncio.wait_for(match.finished.wait(), 30)
            assert match.result is not None and match.result.reason is Reason.VOIDED
            return [seat.reason for seat in match.result.seats]

    reasons = asyncio.run(scenario())
    assert reasons == [Reason.COMPLETED, Reason.COMPLETED, Reason.NO_SHOW, Reason.NO_SHOW]


def test_an_error_log_line_carries_its_traceback() -> None:
    before = structlog.get_config()
    written = io.StringIO()
    try:
        configure("info")
        with contextlib.redirect_stderr(written):  # lines go to the stderr of their moment
            try:
                raise ZeroDivisionError("boom")
            except ZeroDivisionError:
                structlog.get_logger("test").exception("failed")
    finally:
        structlog.configure(**before)  # later tests in this process log as before
    line = json.loads(written.getvalue().strip().splitlines()[-1])
    assert "Traceback" in line["exception"] and "ZeroDivisionError: boom" in line["exception"]


def test_a_closed_stderr_never_fails_the_call_that_logs() -> None:
    """A stderr that was replaced and closed (a captured one) drops the line; the logging
    call returns, so the gRPC call or match that logged goes on."""
    before = structlog.get_config()
    closed = io.StringIO()
    closed.close()
    try:
        configure("info")
        with contextlib.redirect_stderr(closed):
            structlog.get_logger("test").error("lost", detail="x")
        later = io.StringIO()
        with contextlib.redirect_stderr(later):
            structlog.get_logger("test").info("kept")
    finally:
        structlog.configure(**before)
    assert json.loads(later.getvalue())["event"] == "kept"


class Writer:
    """A stream that records what it is sent; with ``slow``, a notice waits until released
    (a bot slow to read while another stream takes its seat)."""

    def __init__(self, slow: bool = False) -> None:
        self.written: list[pb.PlayResponse] = []
        self.slow = slow
        self.release = asyncio.Event()

    async def write(self, message: pb.PlayResponse | bytes) -> None:
        if isinstance(message, bytes):  # the match writes its requests encoded
            message = pb.PlayResponse.FromString(message)
        self.written.append(message)
        if self.slow and message.HasField("notice"):
            await self.release.wait()


def test_a_takeover_sends_the_notice_last_to_the_old_stream_and_joined_first_to_the_new() -> None:
    async def scenario() -> tuple[list[pb.PlayResponse], list[pb.PlayResponse]]:
        seat = RemoteSeat(0, SeatClock(TimeControl()), "rumble-nation")
        old, new = Writer(slow=True), Writer()
        seat.attach(old)
        joined = pb.PlayResponse(joined=pb.Joined(match_id="m"))
        takeover = asyncio.ensure_future(seat.take_over(new, joined))
        await asyncio.sleep(0)  # the notice is being written to the old stream
        request = pb.PlayResponse(decision=pb.DecisionRequest(request_id=7))
        sending = asyncio.ensure_future(seat.send(request))
        await asyncio.sleep(0.01)
        old.release.set()
        _, _, accepted = await takeover
        await sending
        assert accepted
        return old.written, new.written

    old, new = asyncio.run(scenario())
    assert [m.notice.code for m in old] == [DISPLACED]  # the notice is its last message
    # The new stream hears Joined first, then the request that waited for the takeover.
    assert [m.WhichOneof("message") for m in new] == ["joined", "decision"]
    assert new[1].decision.request_id == 7
