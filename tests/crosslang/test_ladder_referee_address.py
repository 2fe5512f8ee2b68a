"""The example bots play an assigned match on the referee the assignment names: a ladder whose
matches another referee hosts sends that referee's address in ``Assignment.referee_address``,
and the example opens ``Referee/Play`` there (joining with the ticket as usual) while its
``Ladder/Seek`` stream stays on the ladder's address.

Both ends run in-process on loopback: a real referee (``running_server``) on its own port, and a
small real ``Ladder`` service on another port that hosts no match. It serves ``Ladder/Seek`` only
(any other call is answered UNIMPLEMENTED and recorded), checks the bot's token, and creates two
matches on the referee one after the other (the example against a random house policy),
assigning each with the referee's address and saying how it ended. An example that ignored
``referee_address`` would ask the ladder's server for ``Referee/Play`` and fail there.

Marked ``crosslang``; a missing toolchain skips its language with one line (toolchains.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from games import GameConfig
from games.policies import make_policy
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.auth import presented_token
from server.match import Match, reason_to_proto
from server.referee import LocalBot, Referee
from server.results import Reason
from server.settings import MatchSettings, TimeControl
from tests.crosslang.test_examples import built, environment
from tests.crosslang.test_ladder_examples import (
    MATCHES,
    RUN_TIMEOUT_S,
    ladder_command,
    run_example,
)
from tests.crosslang.toolchains import LANGUAGES

pytestmark = pytest.mark.crosslang

GAME = "rumble-nation"


def _settings(seed: int) -> MatchSettings:
    # Generous: the machine may be busy, and a failure must come from the example, not the clock.
    return MatchSettings(
        game=GAME,
        config=GameConfig(2, "base"),
        seed=seed,
        time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
        join_timeout_ms=60_000,
    )


def _ended(match: Match, seat: int) -> lpb.SeekResponse:
    """The ``MatchEnded`` of the example's seat, filled as the real ladder fills it."""
    assert match.result is not None
    own = match.result.seats[seat]
    return lpb.SeekResponse(
        match_ended=lpb.MatchEnded(
            match_id=match.id,
            reason=reason_to_proto(match.result.reason),
            rank=own.rank,
            seat=seat,
            seat_reason=reason_to_proto(own.reason),
            detail=own.detail,
            score=own.score,
        )
    )


class FleetLadder(lrpc.LadderServicer):
    """``Ladder/Seek`` for one bot whose matches a separate referee hosts."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.token = secrets.token_urlsafe(16)
        #: Each match assigned, with the example's seat in it.
        self.assigned: list[tuple[Match, int]] = []

    async def Seek(
        self,
        request: lpb.SeekRequest,
        context: grpc.aio.ServicerContext[lpb.SeekRequest, lpb.SeekResponse],
    ) -> AsyncIterator[lpb.SeekResponse]:
        if presented_token(context.invocation_metadata() or ()) != self.token:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "unknown bot token")
        yield lpb.SeekResponse(
            seeking=lpb.Seeking(bot_id="fleet-example", concurrency=request.concurrency)
        )
        for number in range(MATCHES):
            seat = 1 - number % 2  # second seat first, then first: both seats are exercised
            house = LocalBot(make_policy("random", GAME, number), "house-random")
            match, tickets = self.referee.create_match(_settings(number), local={1 - seat: house})
            self.assigned.append((match, seat))
            yield lpb.SeekResponse(
                assignment=lpb.Assignment(
                    match_id=match.id,
                    seat=seat,
                    ticket=tickets[seat],
                    setup=match.setup_proto(),
                    referee_address=self.referee.address,
                )
            )
            # The example closes the stream after its last assignment, which cancels this wait.
            await match.finished.wait()
            yield _ended(match, seat)


class Unserved(grpc.GenericRpcHandler):
    """Records every call the ladder's server has no handler for (it answers UNIMPLEMENTED)."""

    def __init__(self) -> None:
        self.methods: list[str] = []

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> None:
        self.methods.append(handler_call_details.method)


@contextlib.asynccontextmanager
async def serving(ladder: FleetLadder) -> AsyncIterator[tuple[str, Unserved]]:
    """The ladder on a gRPC server of its own (a free loopback port): its address, and what it
    was asked for but does not serve."""
    server = grpc.aio.server()
    lrpc.add_LadderServicer_to_server(ladder, server)
    unserved = Unserved()
    server.add_generic_rpc_handlers((unserved,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}", unserved
    finally:
        await server.stop(grace=None)


async def _play_refused(address: str) -> grpc.StatusCode:
    """What ``Referee/Play`` on ``address`` answers (a join with a ticket no one issued)."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket="no-such-ticket")))
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call.read()
        return refused.value.code()


async def _follows_the_assignment(run: Path, tmp_path: Path) -> None:
    async with running_server() as referee:
        ladder = FleetLadder(referee)  # type: ignore[abstract]  # Seek is all it serves
        async with serving(ladder) as (address, unserved):
            # The ladder's address hosts no match: a bot that played there would fail.
            assert address != referee.address
            assert await _play_refused(address) is grpc.StatusCode.UNIMPLEMENTED
            assert unserved.methods == ["/kassen.v1.Referee/Play"]
            unserved.methods.clear()

            token_file = tmp_path / "bot.token"
            token_file.write_text(ladder.token + "\n")
            code, out, err = await run_example(
                ladder_command(run, address, token_file), environment(), RUN_TIMEOUT_S
            )
        assert code == 0, (code, out, err[-3000:])
        assert out.count("match over:") == MATCHES, (out, err[-3000:])
        # Seek only on the ladder: nothing else was asked of it.
        assert unserved.methods == [], unserved.methods
        assert len(ladder.assigned) == MATCHES
        for match, seat in ladder.assigned:
            await asyncio.wait_for(match.finished.wait(), 30)
            assert match.result is not None
            assert match.result.reason is Reason.COMPLETED, match.result
            own = match.result.seats[seat]
            # The example joined this seat on the referee and played it to the end.
            assert own.reason is Reason.COMPLETED and not own.forfeited, own
            assert own.decisions > 0, own


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_plays_on_the_referee_its_assignment_names(language: str, tmp_path: Path) -> None:
    run = built(language)
    asyncio.run(_follows_the_assignment(run, tmp_path))
