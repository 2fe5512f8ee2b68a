"""``kassen match --server``: one match on a running referee.

CreateMatch goes with the organiser token; built-in and Python-class seats play through the
SDK in this process; ``cmd:`` seats are launched here with their seat (and the TLS CA) in
their environment but never the token. The result is read back with GetMatch.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from dataclasses import dataclass

import grpc

from client_sdk import Bot, open_channel, play
from games.contract import GameConfig
from kassen.commands.match_output import print_header, print_result, print_watch
from kassen.errors import UsageError
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.auth import bearer, bot_environment
from server.referee import CommandBot, spawn_bot
from server.seats import describe_exit
from server.settings import FailurePolicy, TimeControl

#: Seconds a unary call may take (the referee answers them at once).
CALL_TIMEOUT_S = 10.0
#: How often the match is polled for its end, and how long seats may take to finish after it.
POLL_S = 0.2
SETTLE_S = 10.0
STDERR_TAIL_BYTES = 4096

HINTS = {
    grpc.StatusCode.UNAUTHENTICATED: "give it with --admin-token-file FILE or KASSEN_ADMIN_TOKEN",
    grpc.StatusCode.PERMISSION_DENIED: "check --admin-token-file or KASSEN_ADMIN_TOKEN",
    grpc.StatusCode.UNAVAILABLE: "is a referee listening there, and does it speak TLS"
    " (then give its CA with --tls-ca) or plaintext?",
}


@dataclass(frozen=True, slots=True)
class Remote:
    """Where the referee is and how to reach it."""

    address: str
    token: str | None
    tls_ca: bytes | None
    tls_ca_file: str | None


@dataclass(frozen=True, slots=True)
class Request:
    """The match to ask for (already checked locally)."""

    title: str
    game: str
    config: GameConfig
    seed: int | None
    time_control: TimeControl
    failure_policy: FailurePolicy
    max_decisions: int
    watch: bool


def run_remote(
    remote: Remote, request: Request, seats: list[Bot | CommandBot], specs: list[str]
) -> int:
    """Play the match; a refusal or an unreachable referee is one line and exit 1 (2 for a
    request the referee finds invalid, like every other bad argument)."""
    try:
        return asyncio.run(_run(remote, request, seats, specs))
    except grpc.aio.AioRpcError as exc:
        detail = " ".join((exc.details() or "").split())
        if exc.code() == grpc.StatusCode.INVALID_ARGUMENT:
            raise UsageError(f"the referee refused the match: {detail}") from None
        hint = HINTS.get(exc.code())
        suffix = f"; {hint}" if hint else ""
        print(f"kassen: match: {exc.code().name}: {detail}{suffix}", file=sys.stderr)
        return 1


def _create_request(request: Request) -> pb.CreateMatchRequest:
    message = pb.CreateMatchRequest(
        game=request.game,
        variant=request.config.variant,
        players=request.config.players,
        time_control=pb.TimeControl(
            decision_ms=request.time_control.decision_ms, bank_ms=request.time_control.bank_ms
        ),
        failure_policy=pb.FAILURE_POLICY_VOID
        if request.failure_policy is FailurePolicy.VOID
        else pb.FAILURE_POLICY_FORFEIT,
        max_decisions=request.max_decisions,
        options=dict(request.config.options),
    )
    if request.seed is not None:
        message.seed = request.seed
    return message


async def _run(
    remote: Remote, request: Request, seats: list[Bot | CommandBot], specs: list[str]
) -> int:
    async with open_channel(remote.address, remote.tls_ca) as channel:
        stub = rpc.RefereeStub(channel)
        created = await stub.CreateMatch(
            _create_request(request),
            metadata=bearer(remote.token) if remote.token else None,
            timeout=CALL_TIMEOUT_S,
        )
        print_header(request.title, request.config, created.setup, request.seed)
        watcher = (
            asyncio.create_task(print_watch(stub, created.match_id)) if request.watch else None
        )
        players: list[asyncio.Task[object]] = []
        launched: list[asyncio.Task[None]] = []
        try:
            for index, (seat, ticket) in enumerate(zip(seats, created.tickets, strict=True)):
                if isinstance(seat, CommandBot):
                    env = bot_environment(remote.address, remote.tls_ca_file)
                    launched.append(
                        asyncio.create_task(_launch(seat, env, ticket, index, specs[index]))
                    )
                else:
                    players.append(
                        asyncio.create_task(
                            play(seat, remote.address, ticket, tls_ca=remote.tls_ca)
                        )
                    )
            summary = await _finished(stub, created.match_id)
            await asyncio.wait([*players, *launched], timeout=SETTLE_S)
            if watcher is not None:
                await asyncio.wait_for(watcher, SETTLE_S + summary.watch_delay_ms / 1000)
        finally:
            for task in [*players, *launched, *([watcher] if watcher else [])]:
                task.cancel()
            await asyncio.gather(*players, *launched, return_exceptions=True)
    return 0 if print_result(summary, specs, created.setup.seed_commitment) else 1


async def _finished(stub: rpc.RefereeAsyncStub, match_id: str) -> pb.MatchSummary:
    """The match's summary once it is over (GetMatch is public and cheap)."""
    while True:
        reply = await stub.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=CALL_TIMEOUT_S)
        if reply.match.status == "finished":
            summary: pb.MatchSummary = reply.match
            return summary
        await asyncio.sleep(POLL_S)


async def _launch(bot: CommandBot, env: dict[str, str], ticket: str, index: int, spec: str) -> None:
    """Run one ``cmd:`` seat (its ticket on a pipe); say on stderr if it failed (the referee
    cannot see its stderr)."""
    try:
        process = await spawn_bot(bot, env, ticket)
    except OSError as exc:
        print(f"kassen: seat {index + 1} ({spec}): cannot start: {exc}", file=sys.stderr)
        return
    tail = b""
    try:
        assert process.stderr is not None
        while chunk := await process.stderr.read(4096):
            tail = (tail + chunk)[-STDERR_TAIL_BYTES:]
        code = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
    if code != 0:
        print(f"kassen: seat {index + 1} ({spec}): {describe_exit(code, tail)}", file=sys.stderr)
