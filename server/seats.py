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
import enum
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from games.policies.base import Policy, thinks
from kassen.v1 import referee_pb2 as pb
from kassen.wire import ObservationEncoder
from server.clock import SeatClock
from server.results import Reason, Takeover

#: The notice a stream receives when another stream with the same ticket takes its seat.
DISPLACED = "displaced"
DISPLACE_WRITE_S = 1.0
#: Unanswered pings remembered per seat (older ones are forgotten, never accumulated).
PINGS_REMEMBERED = 8
#: Messages a seat may send without being asked (a repeated answer, a pong to no ping,
#: anything after it failed): a burst of this many, refilled at ``UNASKED_PER_S``. Beyond the
#: allowance they are dropped and counted, never queued.
UNASKED_BURST = 32
UNASKED_PER_S = 8.0
#: Dropped messages within ``FLOOD_WINDOW_S`` that make a flood: the seat fails ``FLOODED``
#: and its stream is ended (docs/protocol.md).
FLOOD_DROPS = 500
FLOOD_WINDOW_S = 10.0
#: Most items an inbox holds. What reaches it is bounded by design (one answer per open
#: request, one violation, connection changes folded together); this is the backstop.
INBOX_LIMIT = 64


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


#: Items that only say whether a stream holds the seat: a newer one supersedes an older one
#: right before it (a seat that rejoins a thousand times in a row still holds one item).
CONNECTION_KINDS = frozenset({"attached", "detached"})


class Inbox:
    """What a seat sent, in order; the match waits on it with a deadline.

    Lighter than ``asyncio.wait_for(queue.get(), t)``, which creates a task per wait: one
    future and one timer handle per wait, none when an item is already there. Bounded: at
    most ``limit`` items (further ones are dropped and counted in ``dropped``), nothing once
    closed (the match ended).
    """

    def __init__(self, limit: int = INBOX_LIMIT) -> None:
        self._items: collections.deque[Incoming] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self.limit = limit
        self.dropped = 0
        self.closed = False

    def put_nowait(self, item: Incoming) -> bool:
        """Queue ``item``; False if it was dropped (the inbox is closed or full)."""
        if self.closed:
            return False
        items = self._items
        if item.kind in CONNECTION_KINDS and items and items[-1].kind in CONNECTION_KINDS:
            items[-1] = item  # only the latest connection state matters
        elif len(items) >= self.limit:
            self.dropped += 1
            return False
        else:
            items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        return True

    def close(self) -> None:
        """The match is over: forget every item and accept no more."""
        self.closed = True
        self._items.clear()
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


class Receipt(enum.Enum):
    """What became of a message a bot sent (``RemoteSeat.receive``)."""

    #: Queued for the match (an answer to the open request, a violation), or a pong counted.
    ACCEPTED = "accepted"
    #: A repeat of an answer already given: ignored, the bot is told with a notice.
    DUPLICATE = "duplicate"
    #: Not asked for and beyond the allowance: dropped and counted.
    DROPPED = "dropped"
    #: The seat floods: it fails ``FLOODED`` and its stream is to be ended.
    FLOODED = "flooded"


class Seat:
    """What every transport shares: identity, clock, failure state."""

    local = False

    def __init__(self, index: int, clock: SeatClock) -> None:
        self.index = index
        self.clock = clock
        self.bot_name = ""
        self.failed: Reason | None = None
        self.failure_detail = ""
        #: Round trips measured (decisions and pongs), summed: their mean is reported.
        self.round_trip_total_us = 0
        self.round_trips = 0

    @property
    def joined(self) -> bool:
        raise NotImplementedError

    def add_round_trip(self, microseconds: int) -> None:
        self.round_trip_total_us += microseconds
        self.round_trips += 1

    @property
    def mean_round_trip_us(self) -> int:
        return self.round_trip_total_us // self.round_trips if self.round_trips else 0


class LocalSeat(Seat):
    local = True

    def __init__(self, index: int, clock: SeatClock, policy: Policy, name: str) -> None:
        super().__init__(index, clock)
        self.policy = policy
        self.bot_name = name
        #: A policy that searches runs off the referee's event loop (server/match.py).
        self.thinks = thinks(policy)

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
        #: The open DecisionRequest (a whole PlayResponse, encoded), re-sent after a rejoin,
        #: and its id.
        self.open_request: bytes | None = None
        self.open_request_id = 0
        #: The last DecisionRequest written (the conformance kit re-sends it as a stale one).
        self.last_request = b""
        self.last_answered_id = 0
        #: Answers repeating the previous one (ignored, counted for the conformance kit).
        self.duplicates = 0
        #: Events not yet delivered, each encoded once (kassen.wire.assemble); they travel
        #: with the next message to this seat.
        self.undelivered: list[bytes] = []
        #: The seat's observation, kept up to date in place for each decision (a seat's next
        #: decision comes only after its answer to this one, also in simultaneous phases,
        #: where each seat has at most one request in flight).
        self.observation = pb.Observation()
        self.encoder = ObservationEncoder(game, self.observation)
        self.process: asyncio.subprocess.Process | None = None
        #: Set when a launched bot process has exited (or could not start).
        self.exited = asyncio.Event()
        self.stderr_tail = b""
        self._pings: dict[int, float] = {}
        self._game = game
        #: Set when the match's result is decided: no stream may take the seat any more.
        self.closed = False
        #: A protocol violation seen by the stream reader, for the match to apply (also
        #: while the seat is not asked: it fails at the match's next step).
        self.violation: tuple[Reason, str] | None = None
        #: The open request whose answer is already queued (a second one is a duplicate).
        self._queued_id = 0
        #: Messages not asked for: all of them, and those dropped beyond the allowance.
        self.unasked = 0
        self.unasked_dropped = 0
        self._tokens = float(UNASKED_BURST)
        self._tokens_at = time.monotonic()
        self._window_start = self._tokens_at
        self._window_drops = 0
        #: Every time a stream joined while another held the seat (``take_over``), in order.
        self.takeovers: list[Takeover] = []
        #: How many decisions the match has applied (the match sets it): where a takeover
        #: falls among the replay's decisions.
        self.decisions_applied: Callable[[], int] = _none_yet

    @property
    def joined(self) -> bool:
        return self.ever_joined.is_set()

    async def take_over(
        self, stream: Writer, greeting: pb.PlayResponse | None = None
    ) -> tuple[int, asyncio.Event, bool]:
        """A (re)joined stream takes the seat over. A stream still holding it first hears a
        ``displaced`` notice, so its bot can tell "replaced" from "dropped", then ends.

        The notice, the switch and the new stream's ``greeting`` (its Joined) happen under the
        write lock: the notice is the last message the old stream gets, Joined the first the new
        one gets (a request or MatchOver sent meanwhile waits, then follows it), and of two
        rejoins at once only the first displaces the old stream.

        Displacing a stream that still held the seat is recorded as a takeover (a rejoin after
        the seat's stream dropped finds none, and is an ordinary reconnect).

        Returns the stream's generation, the event that ends its RPC, and whether it took the
        seat: False when the match already had its result (then the caller tells it the result;
        a stream that took the seat hears MatchOver from the match itself).
        """
        async with self._write_lock:
            previous = self._stream
            if previous is not None and not self.closed:
                self.takeovers.append(Takeover(self.decisions_applied(), time.time()))
            if previous is not None:
                notice = pb.PlayResponse(
                    notice=pb.Notice(
                        code=DISPLACED,
                        message="another stream joined with this seat's ticket and took the seat "
                        "over",
                    )
                )
                # A stream whose bot stopped reading must not hold up the takeover.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(previous.write(notice), DISPLACE_WRITE_S)
            accepted = not self.closed
            generation, done = self.attach(stream)
            if greeting is not None and accepted:
                try:
                    await stream.write(greeting)
                except Exception:  # the new stream broke at once: the bot may rejoin
                    self.detach(generation)
            return generation, done, accepted

    def attach(self, stream: Writer) -> tuple[int, asyncio.Event]:
        """A (re)joined stream takes over the seat; the previous stream's RPC is ended.

        Returns the stream's generation and the event that tells its handler to end the RPC.
        A closed seat (its match has a result) takes no stream: the event returned is set.
        """
        if self.closed:
            ended = asyncio.Event()
            ended.set()
            return self.stream_generation, ended
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

    async def send(self, message: pb.PlayResponse | bytes) -> None:
        """Write to the current stream (dropped while disconnected; a broken stream detaches).

        ``message``: a PlayResponse, or one already encoded (the Play stream's serializer
        passes bytes through)."""
        async with self._write_lock:
            stream = self._stream  # read under the lock: a takeover may have just switched it
            if stream is None:
                return
            generation = self.stream_generation
            try:
                await stream.write(message)
            except Exception:  # the connection broke under us: the bot may rejoin
                self.detach(generation)

    def end_stream(self) -> None:
        """After MatchOver: the stream's RPC ends (the bot has heard everything)."""
        self._stream = None
        self._stream_done.set()

    def close(self) -> None:
        """The match's result is decided: from now on no stream can take the seat (a rejoin
        racing the end hears MatchOver from its own handler and ends)."""
        self.closed = True

    def release(self) -> None:
        """The match is over: free what the seat holds (queued items, the request message
        and its encoder, events, pings) and end any stream still open."""
        self.closed = True
        self.inbox.close()
        self.open_request = None
        self.last_request = b""
        self.undelivered = []
        self._pings.clear()
        self.observation = pb.Observation()
        self.encoder = ObservationEncoder(self._game, self.observation)
        self.end_stream()

    # ------------------------------------------------------------------ what the bot sends

    def receive(self, message: pb.PlayRequest, now: float) -> Receipt:
        """Judge one message of the bot (after its Join) without ever queueing more than the
        match needs: an answer to the open request is queued once; a repeat is a duplicate; an
        answer to another request is ``STALE_REQUEST``, an empty message or a second Join
        ``MALFORMED_MESSAGE``; anything after the seat failed, and pongs to no ping, count
        against the unasked allowance."""
        if self.closed or self.failed is not None or self.violation is not None:
            return self._unasked(now)
        which = message.WhichOneof("message")
        if which == "answer":
            answer = message.answer
            open_id = self.open_request_id if self.open_request is not None else 0
            if open_id and answer.request_id == open_id and self._queued_id != open_id:
                self._queued_id = open_id
                self.inbox.put_nowait(Incoming("answer", now, answer=answer))
                return Receipt.ACCEPTED
            if answer.request_id != 0 and answer.request_id in (
                self.last_answered_id,
                self._queued_id,
            ):
                receipt = self._unasked(now)
                if receipt is Receipt.ACCEPTED:
                    self.duplicates += 1
                    return Receipt.DUPLICATE
                return receipt
            opened = f"the open request is {open_id}" if open_id else "no request is open"
            self.violate(
                Reason.STALE_REQUEST, f"answered request {answer.request_id}; {opened}", now
            )
            return Receipt.ACCEPTED
        if which == "pong":
            if self.pong(message.pong.nonce, now):
                return Receipt.ACCEPTED
            return self._unasked(now)
        detail = (
            "a second Join on the same stream" if which == "join" else "a message with no content"
        )
        self.violate(Reason.MALFORMED_MESSAGE, detail, now)
        return Receipt.ACCEPTED

    def violate(self, reason: Reason, detail: str, now: float) -> None:
        """Record the seat's first protocol violation; the match fails the seat with it."""
        if self.violation is None and self.failed is None:
            self.violation = (reason, detail)
            self.inbox.put_nowait(Incoming("violation", now, reason=reason, detail=detail))

    def _unasked(self, now: float) -> Receipt:
        """Count a message the seat was not asked for: within the allowance it is ACCEPTED
        (for the caller to handle), beyond it DROPPED, and a flood is FLOODED."""
        self.unasked += 1
        self._tokens = min(UNASKED_BURST, self._tokens + (now - self._tokens_at) * UNASKED_PER_S)
        self._tokens_at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return Receipt.ACCEPTED
        self.unasked_dropped += 1
        if now - self._window_start > FLOOD_WINDOW_S:
            self._window_start = now
            self._window_drops = 0
        self._window_drops += 1
        if self._window_drops < FLOOD_DROPS:
            return Receipt.DROPPED
        self.violate(
            Reason.FLOODED,
            f"sent {self.unasked} messages it was not asked for; {self.unasked_dropped} "
            f"beyond the allowance ({UNASKED_BURST}, then {UNASKED_PER_S:g} a second) "
            "were dropped",
            now,
        )
        return Receipt.FLOODED

    def record_round_trip(self, elapsed_s: float, reported_think_us: int) -> None:
        """Network and transport time of one decision: elapsed minus what the bot reports."""
        elapsed_us = int(elapsed_s * 1e6)
        if 0 < reported_think_us <= elapsed_us:
            self.add_round_trip(elapsed_us - reported_think_us)

    def sent_ping(self, nonce: int, at: float) -> None:
        """Remember a ping's time; only the last few are kept (a bot need not answer)."""
        self._pings[nonce] = at
        while len(self._pings) > PINGS_REMEMBERED:
            del self._pings[next(iter(self._pings))]

    def pong(self, nonce: int, at: float) -> bool:
        """Count the round trip of a ping; False for a nonce of no ping remembered."""
        sent = self._pings.pop(nonce, None)
        if sent is None:
            return False
        self.add_round_trip(int((at - sent) * 1e6))
        return True


class Writer(Protocol):
    """The writing half of a Play stream (a grpc.aio servicer context)."""

    async def write(self, message: pb.PlayResponse | bytes) -> None: ...


def _none_yet() -> int:
    return 0


def describe_exit(returncode: int | None, stderr_tail: bytes) -> str:
    tail = stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
    text = f"bot process exited with code {returncode}"
    return text + (": " + " | ".join(tail) if tail else "")


def mean(values: list[int]) -> int:
    return int(sum(values) / len(values)) if values else 0
