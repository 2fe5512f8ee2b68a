"""How matches and streams end: a rejoin racing MatchOver, a referee stopped by a signal,
a dropped stream whose clock runs out, bytes that are not a message, a refused join.

Each scenario runs a real referee (in this process, or ``kassen serve`` as a subprocess for
the signal) and real gRPC clients; waits are on events and messages, with generous bounds.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from client_sdk import RandomBot, play
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.results import Reason
from server.seats import Incoming, RemoteSeat
from server.service import RefereeService, add_referee_service
from server.settings import MatchSettings, TimeControl

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
#: A stream that hears nothing for this long after its match ended is hung.
STREAM_IDLE_S = 10.0


def run(scenario: Callable[[], Awaitable[T]], timeout: float = 120.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), timeout)

    return asyncio.run(bounded())


def rumble(players: int = 2, **changes: Any) -> MatchSettings:
    fields: dict[str, Any] = {
        "game": "rumble-nation",
        "config": GameConfig(players, "base"),
        "seed": 5,
        "time_control": TimeControl(decision_ms=5000, bank_ms=0),
    }
    fields.update(changes)
    return MatchSettings(**fields)


# ---------------------------------------------------------------- rejoins racing the end


@dataclass
class Hammering:
    streams: int = 0
    heard_match_over: int = 0
    hung: int = 0


async def hammer(address: str, ticket: str, seen: Hammering) -> None:
    """Join the seat again and again (answering whatever it is asked) until the ticket is
    refused; a stream that neither ends nor says anything for ``STREAM_IDLE_S`` is hung."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = rpc.RefereeStub(channel)
        while True:
            call: Any = stub.Play()
            seen.streams += 1
            try:
                await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket)))
                while True:
                    message = await asyncio.wait_for(call.read(), STREAM_IDLE_S)
                    if message is grpc.aio.EOF:
                        break
                    which = message.WhichOneof("message")
                    if which == "decision":
                        answer = pb.Answer(request_id=message.decision.request_id)
                        await call.write(pb.PlayRequest(answer=answer))
                    elif which == "match_over":
                        seen.heard_match_over += 1
                        break
            except TimeoutError:
                seen.hung += 1
                call.cancel()
                return
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.PERMISSION_DENIED:
                    return  # the ticket died with its match
            except (asyncio.InvalidStateError, grpc.RpcError):
                pass  # written after the stream ended: join again
            call.cancel()


def test_rejoins_racing_the_end_of_a_match_all_end() -> None:
    """Four clients per seat keep taking their seat over through the whole match and past
    its end (4 of 200 such rejoins hung forever): every stream ends, the tickets die with
    the match."""

    async def scenario() -> tuple[list[Hammering], list[Any]]:
        async with running_server() as referee:
            everyone: list[Hammering] = []
            hammers = []
            matches = []
            for seed in range(6):
                match, tickets = referee.create_match(rumble(seed=seed))
                matches.append(match)
                for ticket in tickets:
                    for _ in range(4):
                        seen = Hammering()
                        everyone.append(seen)
                        hammers.append(hammer(referee.address, ticket, seen))
            await asyncio.gather(*hammers)
            return everyone, matches

    everyone, matches = run(scenario, timeout=240)
    assert sum(s.hung for s in everyone) == 0, [s.hung for s in everyone]
    assert all(m.result is not None for m in matches)
    # Every client took its seat over again and again (2 streams each on average at least).
    assert sum(s.streams for s in everyone) >= 2 * len(everyone)
    assert sum(s.heard_match_over for s in everyone) >= 2 * len(matches)


class Scripted:
    """A seat's stream inside the test: each request is answered at once (option 0) through
    the seat's inbox; writing MatchOver can be held until ``release`` is set."""

    def __init__(self, seat: RemoteSeat, hold_match_over: bool) -> None:
        self.seat = seat
        self.hold = hold_match_over
        self.writing_match_over = asyncio.Event()
        self.release = asyncio.Event()

    async def write(self, message: pb.PlayResponse | bytes) -> None:
        if isinstance(message, bytes):  # the match writes its requests encoded
            message = pb.PlayResponse.FromString(message)
        which = message.WhichOneof("message")
        if which == "decision":
            answer = pb.Answer(request_id=message.decision.request_id)
            self.seat.inbox.put_nowait(Incoming("answer", time.monotonic(), answer=answer))
        elif which == "match_over" and self.hold:
            self.writing_match_over.set()
            await self.release.wait()


async def rejoin(address: str, ticket: str) -> str:
    """Join with ``ticket`` (bot name "late"); what the stream ends with: its last message,
    or the status that refused it."""
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="late")))
        heard = "eof"
        try:
            while (message := await call.read()) is not grpc.aio.EOF:
                heard = message.WhichOneof("message")
        except grpc.aio.AioRpcError as exc:
            return str(exc.code().name)
        return heard


def test_a_rejoin_while_match_over_is_being_written_ends() -> None:
    """A rejoin that reaches the seat while its MatchOver is being written used to take the
    seat and wait forever (the referee still knew the ticket; the match had already told that
    seat). Now the ticket dies and the seat closes the moment the result is decided: the late
    stream is refused, or, had it found the seat just before, hears MatchOver and ends."""

    async def scenario() -> str:
        async with running_server() as referee:
            match, tickets = referee.create_match(rumble())
            seats = [s for s in match.seats if isinstance(s, RemoteSeat)]
            streams = [Scripted(seat, hold_match_over=seat.index == 0) for seat in seats]
            for seat, stream in zip(seats, streams, strict=True):
                seat.attach(stream)
            await streams[0].writing_match_over.wait()
            late = asyncio.create_task(rejoin(referee.address, tickets[0]))
            # Until its Join was read and it waits for the seat, or it was refused.
            while seats[0].bot_name != "late" and not late.done():
                await asyncio.sleep(0.001)
            streams[0].release.set()
            return await asyncio.wait_for(late, STREAM_IDLE_S)

    assert run(scenario) in {"match_over", "PERMISSION_DENIED"}


# ---------------------------------------------------------------- a signal stops the referee


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def hold(address: str, ticket: str) -> pb.MatchOver | None:
    """Join and answer nothing (a bot deep in thought); the MatchOver it hears, if any."""
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket)))
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                return None
            if message.WhichOneof("message") == "match_over":
                over: pb.MatchOver = message.match_over
                return over


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_ends_every_match_aborted_and_stops_quietly(
    stop: signal.Signals, tmp_path: Path
) -> None:
    """`kassen serve` with matches running (bots thinking) and waiting (one seat joined):
    a signal tells every seat MatchOver(ABORTED), the server exits 0 within its grace period,
    and stderr holds nothing but its JSON log lines (no tracebacks, no "exception was never
    retrieved")."""
    address = f"127.0.0.1:{free_port()}"

    async def scenario() -> tuple[list[pb.MatchOver | None], int, float, list[bytes]]:
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "kassen",
            "serve",
            "--address",
            address,
            "--store",
            str(tmp_path / "store.sqlite"),
            "--replays",
            str(tmp_path / "replays"),
            cwd=ROOT,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert server.stderr is not None
        lines: list[bytes] = []
        while b'"serving"' not in (line := await server.stderr.readline()):
            assert line, b"".join(lines).decode()
            lines.append(line)
        lines.append(line)
        bots = []
        async with grpc.aio.insecure_channel(address) as channel:
            stub = rpc.RefereeStub(channel)
            running = []
            for index in range(12):
                created = await stub.CreateMatch(
                    pb.CreateMatchRequest(
                        game="rumble-nation",
                        players=2,
                        time_control=pb.TimeControl(decision_ms=120_000),
                    )
                )
                seated = created.tickets if index % 2 == 0 else created.tickets[:1]
                bots += [asyncio.create_task(hold(address, t)) for t in seated]
                if index % 2 == 0:
                    running.append(created.match_id)
            # Wait until every fully seated match runs (its bots are being asked).
            while True:
                listed = await stub.ListMatches(pb.ListMatchesRequest())
                status = {m.match_id: m.status for m in listed.matches}
                if all(status.get(m) == "running" for m in running):
                    break
                await asyncio.sleep(0.05)
        started = time.monotonic()
        server.send_signal(stop)
        heard = await asyncio.wait_for(asyncio.gather(*bots), 30)
        code = await asyncio.wait_for(server.wait(), 30)
        took = time.monotonic() - started
        lines += (await server.stderr.read()).splitlines()
        return heard, code, took, lines

    heard, code, took, lines = run(scenario)
    assert code == 0
    assert [h.reason if h else None for h in heard] == [pb.RESULT_REASON_ABORTED] * len(heard)
    assert took < 15, f"took {took:.1f} s to stop"
    noise = []
    for line in lines:
        if not line.strip():
            continue
        try:
            json.loads(line)
        except json.JSONDecodeError:
            noise.append(line.decode(errors="replace"))
    assert not noise, "\n".join(noise[:20])


# ---------------------------------------------------------------- what DISCONNECTED says


def test_disconnected_says_the_clock_ran_out_after_the_drop() -> None:
    """The stream drops while its seat thinks; the clock (0.5 s) runs out well inside the
    reconnect window (5 s): the detail says so instead of 'no rejoin within 5 s'."""

    async def scenario() -> str:
        settings = rumble(time_control=TimeControl(decision_ms=500, bank_ms=0), reconnect_ms=5000)
        async with running_server() as referee:
            match, tickets = referee.create_match(settings)
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)

            async def drop_when_asked(ticket: str) -> None:
                async with grpc.aio.insecure_channel(referee.address) as channel:
                    call: Any = rpc.RefereeStub(channel).Play()
                    await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket)))
                    while (await call.read()).WhichOneof("message") != "decision":
                        pass
                    call.cancel()

            other = asyncio.create_task(play(RandomBot(seed=1), referee.address, tickets[1]))
            await drop_when_asked(tickets[0])
            await match.finished.wait()
            await other
            assert match.result is not None
            return match.result.seats[0].detail + "|" + match.result.seats[0].reason.value

    detail, reason = run(scenario).split("|")
    assert reason == Reason.DISCONNECTED.value
    assert detail.startswith("the clock ran out "), detail
    assert "after the stream dropped" in detail
    seconds = float(detail.removeprefix("the clock ran out ").split(" ")[0])
    assert seconds < 5.0


# ---------------------------------------------------------------- bytes that are no message

GARBAGE = b"\xff\xff\xff\xff\x0f"


def test_garbage_bytes_are_invalid_argument() -> None:
    """Non-protobuf bytes to CreateMatch, GetMatch and as the first message of Play are
    INVALID_ARGUMENT naming what could not be read (gRPC alone says UNKNOWN)."""

    async def scenario() -> list[tuple[grpc.StatusCode, str]]:
        codes = []
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            for method in ("CreateMatch", "GetMatch", "ListMatches", "GetReplay"):
                call: Any = channel.unary_unary(f"/kassen.v1.Referee/{method}")
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call(GARBAGE)
                codes.append((caught.value.code(), caught.value.details() or ""))
            watch: Any = channel.unary_stream("/kassen.v1.Referee/Watch")
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                async for _ in watch(GARBAGE):
                    pass
            codes.append((caught.value.code(), caught.value.details() or ""))
            stream: Any = channel.stream_stream("/kassen.v1.Referee/Play")()
            await stream.write(GARBAGE)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stream.read()
            codes.append((caught.value.code(), caught.value.details() or ""))
        return codes

    for code, details in run(scenario):
        assert code == grpc.StatusCode.INVALID_ARGUMENT, (code, details)
        assert details.startswith("unreadable "), details


def test_garbage_bytes_after_join_are_a_malformed_message() -> None:
    async def scenario() -> tuple[str, str]:
        async with running_server() as referee:
            match, tickets = referee.create_match(rumble())
            other = asyncio.create_task(play(RandomBot(seed=2), referee.address, tickets[1]))
            async with grpc.aio.insecure_channel(referee.address) as channel:
                stream: Any = channel.stream_stream(
                    "/kassen.v1.Referee/Play",
                    request_serializer=lambda data: data,
                    response_deserializer=pb.PlayResponse.FromString,
                )()
                join = pb.PlayRequest(join=pb.Join(ticket=tickets[0])).SerializeToString()
                await stream.write(join)
                await stream.write(GARBAGE)
                while (message := await stream.read()) is not grpc.aio.EOF:
                    if message.WhichOneof("message") == "match_over":
                        break
            await match.finished.wait()
            await other
            assert match.result is not None
            return match.result.seats[0].reason.value, match.result.seats[0].detail

    reason, detail = run(scenario)
    assert reason == Reason.MALFORMED_MESSAGE.value
    assert detail.startswith("unreadable PlayRequest"), detail


# ---------------------------------------------------------------- a refused join is retried


class RefusingService(RefereeService):
    """The referee, except that its first ``refusals`` streams are refused as a referee
    overwhelmed by a burst of joins refuses them."""

    def __init__(self, referee: Any, refusals: list[grpc.StatusCode]) -> None:
        super().__init__(referee)
        self.refusals = refusals
        self.refused = 0

    async def Play(  # type: ignore[override]
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: Any
    ) -> None:
        if self.refused < len(self.refusals):
            self.refused += 1
            await context.abort(self.refusals[self.refused - 1], "too many streams; try again")
        await super().Play(request_iterator, context)


@pytest.mark.parametrize(
    "refusals",
    [
        [grpc.StatusCode.UNAVAILABLE] * 3,
        [grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE] * 2,
    ],
    ids=["unavailable", "resource-exhausted"],
)
def test_the_sdk_retries_a_refused_join(refusals: list[grpc.StatusCode]) -> None:
    async def scenario() -> tuple[pb.MatchOver, int]:
        async with running_server() as referee:
            server = grpc.aio.server()
            service = RefusingService(referee, refusals)
            add_referee_service(service, server)
            port = server.add_insecure_port("127.0.0.1:0")
            await server.start()
            try:
                match, tickets = referee.create_match(rumble())
                address = f"127.0.0.1:{port}"
                results = await asyncio.gather(
                    play(RandomBot(seed=3), address, tickets[0]),
                    play(RandomBot(seed=4), referee.address, tickets[1]),
                )
                await match.finished.wait()
            finally:
                await server.stop(grace=None)
            return results[0], service.refused

    over, refused = run(scenario)
    assert refused == len(refusals)
    assert over.reason == pb.RESULT_REASON_COMPLETED
