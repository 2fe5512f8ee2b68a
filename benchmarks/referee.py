"""Decisions per second through the referee, against the raw grpc.aio ceiling, in two processes.

    python benchmarks/referee.py [--seconds 5] [--streams 16] [--warmup 1] [--profile FILE]

Two cases, each with a server process A pinned to one core and a client process B pinned to
the other, so that neither side can borrow the other's core:

(b) referee: A runs the real referee (``running_server``, logging at info level as JSON into
    /dev/null, no replays). B plays ``--streams`` concurrent 4-player base Rumble Nation matches
    with trivial bots: it calls CreateMatch (generous clocks) and plays the four tickets on one
    channel, each seat answering a seeded random option at once and every Ping with a Pong,
    and starts a new match whenever one ends. B counts the Answers it sends. A reports
    ``match.server_time_us`` of every match created inside the window (one sample for building
    each DecisionRequest, one for applying each answer), and its CPU time over the window.
(a) raw ceiling: A is a minimal grpc.aio server with one bidi method (a generic handler, no
    protoc), B opens ``--streams`` streams and ping-pongs for the same window. The messages are
    the kassen ones so that sizes match a real decision: B sends ``PlayRequest(answer)`` and
    parses the reply as a ``PlayResponse``; A parses the ``PlayRequest`` and replies with a real
    ``PlayResponse(decision)`` captured in (b), closest to the mean size, pre-serialized.

Both cases keep ``--streams`` round trips in flight, so the ratio (b)/(a) is the share of the
transport ceiling the referee reaches. Targets: ratio >= 0.6, server time per decision
(build + apply) p99 <= 1 ms. ``--profile FILE`` runs case (b) only, with cProfile on A over the
window, and prints A's top functions (numbers from that run are slowed down by the profiler).
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
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.yardstick import Figure

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event as EventType

    import grpc

BENCHMARK = "referee"
TARGET_RATIO = 0.6
TARGET_P99_US = 1_000
HOST = "127.0.0.1"
PINGPONG_METHOD = "/bench.PingPong/Play"
#: Generous clocks: a trivial bot never comes close, so no seat ever times out.
DECISION_MS = 60_000
BANK_MS = 600_000
#: How many DecisionRequests B keeps (every CAPTURE_EVERY-th, in the warm-up) to pick (a)'s reply.
CAPTURE_MAX = 400
CAPTURE_EVERY = 7
STARTUP_TIMEOUT_S = 60.0
DRAIN_TIMEOUT_S = 30.0
#: A process using this share of its core or more is the one that limits the rate.
BUSY = 0.9


# ---------------------------------------------------------------------------- shared helpers


def pin_to(core: int | None) -> None:
    """Pin every thread of this process (and so every thread it starts later) to ``core``."""
    if core is None or not hasattr(os, "sched_setaffinity"):
        return
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        tids = [0]
    for tid in tids:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(tid, {core})


@dataclass(slots=True)
class Control:
    """Events shared by the three processes: B opens and closes the measurement window,
    the parent tells A to stop."""

    window_open: EventType
    window_closed: EventType
    stop: EventType


class CpuWindow:
    """A's process CPU time over B's window, read by a thread blocked on the window events
    (so A's event loop is never polled). ``on_open`` / ``on_close`` run on the event loop."""

    def __init__(
        self,
        control: Control,
        loop: asyncio.AbstractEventLoop,
        on_open: Callable[[], None] | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.cpu_s = 0.0
        self.wall_s = 0.0
        self.opened = threading.Event()
        self._control = control
        self._loop = loop
        self._on_open = on_open
        self._on_close = on_close
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        control = self._control
        while not control.window_open.wait(0.5):
            if control.stop.is_set():
                return
        cpu, wall = time.process_time(), time.perf_counter()
        if self._on_open is not None:
            self._loop.call_soon_threadsafe(self._on_open)
        self.opened.set()
        while not control.window_closed.wait(0.5):
            if control.stop.is_set():
                return
        self.cpu_s = time.process_time() - cpu
        self.wall_s = time.perf_counter() - wall
        if self._on_close is not None:
            self._loop.call_soon_threadsafe(self._on_close)


async def wait_for_stop(control: Control) -> None:
    while not control.stop.is_set():
        await asyncio.sleep(0.05)


@dataclass(slots=True)
class Window:
    """What B measured over its window."""

    count: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    per_second: list[int] = field(default_factory=list)


async def measure_window(
    counter: Callable[[], int], control: Control, warmup_s: float, seconds: float
) -> Window:
    """Wait out the warm-up, then count over ``seconds`` (in one-second slices for the spread)."""
    await asyncio.sleep(warmup_s)
    window = Window()
    control.window_open.set()
    start_count, start_wall, start_cpu = counter(), time.perf_counter(), time.process_time()
    last = start_count
    slices = max(1, round(seconds))
    for i in range(slices):
        await asyncio.sleep(start_wall + seconds * (i + 1) / slices - time.perf_counter())
        now = counter()
        window.per_second.append(round((now - last) * slices / seconds))
        last = now
    window.count = counter() - start_count
    window.wall_s = time.perf_counter() - start_wall
    window.cpu_s = time.process_time() - start_cpu
    control.window_closed.set()
    return window


# ---------------------------------------------------------------------------- (a) ping-pong


def pingpong_server(core: int | None, reply: bytes, control: Control, out: Any) -> None:
    """Process A of case (a): one bidi method that answers every message with ``reply``."""
    pin_to(core)
    asyncio.run(_pingpong_server(core, reply, control, out))


async def _pingpong_server(core: int | None, reply: bytes, control: Control, out: Any) -> None:
    import grpc

    from kassen.v1 import referee_pb2 as pb
    from server.settings import MAX_MESSAGE_BYTES

    async def play(requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        async for _ in requests:
            yield reply

    handler = grpc.method_handlers_generic_handler(
        "bench.PingPong",
        {
            "Play": grpc.stream_stream_rpc_method_handler(
                play, request_deserializer=pb.PlayRequest.FromString, response_serializer=None
            )
        },
    )
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_concurrent_streams", 1000),
            ("grpc.so_reuseport", 0),
        ]
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port(f"{HOST}:0")
    await server.start()
    pin_to(core)
    window = CpuWindow(control, asyncio.get_running_loop())
    out.put(("port", port))
    await wait_for_stop(control)
    await server.stop(grace=0.5)
    out.put(("done", {"cpu_s": window.cpu_s, "wall_s": window.wall_s}))


def pingpong_client(
    core: int | None,
    address: str,
    streams: int,
    warmup_s: float,
    seconds: float,
    control: Control,
    out: Any,
) -> None:
    """Process B of case (a): ``streams`` concurrent ping-pong streams on one channel."""
    pin_to(core)
    window = asyncio.run(_pingpong_client(core, address, streams, warmup_s, seconds, control))
    out.put(("done", window))


async def _pingpong_client(
    core: int | None, address: str, streams: int, warmup_s: float, seconds: float, control: Control
) -> Window:
    import grpc

    from kassen.v1 import referee_pb2 as pb

    round_trips = 0
    running = True

    async def stream(channel: grpc.aio.Channel, seed: int) -> None:
        nonlocal round_trips
        rng = random.Random(seed)
        method = channel.stream_stream(
            PINGPONG_METHOD,
            request_serializer=pb.PlayRequest.SerializeToString,
            response_deserializer=pb.PlayResponse.FromString,
        )
        call = method()
        request_id = 0
        while running:
            await call.write(
                pb.PlayRequest(answer=pb.Answer(request_id=request_id, option_index=0))
            )
            message = await call.read()
            if not isinstance(message, pb.PlayResponse):  # grpc.aio.EOF
                raise RuntimeError("the ping-pong stream ended early")
            rng.randrange(len(message.decision.options))  # what a trivial bot does with it
            round_trips += 1
            request_id = round_trips
        await call.done_writing()
        await call.code()

    async with grpc.aio.insecure_channel(address) as channel:
        await asyncio.wait_for(channel.channel_ready(), STARTUP_TIMEOUT_S)
        pin_to(core)
        tasks = [asyncio.create_task(stream(channel, i)) for i in range(streams)]
        try:
            window = await measure_window(lambda: round_trips, control, warmup_s, seconds)
            running = False
            await asyncio.wait_for(asyncio.gather(*tasks), DRAIN_TIMEOUT_S)
        finally:
            for task in tasks:
                task.cancel()
    return window


# ---------------------------------------------------------------------------- (b) referee


def referee_server(core: int | None, profile: str | None, control: Control, out: Any) -> None:
    """Process A of case (b): the real referee; reports server time samples when told to stop."""
    pin_to(core)
    asyncio.run(_referee_server(core, profile, control, out))


async def _referee_server(
    core: int | None, profile: str | None, control: Control, out: Any
) -> None:
    import cProfile

    import structlog

    from server import logs
    from server.app import running_server

    logs.configure("info")  # what a served referee does, but into /dev/null
    with open(os.devnull, "w") as devnull:
        structlog.configure(logger_factory=structlog.PrintLoggerFactory(file=devnull))
        async with running_server(f"{HOST}:0") as referee:
            pin_to(core)
            before_window: set[str] = set()
            profiler = cProfile.Profile() if profile else None

            def on_open() -> None:
                before_window.update(referee.matches)
                if profiler is not None:
                    profiler.enable()

            def on_close() -> None:
                if profiler is not None:
                    profiler.disable()

            window = CpuWindow(control, asyncio.get_running_loop(), on_open, on_close)
            out.put(("port", int(referee.address.rsplit(":", 1)[1])))
            await wait_for_stop(control)
            if profiler is not None and profile:
                profiler.dump_stats(profile)
            report: dict[str, Any] = {
                "cpu_s": window.cpu_s,
                "wall_s": window.wall_s,
                "matches": [],
            }
            if window.opened.is_set():
                for match in list(referee.matches.values()):
                    if match.id in before_window or match.result is None:
                        continue
                    report["matches"].append(
                        {
                            "reason": match.result.reason.value,
                            "decisions": match.decisions,
                            "failed_seats": sum(s.failed is not None for s in match.seats),
                            "server_time_us": list(match.server_time_us),
                        }
                    )
    out.put(("done", report))


@dataclass(slots=True)
class BotReport:
    window: Window
    matches: int
    captured: list[bytes]


#: What case (b) plays, per ``--game``: (variant, players).
GAME_SETUPS: dict[str, tuple[str, int]] = {
    "rumble-nation": ("base", 4),
    "root": ("autumn", 2),
    "gnomeville": ("standard", 4),
}


def referee_bots(
    core: int | None,
    address: str,
    matches: int,
    warmup_s: float,
    seconds: float,
    game: str,
    control: Control,
    out: Any,
) -> None:
    """Process B of case (b): ``matches`` concurrent matches of trivial bots."""
    pin_to(core)
    report = asyncio.run(_referee_bots(core, address, matches, warmup_s, seconds, game, control))
    out.put(("done", report))


async def _referee_bots(
    core: int | None,
    address: str,
    matches: int,
    warmup_s: float,
    seconds: float,
    game: str,
    control: Control,
) -> BotReport:
    import grpc

    from kassen.v1 import referee_pb2 as pb
    from kassen.v1 import referee_pb2_grpc as rpc

    answers = 0
    finished = 0
    running = True
    captured: list[bytes] = []
    next_seed = 0

    async def seat(stub: rpc.RefereeAsyncStub, ticket: str, rng: random.Random) -> None:
        nonlocal answers
        call = stub.Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="trivial")))
        while True:
            message = await call.read()
            if not isinstance(message, pb.PlayResponse):  # grpc.aio.EOF
                raise RuntimeError("a Play stream ended before MatchOver")
            which = message.WhichOneof("message")
            if which == "decision":
                decision = message.decision
                index = rng.randrange(len(decision.options))
                await call.write(
                    pb.PlayRequest(
                        answer=pb.Answer(request_id=decision.request_id, option_index=index)
                    )
                )
                answers += 1
                if (
                    answers % CAPTURE_EVERY == 0
                    and len(captured) < CAPTURE_MAX
                    and not control.window_open.is_set()
                ):
                    captured.append(message.SerializeToString())
            elif which == "ping":
                await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
            elif which == "match_over":
                await call.done_writing()
                return

    async def slot(stub: rpc.RefereeAsyncStub) -> None:
        nonlocal finished, next_seed
        while running:
            seed = next_seed
            next_seed += 1
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(
                    game=game,
                    variant=GAME_SETUPS[game][0],
                    players=GAME_SETUPS[game][1],
                    seed=seed,
                    time_control=pb.TimeControl(decision_ms=DECISION_MS, bank_ms=BANK_MS),
                    join_timeout_ms=DECISION_MS,
                ),
                timeout=10.0,
            )
            await asyncio.gather(
                *(
                    seat(stub, ticket, random.Random(seed * 8 + i))
                    for i, ticket in enumerate(created.tickets)
                )
            )
            finished += 1

    async with grpc.aio.insecure_channel(address) as channel:
        await asyncio.wait_for(channel.channel_ready(), STARTUP_TIMEOUT_S)
        pin_to(core)
        stub: rpc.RefereeAsyncStub = rpc.RefereeStub(channel)
        tasks = [asyncio.create_task(slot(stub)) for _ in range(matches)]
        try:
            window = await measure_window(lambda: answers, control, warmup_s, seconds)
            running = False  # no new matches; let the ones in flight end
            await asyncio.wait_for(asyncio.gather(*tasks), DRAIN_TIMEOUT_S)
        finally:
            for task in tasks:
                task.cancel()
    return BotReport(window, finished, captured)


# ---------------------------------------------------------------------------- the parent


def take(source: Any, kind: str, timeout: float, processes: list[Any]) -> Any:
    """The next message of ``kind`` from a child; fail fast if a child died."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got, value = source.get(timeout=0.2)
        except queue.Empty:
            for process in processes:
                if process.exitcode not in (None, 0):
                    raise RuntimeError(
                        f"{process.name} exited with code {process.exitcode}"
                    ) from None
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {kind!r} from a child within {timeout:g} s") from None
            continue
        if got == kind:
            return value


def run_case(
    ctx: Any,
    server: Callable[..., None],
    server_args: tuple[Any, ...],
    client: Callable[..., None],
    client_args: tuple[Any, ...],
    cores: tuple[int | None, int | None],
    budget_s: float,
) -> tuple[Any, Any]:
    """Start A, then B against A's port; collect both reports; always end both processes."""
    control = Control(ctx.Event(), ctx.Event(), ctx.Event())
    from_a, from_b = ctx.Queue(), ctx.Queue()
    a = ctx.Process(
        target=server, args=(cores[0], *server_args, control, from_a), name="A", daemon=True
    )
    processes = [a]
    try:
        a.start()
        port = take(from_a, "port", STARTUP_TIMEOUT_S, processes)
        b = ctx.Process(
            target=client,
            args=(cores[1], f"{HOST}:{port}", *client_args, control, from_b),
            name="B",
            daemon=True,
        )
        processes.append(b)
        b.start()
        client_report = take(from_b, "done", STARTUP_TIMEOUT_S + budget_s, processes)
        control.stop.set()
        server_report = take(from_a, "done", STARTUP_TIMEOUT_S, processes)
        for process in processes:
            process.join(10)
        return server_report, client_report
    finally:
        control.stop.set()
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)


def percentile(sorted_values: list[int], p: float) -> int:
    if not sorted_values:
        return 0
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def pick_reply(captured: list[bytes]) -> bytes:
    """The captured DecisionRequest closest to the mean size."""
    mean_size = sum(map(len, captured)) / len(captured)
    return min(captured, key=lambda m: abs(len(m) - mean_size))


def print_profile(path: str, top: int = 25) -> None:
    import pstats

    for key in ("tottime", "cumulative"):
        print(f"\n# process A (referee), top {top} by {key}:")
        pstats.Stats(path, stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured window per case")
    parser.add_argument("--streams", type=int, default=16, help="streams / concurrent matches")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds first")
    parser.add_argument(
        "--profile", metavar="FILE", help="case (b) only, with cProfile on A; write pstats to FILE"
    )
    parser.add_argument(
        "--game", choices=sorted(GAME_SETUPS), default="rumble-nation", help="what (b) plays"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.streams <= 0 or args.warmup < 0:
        parser.error("--seconds and --streams must be positive, --warmup not negative")
    with yardstick.around() as reading:
        figures = run(args.seconds, args.streams, args.warmup, args.game, args.profile)
    yardstick.report(figures, reading)
    return 0


def run(
    seconds: float = 5.0,
    streams: int = 16,
    warmup: float = 1.0,
    game: str = "rumble-nation",
    profile: str | None = None,
) -> list[Figure]:
    """Both cases (only (b) when profiling), printed as ``main`` prints them; the key figures."""
    import grpc

    available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    cores: tuple[int | None, int | None]
    if len(available) >= 2:
        cores = (available[0], available[1])
        pinning = f"server process pinned to core {cores[0]}, bot process to core {cores[1]}"
    elif available:
        cores = (available[0], available[0])
        pinning = f"only core {available[0]} available: both processes share it"
    else:
        cores = (None, None)
        pinning = "not pinned (no sched_setaffinity)"
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()}, "
        f"grpcio {grpc.__version__}, {os.cpu_count()} cores; {pinning}; "
        f"{streams} streams, {seconds:g} s after {warmup:g} s warm-up"
        + (" (PROFILED: not representative)" if profile else "")
    )
    sys.stdout.flush()

    ctx = multiprocessing.get_context("spawn")  # no fork: grpc does not survive it
    budget = warmup + seconds + DRAIN_TIMEOUT_S + 10
    ref_server, ref_bots = run_case(
        ctx,
        referee_server,
        (profile,),
        referee_bots,
        (streams, warmup, seconds, game),
        cores,
        budget,
    )
    raw: tuple[dict[str, Any], Window] | None = None
    reply = b""
    if not profile:
        if not ref_bots.captured:
            raise RuntimeError("the referee run captured no DecisionRequest")
        reply = pick_reply(ref_bots.captured)
        raw = run_case(
            ctx,
            pingpong_server,
            (reply,),
            pingpong_client,
            (streams, warmup, seconds),
            cores,
            budget,
        )

    rows: list[tuple[str, dict[str, Any], Window]] = []
    if raw is not None:
        rows.append(("(a) raw grpc.aio bidi ping-pong", raw[0], raw[1]))
    rows.append(
        (
            f"(b) referee, {streams} x {game} {GAME_SETUPS[game][1]}p {GAME_SETUPS[game][0]}",
            ref_server,
            ref_bots.window,
        )
    )
    print(
        f"{'case':<40}{'decisions/s':>12}{'1 s slices':>16}"
        f"{'A cpu':>8}{'B cpu':>8}{'A µs/dec':>10}{'B µs/dec':>10}  bound by"
    )
    rates: list[float] = []
    for name, a, b in rows:
        rate = b.count / b.wall_s
        rates.append(rate)
        spread = f"{min(b.per_second)}-{max(b.per_second)}"
        a_busy, b_busy = a["cpu_s"] / a["wall_s"], b.cpu_s / b.wall_s
        bound = "A (server)" if a_busy >= b_busy else "B (bots)"
        if max(a_busy, b_busy) < BUSY:
            bound = "neither (latency)"
        print(
            f"{name:<40}{rate:>12.0f}{spread:>16}{a_busy:>8.0%}{b_busy:>8.0%}"
            f"{a['cpu_s'] / b.count * 1e6:>10.0f}{b.cpu_s / b.count * 1e6:>10.0f}  {bound}"
        )
    print(
        "  A/B cpu: share of its one core each process used in the window; µs/dec: its CPU time"
        " per decision (per round trip in (a)); bound by: the process that saturated its core."
    )
    if raw is not None:
        print(
            f"  (a) messages: kassen PlayRequest(answer) up, a real PlayResponse(decision) of "
            f"{len(reply)} bytes down (captured in (b), closest to the mean of "
            f"{len(ref_bots.captured)}; A replies with it pre-serialized, B parses it)."
        )
        ratio = rates[1] / rates[0]
        verdict = "meets" if ratio >= TARGET_RATIO else "is below"
        print(f"ratio (b)/(a): {ratio:.2f} {verdict} the target of {TARGET_RATIO}")

    p99 = report_server_time(ref_server)
    print(f"  matches completed by B: {ref_bots.matches} (in flight at the end: let finish)")
    if profile:
        print_profile(profile)
    label = f"{game} {GAME_SETUPS[game][1]}p, {streams} streams"
    figures: list[Figure] = []
    if raw is not None:
        figures.append(
            Figure(
                BENCHMARK, f"(a) raw grpc ping-pong, {streams} streams", rates[0], "round trips/s"
            )
        )
    figures.append(Figure(BENCHMARK, f"(b) referee, {label}", rates[-1], "decisions/s"))
    if raw is not None:
        figures.append(
            Figure(BENCHMARK, "ratio (b)/(a)", rates[1] / rates[0], "x raw", "ratio", TARGET_RATIO)
        )
    figures.append(
        Figure(
            BENCHMARK,
            "server time per decision, p99",
            math.nan if p99 is None else p99,
            "µs",
            "time",
            TARGET_P99_US,
            seconds=1e-6,
        )
    )
    return figures


def report_server_time(report: dict[str, Any]) -> int | None:
    """Print the server time per decision; its p99 in µs (None without a finished match)."""
    matches = report["matches"]
    per_decision: list[int] = []
    build: list[int] = []
    apply: list[int] = []
    samples: list[int] = []
    unpaired = 0
    reasons: dict[str, int] = {}
    failed = 0
    for match in matches:
        reasons[match["reason"]] = reasons.get(match["reason"], 0) + 1
        failed += match["failed_seats"]
        times: list[int] = match["server_time_us"]
        samples.extend(times)
        if len(times) == 2 * match["decisions"]:  # every decision asked remotely: build, apply
            build.extend(times[0::2])
            apply.extend(times[1::2])
            per_decision.extend(map(sum, zip(times[0::2], times[1::2], strict=True)))
        else:
            unpaired += 1
    for values in (per_decision, build, apply, samples):
        values.sort()
    if not per_decision:
        print("server time per decision: no finished match inside the window")
        return None
    p99 = percentile(per_decision, 0.99)
    verdict = "meets" if p99 <= TARGET_P99_US else "misses"
    print(
        f"server time per decision (build + apply, {len(per_decision)} decisions of "
        f"{len(matches) - unpaired} matches created in the window): "
        f"p50 {percentile(per_decision, 0.5)} µs, p99 {p99} µs, max {per_decision[-1]} µs; "
        f"p99 {verdict} the target of {TARGET_P99_US} µs"
    )
    for name, values in (
        ("build request", build),
        ("apply answer", apply),
        ("any sample", samples),
    ):
        print(
            f"  {name:<14} p50 {percentile(values, 0.5):>5} µs  p99 {percentile(values, 0.99):>5} µs"
            f"  mean {sum(values) / len(values):>7.1f} µs  max {values[-1]:>6} µs"
        )
    print(
        f"  match results: {', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))}; "
        f"failed seats {failed}; matches with fallback decisions (not paired) {unpaired}"
    )
    return p99


if __name__ == "__main__":
    raise SystemExit(main())
