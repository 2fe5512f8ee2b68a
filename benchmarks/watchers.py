"""What spectators cost a referee: its loop (other matches' decisions/s) and its memory.

    python benchmarks/watchers.py [--watchers 0,100,1000] [--seconds 10] [--think-ms 20]
                                  [--clients 4] [--checkout DIR]

Runs a real ``kassen serve`` (its own process, log level warning, the watcher limits raised
to let every watcher in) and, from this process:

- a *watched* live Root match (2 players, autumn): both seats answer option 0 after
  ``--think-ms`` (option 0 never ends a Root game, so the match stays live as long as it is
  played; its decision limit is a million);
- *other* matches on the same referee, 2-player Rumble Nation one after the other, both
  seats answering option 0 at once: their decisions per second are the loop's share left to
  the matches;

then, for each count of ``--watchers``, measures that rate for ``--seconds`` without
spectators, starts the spectators of the watched match in ``--clients`` processes (raw gRPC,
the messages read as bytes), measures again while they watch (and the longest pause of the
other match while they joined), lets them leave and reads the referee's RSS (/proc) before,
during (peak) and after. ``--checkout DIR`` runs ``kassen serve`` from another checkout (an
earlier commit, to compare), without the watcher flags if it does not know them.

``python benchmarks/watchers.py --client ADDRESS MATCH_ID COUNT`` is one client process:
COUNT spectators of MATCH_ID, ``ready`` on its standard output once each has its first
message, reading until its standard input ends, then a JSON line of what they received.
tests/server/test_watchers.py uses both halves.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.memory import free_port, rss_mb  # noqa: E402
from kassen.v1 import referee_pb2 as pb  # noqa: E402
from kassen.v1 import referee_pb2_grpc as rpc  # noqa: E402
from server.service import RELAY_HEADER  # noqa: E402

WATCH = "/kassen.v1.Referee/Watch"
#: Spectators per connection of a client process (the referee allows 1,000 streams each).
STREAMS_PER_CHANNEL = 100
#: The limits raised for the benchmark (one host, one match, many spectators).
OPEN_LIMITS = (
    "--max-watchers",
    "100000",
    "--max-watchers-per-match",
    "100000",
    "--max-watchers-per-caller",
    "100000",
)


# ---------------------------------------------------------------------- the referee


@dataclass
class Referee:
    """A ``kassen serve`` subprocess."""

    process: asyncio.subprocess.Process
    address: str

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss(self) -> float:
        return rss_mb(self.pid)

    def cpu_s(self) -> float:
        """User + system CPU seconds of the referee so far."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def serving(
    *flags: str, checkout: Path = ROOT, host: str = "127.0.0.1"
) -> AsyncIterator[Referee]:
    """``kassen serve`` from ``checkout`` on a free port of ``host`` until the block exits
    (``localhost``: both 127.0.0.1 and ::1, two client hosts for the per-caller limits)."""
    workdir = Path(tempfile.mkdtemp(prefix="kassen-watchers-"))
    port = free_port()
    address = f"{host}:{port}"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kassen",
        "serve",
        "--address",
        address,
        "--store",
        "none",
        "--replays",
        str(workdir / "replays"),
        "--log-level",
        "warning",
        *flags,
        cwd=checkout,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(checkout)},
    )
    try:
        reachable = f"127.0.0.1:{port}" if host == "localhost" else address
        async with grpc.aio.insecure_channel(reachable) as channel:
            stub = rpc.RefereeStub(channel)
            await stub.ListGames(pb.ListGamesRequest(), wait_for_ready=True, timeout=60)
        yield Referee(process, reachable)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        await process.wait()


def knows_watcher_flags(checkout: Path) -> bool:
    shown = subprocess.run(
        [sys.executable, "-m", "kassen", "serve", "--help"],
        cwd=checkout,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        check=False,
    )
    return "--max-watchers" in shown.stdout


# ---------------------------------------------------------------------- the matches


@dataclass
class Seats:
    """The seats of one Root match played from this process, option 0 each time."""

    match_id: str
    think_s: float
    decisions: int = 0
    #: When each decision was answered (monotonic), kept only while ``timing``.
    times: list[float] = field(default_factory=list)
    timing: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


async def root_match(stub: Any, address: str, think_s: float) -> Seats:
    """Create a Root match that stays live while played, and start both its seats."""
    created = await stub.CreateMatch(
        pb.CreateMatchRequest(
            game="root",
            variant="autumn",
            players=2,
            seed=7,
            max_decisions=1_000_000,
            time_control=pb.TimeControl(decision_ms=60_000, bank_ms=0),
        )
    )
    seats = Seats(created.match_id, think_s)
    loop = asyncio.get_running_loop()
    for ticket in created.tickets:
        seats.tasks.append(loop.create_task(_play(address, ticket, seats)))
    return seats


async def other_matches(stub: Any, address: str) -> Seats:
    """2-player Rumble Nation matches one after the other, both seats answering option 0 at
    once: their decisions count together (finished matches leave the referee's memory, so
    its RSS does not grow with them as it does with one ever longer match)."""
    seats = Seats("", 0.0)

    async def one_after_another() -> None:
        while True:
            created = await stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation", players=2))
            await asyncio.gather(*(_play(address, t, seats) for t in created.tickets))

    seats.tasks.append(asyncio.get_running_loop().create_task(one_after_another()))
    return seats


async def _play(address: str, ticket: str, seats: Seats) -> None:
    """A seat on its own connection: option 0 after ``think_s``, pings answered."""
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="first")))
        while (message := await call.read()) is not grpc.aio.EOF:
            which = message.WhichOneof("message")
            if which == "decision":
                if seats.think_s:
                    await asyncio.sleep(seats.think_s)
                answer = pb.Answer(request_id=message.decision.request_id)
                await call.write(pb.PlayRequest(answer=answer))
                seats.decisions += 1
                if seats.timing:
                    seats.times.append(time.monotonic())
            elif which == "ping":
                await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
            elif which == "match_over":
                return


async def rate(seats: Seats, seconds: float) -> float:
    """The match's decisions per second over ``seconds``."""
    before, began = seats.decisions, time.monotonic()
    await asyncio.sleep(seconds)
    return (seats.decisions - before) / (time.monotonic() - began)


def longest_pause(times: Sequence[float]) -> float:
    """The longest time between two decisions (s)."""
    return max((b - a for a, b in itertools.pairwise(times)), default=0.0)


# ---------------------------------------------------------------------- spectators


class Spectators:
    """Client processes, each holding its share of the spectators of one match."""

    def __init__(
        self,
        address: str,
        match_id: str,
        count: int,
        clients: int,
        delay_ms: int = 0,
        relay_token: str | None = None,
    ) -> None:
        self.address, self.match_id = address, match_id
        self.shares = [count // clients + (i < count % clients) for i in range(clients)]
        self.delay_ms, self.relay_token = delay_ms, relay_token
        self.processes: list[asyncio.subprocess.Process] = []

    async def start(self, timeout: float = 300.0) -> None:
        """Start the clients and wait until every spectator has its first message."""
        for share in self.shares:
            if not share:
                continue
            command = [sys.executable, str(Path(__file__).resolve()), "--client"]
            command += [self.address, self.match_id, str(share), "--delay-ms", str(self.delay_ms)]
            if self.relay_token:
                command += ["--relay-token", self.relay_token]
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    *command,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    cwd=ROOT,
                )
            )
        for process in self.processes:
            assert process.stdout is not None
            line = await asyncio.wait_for(process.stdout.readline(), timeout)
            if line.strip() != b"ready":
                raise RuntimeError(f"a spectator client failed: {line!r}")

    async def stop(self) -> list[dict[str, Any]]:
        """Let the spectators leave; what each client's spectators received."""
        reports = []
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()
        for process in self.processes:
            assert process.stdout is not None
            out = await asyncio.wait_for(process.stdout.read(), 120)
            await process.wait()
            reports.append(json.loads(out.decode().strip().splitlines()[-1]))
        self.processes = []
        return reports


@dataclass
class Received:
    """What the spectators of one client process received: messages and bytes, how many
    streams the referee ended (only MatchOver should), and errors by status code."""

    messages: int = 0
    bytes: int = 0
    ended: int = 0
    errors: dict[str, int] = field(default_factory=dict)


async def client(
    address: str, match_id: str, count: int, delay_ms: int, relay_token: str | None
) -> Received:
    """``count`` spectators of ``match_id`` until standard input ends (see the docstring)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    channels = [
        grpc.aio.insecure_channel(address)
        for _ in range((count + STREAMS_PER_CHANNEL - 1) // STREAMS_PER_CHANNEL)
    ]
    metadata = ((RELAY_HEADER, relay_token),) if relay_token else ()
    request = pb.WatchRequest(match_id=match_id, delay_ms=delay_ms).SerializeToString()
    firsts = asyncio.Queue[None]()
    received = Received()

    async def spectate(channel: grpc.aio.Channel) -> None:
        """One spectator, reading the messages as bytes (nothing parsed: a light client)."""
        call: Any = cast(Any, channel.unary_stream(WATCH))(request, metadata=metadata)
        first = True
        try:
            async for data in call:
                received.messages += 1
                received.bytes += len(data)
                if first:
                    first = False
                    firsts.put_nowait(None)
            received.ended += 1
        except grpc.aio.AioRpcError as error:
            name = error.code().name
            received.errors[name] = received.errors.get(name, 0) + 1
            if first:
                firsts.put_nowait(None)
        finally:
            call.cancel()

    tasks = [loop.create_task(spectate(channels[i // STREAMS_PER_CHANNEL])) for i in range(count)]
    for _ in range(count):
        await firsts.get()
    print("ready", flush=True)
    await reader.read()  # until standard input ends
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return received


# ---------------------------------------------------------------------- the benchmark


@dataclass(frozen=True, slots=True)
class Phase:
    watchers: int
    rate_without: float
    rate_with: float
    longest_pause_joining_s: float
    join_s: float
    rss_before: float
    rss_peak: float
    rss_after: float
    messages: int
    errors: dict[str, int]
    #: The referee's CPU (share of one core) in the windows without and with spectators.
    cpu_without: float
    cpu_with: float
    #: Messages a second the spectators received while watching (after their first).
    message_rate: float

    def line(self) -> str:
        per = (self.rss_peak - self.rss_before) * 1024 / self.watchers if self.watchers else 0.0
        return (
            f"{self.watchers:5d} watchers: other matches {self.rate_without:6.0f} -> "
            f"{self.rate_with:6.0f} decisions/s ({self.rate_with / self.rate_without:.2f}); "
            f"joined in {self.join_s:.1f} s, longest pause {self.longest_pause_joining_s * 1000:.0f}"
            f" ms; RSS {self.rss_before:.0f} -> peak {self.rss_peak:.0f} ({per:.0f} KB each)"
            f" -> {self.rss_after:.0f} MB after; referee CPU {self.cpu_without:.2f} -> "
            f"{self.cpu_with:.2f}; {self.message_rate:.0f} messages/s"
            + (f"; errors {self.errors}" if self.errors else "")
        )


async def measure(
    referee: Referee, watched: Seats, other: Seats, count: int, seconds: float, clients: int
) -> Phase:
    rss_before = referee.rss()
    cpu, wall = referee.cpu_s(), time.monotonic()
    without = await rate(other, seconds)
    cpu_without = (referee.cpu_s() - cpu) / (time.monotonic() - wall)
    spectators = Spectators(referee.address, watched.match_id, count, clients)
    other.times, other.timing = [], True
    began = time.monotonic()
    peak = referee.rss()
    if count:
        await spectators.start()
    join_s = time.monotonic() - began
    other.timing = False
    pause = longest_pause(other.times)
    before, started, cpu = other.decisions, time.monotonic(), referee.cpu_s()
    while (elapsed := time.monotonic() - started) < seconds:
        await asyncio.sleep(min(0.5, seconds - elapsed))
        peak = max(peak, referee.rss())
    watched_s = time.monotonic() - started
    with_ = (other.decisions - before) / watched_s
    cpu_with = (referee.cpu_s() - cpu) / watched_s
    reports = await spectators.stop() if count else []
    watching_s = time.monotonic() - began - join_s
    await asyncio.sleep(3)  # gone: their streams closed, the referee's memory settled
    errors: dict[str, int] = {}
    for report in reports:
        for code, n in report["errors"].items():
            errors[code] = errors.get(code, 0) + n
    return Phase(
        watchers=count,
        rate_without=without,
        rate_with=with_,
        longest_pause_joining_s=pause,
        join_s=join_s,
        rss_before=rss_before,
        rss_peak=max(peak, referee.rss()),
        rss_after=referee.rss(),
        messages=sum(r["messages"] for r in reports),
        errors=errors,
        cpu_without=cpu_without,
        cpu_with=cpu_with,
        message_rate=(sum(r["messages"] for r in reports) - count) / watching_s,
    )


async def main(args: argparse.Namespace) -> list[Phase]:
    checkout = Path(args.checkout).resolve() if args.checkout else ROOT
    flags = OPEN_LIMITS if knows_watcher_flags(checkout) else ()
    phases = []
    async with (
        serving(*flags, checkout=checkout) as referee,
        grpc.aio.insecure_channel(referee.address) as channel,
    ):
        stub = rpc.RefereeStub(channel)
        watched = await root_match(stub, referee.address, args.think_ms / 1000)
        other = await other_matches(stub, referee.address)
        await asyncio.sleep(args.warmup)  # both matches well under way, the referee warm
        print(
            f"kassen serve pid {referee.pid} ({checkout}); watched match "
            f"{watched.match_id} at {watched.decisions} decisions; RSS {referee.rss():.0f} MB"
        )
        for count in [int(n) for n in args.watchers.split(",")]:
            phase = await measure(referee, watched, other, count, args.seconds, args.clients)
            phases.append(phase)
            print(phase.line(), flush=True)
        print(f"watched match at {watched.decisions} decisions, still live")
        watched.stop()
        other.stop()
    return phases


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--watchers", default="0,100,1000", help="spectator counts to measure")
    parser.add_argument("--seconds", type=float, default=10.0, help="each measuring window")
    parser.add_argument("--warmup", type=float, default=5.0, help="before the first window")
    parser.add_argument("--think-ms", type=int, default=20, help="the watched match's bots")
    parser.add_argument("--clients", type=int, default=4, help="spectator client processes")
    parser.add_argument("--checkout", default=None, help="run kassen serve from this checkout")
    parser.add_argument("--client", nargs=3, metavar=("ADDRESS", "MATCH_ID", "COUNT"))
    parser.add_argument("--delay-ms", type=int, default=0, help="(--client) extra delay")
    parser.add_argument("--relay-token", default=None, help="(--client) presented as a relay")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    if arguments.client:
        address, match_id, count = arguments.client
        report = asyncio.run(
            client(address, match_id, int(count), arguments.delay_ms, arguments.relay_token)
        )
        print(json.dumps(dataclasses.asdict(report)), flush=True)
    else:
        asyncio.run(main(arguments))
