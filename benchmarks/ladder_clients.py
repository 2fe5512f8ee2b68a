"""Light simulated bots for the ladder benchmark's fleet mode (benchmarks/ladder_fleet.py).

    python benchmarks/ladder_clients.py LADDER_ADDRESS TOKENS_FILE SECONDS

One process holds many bots (one line of TOKENS_FILE each). It prints ``ready`` once set
up, then reads one line from standard input: the wall-clock time (``time.time()``) at which
every bot, in every client process, opens its Seek stream at once. Each bot is as cheap as a
bot can be, so that the machine's CPU goes to the ladder: a raw Seek stream, and a raw Play
stream per assignment, on the referee the assignment names (``referee_address``; empty: the
ladder itself), answering each decision with a random option of the request.

At ``SECONDS`` after the start the bots leave: each as soon as every match it finished
playing in the run has its ``MatchEnded``, playing to their end the matches it was given
before that.
The process then prints one JSON line (``Tally``) and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpc

from client_sdk.runner import JOIN_RETRIES, REFUSED, join_backoff
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

#: How long after the end of the run a bot waits for the MatchEnded of its last matches
#: (a match whose other bot had already left waits for it until the join timeout).
DRAIN_S = 60.0
#: The event loop's lag is sampled this often (is this client process keeping up?).
LAG_SAMPLE_S = 0.05
#: A dropped Play stream is joined again this many times at most (as the SDK does).
REJOINS = 5


@dataclass
class Tally:
    """What one client process saw. Latencies in seconds: ``first``, from the common start to
    a bot's first assignment; ``after``, from a bot's MatchOver to its next assignment (only
    those given before the end of the run)."""

    bots: int = 0
    first: list[float] = field(default_factory=list)
    after: list[float] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    #: From the common start to the ladder's first answer on a bot's Seek stream, seconds.
    seeking: list[float] = field(default_factory=list)
    #: From a bot's MatchOver to its MatchEnded (the result stored and rated), seconds.
    told: list[float] = field(default_factory=list)
    ended: int = 0
    #: Matches the bot finished playing in the run but heard no MatchEnded of when it left.
    unended: list[str] = field(default_factory=list)
    #: Matches it finished after the end of the run whose MatchEnded it did not wait for (a
    #: bot gets its next match before the MatchEnded of its last, which waits for a refit:
    #: under load it can run matches ahead of them).
    unawaited: list[str] = field(default_factory=list)
    #: Matches it was still playing when it left (played to the end; no MatchEnded due).
    left_playing: list[str] = field(default_factory=list)
    decisions: int = 0
    #: The MatchOver reason of each match played, and of the bot's own seat.
    reasons: Counter[str] = field(default_factory=Counter)
    seat_reasons: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    lag_p99_ms: float = 0.0
    lag_max_ms: float = 0.0


def bearer(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


class Channels:
    """One channel per (bot, referee address), kept across the bot's matches."""

    def __init__(self) -> None:
        self.open: dict[str, grpc.aio.Channel] = {}

    def stub(self, address: str) -> rpc.RefereeStub:
        channel = self.open.get(address)
        if channel is None:
            channel = self.open[address] = grpc.aio.insecure_channel(address)
        return rpc.RefereeStub(channel)

    async def close(self) -> None:
        for channel in self.open.values():
            await channel.close()


async def play(stub: rpc.RefereeStub, ticket: str, rng: random.Random, tally: Tally) -> bool:
    """Join with ``ticket`` and answer every decision at random until MatchOver (True), or
    until the stream ends without it (False); a refused join raises ``AioRpcError`` with
    ``joined`` False in its ``kassen_joined`` attribute."""
    call = cast("grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse]", stub.Play())  # type: ignore[call-arg]
    seat = 0
    answered = 0
    joined = False
    try:
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="random")))
        async for message in call:
            which = message.WhichOneof("message")
            if which == "decision":
                request = message.decision
                if request.request_id <= answered:
                    continue
                answered = request.request_id
                index = rng.randrange(len(request.options))
                await call.write(
                    pb.PlayRequest(answer=pb.Answer(request_id=answered, option_index=index))
                )
                tally.decisions += 1
            elif which == "ping":
                await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
            elif which == "joined":
                joined = True
                seat = message.joined.seat
            elif which == "match_over":
                over = message.match_over
                tally.reasons[pb.ResultReason.Name(over.reason)] += 1
                if seat < len(over.seats):
                    tally.seat_reasons[pb.ResultReason.Name(over.seats[seat].reason)] += 1
                await call.done_writing()
                return True
    except grpc.aio.AioRpcError as exc:
        exc.kassen_joined = joined  # type: ignore[attr-defined]
        raise
    return False


async def play_to_the_end(
    stub: rpc.RefereeStub, ticket: str, rng: random.Random, tally: Tally
) -> None:
    """``play``, as the SDK does it (client_sdk/runner.py): a refused join is tried again
    after a pause, a dropped stream is joined again."""
    refused = dropped = 0
    while True:
        try:
            if await play(stub, ticket, rng, tally):
                return
            problem = "play: stream ended without MatchOver"
        except grpc.aio.AioRpcError as exc:
            problem = f"play: {exc.code().name}: {exc.details()}"[:100]
            if not getattr(exc, "kassen_joined", False) and exc.code() in REFUSED:
                refused += 1
                tally.errors[f"join refused, tried again ({exc.code().name})"] += 1
                if refused <= JOIN_RETRIES:
                    await asyncio.sleep(join_backoff(refused, rng))
                    continue
            elif exc.code() not in REFUSED:
                tally.errors[problem] += 1
                return
        dropped += 1
        tally.errors[problem] += 1
        if dropped > REJOINS:
            return
        await asyncio.sleep(min(0.05 * 2**dropped, 2.0))


async def bot(ladder: str, token: str, seed: int, start: float, end: float, tally: Tally) -> None:
    """One connected bot from ``start`` (wall clock) until it leaves after ``end``: at the
    first moment when every match it finished playing before ``end`` has its MatchEnded.
    Matches it is still playing then are played to their end, without a MatchEnded (it has
    left)."""
    rng = random.Random(seed)
    referees = Channels()
    pending: set[str] = set()  # assigned, MatchEnded not yet heard
    played: set[str] = set()  # MatchOver seen on its Play stream
    played_in_run: set[str] = set()  # ... before the end of the run
    over_at: dict[str, float] = {}  # when its Play stream ended, by match
    changed = asyncio.Event()
    games: list[asyncio.Task[None]] = []
    free_since = start
    given = 0

    async def game(assignment: lpb.Assignment) -> None:
        nonlocal free_since
        address = assignment.referee_address or ladder
        try:
            await play_to_the_end(referees.stub(address), assignment.ticket, rng, tally)
        finally:
            free_since = time.time()
            played.add(assignment.match_id)
            over_at[assignment.match_id] = time.time()
            if time.time() < end:
                played_in_run.add(assignment.match_id)
            changed.set()

    async def read(seek: grpc.aio.UnaryStreamCall[lpb.SeekRequest, lpb.SeekResponse]) -> None:
        nonlocal given
        async for message in seek:  # never cancelled by itself: that would end the call
            kind = message.WhichOneof("kind")
            if kind == "seeking":
                tally.seeking.append(time.time() - start)
            elif kind == "assignment":
                now = time.time()
                if now < end:
                    (tally.after if given else tally.first).append(now - free_since)
                given += 1
                pending.add(message.assignment.match_id)
                tally.assigned.append(message.assignment.match_id)
                games.append(asyncio.get_running_loop().create_task(game(message.assignment)))
            elif kind == "match_ended":
                tally.ended += 1
                match_id = message.match_ended.match_id
                pending.discard(match_id)
                if match_id in over_at and over_at[match_id] < end:
                    tally.told.append(time.time() - over_at.pop(match_id))
                changed.set()

    async with grpc.aio.insecure_channel(ladder) as channel:
        seek = lrpc.LadderStub(channel).Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(token))
        reader = asyncio.get_running_loop().create_task(read(seek))
        await asyncio.sleep(max(0.0, end - time.time()))
        while pending & played_in_run and not reader.done() and time.time() < end + DRAIN_S:
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 1.0)
        if pending & played_in_run and time.time() >= end + DRAIN_S:
            tally.errors["left when the drain ended, MatchEnded still due"] += 1
        # As it leaves, before another await:
        tally.unended.extend(sorted(pending & played_in_run))
        tally.unawaited.extend(sorted((pending & played) - played_in_run))
        tally.left_playing.extend(sorted(pending - played))
        seek.cancel()
        with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
            await reader
        if reader.done() and not reader.cancelled() and reader.exception() is not None:
            tally.errors[f"seek: {reader.exception()!r}"[:80]] += 1
        await asyncio.gather(*games, return_exceptions=True)
    await referees.close()


async def lag_sampler(tally: Tally, stop: asyncio.Event) -> None:
    """How late this process's loop wakes up: a client that lags is not keeping up."""
    lags: list[float] = []
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(LAG_SAMPLE_S)
        lags.append(max(0.0, time.perf_counter() - asked - LAG_SAMPLE_S))
    lags.sort()
    if lags:
        tally.lag_p99_ms = lags[min(len(lags) - 1, int(0.99 * len(lags)))] * 1000
        tally.lag_max_ms = lags[-1] * 1000


async def run(ladder: str, tokens: list[str], seconds: float) -> Tally:
    tally = Tally(bots=len(tokens))
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start = float(line)
    await asyncio.sleep(max(0.0, start - time.time()))
    stop = asyncio.Event()
    sampler = asyncio.get_running_loop().create_task(lag_sampler(tally, stop))
    end = start + seconds
    await asyncio.gather(
        *(bot(ladder, token, i, start, end, tally) for i, token in enumerate(tokens))
    )
    stop.set()
    await sampler
    return tally


def main(argv: list[str]) -> int:
    ladder, tokens_file, seconds = argv[0], argv[1], float(argv[2])
    tokens = Path(tokens_file).read_text(encoding="utf-8").split()
    tally = asyncio.run(run(ladder, tokens, seconds))
    # Not ``asdict``: it would rebuild each Counter from its (key, count) pairs.
    print(json.dumps({f.name: getattr(tally, f.name) for f in fields(tally)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
