"""Many matches at once against one ``kassen serve``: completion, throughput, latency, memory.

    python benchmarks/load.py [--matches 500] [--workers 3] [--bot random|first] [--seed 1]

One ``kassen serve`` subprocess on a free loopback port (as an operator runs it: JSON logs at
info level into a file, finished matches into its store, both in a temporary folder; the
per-server and per-caller match limits raised to ``--matches`` when the referee has them).
``--workers`` spawned processes each create their share of ``--matches`` 4-player base Rumble
Nation matches (the cheapest 4-player game) with generous clocks, wait until every worker has
created all of its matches, then play all four seats of each with the Python SDK
(``client_sdk.play``: one asyncio task per seat, the SDK's own join retries), each bot choosing
option 0 or a seeded random option. So ``--matches`` matches are alive at once, and all their
seats join in the same moment.

Reported: completion (matches whose MatchOver, as every one of its four bots received it in
``on_match_over``, says COMPLETED with no failed seat, out of ``--matches``; SDK errors, also
those raised after the bot had its result, are counted apart), matches/s and decisions/s over the play window (from the signal to play to the
last MatchOver), decision turnaround p50/p99/max (from a bot's answer leaving it to the next
DecisionRequest of the same match reaching its bot: referee work, transport and queueing under
load, and the SDK's decoding), the referee's peak resident memory (VmHWM) and its CPU share of
one core over the window, and error lines in its log. Target on a 2-core machine: 500
concurrent matches, 100% completed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import platform
import queue
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.yardstick import Figure

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event as EventType

    from client_sdk.bot import Request

BENCHMARK = "load"
ROOT = Path(__file__).resolve().parent.parent
TARGET_MATCHES = 500
TARGET_COMPLETION = 1.0
GAME, VARIANT, PLAYERS = "rumble-nation", "base", 4
#: Generous clocks and join window: under load no seat should time out or miss its join.
DECISION_MS = 60_000
BANK_MS = 600_000
JOIN_TIMEOUT_MS = 60_000
STARTUP_TIMEOUT_S = 60.0
#: Seats one worker plays at most: the SDK's channels to one address share one connection,
#: and the referee allows 1,000 concurrent streams per connection.
SEATS_PER_WORKER = 800
#: ``kassen serve`` flags raised to the number of matches when the referee has them.
LIMIT_FLAGS = (
    "--max-live-matches",
    "--max-waiting-matches",
    "--max-live-per-caller",
    "--max-waiting-per-caller",
)
ALARMS = ("Traceback", "exception was never retrieved", '"exc_info"', '"level": "error"')


# ---------------------------------------------------------------------------- the referee


@dataclass
class Referee:
    """A running ``kassen serve`` and the file its log goes to."""

    process: subprocess.Popen[bytes]
    address: str
    log: Path
    flags: list[str]

    def status_kib(self, key: str) -> int:
        """VmRSS (now) or VmHWM (peak) of the referee, in KiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        raise KeyError(key)

    def cpu_s(self) -> float:
        """User + system CPU seconds the referee has used."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alarms(self) -> list[str]:
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines() if any(a in line for a in ALARMS)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def limit_flags(matches: int) -> list[str]:
    """The limit flags this referee has, each raised to at least ``matches`` (plus a margin)."""
    help_text = subprocess.run(
        [sys.executable, "-m", "kassen", "serve", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    value = str(max(1_000, matches + 100))
    return [part for flag in LIMIT_FLAGS if flag in help_text for part in (flag, value)]


@contextlib.contextmanager
def referee(
    folder: Path, matches: int, log: Path | None = None, extra_flags: Sequence[str] = ()
) -> Iterator[Referee]:
    """``kassen serve`` (with ``extra_flags``, e.g. ``--workers 2``) in ``folder`` until the
    block exits (SIGINT, then kill); its log goes to ``log`` (default: the folder)."""
    address = f"127.0.0.1:{_free_port()}"
    log = log or folder / "referee.log"
    flags = [*limit_flags(matches), *extra_flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "kassen", "serve", "--address", address, *flags],
            stderr=sink,
            stdout=subprocess.DEVNULL,
            cwd=folder,
            env={**env, "PYTHONPATH": str(ROOT)},
        )
    served = Referee(process, address, log, flags)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while '"serving"' not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"kassen serve did not start: {log.read_text()[-2000:]}")
            time.sleep(0.05)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)  # N workers each end their matches first
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# ---------------------------------------------------------------------------- the bots


@dataclass
class MatchClock:
    """When a bot of this match last answered (None before the first answer)."""

    last_answer: float | None = None


def make_bot(kind: str, clock: MatchClock, turnarounds: list[float], seed: int) -> Any:
    """A trivial SDK bot that records each decision's turnaround in ms."""
    from client_sdk.bot import Bot

    class Trivial(Bot):
        name = f"load-{kind}"

        def __init__(self) -> None:
            self.rng = random.Random(seed)
            self.over: Any = None

        def on_match_over(self, result: Any) -> None:
            self.over = result

        def choose(self, request: Request) -> int:
            now = time.perf_counter()
            if clock.last_answer is not None:
                turnarounds.append((now - clock.last_answer) * 1000)
            index = 0 if kind == "first" else self.rng.randrange(len(request.options))
            clock.last_answer = time.perf_counter()
            return index

    return Trivial()


@dataclass(slots=True)
class WorkerReport:
    created: int = 0
    completed: int = 0
    failed_seats: int = 0
    errors: list[str] = field(default_factory=list)
    decisions: int = 0
    turnarounds: list[float] = field(default_factory=list)
    cpu_s: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)
    #: Bot errors raised by the SDK after the bot's on_match_over had the result.
    errors_after_over: int = 0


def worker(
    address: str,
    matches: int,
    bot: str,
    seed: int,
    created: EventType,
    go: EventType,
    out: Any,
) -> None:
    """One worker process: create ``matches`` matches, signal, wait for ``go``, play them."""
    report = asyncio.run(_worker(address, matches, bot, seed, created, go))
    out.put(report)


def create_request() -> Any:
    """The CreateMatch of every benchmark match: the game, generous clocks, the join window."""
    from kassen.v1 import referee_pb2 as pb

    return pb.CreateMatchRequest(
        game=GAME,
        variant=VARIANT,
        players=PLAYERS,
        time_control=pb.TimeControl(decision_ms=DECISION_MS, bank_ms=BANK_MS),
        join_timeout_ms=JOIN_TIMEOUT_MS,
    )


async def _worker(
    address: str, matches: int, bot: str, seed: int, created: EventType, go: EventType
) -> WorkerReport:
    import grpc

    from client_sdk.runner import BotError, play
    from kassen.v1 import referee_pb2 as pb
    from kassen.v1 import referee_pb2_grpc as rpc

    report = WorkerReport()
    async with grpc.aio.insecure_channel(address) as channel:
        await asyncio.wait_for(channel.channel_ready(), STARTUP_TIMEOUT_S)
        stub = rpc.RefereeStub(channel)
        request = create_request()
        tickets = []
        for _ in range(matches):
            response = await stub.CreateMatch(request, timeout=60)
            tickets.append(list(response.tickets))
        report.created = len(tickets)
    created.set()
    while not go.is_set():  # every worker has created its matches: all are alive at once
        await asyncio.sleep(0.01)
    cpu_start = time.process_time()

    async def seat(clock: MatchClock, ticket: str, seat_seed: int) -> Any:
        played = make_bot(bot, clock, report.turnarounds, seat_seed)
        try:
            return await play(played, address, ticket)
        except BotError as exc:
            report.errors.append(str(exc))
            if played.over is not None:  # the SDK failed after handing the bot its result
                report.errors_after_over += 1
            return played.over

    async def one_match(number: int, match_tickets: list[str]) -> None:
        clock = MatchClock()
        overs = await asyncio.gather(
            *(seat(clock, t, seed * 100_000 + number * 8 + i) for i, t in enumerate(match_tickets))
        )
        if any(over is None for over in overs):
            return
        over = overs[0]
        reason = pb.ResultReason.Name(over.reason)
        report.reasons[reason] = report.reasons.get(reason, 0) + 1
        failed = sum(s.forfeited for s in over.seats)
        report.failed_seats += failed
        report.decisions += sum(s.decisions for s in over.seats)
        if over.reason == pb.RESULT_REASON_COMPLETED and not failed:
            report.completed += 1

    await asyncio.gather(*(one_match(i, t) for i, t in enumerate(tickets)))
    report.cpu_s = time.process_time() - cpu_start
    return report


# ---------------------------------------------------------------------------- the parent


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return math.nan
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def run(
    matches: int = TARGET_MATCHES,
    workers: int = 3,
    bot: str = "random",
    seed: int = 1,
    log: Path | None = None,
) -> list[Figure]:
    """Run the load once, print the report, return the key figures."""
    workers = max(workers, math.ceil(matches * PLAYERS / SEATS_PER_WORKER))
    workers = min(workers, matches)
    shares = [matches // workers + (i < matches % workers) for i in range(workers)]
    ctx = multiprocessing.get_context("spawn")  # no fork: grpc does not survive it
    with (
        tempfile.TemporaryDirectory(prefix="kassen-load-") as tmp,
        referee(Path(tmp), matches, log) as served,
    ):
        idle_mib = served.status_kib("VmRSS") / 1024
        print(
            f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()}, "
            f"{os.cpu_count()} cores, load average {_load()}; kassen serve "
            f"{' '.join(served.flags) or '(default limits)'}; {matches} x {GAME} {PLAYERS}p "
            f"{VARIANT}, {workers} worker processes ({'/'.join(map(str, shares))} matches), "
            f"bots: {bot}",
            flush=True,
        )
        go = ctx.Event()
        out = ctx.Queue()
        flags = [ctx.Event() for _ in shares]
        processes = [
            ctx.Process(
                target=worker,
                args=(served.address, share, bot, seed * 1_000 + i, flags[i], go, out),
                daemon=True,
            )
            for i, share in enumerate(shares)
        ]
        started = time.perf_counter()
        try:
            for process in processes:
                process.start()
            for flag in flags:
                while not flag.wait(0.5):
                    if any(p.exitcode not in (None, 0) for p in processes):
                        raise RuntimeError("a worker died while creating its matches")
            created_s = time.perf_counter() - started
            alive_mib = served.status_kib("VmRSS") / 1024
            cpu_before = served.cpu_s()
            go.set()
            window = time.perf_counter()
            reports = [_take(out, processes) for _ in processes]
            elapsed = time.perf_counter() - window
            cpu = served.cpu_s() - cpu_before
            for process in processes:
                process.join(10)
        finally:
            go.set()
            for process in processes:
                if process.is_alive():
                    process.kill()
                    process.join(5)
        peak_mib = served.status_kib("VmHWM") / 1024
        after_mib = served.status_kib("VmRSS") / 1024
        alarms = served.alarms()
        alive = served.process.poll() is None

    completed = sum(r.completed for r in reports)
    decisions = sum(r.decisions for r in reports)
    turnarounds = sorted(t for r in reports for t in r.turnarounds)
    errors = [e for r in reports for e in r.errors]
    reasons: dict[str, int] = {}
    for r in reports:
        for reason, count in r.reasons.items():
            reasons[reason] = reasons.get(reason, 0) + count
    completion = completed / matches
    p50, p99 = percentile(turnarounds, 0.5), percentile(turnarounds, 0.99)
    print(f"created {matches} matches in {created_s:.1f} s (worker start-up included)")
    print(
        f"completed {completed}/{matches} ({completion:.1%}) in {elapsed:.1f} s: "
        f"{matches / elapsed:.1f} matches/s, {decisions / elapsed:,.0f} decisions/s "
        f"({decisions:,} decisions); results {reasons}; failed seats "
        f"{sum(r.failed_seats for r in reports)}; bot errors {len(errors)}"
        + (
            f" ({sum(r.errors_after_over for r in reports)} after the bot had its MatchOver;"
            f" first: {errors[0]})"
            if errors
            else ""
        )
    )
    print(
        f"decision turnaround ({len(turnarounds):,} samples): p50 {p50:.1f} ms, "
        f"p99 {p99:.1f} ms, max {turnarounds[-1] if turnarounds else math.nan:.1f} ms"
    )
    print(
        f"referee: RSS idle {idle_mib:.0f} MiB, with {matches} matches waiting {alive_mib:.0f}"
        f" MiB, peak {peak_mib:.0f} MiB, after {after_mib:.0f} MiB; CPU {cpu / elapsed:.0%} of"
        f" one core over the window; alive at the end: {alive}; alarming log lines "
        f"{len(alarms)}" + (f" (first: {alarms[0][:300]})" if alarms else "")
    )
    print(
        f"bots: {sum(r.cpu_s for r in reports) / elapsed:.0%} of one core in all "
        f"({workers} processes); load average at the end {_load()}"
    )
    if not alive:
        raise RuntimeError("the referee died during the load run")
    return [
        Figure(
            BENCHMARK,
            f"completed, {matches} concurrent {PLAYERS}p matches",
            completion,
            "share",
            "ratio",
            TARGET_COMPLETION,
        ),
        Figure(BENCHMARK, f"{matches} concurrent matches", decisions / elapsed, "decisions/s"),
        Figure(BENCHMARK, "decision turnaround, p99", p99, "ms", "time", seconds=1e-3),
        Figure(BENCHMARK, "referee peak RSS", peak_mib, "MiB", "ratio"),
    ]


def _take(out: Any, processes: list[Any]) -> WorkerReport:
    while True:
        try:
            report: WorkerReport = out.get(timeout=1.0)
            return report
        except queue.Empty:
            dead = [p for p in processes if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a worker exited with code {dead[0].exitcode}") from None


def _load() -> str:
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=TARGET_MATCHES, help="concurrent matches")
    parser.add_argument("--workers", type=int, default=3, help="bot processes (at least)")
    parser.add_argument("--bot", choices=["random", "first"], default="random")
    parser.add_argument("--seed", type=int, default=1, help="seeds the bots' choices")
    parser.add_argument("--log", type=Path, help="keep the referee's log in this file")
    args = parser.parse_args(argv)
    if args.matches <= 0 or args.workers <= 0:
        parser.error("--matches and --workers must be positive")
    with yardstick.around() as reading:
        figures = run(args.matches, args.workers, args.bot, args.seed, args.log)
    yardstick.report(figures, reading)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
