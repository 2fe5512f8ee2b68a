"""Spectators (``Watch``): exactly the public record, coalesced, bounded and let go of.

- Every spectator of a whole match of each game (on time, late, with extra delay) receives
  exactly the public events a re-simulation gives, each view the public view
  (``observe(None)``) at some position of the match, and at most one message per
  publication interval.
- A spectator who joins a long match late does not stall the event loop (in-process, the
  garbage collector off during the window: only the referee's own code can pause the loop).
- Against a real ``kassen serve``: a thousand spectators of a live Root match come, watch and
  leave; the referee's memory comes back and the other matches keep playing.
- Each limit (per match, per caller, per process) answers RESOURCE_EXHAUSTED naming itself
  and its flag; a relay presenting the relay token is not counted per caller, a wrong token
  is; with ``--workers`` the caller is the host the client connected from.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar, cast

import grpc
import pytest

from benchmarks.watchers import (
    OPEN_LIMITS,
    RELAY_HEADER,
    WATCH,
    Spectators,
    other_matches,
    rate,
    root_match,
    serving,
)
from client_sdk import AsyncBot, Request, play
from games import GameConfig
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.match import Match
from server.public_record import COALESCE_S, EXTRA_DELAYS_MS, PublicRecord, lane_delay_ms
from server.settings import MatchSettings, TimeControl
from tests.conftest import Depth

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float = 240.0) -> T:
    return asyncio.run(asyncio.wait_for(coro, timeout))


# ---------------------------------------------------------------------- exactly the record


class Pacer(AsyncBot):
    """Random answers after a short pause: the match lasts long enough to be joined late."""

    def __init__(self, seed: int, pause_s: float) -> None:
        self.rng = random.Random(seed)
        self.pause_s = pause_s

    async def choose_async(self, request: Request) -> int:
        await asyncio.sleep(self.pause_s)
        return self.rng.randrange(len(request.options))


class Received:
    """One spectator's messages, with their arrival times."""

    def __init__(self) -> None:
        self.messages: list[tuple[float, pb.WatchResponse]] = []

    @property
    def events(self) -> list[str]:
        return [e.data_json for _, m in self.messages for e in m.events]

    @property
    def updates(self) -> list[pb.WatchResponse]:
        return [m for _, m in self.messages if not m.HasField("match_over")]


async def spectate(address: str, match_id: str, delay_ms: int, into: Received) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        request = pb.WatchRequest(match_id=match_id, delay_ms=delay_ms)
        async for message in rpc.RefereeStub(channel).Watch(request):
            into.messages.append((time.monotonic(), message))


def public_record(match: Match) -> tuple[list[str], list[tuple[int, pb.Observation]]]:
    """The public events of the whole match, re-simulated from its seed, and the public view
    after each decision with how many public events came before it."""
    game = match.game
    state = game.new(match.settings.config, match.settings.seed)
    events = [
        wire.event_to_proto(game, e).data_json
        for e in getattr(state, "setup_events", ())
        if e.private_to is None
    ]
    views = [(len(events), wire.observation_to_proto(game.name, state.observe(None)))]
    for seat, index in match.state.history:
        for event in state.apply(seat, index):
            if event.private_to is None:
                events.append(wire.event_to_proto(game, event).data_json)
        views.append((len(events), wire.observation_to_proto(game.name, state.observe(None))))
    return events, views


GAMES = [
    ("rumble-nation", GameConfig(3, "advanced"), 0.01),
    ("root", GameConfig(2, "autumn"), 0.0005),
    ("gnomeville", GameConfig(2, "standard"), 0.002),
]


@pytest.mark.parametrize(("game", "config", "pause_s"), GAMES, ids=[g for g, _, _ in GAMES])
def test_every_spectator_receives_exactly_the_public_record(
    game: str, config: GameConfig, pause_s: float, depth: Depth
) -> None:
    """A whole match of each game (Root's cut at 300 decisions, adjudicated, unless --slow)."""

    async def scenario() -> tuple[Match, dict[str, Received], float, float]:
        async with running_server() as referee:
            settings = MatchSettings(
                game=game,
                config=config,
                seed=5,
                time_control=TimeControl(60_000, 0),
                max_decisions=depth(300, 10_000) if game == "root" else 10_000,
            )
            match, tickets = referee.create_match(settings)
            watchers = {"on time": Received(), "delayed": Received(), "late": Received()}
            watching = [
                asyncio.ensure_future(spectate(referee.address, match.id, 0, watchers["on time"])),
                asyncio.ensure_future(
                    spectate(referee.address, match.id, 300, watchers["delayed"])
                ),
            ]
            while not all(w.messages for w in watchers.values() if w is not watchers["late"]):
                await asyncio.sleep(0.005)
            players = asyncio.gather(
                *(play(Pacer(s, pause_s), referee.address, t) for s, t in enumerate(tickets))
            )
            started = time.monotonic()
            while match.decisions < 40 and match.finished_at is None:
                await asyncio.sleep(0.005)
            assert match.finished_at is None, "the match ended before the late spectator came"
            watching.append(
                asyncio.ensure_future(spectate(referee.address, match.id, 0, watchers["late"]))
            )
            await players
            ended = time.monotonic()
            await asyncio.gather(*watching)
            return match, watchers, started, ended

    match, watchers, started, ended = run(scenario())
    events, views = public_record(match)
    over = match.result_proto()
    for name, received in watchers.items():
        assert received.events == events, name  # the history first, then the rest, once
        last = received.messages[-1][1]
        assert last.HasField("match_over") and last.match_over == over, name
        assert all(not m.HasField("match_over") for m in received.updates), name
        # Every view is the public view at some position of the match (none sooner than the
        # events it comes with), and the last one the final position's.
        seen = 0
        for update in received.updates:
            seen += len(update.events)
            assert any(n == seen and view == update.observation for n, view in views), name
        assert received.updates[-1].observation == views[-1][1], name
    # The late spectator's first message held the history so far (more than the setup).
    late_first = watchers["late"].updates[0]
    assert len(late_first.events) > views[0][0]
    # Coalesced: at most one message per publication interval besides the first (sent when
    # the spectator comes), the final position (shown at once) and MatchOver, where one
    # message per decision would have been dozens (Rumble Nation) to a thousand (Root).
    for name, received in watchers.items():
        span = received.messages[-1][0] - received.messages[0][0]
        assert len(received.messages) <= span / COALESCE_S + 4, (name, len(received.messages))
    # The delayed spectator's lane is 500 ms behind (300 asked, rounded up): nothing of the
    # game reached it sooner than 300 ms after it was played, nor the end.
    delayed = watchers["delayed"].messages
    moves = [t for t, m in delayed[1:] if m.events]
    assert moves and min(moves) - started >= 0.3
    assert delayed[-1][0] - ended >= 0.3


def test_extra_delays_round_up_to_a_bounded_set() -> None:
    assert lane_delay_ms(0) == 0
    assert lane_delay_ms(1) == 250 and lane_delay_ms(250) == 250 and lane_delay_ms(301) == 500
    assert lane_delay_ms(3_600_000) == 3_600_000
    asked = range(0, 3_600_001, 997)
    assert {lane_delay_ms(ms) for ms in asked} <= set(EXTRA_DELAYS_MS)
    assert all(lane_delay_ms(ms) >= ms for ms in asked)
    with pytest.raises(ValueError, match="above"):
        lane_delay_ms(3_600_001)


def test_a_record_lives_while_its_match_is_watched_and_goes_with_it() -> None:
    """A lane with extra delay goes with its last spectator; the lane of the match's own delay
    stays while the match is live (a spectator coming back finds it caught up); the record
    goes when the match has ended and nobody watches; nothing is left counted."""

    async def scenario() -> list[Any]:
        async with running_server() as referee:
            settings = MatchSettings(
                game="rumble-nation",
                config=GameConfig(2),
                seed=3,
                time_control=TimeControl(60_000, 0),
            )
            match, tickets = referee.create_match(settings)
            on_time, delayed = Received(), Received()
            watching = [
                asyncio.ensure_future(spectate(referee.address, match.id, 0, on_time)),
                asyncio.ensure_future(spectate(referee.address, match.id, 1_000, delayed)),
            ]
            while not (on_time.messages and delayed.messages):
                await asyncio.sleep(0.005)
            players = asyncio.gather(
                *(play(Pacer(s, 0.03), referee.address, t) for s, t in enumerate(tickets))
            )
            record = match.public_record
            assert record is not None
            seen: list[Any] = [sorted(record.lanes), referee.watchers.total]
            for task in reversed(watching):  # the delayed spectator leaves, then the other
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                await asyncio.sleep(0.2)
                seen.append(sorted(record.lanes))
            seen += [match.finished_at is None, match.public_record is record]
            await players
            await asyncio.sleep(0.2)
            seen += [match.public_record, referee.watchers.total, referee.watchers.by_match]
            seen += [referee.watchers.by_caller, PublicRecord.spectators]
            return seen

    lanes, counted, after_delayed, after_all, live, kept, *gone = run(scenario())
    assert lanes == [0, 1_000] and counted == 2
    assert after_delayed == [0] and after_all == [0] and live and kept
    assert gone == [None, 0, {}, {}, 0]


# ---------------------------------------------------------------------- a late joiner


def test_a_spectator_joining_a_long_match_late_does_not_stall_the_loop(depth: Depth) -> None:
    """The catch-up over the whole history is done in slices of a few ms: the loop is never
    held for longer (it was held for the whole replay, 30 to 60 us per decision of Root: 0.5 s
    at 15,000 decisions)."""
    history = depth(4_000, 15_000)

    async def scenario() -> tuple[float, int]:
        loop = asyncio.get_running_loop()
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            long = await root_match(stub, referee.address, 0.0)
            while long.decisions < history:
                await asyncio.sleep(0.02)
            long.think_s = 0.05  # still live, slowly
            lags: list[float] = []
            probing = True

            async def probe() -> None:
                while probing:
                    before = loop.time()
                    await asyncio.sleep(0.001)
                    lags.append(loop.time() - before - 0.001)

            gc.collect()
            gc.disable()
            try:
                prober = asyncio.ensure_future(probe())
                await asyncio.sleep(0.05)
                late = Received()
                watcher = asyncio.ensure_future(spectate(referee.address, long.match_id, 0, late))
                while not late.messages:
                    await asyncio.sleep(0.01)
                probing = False
                await prober
            finally:
                gc.enable()
            watcher.cancel()
            long.stop()
            return max(lags), len(late.messages[0][1].events)

    longest, first_events = run(scenario())
    print(f"{history} decisions: the loop was held for {longest * 1000:.1f} ms at most")
    assert (
        first_events >= history // 2
    )  # the whole history (Root: about one public event a decision)
    assert longest < 0.1, f"the loop was held for {longest * 1000:.0f} ms"


# ---------------------------------------------------------------------- a thousand, for real

#: What one spectator may hold of the referee's memory while it watches: measured 18-49 KB
#: (its gRPC stream, its handler, its share of the messages in flight); before spectators
#: shared a record, each held a shadow game of its own (about 240 KB at 2,000 decisions of
#: Root, and growing with the match).
WATCHER_KB = 64


@pytest.mark.timing
def test_a_thousand_spectators_come_watch_and_go(depth: Depth) -> None:
    """A live Root match on a real ``kassen serve`` (its bots answer after 10 ms), other
    matches played as fast as their bots can on the same referee, and ``count`` spectators
    (two client processes) join, watch and leave.

    A first wave warms the referee up: CPython's small-object allocator keeps the arenas its
    first spectators needed (about 6 KB each: their gRPC calls, tasks and coroutines; 6 MB
    for a thousand, reused by every later wave, measured with ``sys._debugmallocstats``) and
    is bounded here on its own. Then, for a second wave: while they watch, the other matches
    keep at least 40% of their pace (measured 0.55 to 1.0 of it on this 2-core machine, the
    spectators' clients sharing its cores; before, 0.03 to 0.24) and the referee holds at
    most ``WATCHER_KB`` per spectator more; once they have left, its memory is back within
    10% of where it was before they came (before, every wave kept more)."""
    count = depth(200, 1_000)
    window = 1.5 if count < 1_000 else 3.0

    async def scenario() -> dict[str, Any]:
        async with (
            serving(*OPEN_LIMITS) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            watched = await root_match(stub, referee.address, 0.01)
            other = await other_matches(stub, referee.address)
            await asyncio.sleep(window)  # both under way; recent finished matches in memory
            found: dict[str, Any] = {"cold": referee.rss()}
            first = Spectators(referee.address, watched.match_id, count, 2)
            await first.start()
            found["first"] = await first.stop()
            await asyncio.sleep(1.5)  # gone; the referee trims a second after the last left
            found["start"] = referee.rss()
            found["without"] = await rate(other, window)
            spectators = Spectators(referee.address, watched.match_id, count, 2)
            await spectators.start()
            peak = referee.rss()
            before, began = other.decisions, time.monotonic()
            while time.monotonic() - began < window:
                await asyncio.sleep(0.25)
                peak = max(peak, referee.rss())
            found["with"] = (other.decisions - before) / (time.monotonic() - began)
            found["peak"] = peak
            found["reports"] = await spectators.stop()
            await asyncio.sleep(1.5)
            found["after"] = referee.rss()
            summary = await stub.GetMatch(pb.GetMatchRequest(match_id=watched.match_id))
            found["status"] = summary.match.status
            watched.stop()
            other.stop()
            return found

    found = run(scenario())
    assert found["status"] == "running"  # the match was live throughout
    for reports in (found["first"], found["reports"]):
        assert all(r["errors"] == {} and r["ended"] == 0 for r in reports), reports
        assert sum(r["messages"] for r in reports) >= count  # every one had its history
    assert sum(r["messages"] for r in found["reports"]) >= 2 * count  # and updates after it
    cold, start, peak, after = found["cold"], found["start"], found["peak"], found["after"]
    print(f"RSS {cold:.1f} -> {start:.1f} after the first wave; {peak:.1f} peak, {after:.1f} MB")
    # The first wave's arenas (about 6 KB a spectator), and the matches' own growth meanwhile.
    assert start - cold <= count * 16 / 1024 + 3, (cold, start)
    assert peak - start <= count * WATCHER_KB / 1024, (start, peak)
    assert after <= start * 1.10, (start, peak, after)
    assert found["with"] >= 0.4 * found["without"], (found["without"], found["with"])


# ---------------------------------------------------------------------- limits

RELAY_TOKEN = "relay-token-for-the-tests"


class Opened:
    """Watch streams held open, each on a connection of its own, from a given host."""

    def __init__(self) -> None:
        self.calls: list[tuple[grpc.aio.Channel, Any]] = []

    async def watch(
        self, address: str, match_id: str, token: str | None = None
    ) -> grpc.aio.AioRpcError | None:
        """Open one; None once its first message came, else the error that ended it."""
        channel = grpc.aio.insecure_channel(address, options=[APART])
        metadata = ((RELAY_HEADER, token),) if token is not None else ()
        request = pb.WatchRequest(match_id=match_id).SerializeToString()
        call: Any = cast(Any, channel.unary_stream(WATCH))(request, metadata=metadata)
        try:
            await call.read()
        except grpc.aio.AioRpcError as error:
            await channel.close()
            return error
        self.calls.append((channel, call))
        return None

    async def close(self, index: int) -> None:
        channel, call = self.calls.pop(index)
        call.cancel()
        await channel.close()

    async def close_all(self) -> None:
        while self.calls:
            await self.close(0)


APART = ("grpc.use_local_subchannel_pool", 1)


def refused(error: grpc.aio.AioRpcError | None, *named: str) -> bool:
    """The call was refused RESOURCE_EXHAUSTED with a message naming everything in ``named``."""
    return (
        error is not None
        and error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        and all(part in (error.details() or "") for part in named)
    )


async def eventually_admitted(opened: Opened, address: str, match_id: str) -> bool:
    """A watch is admitted within 5 s (a spectator who left is let go of promptly)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if await opened.watch(address, match_id) is None:
            return True
        await asyncio.sleep(0.05)
    return False


def test_each_limit_refuses_the_spectator_one_past_it_naming_itself(tmp_path: Path) -> None:
    """Per caller 2, per match 4, per process 6, from two hosts (127.0.0.1 and ::1, both
    reaching ``--address localhost``); a relay with the token is not counted per caller, one
    with a wrong token is."""
    token_file = tmp_path / "relay-token"
    token_file.write_text(RELAY_TOKEN + "\n")
    limits = ["--max-watchers-per-caller", "2", "--max-watchers-per-match", "4"]
    limits += ["--max-watchers", "6", "--relay-token-file", str(token_file)]

    async def scenario() -> dict[str, Any]:
        async with serving(*limits, host="localhost") as referee:
            port = referee.address.rsplit(":", 1)[1]
            a, b = f"127.0.0.1:{port}", f"[::1]:{port}"
            async with grpc.aio.insecure_channel(a) as channel:
                stub = rpc.RefereeStub(channel)
                m1, m2 = [
                    (await stub.CreateMatch(pb.CreateMatchRequest(game="root", players=2))).match_id
                    for _ in range(2)
                ]
            opened = Opened()
            seen: dict[str, Any] = {}
            try:
                seen["a1"] = [await opened.watch(a, m1) for _ in range(2)]  # A 2, M1 2, all 2
                seen["a over"] = await opened.watch(a, m2)
                seen["a wrong token"] = await opened.watch(a, m2, token="not-the-token")
                seen["a relay"] = [await opened.watch(a, m1, token=RELAY_TOKEN) for _ in range(2)]
                seen["b match over"] = await opened.watch(b, m1)  # M1 4
                seen["b2"] = [await opened.watch(b, m2) for _ in range(2)]  # B 2, all 6
                seen["relay all over"] = await opened.watch(a, m2, token=RELAY_TOKEN)
                await opened.close(0)  # one of A's spectators leaves: A 1, all 5
                seen["a again"] = await eventually_admitted(opened, a, m2)
            finally:
                await opened.close_all()
            seen["m1"] = m1
            return seen

    seen = run(scenario(), timeout=120)
    assert seen["a1"] == [None, None]
    assert refused(
        seen["a over"], "2 spectators of 127.0.0.1", "kassen serve --max-watchers-per-caller 2"
    ), seen["a over"]
    assert refused(seen["a wrong token"], "--max-watchers-per-caller 2"), seen["a wrong token"]
    assert seen["a relay"] == [None, None]  # A is at its limit: the relay is not counted
    assert refused(
        seen["b match over"],
        f"4 spectators watch match {seen['m1']}",
        "kassen serve --max-watchers-per-match 4",
    ), seen["b match over"]
    assert seen["b2"] == [None, None]  # ::1 is another caller
    assert refused(seen["relay all over"], "6 spectators", "kassen serve --max-watchers 6"), seen[
        "relay all over"
    ]
    assert seen["a again"]


def test_with_workers_a_spectator_counts_against_the_host_it_connected_from(
    tmp_path: Path,
) -> None:
    """``--workers 2``: a Watch that reaches the worker not owning its match is forwarded with
    the client's host (and its relay token); the owner counts it against that host, not
    against the private socket it came through."""
    from tests.server.test_workers import on_both_workers, workers

    token_file = tmp_path / "relay-token"
    token_file.write_text(RELAY_TOKEN)
    flags = ["--max-watchers-per-caller", "1", "--relay-token-file", str(token_file)]
    with workers(tmp_path, *flags) as (process, address, log):

        async def scenario() -> tuple[list[grpc.aio.AioRpcError | None], list[Any]]:
            match_id = (await on_both_workers(address))[0].match_id
            opened = Opened()
            try:
                # Each on a connection of its own: the kernel spreads them over both
                # workers, so some are forwarded to the owner.
                plain = [await opened.watch(address, match_id) for _ in range(10)]
                relays = [
                    await opened.watch(address, match_id, token=RELAY_TOKEN) for _ in range(4)
                ]
            finally:
                await opened.close_all()
            return plain, relays

        plain, relays = run(scenario(), timeout=120)
        process.send_signal(2)
        process.wait(timeout=20)
    assert plain[0] is None
    assert all(
        refused(e, "1 spectators of 127.0.0.1", "--max-watchers-per-caller 1") for e in plain[1:]
    ), plain
    assert relays == [None] * 4
    streams = [line for line in log if '"worker_streams"' in line]
    assert sum(json.loads(line)["forwarded_watches"] for line in streams) > 0, streams
