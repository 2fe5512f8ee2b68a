"""What a client can make the referee hold: a seat's inbox stays small whatever its bot sends,
a flood ends the seat with its own reason, and a finished match lets go of what it held.

Every scenario runs a real referee on a loopback port with raw gRPC clients.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
import pytest

from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.results import Reason
from server.seats import FLOOD_DROPS, INBOX_LIMIT, UNASKED_BURST, RemoteSeat
from server.settings import MatchSettings, TimeControl
from tests.server.bots import FirstOptionBot

T = TypeVar("T")
FLOOD_MESSAGES = 100_000


def run(scenario: Callable[[], Awaitable[T]], timeout: float = 120.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), timeout)

    return asyncio.run(bounded())


def two_seats(join_timeout_ms: int = 30_000) -> MatchSettings:
    return MatchSettings(
        game="rumble-nation",
        config=GameConfig(2, "base"),
        seed=11,
        time_control=TimeControl(decision_ms=2000, bank_ms=0),
        join_timeout_ms=join_timeout_ms,
    )


async def flood(
    address: str, ticket: str, messages: int, unasked: pb.PlayRequest
) -> tuple[int, str]:
    """Join, then send ``messages`` copies of ``unasked`` as fast as gRPC takes them.
    Returns how many were written before the stream ended, and how it ended."""
    sent = 0
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="flood")))
        first = await call.read()
        assert first.WhichOneof("message") == "joined"
        ended = "all written"
        try:
            for _ in range(messages):
                await call.write(unasked)
                sent += 1
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError) as exc:
            ended = type(exc).__name__
        call.cancel()
        return sent, ended


@pytest.mark.parametrize(
    ("unasked", "reason"),
    [
        # Pongs to pings never sent: harmless one by one, a flood in bulk.
        (pb.PlayRequest(pong=pb.Pong(nonce=987654321)), pb.RESULT_REASON_FLOODED),
        # Answers while no request is open: the first is a stale answer (the seat fails
        # STALE_REQUEST), the rest a flood from a seat that has failed: dropped, then cut off.
        (pb.PlayRequest(answer=pb.Answer(request_id=1)), pb.RESULT_REASON_STALE_REQUEST),
    ],
    ids=["pongs", "answers"],
)
def test_a_flood_of_unasked_messages_ends_the_seat_and_the_inbox_stays_small(
    unasked: pb.PlayRequest, reason: int
) -> None:
    """The adversarial run's client sent 165,500 messages while not asked and the referee
    held ~94 MB for them. Now: at most the allowance is looked at, the inbox never holds
    more than its limit, the stream is ended and the seat fails (FLOODED for a flood)."""

    async def scenario() -> tuple[int, int, RemoteSeat, pb.MatchOver, Any]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            largest = 0
            sampling = True

            async def sample() -> None:
                nonlocal largest
                while sampling:
                    largest = max(largest, len(seat.inbox))
                    await asyncio.sleep(0)

            sampler = asyncio.create_task(sample())
            sent, ended = await flood(referee.address, tickets[0], FLOOD_MESSAGES, unasked)
            sampling = False
            await sampler
            # The other seat joins after the flood: the match is played to its end, with the
            # flooding seat played by the random policy.
            other = await FirstOptionBot(misbehave_at=10**9).play(referee.address, tickets[1])
            await match.finished.wait()
            assert other.match_over is not None
            return sent, largest, seat, other.match_over, ended

    sent, largest, seat, over, ended = run(scenario)
    assert largest <= INBOX_LIMIT
    assert sent < FLOOD_MESSAGES, f"the referee never ended the flooding stream ({ended})"
    assert seat.unasked_dropped >= FLOOD_DROPS - 1
    assert seat.unasked <= sent
    flooded = over.seats[0]
    assert flooded.reason == reason and flooded.forfeited
    if reason == pb.RESULT_REASON_FLOODED:
        assert f"sent {seat.unasked} messages it was not asked for" in flooded.detail
    assert over.reason == pb.RESULT_REASON_COMPLETED
    assert over.seats[1].reason == pb.RESULT_REASON_COMPLETED and over.seats[1].rank == 1
    assert len(seat.inbox) == 0 and seat.inbox.closed  # freed when the match ended


def test_a_few_repeated_answers_are_only_notices() -> None:
    """Within the allowance a repeated answer is harmless (a notice each), not a flood."""

    async def scenario() -> tuple[pb.MatchOver, int]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            async with grpc.aio.insecure_channel(referee.address) as channel:
                call: Any = rpc.RefereeStub(channel).Play()
                await call.write(pb.PlayRequest(join=pb.Join(ticket=tickets[0])))
                other = asyncio.create_task(
                    FirstOptionBot(misbehave_at=10**9).play(referee.address, tickets[1])
                )
                notices = 0
                repeated = False
                while True:
                    message = await call.read()
                    which = message.WhichOneof("message")
                    if which == "decision":
                        reply = pb.PlayRequest(
                            answer=pb.Answer(request_id=message.decision.request_id)
                        )
                        await call.write(reply)
                        if not repeated:
                            repeated = True
                            for _ in range(UNASKED_BURST // 2):
                                await call.write(reply)
                    elif which == "notice":
                        notices += int(message.notice.code == "duplicate_answer")
                    elif which == "match_over":
                        await other
                        return message.match_over, notices

    over, notices = run(scenario)
    assert over.seats[0].reason == pb.RESULT_REASON_COMPLETED
    assert notices == UNASKED_BURST // 2


def test_a_finished_match_lets_go_of_its_seats() -> None:
    """Inbox, request message, queued events and tickets go when the match ends."""

    async def scenario() -> tuple[Any, list[RemoteSeat], list[str], Any]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            bots = [FirstOptionBot(misbehave_at=10**9) for _ in tickets]
            await asyncio.gather(
                *(b.play(referee.address, t) for b, t in zip(bots, tickets, strict=True))
            )
            await match.finished.wait()
            seats = [s for s in match.seats if isinstance(s, RemoteSeat)]
            return match, seats, tickets, referee

    match, seats, tickets, referee = run(scenario)
    assert match.result is not None and match.result.reason is Reason.COMPLETED
    for seat, ticket in zip(seats, tickets, strict=True):
        assert seat.inbox.closed and len(seat.inbox) == 0
        assert seat.open_request is None and not seat.undelivered
        assert seat.request.ByteSize() == 0  # the last request (and its observation) is gone
        assert referee.seat_for(ticket) is None
