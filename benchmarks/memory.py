"""The referee's memory (RSS) through many matches, idle join windows and a flood.

    python benchmarks/memory.py [--matches 10000] [--concurrency 40] [--waiting 500]
                                [--flood 100000] [--max-decisions 0]

Runs a real ``kassen serve`` (its own process, a SQLite store and replay folder in a temporary
directory, log level warning) and, from this process:

1. plays ``--matches`` 2-player base Rumble Nation matches, ``--concurrency`` at a time, each
   seat a raw gRPC client answering option 0 at once (``--max-decisions`` > 0 caps each
   match, adjudicated); the server's RSS is read from /proc every 500 matches;
2. creates ``--waiting`` matches nobody joins (idle join windows): RSS per waiting match;
3. floods one seat with ``--flood`` messages it was not asked for (pongs to no ping), joining
   again each time the referee ends the stream, as an adversarial client would.

Prints one line per phase and the figures docs/performance.md records ("Memory").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kassen.v1 import referee_pb2 as pb  # noqa: E402
from kassen.v1 import referee_pb2_grpc as rpc  # noqa: E402

SAMPLE_EVERY = 500


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def seat(stub: Any, ticket: str) -> None:
    """A trivial bot: option 0 at once, every ping answered, until MatchOver."""
    call: Any = stub.Play()
    await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="first")))
    while (message := await call.read()) is not grpc.aio.EOF:
        which = message.WhichOneof("message")
        if which == "decision":
            answer = pb.Answer(request_id=message.decision.request_id)
            await call.write(pb.PlayRequest(answer=answer))
        elif which == "ping":
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
        elif which == "match_over":
            await call.done_writing()
            return


async def create(stub: Any, max_decisions: int, **fields: Any) -> Any:
    request = pb.CreateMatchRequest(
        game="rumble-nation", players=2, max_decisions=max_decisions, **fields
    )
    for attempt in range(50):
        try:
            return await stub.CreateMatch(request)
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError("the referee kept refusing CreateMatch")


async def play_matches(
    stub: rpc.RefereeStub, pid: int, count: int, concurrency: int, max_decisions: int
) -> list[tuple[int, float]]:
    """Play ``count`` matches; RSS samples as (matches done, MB)."""
    done = 0
    samples: list[tuple[int, float]] = []
    next_index = 0

    async def worker() -> None:
        nonlocal done, next_index
        while next_index < count:
            next_index += 1
            created = await create(stub, max_decisions)
            await asyncio.gather(*(seat(stub, t) for t in created.tickets))
            done += 1
            if done % SAMPLE_EVERY == 0:
                samples.append((done, rss_mb(pid)))

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return samples


async def flood(address: str, stub: rpc.RefereeStub, messages: int, seconds: float) -> int:
    """Send ``messages`` unasked pongs to one seat, rejoining whenever the stream is ended;
    returns how many were written (bounded by ``seconds``)."""
    created = await create(stub, 0, join_timeout_ms=600_000)
    unasked = pb.PlayRequest(pong=pb.Pong(nonce=123456789))
    sent = 0
    deadline = time.monotonic() + seconds
    join = pb.PlayRequest(join=pb.Join(ticket=created.tickets[0]))
    while sent < messages and time.monotonic() < deadline:
        # A connection of its own each time: the data of an ended stream that nobody reads
        # still counts against its connection's flow-control window.
        async with grpc.aio.insecure_channel(address) as channel:
            call: Any = rpc.RefereeStub(channel).Play()
            try:
                await asyncio.wait_for(call.write(join), 5)
                while sent < messages and time.monotonic() < deadline:
                    await asyncio.wait_for(call.write(unasked), 5)
                    sent += 1
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError, TimeoutError):
                pass
            call.cancel()
    return sent


async def main(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="kassen-memory-"))
    address = f"127.0.0.1:{free_port()}"
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kassen",
        "serve",
        "--address",
        address,
        "--store",
        str(workdir / "store.sqlite"),
        "--replays",
        str(workdir / "replays"),
        "--log-level",
        "warning",
        cwd=ROOT,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = rpc.RefereeStub(channel)
            await stub.ListGames(pb.ListGamesRequest(), wait_for_ready=True, timeout=30)
            pid = server.pid
            started = rss_mb(pid)
            await play_matches(stub, pid, 100, args.concurrency, args.max_decisions)
            warm = rss_mb(pid)
            print(f"server RSS: {started:.1f} MB at start, {warm:.1f} MB after 100 matches")
            began = time.monotonic()
            samples = await play_matches(
                stub, pid, args.matches, args.concurrency, args.max_decisions
            )
            took = time.monotonic() - began
            after = rss_mb(pid)
            peak = max([after, *(mb for _, mb in samples)])
            print(
                f"{args.matches} matches in {took:.0f} s ({args.matches / took:.0f}/s): RSS "
                f"{after:.1f} MB after, peak {peak:.1f} MB, growth after warm-up "
                f"{after - warm:+.1f} MB ({(after - warm) * 1024 / args.matches:+.2f} KB/match)"
            )
            print("  samples: " + ", ".join(f"{n}: {mb:.0f}" for n, mb in samples))
            before = rss_mb(pid)
            waiting = [await create(stub, 0, join_timeout_ms=600_000) for _ in range(args.waiting)]
            idle = rss_mb(pid)
            print(
                f"{len(waiting)} matches waiting for their bots: RSS {idle:.1f} MB "
                f"({(idle - before) * 1024 / max(1, len(waiting)):.0f} KB each)"
            )
            before = rss_mb(pid)
            sent = await flood(address, stub, args.flood, seconds=60)
            flooded = rss_mb(pid)
            print(
                f"flood: {sent} unasked messages written; RSS {before:.1f} -> {flooded:.1f} MB "
                f"({flooded - before:+.1f} MB)"
            )
        async with grpc.aio.insecure_channel(address) as channel:
            stub = rpc.RefereeStub(channel)
            listed = await stub.ListMatches(pb.ListMatchesRequest(limit=1000), timeout=30)
            oldest = listed.matches[-1].match_id
            got = await stub.GetMatch(pb.GetMatchRequest(match_id=oldest), timeout=30)
            print(
                f"ListMatches: {len(listed.matches)} matches; the oldest, long out of memory, "
                f"answered from the store: {got.match.status}"
            )
        store = workdir / "store.sqlite"
        print(f"store: {store.stat().st_size / 1e6:.1f} MB on disk")
    finally:
        with contextlib.suppress(ProcessLookupError):
            server.terminate()
        await server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=40)
    parser.add_argument("--waiting", type=int, default=500)
    parser.add_argument("--flood", type=int, default=100_000)
    parser.add_argument(
        "--max-decisions", type=int, default=0, help="cap per match (0: play each game out)"
    )
    asyncio.run(main(parser.parse_args()))
