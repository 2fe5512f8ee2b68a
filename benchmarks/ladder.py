"""The ladder service under load: many connected bots, matches started, assignment latency, refits.

    python benchmarks/ladder.py [--bots 200] [--processes 4] [--seconds 30] [--live 100]
    python benchmarks/ladder.py --referees 2 [--bots 1000] [--processes 2] [--seconds 60]

(a) live: one ``kassen ladder serve`` process (Rumble Nation base, two players, at most
    ``--live`` matches at once, three house bots) and ``--processes`` client processes holding
    ``--bots`` connected bots between them (registered by the organiser, so without the
    per-client registration limit). Each bot keeps a Seek stream open and plays every match it
    is given with a random bot. The *assignment latency* of a bot is the time from when it was
    free (its Seek stream opened, or its previous match ended) to its next assignment. Reported:
    matches started per second, p50/p99 assignment latency while the ladder runs ``--live``
    matches, decisions per second, and the server's peak RSS.
(b) refit: the pool's ratings refitted over all results, as the service does after every
    match, for 200 bots with 2,000 and 10,000 two-player results and 5,000 four-player
    results (median of 5 refits, one BLAS thread as ``kassen ladder serve`` runs it).

(c) fleet (``--referees N``): the ladder as a coordinator that plays no match itself, its
    matches placed on a ``kassen serve --workers`` on this machine, first with one referee
    process and then with N, back to back; light clients (benchmarks/ladder_clients.py) that
    play where each assignment says. Reported per configuration: first-assignment latency
    with every bot connecting at once, assignment latency after a match, matches started and
    completed, whether any match was lost (the database checked after a clean stop),
    completed decisions per second per referee process, CPU per process, what bounds it;
    and the ratio of completed decisions per second, N processes over one
    (benchmarks/ladder_fleet.py).

Targets on this 2-core machine: assignment p99 <= 1 s while 100 matches run; refit <= 50 ms;
with a fleet, first assignment p99 <= 5 s with 1,000 bots connecting at once.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as kassen ladder serve runs (see there)

import argparse
import asyncio
import multiprocessing
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_P99_S = 1.0
TARGET_REFIT_MS = 50.0
ADMIN_TOKEN = "benchmark-organiser-token-0123456789abcdef"
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = 5000
bank_ms = 10000
join_timeout_ms = 30000
max_live_matches = {live}
"""


def start_ladder(folder: Path, live: int) -> tuple[subprocess.Popen[str], str]:
    (folder / "ladder.toml").write_text(CONFIG.format(live=live), encoding="utf-8")
    (folder / "admin.token").write_text(ADMIN_TOKEN, encoding="utf-8")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kassen",
            "ladder",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--web",
            "none",
            "--db",
            f"sqlite:///{folder / 'ladder.sqlite'}",
            "--config",
            str(folder / "ladder.toml"),
            "--admin-token-file",
            str(folder / "admin.token"),
            "--log-level",
            "warning",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    for line in server.stderr:
        found = re.search(r"serving on (\S+)", line)
        if found:
            threading.Thread(target=_drain, args=(server,), daemon=True).start()
            return server, found.group(1)
    raise RuntimeError("the ladder did not start")


def _drain(server: subprocess.Popen[str]) -> None:
    assert server.stderr is not None
    for _ in server.stderr:
        pass


def register_bots(address: str, count: int) -> list[str]:
    import grpc

    from client_sdk.ladder import bearer
    from kassen.v1 import ladder_pb2 as lpb
    from kassen.v1 import ladder_pb2_grpc as lrpc

    tokens = []
    with grpc.insecure_channel(address) as channel:
        stub = lrpc.LadderStub(channel)
        for i in range(count):
            answer = stub.RegisterBot(
                lpb.RegisterBotRequest(name=f"load-{i:04d}", game="rumble-nation"),
                metadata=bearer(ADMIN_TOKEN),
            )
            tokens.append(answer.token)
    return tokens


def client_process(
    address: str, tokens: list[str], seconds: float, out: multiprocessing.Queue[object]
) -> None:
    out.put(asyncio.run(_clients(address, tokens, seconds)))


async def _clients(address: str, tokens: list[str], seconds: float) -> dict[str, object]:
    import grpc

    from client_sdk.builtin import RandomBot
    from client_sdk.ladder import bearer
    from client_sdk.runner import play
    from kassen.v1 import ladder_pb2 as lpb
    from kassen.v1 import ladder_pb2_grpc as lrpc

    latencies: list[float] = []
    first: list[float] = []  # the first assignment of each bot (its Seek stream just opened)
    decisions = 0
    matches = 0
    deadline = time.monotonic() + seconds

    async def one_bot(token: str, seed: int) -> None:
        nonlocal decisions, matches
        async with grpc.aio.insecure_channel(address) as channel:
            seek = lrpc.LadderStub(channel).Seek(
                lpb.SeekRequest(concurrency=1), metadata=bearer(token)
            )
            free_since = time.monotonic()
            matches_of_bot = 0
            try:
                while time.monotonic() < deadline:
                    message = await seek.read()
                    if not isinstance(message, lpb.SeekResponse):
                        return
                    if not message.HasField("assignment"):
                        continue
                    (first if not matches_of_bot else latencies).append(
                        time.monotonic() - free_since
                    )
                    matches_of_bot += 1
                    over = await play(RandomBot(seed), address, message.assignment.ticket)
                    matches += 1
                    # The seat's own decisions (the ladder names seats by the bots' ladder names).
                    decisions += over.seats[message.assignment.seat].decisions
                    free_since = time.monotonic()
            finally:
                seek.cancel()

    await asyncio.gather(*(one_bot(t, i) for i, t in enumerate(tokens)), return_exceptions=True)
    return {"latencies": latencies, "first": first, "decisions": decisions, "matches": matches}


def peak_rss_mb(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    found = re.search(r"VmHWM:\s+(\d+) kB", text)
    return int(found.group(1)) / 1024 if found else float("nan")


def live(bots: int, processes: int, seconds: float, live_matches: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        server, address = start_ladder(Path(folder), live_matches)
        try:
            tokens = register_bots(address, bots)
            out: multiprocessing.Queue[object] = multiprocessing.Queue()
            shares = [tokens[i::processes] for i in range(processes)]
            workers = [
                multiprocessing.Process(target=client_process, args=(address, s, seconds, out))
                for s in shares
            ]
            began = time.monotonic()
            for worker in workers:
                worker.start()
            results = [out.get(timeout=seconds + 300) for _ in workers]
            elapsed = time.monotonic() - began
            for worker in workers:
                worker.join(60)
            rss = peak_rss_mb(server.pid)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
    latencies = sorted(x for r in results for x in r["latencies"])  # type: ignore[attr-defined]
    first = sorted(x for r in results for x in r["first"])  # type: ignore[attr-defined]
    matches = sum(int(r["matches"]) for r in results)  # type: ignore[call-overload]
    decisions = sum(int(r["decisions"]) for r in results)  # type: ignore[call-overload]
    return {
        "assignments": len(latencies),
        "matches_per_s": matches / 2 / elapsed,  # each match counted by both of its bots
        "decisions_per_s": decisions / elapsed,
        "p50_s": _quantile(latencies, 0.50),
        "p99_s": _quantile(latencies, 0.99),
        "first_p50_s": _quantile(first, 0.50),
        "first_p99_s": _quantile(first, 0.99),
        "server_peak_rss_mb": rss,
    }


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def refit(players: int, bots: int, results: int) -> float:
    """Median milliseconds of refitting a pool of ``bots`` with ``results`` matches."""
    from tournament.ladder_service.ratings import PoolRatings

    rng = random.Random(players * 1000 + results)
    strength = {f"b{i}": rng.gauss(0.0, 1.0) for i in range(bots)}
    names = list(strength)
    pool = PoolRatings(players)
    for m in range(results):
        group = rng.sample(names, players)
        group.sort(key=lambda b: -(strength[b] + rng.gauss(0.0, 1.0)))
        pool.add(group, f"m{m}")
    times = []
    for _ in range(5):
        began = time.perf_counter()
        pool.ratings()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--live", type=int, default=100, help="matches at once at most")
    parser.add_argument("--skip-live", action="store_true", help="only the refit figures")
    parser.add_argument(
        "--referees",
        type=int,
        default=0,
        help="fleet mode: the ladder coordinates a kassen serve of 1, then this many, referee"
        " processes (--live defaults to 600 there)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="DIR",
        help="fleet mode: py-spy samples the coordinator and referees into DIR (pip install"
        " py-spy)",
    )
    args = parser.parse_args(argv)
    if args.referees > 0:
        from benchmarks.ladder_fleet import fleet

        at_once = args.live if "--live" in (argv or sys.argv) else 600
        return fleet(args.bots, args.processes, args.seconds, args.referees, at_once, args.profile)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for players, bots, results in ((2, 200, 2_000), (2, 200, 10_000), (4, 200, 5_000)):
        ms = refit(players, bots, results)
        mark = "met" if ms <= TARGET_REFIT_MS else "NOT met"
        print(
            f"(b) refit, {players}-player pool, {bots} bots, {results:,} results: "
            f"{ms:.1f} ms (target <= {TARGET_REFIT_MS:.0f} ms: {mark})"
        )
    if not args.skip_live:
        figures = live(args.bots, args.processes, args.seconds, args.live)
        mark = "met" if figures["p99_s"] <= TARGET_P99_S else "NOT met"
        print(
            f"(a) live, {args.bots} bots in {args.processes} processes, {args.seconds:.0f} s, "
            f"at most {args.live} matches at once: {figures['matches_per_s']:.1f} matches "
            f"started/s, {figures['decisions_per_s']:.0f} decisions/s, assignment latency "
            f"p50 {figures['p50_s'] * 1000:.0f} ms, p99 {figures['p99_s'] * 1000:.0f} ms "
            f"(target <= {TARGET_P99_S * 1000:.0f} ms: {mark}) over "
            f"{int(figures['assignments'])} assignments after a match (a bot's first assignment, "
            f"its Seek stream just opened while all {args.bots} connect at once: p50 "
            f"{figures['first_p50_s'] * 1000:.0f} ms, p99 {figures['first_p99_s'] * 1000:.0f} ms); "
            "server peak RSS "
            f"{figures['server_peak_rss_mb']:.0f} MB"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
