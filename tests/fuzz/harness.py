"""A real ``kassen serve`` for the fuzzer, and the checks every fuzz case ends with.

The referee runs as a subprocess on a free loopback port, as an operator runs it, so that a
crash is a dead process, a leak is the process's resident memory (``/proc/<pid>/status``)
and an unhandled error is a line in its JSON log on stderr. ``Served.check`` looks at all
three after every case.

How many cases: ``KASSEN_FUZZ_EXAMPLES=N`` runs N per test (with ``--slow`` the count is sized
for CI: the whole folder in about 20-30 s on a loaded 2-core machine; without it, a fast depth
of about a third of that, with a new seed each run); ``KASSEN_FUZZ_SEED=S`` replays a
run, whose seed is printed with any failure; ``KASSEN_FUZZ_SHRINK=1`` shrinks a failing case.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from hypothesis import HealthCheck, Phase, seed, settings

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

T = TypeVar("T", bound=Callable[..., Any])
ROOT = Path(__file__).resolve().parents[2]
#: The bound on the referee's resident memory (peak, VmHWM) through a fuzz run, in MiB. An idle
#: referee holds about 60 MiB; the default run adds a few hundred small finished matches.
RSS_BOUND_MIB = 300
STARTUP_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
#: Status codes a referee may answer a malformed or unwelcome request with (docs/protocol.md).
#: Never UNKNOWN or INTERNAL (an exception of ours escaped) nor UNAVAILABLE (the server died).
DOCUMENTED_ERRORS = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNAUTHENTICATED,
    }
)
#: Log lines that mean an error escaped or was swallowed with its traceback lost.
ALARMS = ("Traceback", "exception was never retrieved", '"exc_info"', '"exception"')

FUZZ_SEED = int(os.environ.get("KASSEN_FUZZ_SEED") or secrets.randbelow(2**32))
#: No shrinking unless KASSEN_FUZZ_SHRINK=1: a case against a live server takes up to seconds
#: and its timing varies, so shrinking is slow and often inconclusive; the failing case is
#: printed as generated.
PHASES = tuple(Phase) if os.environ.get("KASSEN_FUZZ_SHRINK") == "1" else (Phase.generate,)


def examples(default: int, fast: int | None = None) -> int:
    """Cases per test: ``KASSEN_FUZZ_EXAMPLES`` (a night's run), else the CI default (with
    ``--slow``, which CI passes), else ``fast`` where given (the quick local depth)."""
    chosen = os.environ.get("KASSEN_FUZZ_EXAMPLES")
    if chosen:
        return int(chosen)
    slow = os.environ.get("KASSEN_TEST_DEPTH") == "slow"
    return default if slow or fast is None else fast


def fuzz(default_examples: int, fast_examples: int | None = None) -> Callable[[T], T]:
    """``@given``'s companion: the seed of this run, no deadline (a case waits on a real
    server), no example database (a case depends on the server's state, not only its input)."""

    def decorate(test: T) -> T:
        configured = settings(
            max_examples=examples(default_examples, fast_examples),
            deadline=None,
            database=None,
            print_blob=True,
            phases=PHASES,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )(test)
        seeded: T = seed(FUZZ_SEED)(configured)
        return seeded

    return decorate


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """A running ``kassen serve``: its address, process, every log line so far, and the
    matches the fuzzer created on it (later cases aim at real ids too)."""

    address: str
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)
    match_ids: list[str] = field(default_factory=list)
    #: Tickets of finished matches (a join with one must be refused).
    old_tickets: list[str] = field(default_factory=list)

    def status_kib(self, key: str) -> int:
        """A field of /proc/<pid>/status in KiB: VmRSS now, VmHWM the peak."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        raise KeyError(key)

    def alarms(self) -> list[str]:
        """Log lines telling of an escaped or swallowed exception, or an error we did not cause."""
        found = []
        for line in list(self.log):
            if any(alarm in line for alarm in ALARMS):
                found.append(line)
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("level") in ("error", "critical"):
                found.append(line)
        return found

    def check(self) -> None:
        """Alive, nothing alarming logged, resident memory under the bound."""
        assert self.process.poll() is None, f"the referee died: {self.tail()}"
        alarms = self.alarms()
        assert not alarms, "the referee logged an error:\n" + "\n".join(alarms[:5])
        peak = self.status_kib("VmHWM") / 1024
        assert peak <= RSS_BOUND_MIB, f"referee peak RSS {peak:.0f} MiB > {RSS_BOUND_MIB} MiB"

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log[-lines:])


@contextlib.contextmanager
def serving(folder: Path, *flags: str) -> Iterator[Served]:
    """``kassen serve`` on a free loopback port until the block exits; then SIGINT, and the
    referee must stop cleanly (exit 0) with nothing alarming in its log."""
    address = f"127.0.0.1:{_free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--address", address, *flags],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        cwd=folder,
    )
    served = Served(address, process)
    started: queue.Queue[bool] = queue.Queue()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            served.log.append(line.rstrip("\n"))
            if '"serving"' in line:
                started.put(True)
        started.put(False)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.get(timeout=STARTUP_TIMEOUT_S), (
            f"kassen serve did not start: {served.tail()}"
        )
        yield served
        served.check()
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=5)
    assert process.returncode == 0, f"kassen serve exited {process.returncode}: {served.tail()}"
    alarms = served.alarms()
    assert not alarms, "the referee logged an error:\n" + "\n".join(alarms[:5])


@contextlib.asynccontextmanager
async def connected(served: Served) -> AsyncIterator[tuple[grpc.aio.Channel, Any]]:
    """A channel to the referee (large replies allowed: ListMatches may list thousands) and
    its stub."""
    options = [("grpc.max_receive_message_length", 256 * 1024 * 1024)]
    async with grpc.aio.insecure_channel(served.address, options=options) as channel:
        await asyncio.wait_for(channel.channel_ready(), STARTUP_TIMEOUT_S)
        yield channel, rpc.RefereeStub(channel)


async def wait_finished(stub: Any, match_id: str, within_s: float) -> pb.MatchSummary:
    """The match's summary once GetMatch says it finished; fails if it has not by then."""
    deadline = time.monotonic() + within_s
    while True:
        summary: pb.MatchSummary = (
            await stub.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=10)
        ).match
        if summary.status == "finished":
            assert summary.result.reason != pb.RESULT_REASON_UNSPECIFIED, summary
            assert len(summary.result.seats) == summary.setup.players, summary
            return summary
        assert time.monotonic() < deadline, (
            f"match {match_id} still {summary.status!r} after {within_s:.1f} s "
            f"({summary.decisions} decisions)"
        )
        await asyncio.sleep(0.05)


def run(coro: Any) -> Any:
    """One fuzz case's client side, on a fresh event loop."""
    return asyncio.run(coro)


async def play_seat(stub: Any, ticket: str, honest: int, within_s: float) -> pb.MatchOver | None:
    """A seat that answers option 0 to its first ``honest`` decisions, then an index out of
    range (so it forfeits and the referee plays on for it), and every Ping; the MatchOver, or
    None if the ticket was refused."""
    call = stub.Play(timeout=within_s)
    await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="fuzz-driver")))
    answered = 0
    try:
        async for message in call:
            which = message.WhichOneof("message")
            if which == "decision":
                index = 0 if answered < honest else 2**32 - 1
                answered += 1
                answer = pb.Answer(request_id=message.decision.request_id, option_index=index)
                await call.write(pb.PlayRequest(answer=answer))
            elif which == "ping":
                await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
            elif which == "match_over":
                over: pb.MatchOver = message.match_over
                return over
    except grpc.aio.AioRpcError as error:
        if error.code() == grpc.StatusCode.PERMISSION_DENIED:
            return None
        raise
    raise AssertionError("a Play stream ended without MatchOver")


async def play_out(
    stub: Any, tickets: list[str], honest: int, within_s: float
) -> list[pb.MatchOver | None]:
    """Every seat of a match played by ``play_seat``: each one's MatchOver, or None for a seat
    refused (its join came after a join window as short as a millisecond, and the match
    ended)."""
    return await asyncio.gather(*(play_seat(stub, t, honest, within_s) for t in tickets))
