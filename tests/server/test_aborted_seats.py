"""A match aborted while a seat has not joined yet says so for that seat (NOT_JOINED), not
COMPLETED as if it had played: over real gRPC, in MatchOver, GetMatch and the replay."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import grpc

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server


async def hold(address: str, ticket: str, joined: asyncio.Event) -> pb.MatchOver | None:
    """Join and answer nothing; the MatchOver this seat hears, if any."""
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="present")))
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                return None
            kind = message.WhichOneof("message")
            if kind == "joined":
                joined.set()
            if kind == "match_over":
                over: pb.MatchOver = message.match_over
                return over


def test_an_aborted_match_reports_the_seat_that_never_joined(tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(aborted_with_an_absent_seat(tmp_path), 60))


async def aborted_with_an_absent_seat(tmp_path: Path) -> None:
    joined = asyncio.Event()
    async with running_server(replay_dir=tmp_path) as referee:
        address = referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="rumble-nation", players=2, join_timeout_ms=60_000)
            )
            present = asyncio.create_task(hold(address, created.tickets[0], joined))
            await asyncio.wait_for(joined.wait(), 30)  # seat 1 never joins
            match = referee.matches[created.match_id]
            match.abort()  # what a stopping referee does to every match
            over = await asyncio.wait_for(present, 30)
            summary = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    assert over is not None and over.reason == pb.RESULT_REASON_ABORTED
    here, absent = over.seats
    assert (here.reason, here.forfeited, here.bot_name) == (
        pb.RESULT_REASON_COMPLETED,
        False,
        "present",
    )
    assert absent.reason == pb.RESULT_REASON_NOT_JOINED
    assert not absent.forfeited  # not the absent bot's failure: its join window was open
    assert "before this seat joined" in absent.detail
    assert [s.reason for s in summary.match.result.seats] == [
        pb.RESULT_REASON_COMPLETED,
        pb.RESULT_REASON_NOT_JOINED,
    ]
    replay = json.loads((tmp_path / f"{created.match_id}.json").read_text(encoding="utf-8"))
    assert [s["reason"] for s in replay["result"]["seats"]] == ["completed", "not_joined"]
