"""The referee's side of a seat, one class per transport.

* ``RemoteSeat``: a bot on a gRPC ``Play`` stream (also used for launched processes). The
  stream handler feeds what the bot sends into ``inbox``; the match sends through ``send``.
  A stream can drop and be replaced by a rejoin with the same ticket.
* ``LocalSeat``: a trusted in-process Python policy, for fast local tournaments. The same
  clock and answer checks apply; it is called directly from the match task.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from games.policies.base import Policy
from kassen.v1 import referee_pb2 as pb
from kassen.wire import ObservationEncoder
from server.clock import SeatClock
from server.results import Reason

#: The notice a stream receives when another stream with the same ticket takes its seat.
DISPLACED = "displaced"
DISPLACE_WRITE_S = 1.0
#: Unanswered pings remembered per seat (older ones are forgotten, never accumulated).
PINGS_REMEMBERED = 8


@dataclass(frozen=True, slots=True)
class Incoming:
    """Something that reached a seat's inbox: an answer, a protocol violation, or a change of
    connection. ``at`` is the referee's monotonic clock when it arrived."""

    #: "answer" | "violation" | "attached" | "detached" | "exited" | "pong", or "withdrawn"
    #: (put by the match itself: the match ends while the seat's request is in flight).
    kind: str
    at: float
    answer: pb.Answer | None = None
    reason: Reason | None = None
    detail: str = ""
    nonce: int = 0
    generation: int = 0


class Inbox:
    """What a seat sent, in order; the match waits on it with a deadline.

    Lighter than ``asyncio.wait_for(queue.get(), t)``, which creates a task per wait: one
    future and one timer handle per wait, none when an item is already there.
    """

    def __init__(self) -> None:
        self._items: collections.deque[Incoming] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Incoming) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self, timeout: float) -> Incoming | None:
        """The next item, or None if none arrived within ``timeout`` seconds."""
        if not self._items:
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(timeout, _expire, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
            if not self._items:
                return None
        return self._items.popleft()

    def __len__(self) -> int:
        return len(self._items)


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Seat:
    """What every transport shares: identity, clock, failure state."""

    local = False

    def __init__(self, index: int, clock: SeatClock) -> None:
        self.index = index
        self.clock = clock
        self.bot_name = ""
        self.failed: Reason | None = None
        self.failure_detail = ""
        self.round_trips_us: list[int] = []

    @property
    def joined(self) -> bool:
        raise NotImplementedError


class LocalSeat(Seat):
    local = True

    def __init__(self, index: int, clock: SeatClock, policy: Policy, name: str) -> None:
        super().__init__(index, clock)
        self.policy = policy
        self.bot_name = name

    @property
    def joined(self) -> bool:
        return True


class RemoteSeat(Seat):
    """A seat played over a gRPC stream. Holds the secret ticket that claims it.

    The match writes straight to the stream of the current connection (no queue between);
    the stream's handler reads what the bot sends into ``inbox``.
    """

    def __init__(self, index: int, clock: SeatClock, game: str) -> None:
        super().__init__(index, clock)
        self.ticket = secrets.token_urlsafe(24)
        self.inbox = Inbox()
        self.ever_joined = asyncio.Event()
        self.connected = False
        self.stream_generation = 0
        self._stream: Writer | None = None
        #: Set when the current stream's RPC should end (replaced, broken, or MatchOver sent).
        self._stream_done = asyncio.Event()
        self._write_lock = asyncio.Lock()
        #: The open DecisionRequest, re-sent after a rejoin.
        self.open_request: pb.PlayResponse | None = None
        self.last_answered_id = 0
        #: Answers repeating the previous one (ignored, counted for the conformance kit).
        self.duplicates = 0
        #: Events not yet delivered; they travel with the next message to this seat.
        self.undelivered: list[pb.Event] = []
        #: One request message per seat, rewritten for each decision (it is serialized when
        #: written, and a seat's next decision comes only after its answer to this one, also
        #: in simultaneous phases, where each seat has at most one request in flight).
        self.request = pb.PlayResponse()
        self.encoder = ObservationEncoder(game, self.request.decision.observation)
        self.process: asyncio.subprocess.Process | None = None
        #: Set when a launched bot process has exited (or could not start).
        self.exited = asyncio.Event()
        self.stderr_tail = b""
        self._pings: dict[int, float] = {}

    @property
    def joined(self) -> bool:
        return self.ever_joined.is_set()

    async def take_over(self, stream: Writer) -> tuple[int, asyncio.Event]:
        """A (re)joined stream takes the seat over. A stream still holding it first hears a
        ``displaced`` notice, so its bot can tell "replaced" from "dropped", then ends."""
        previous = self._stream
        if previous is not None:
            notice = pb.PlayResponse(
                notice=pb.Notice(
                    code=DISPLACED,
                    message="another stream joined with this seat's ticket and took the seat over",
                )
            )
            # A stream whose bot stopped reading must not hold up the takeover.
            with contextlib.suppress(Exception):
                async with self._write_lock:
                    await asyncio.wait_for(previous.write(notice), DISPLACE_WRITE_S)
        return self.attach(stream)

    def attach(self, stream: Writer) -> tuple[int, asyncio.Event]:
        """A (re)joined stream takes over the seat; the previous stream's RPC is ended.

        Returns the stream's generation and the event that tells its handler to end the RPC.
        """
        self._stream_done.set()
        self._stream_done = asyncio.Event()
        self.stream_generation += 1
        self._stream = stream
        self.connected = True
        self.ever_joined.set()
        self.inbox.put_nowait(
            Incoming("attached", time.monotonic(), generation=self.stream_generation)
        )
        return self.stream_generation, self._stream_done

    def detach(self, generation: int, half_closed: bool = False) -> None:
        """The stream of ``generation`` can no longer answer (ignored if a newer one took over).

        A half-closed stream (the bot finished sending) can still be written to, so it keeps
        its place and still receives MatchOver; a broken stream loses it.
        """
        if generation != self.stream_generation:
            return
        if self.connected:
            self.connected = False
            self.inbox.put_nowait(Incoming("detached", time.monotonic(), generation=generation))
        if not half_closed:
            self._stream = None
            self._stream_done.set()

    async def send(self, message: pb.PlayResponse) -> None:
        """Write to the current stream (dropped while disconnected; a broken stream detaches)."""
        stream = self._stream
        if stream is None:
            return
        generation = self.stream_generation
        try:
            async with self._write_lock:
                await stream.write(message)
        except Exception:  # the connection broke under us: the bot may rejoin
            self.detach(generation)

    def end_stream(self) -> None:
        """After MatchOver: the stream's RPC ends (the bot has heard everything)."""
        self._stream = None
        self._stream_done.set()

    def record_round_trip(self, elapsed_s: float, reported_think_us: int) -> None:
        """Network and transport time of one decision: elapsed minus what the bot reports."""
        elapsed_us = int(elapsed_s * 1e6)
        if 0 < reported_think_us <= elapsed_us:
            self.round_trips_us.append(elapsed_us - reported_think_us)

    def sent_ping(self, nonce: int, at: float) -> None:
        """Remember a ping's time; only the last few are kept (a bot need not answer)."""
        self._pings[nonce] = at
        while len(self._pings) > PINGS_REMEMBERED:
            del self._pings[next(iter(self._pings))]

    def pong(self, nonce: int, at: float) -> None:
        sent = self._pings.pop(nonce, None)
        if sent is not None:
            self.round_trips_us.append(int((at - sent) * 1e6))


class Writer(Protocol):
    """The writing half of a Play stream (a grpc.aio servicer context)."""

    async def write(self, message: pb.PlayResponse) -> None: ...


def describe_exit(returncode: int | None, stderr_tail: bytes) -> str:
    tail = stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
    text = f"bot process exited with code {returncode}"
    return text + (": " + " | ".join(tail) if tail else "")


def mean(values: list[int]) -> int:
    return int(sum(values) / len(values)) if values else 0
