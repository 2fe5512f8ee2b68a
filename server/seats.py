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
import secrets
import time
from dataclasses import dataclass

from games.policies.base import Policy
from kassen.v1 import referee_pb2 as pb
from kassen.wire import ObservationEncoder
from server.clock import SeatClock
from server.results import Reason


@dataclass(frozen=True, slots=True)
class Incoming:
    """Something that reached a seat's inbox: an answer, a protocol violation, or a change of
    connection. ``at`` is the referee's monotonic clock when it arrived."""

    kind: str  # "answer" | "violation" | "attached" | "detached" | "exited" | "pong"
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
    """A seat played over a gRPC stream. Holds the secret ticket that claims it."""

    def __init__(self, index: int, clock: SeatClock, game: str) -> None:
        super().__init__(index, clock)
        self.ticket = secrets.token_urlsafe(24)
        self.inbox = Inbox()
        self._outbox: asyncio.Queue[pb.PlayResponse | None] | None = None
        self.ever_joined = asyncio.Event()
        self.connected = False
        self.stream_generation = 0
        #: The open DecisionRequest, re-sent after a rejoin.
        self.open_request: pb.PlayResponse | None = None
        self.last_answered_id = 0
        #: Events not yet delivered; they travel with the next message to this seat.
        self.undelivered: list[pb.Event] = []
        #: One request message per seat, rewritten for each decision (it is serialized when
        #: sent, and the next decision comes only after the answer to this one).
        self.request = pb.PlayResponse()
        self.encoder = ObservationEncoder(game, self.request.decision.observation)
        self.process: asyncio.subprocess.Process | None = None
        self.stderr_tail = b""
        self._pings: dict[int, float] = {}

    @property
    def joined(self) -> bool:
        return self.ever_joined.is_set()

    def attach(self) -> tuple[int, asyncio.Queue[pb.PlayResponse | None]]:
        """A (re)joined stream takes over the seat; the previous stream, if any, is closed."""
        if self._outbox is not None:
            self._outbox.put_nowait(None)
        self.stream_generation += 1
        self._outbox = asyncio.Queue()
        self.connected = True
        self.ever_joined.set()
        self.inbox.put_nowait(
            Incoming("attached", time.monotonic(), generation=self.stream_generation)
        )
        return self.stream_generation, self._outbox

    def detach(self, generation: int, half_closed: bool = False) -> None:
        """The stream of ``generation`` can no longer answer (ignored if a newer one took over).

        A half-closed stream (the bot finished sending) can still be written to, so it keeps
        its outbox and still receives MatchOver; a broken stream loses it.
        """
        if generation != self.stream_generation:
            return
        if self.connected:
            self.connected = False
            self.inbox.put_nowait(Incoming("detached", time.monotonic(), generation=generation))
        if not half_closed:
            self._outbox = None

    def send(self, message: pb.PlayResponse) -> None:
        """Queue a message for the current stream (dropped while disconnected)."""
        if self._outbox is not None:
            self._outbox.put_nowait(message)

    def close_stream(self) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait(None)

    def ping(self) -> None:
        nonce = secrets.randbits(48)
        self._pings[nonce] = time.monotonic()
        self.send(pb.PlayResponse(ping=pb.Ping(nonce=nonce)))

    def pong(self, nonce: int, at: float) -> None:
        sent = self._pings.pop(nonce, None)
        if sent is not None:
            self.round_trips_us.append(int((at - sent) * 1e6))

    def flush_events(self) -> None:
        """Deliver pending events now (before MatchOver, or to a seat not asked for a while)."""
        if self.undelivered:
            self.send(pb.PlayResponse(events=pb.EventBatch(events=self.undelivered)))
            self.undelivered = []


def describe_exit(returncode: int | None, stderr_tail: bytes) -> str:
    tail = stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
    text = f"bot process exited with code {returncode}"
    return text + (": " + " | ".join(tail) if tail else "")


def mean(values: list[int]) -> int:
    return int(sum(values) / len(values)) if values else 0
