"""``kassen serve --workers N``: decisions/s with 1 and with 2 referee processes, in one run.

    python benchmarks/workers.py [--matches 200] [--clients 2] [--concurrency 50]
                                 [--workers 1,2] [--seats apart,together]
                                 [--bot random|first] [--seed 1]

For each N, one ``kassen serve --workers N`` on a free loopback port (limits raised as in
benchmarks/load.py, its store and log in a temporary folder), then ``--clients`` spawned
client processes, each creating ``--matches / --clients`` 4-player base Rumble Nation matches
and playing them, ``--concurrency`` at a time, with trivial SDK bots (benchmarks/load.py's:
option 0 or a seeded random option). Each match is created, and each seat connects, on a
connection of its own, as separate programs would (gRPC would otherwise share one connection
between the channels of a process). The kernel spreads those connections over the workers: a
match belongs to the worker its creation landed on, and a seat that lands on another worker
is forwarded to the owner. ``--seats together`` measures the other extreme: a match's seats
play on the connection that created it (as one program creating and playing its matches
over one channel does), so none is forwarded.

Reported for each N: matches completed, decisions/s over the play window (from the moment
every client is connected to the last MatchOver), the share of seat streams forwarded to
another worker (from the workers' ``worker_streams`` log lines at exit), and the CPU of each
process as a share of one core over the window (the parent, each worker, the clients in
all); then the ratio of the decisions/s of the second N to the first. The clients run on the
same machine and need CPU too: on 2 cores, the referee processes and the clients share them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.load import (
    GAME,
    PLAYERS,
    STARTUP_TIMEOUT_S,
    VARIANT,
    MatchClock,
    _load,
    _take,
    create_request,
    make_bot,
    referee,
)
from benchmarks.yardstick import Figure

BENCHMARK = "workers"
#: A channel with this option has a connection of its own.
APART = ("grpc.use_local_subchannel_pool", 1)


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Served:
    """A running ``kassen serve --workers N``: its processes (the parent first) and log."""

    process: subprocess.Popen[bytes]
    address: str
    log: Path
    pids: list[int]

    def lines(self) -> list[dict[str, Any]]:
        found = []
        for line in self.log.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                found.append(json.loads(line))
        return found


@contextlib.contextmanager
def serve(folder: Path, workers: int, matches: int) -> Iterator[Served]:
    """``kassen serve --workers N`` until the block exits (``benchmarks/load.py``'s referee,
    which stops it with SIGINT, then kill); its processes are read from its serving line."""
    log = folder / f"referee-{workers}.log"
    with referee(folder, matches, log, ["--workers", str(workers)]) as running:
        served = Served(running.process, running.address, log, [running.process.pid])
        ready = [x for x in served.lines() if x.get("event") == "serving"]
        served.pids += [p for p in ready[0].get("pids", []) if p != running.process.pid]
        yield served


@dataclass(slots=True)
class ClientReport:
    completed: int = 0
    decisions: int = 0
    errors: list[str] = field(default_factory=list)
    cpu_s: float = 0.0


@dataclass(frozen=True)
class Load:
    matches: int
    concurrency: int
    bot: str
    #: "apart": each seat on a connection of its own; "together": a match's seats on the
    #: connection that created it (so on the worker that owns it).
    seats: str
    seed: int


def client(address: str, load: Load, ready: Any, go: Any, out: Any) -> None:
    """One client process: once every client is connected (``go``), create and play
    ``load.matches`` matches, ``load.concurrency`` at a time."""
    out.put(asyncio.run(_client(address, load, ready, go)))


async def _client(address: str, load: Load, ready: Any, go: Any) -> ClientReport:
    import contextvars

    import grpc

    from client_sdk import runner
    from kassen.v1 import referee_pb2 as pb
    from kassen.v1 import referee_pb2_grpc as rpc

    matches, concurrency, bot, seed = load.matches, load.concurrency, load.bot, load.seed
    #: The connection of the match being played: channels with the same arguments share one
    #: connection in a process (gRPC's global subchannel pool) while one of them is open.
    connection: contextvars.ContextVar[tuple[str, Any]] = contextvars.ContextVar(
        "connection", default=APART
    )

    def open_channel(target: str, tls_ca: bytes | None = None) -> grpc.aio.Channel:
        return grpc.aio.insecure_channel(target, options=[connection.get()])

    runner.open_channel = open_channel  # every seat's connection chosen here, as described above
    report = ClientReport()
    room = asyncio.Semaphore(concurrency)
    request = create_request()
    async with grpc.aio.insecure_channel(address, options=[APART]) as first:
        await asyncio.wait_for(first.channel_ready(), STARTUP_TIMEOUT_S)
    ready.set()
    while not go.is_set():
        await asyncio.sleep(0.01)
    started = time.process_time()

    async def one_match(number: int) -> None:
        if load.seats == "together":
            connection.set(("kassen.benchmark.match", f"{seed}-{number}"))
        async with room, open_channel(address) as creator:
            # a connection of its own: the kernel picks the worker that will own the match
            created = await rpc.RefereeStub(creator).CreateMatch(request, timeout=60)
            clock = MatchClock()
            bots = [make_bot(bot, clock, [], seed * 100_000 + number * 8 + i) for i in range(4)]
            try:
                await asyncio.gather(
                    *(
                        runner.play(b, address, t)
                        for b, t in zip(bots, created.tickets, strict=True)
                    )
                )
            except runner.BotError as exc:
                report.errors.append(str(exc))
            over = bots[0].over
            if over is not None and over.reason == pb.RESULT_REASON_COMPLETED:
                report.completed += 1
                report.decisions += sum(s.decisions for s in over.seats)

    await asyncio.gather(*(one_match(i) for i in range(matches)))
    report.cpu_s = time.process_time() - started
    return report


@dataclass
class Measured:
    workers: int
    completed: int
    decisions_s: float
    forwarded: float
    #: CPU share of one core over the window: parent, each worker (N > 1), clients in all.
    cpu: list[float]
    errors: list[str]


def measure(workers: int, clients: int, load: Load) -> Measured:
    shares = [load.matches // clients + (i < load.matches % clients) for i in range(clients)]
    ctx = multiprocessing.get_context("spawn")  # no fork: grpc does not survive it
    with tempfile.TemporaryDirectory(prefix="kassen-workers-") as tmp:
        with serve(Path(tmp), workers, load.matches) as served:
            out = ctx.Queue()
            go = ctx.Event()
            ready = [ctx.Event() for _ in shares]
            processes = [
                ctx.Process(
                    target=client,
                    args=(
                        served.address,
                        replace(load, matches=share, seed=load.seed * 1_000 + i),
                        ready[i],
                        go,
                        out,
                    ),
                    daemon=True,
                )
                for i, share in enumerate(shares)
            ]
            for process in processes:
                process.start()
            for flag in ready:
                while not flag.wait(0.5):
                    if any(p.exitcode not in (None, 0) for p in processes):
                        raise RuntimeError("a client died before it connected")
            before = [cpu_s(pid) for pid in served.pids]
            window = time.perf_counter()
            go.set()
            reports = [_take(out, processes) for _ in processes]
            elapsed = time.perf_counter() - window
            used = [cpu_s(pid) - b for pid, b in zip(served.pids, before, strict=True)]
            for process in processes:
                process.join(10)
        streams = [x for x in served.lines() if x.get("event") == "worker_streams"]
    relayed = sum(x["forwarded"] for x in streams)
    total = relayed + sum(x["own"] for x in streams)
    cpu = [u / elapsed for u in used] + [sum(r.cpu_s for r in reports) / elapsed]
    return Measured(
        workers,
        sum(r.completed for r in reports),
        sum(r.decisions for r in reports) / elapsed,
        relayed / total if total else 0.0,
        cpu,
        [e for r in reports for e in r.errors],
    )


def run(
    matches: int = 200,
    clients: int = 2,
    concurrency: int = 50,
    counts: tuple[int, ...] = (1, 2),
    bot: str = "random",
    seed: int = 1,
    seats: tuple[str, ...] = ("apart", "together"),
) -> list[Figure]:
    """Measure each worker count once per way of seating, print the report, return the
    key figures."""
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {_load()}; {matches} x {GAME} {PLAYERS}p "
        f"{VARIANT} per measurement, {clients} client processes, {concurrency} matches at "
        f"once each, bots: {bot}",
        flush=True,
    )
    figures = []
    for seating in seats:
        load = Load(matches, concurrency, bot, seating, seed)
        results = []
        for count in counts:
            got = measure(count, clients, load)
            results.append(got)
            names = ["parent" if count > 1 else "referee"]
            names += [f"worker {i}" for i in range(count)] if count > 1 else []
            names += ["clients"]
            print(
                f"seats {seating}, --workers {count}: completed {got.completed}/{matches}, "
                f"{got.decisions_s:,.0f} decisions/s, forwarded streams {got.forwarded:.0%}; "
                "CPU "
                + ", ".join(f"{n} {c:.0%}" for n, c in zip(names, got.cpu, strict=True))
                + f" of one core; bot errors {len(got.errors)}"
                + (f" (first: {got.errors[0]})" if got.errors else "")
                + f"; load average {_load()}",
                flush=True,
            )
        figures += [
            Figure(
                BENCHMARK, f"seats {seating}, --workers {r.workers}", r.decisions_s, "decisions/s"
            )
            for r in results
        ]
        if len(results) >= 2:
            ratio = results[-1].decisions_s / results[0].decisions_s
            last, first = results[-1].workers, results[0].workers
            print(f"seats {seating}: ratio --workers {last} / --workers {first}: {ratio:.2f}")
            figures.append(
                Figure(
                    BENCHMARK,
                    f"seats {seating}, decisions/s, {last} workers / {first}",
                    ratio,
                    "ratio",
                    "ratio",
                )
            )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per worker count")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--concurrency", type=int, default=50, help="matches at once, each client")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure (1,2)")
    parser.add_argument("--bot", choices=["random", "first"], default="random")
    parser.add_argument("--seed", type=int, default=1, help="seeds the bots' choices")
    parser.add_argument(
        "--seats",
        default="apart,together",
        help="apart: each seat on a connection of its own (forwarded when it lands on another"
        " worker); together: a match's seats on its creator's connection (never forwarded)",
    )
    args = parser.parse_args(argv)
    seats = tuple(args.seats.split(","))
    if not set(seats) <= {"apart", "together"}:
        parser.error("--seats: apart, together or both")
    counts = tuple(int(n) for n in args.workers.split(","))
    if min(args.matches, args.clients, args.concurrency, *counts) <= 0:
        parser.error("every count must be positive")
    with yardstick.around() as reading:
        figures = run(
            args.matches, args.clients, args.concurrency, counts, args.bot, args.seed, seats
        )
    yardstick.report(figures, reading)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
