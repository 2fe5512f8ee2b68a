"""A bot on a ladder: keep a Seek stream open, play every match it is given, keep seeking.

``seek_and_play`` is the whole loop: one Seek stream with the bot's token, up to
``concurrency`` matches at once (each a fresh bot from ``make_bot``, played with ``play``
over Referee/Play on the same address), and a reconnect with backoff when the ladder is
unreachable, closes the stream, or asks the bot to wait (``RESOURCE_EXHAUSTED``: it waits at
least as long as the ladder says). It stops when the ladder refuses the bot (paused, revoked,
unknown token: a ``BotError`` saying why), when cancelled, or once ``max_matches`` have been
given (it stops seeking then and returns when they are over).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc

from client_sdk.bot import Bot
from client_sdk.runner import BotError, open_channel, play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb

#: Refusals that no retry can fix.
FINAL = frozenset(
    {
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
    }
)
#: Reconnecting: the pause doubles from the first up to the cap, each drawn between half and
#: all of it (a ladder that restarts is not met by all its bots at once), and starts over
#: once a stream has worked (docs/protocol.md, "Ladder mode").
RECONNECT_S = 0.25
RECONNECT_CAP_S = 10.0
#: Trailing metadata of a Seek refused ``RESOURCE_EXHAUSTED``: milliseconds to wait.
RETRY_AFTER_KEY = "retry-after-ms"


def reconnect_backoff(attempt: int, draw: random.Random | None = None) -> float:
    """The pause before the ``attempt``-th reconnect in a row (1, 2, ...)."""
    ceiling = min(RECONNECT_CAP_S, RECONNECT_S * 2.0 ** (attempt - 1))
    fraction = draw.random() if draw is not None else random.random()
    return ceiling * (0.5 + 0.5 * fraction)


@dataclass(frozen=True, slots=True)
class Retry:
    """The Seek stream failed or ended and is opened again after ``delay_s``."""

    #: What happened, e.g. "cannot reach the ladder at 127.0.0.1:1 (...)".
    problem: str
    delay_s: float


@dataclass(slots=True)
class LadderMatch:
    """One match the ladder assigned to this bot, as the bot saw it."""

    assignment: lpb.Assignment
    #: The referee's MatchOver, or None when the bot could not play it (``error`` says why).
    result: pb.MatchOver | None = None
    error: str = ""

    @property
    def seat_result(self) -> pb.SeatResult | None:
        """This bot's own seat in the result: its rank, score and failure (``reason``)."""
        if self.result is None:
            return None
        for seat in self.result.seats:
            if seat.seat == self.assignment.seat:
                return seat
        return None

    @property
    def opponents(self) -> list[str]:
        """The names of the other seats' bots, in seat order."""
        if self.result is None:
            return []
        return [s.bot_name for s in self.result.seats if s.seat != self.assignment.seat]


@dataclass(slots=True)
class LadderRun:
    """What one ``seek_and_play`` did (for logs and tests)."""

    bot_id: str = ""
    results: list[pb.MatchOver] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    #: Every assigned match, in the order they ended.
    matches: list[LadderMatch] = field(default_factory=list)
    #: The ladder's ``MatchEnded`` messages received (a match that ends after the stream
    #: closed, e.g. the last of ``max_matches``, is not among them).
    ended: list[lpb.MatchEnded] = field(default_factory=list)


def referee_of(assignment: lpb.Assignment, ladder: str, tls_ca: bytes | None) -> tuple[str, bool]:
    """Where to play an assigned match, and whether with TLS: the referee the assignment
    names (a ladder with a referee fleet), else the ladder itself, as the bot reaches it."""
    if assignment.referee_address:
        return assignment.referee_address, assignment.referee_tls
    return ladder, tls_ca is not None


def bearer(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


async def seek_and_play(
    make_bot: Callable[[], Bot],
    address: str,
    token: str,
    *,
    concurrency: int = 1,
    max_matches: int | None = None,
    tls_ca: bytes | None = None,
    on_result: Callable[[pb.MatchOver], None] | None = None,
    on_match: Callable[[LadderMatch], None] | None = None,
    on_ended: Callable[[lpb.MatchEnded], None] | None = None,
    on_retry: Callable[[Retry], None] | None = None,
) -> LadderRun:
    """Play on the ladder at ``address`` until cancelled, refused, or ``max_matches`` played.

    Callbacks: ``on_match`` for each assigned match once it is over (with this bot's seat),
    ``on_result`` with its MatchOver, ``on_ended`` for each ``MatchEnded`` of the ladder (the
    bot's own seat reason and failure), ``on_retry`` before each reconnect (say it: a bot
    that cannot reach its ladder should not look idle).
    """
    run = LadderRun()
    playing: set[asyncio.Task[None]] = set()
    started = 0
    #: Set once ``max_matches`` have been given: the Seek stream closes at once, so the ladder
    #: assigns no match that the bot would leave unplayed (a no-show counts as a failure).
    enough = asyncio.Event()

    async def play_one(assignment: lpb.Assignment) -> None:
        played = LadderMatch(assignment)
        try:
            where, tls = referee_of(assignment, address, tls_ca)
            played.result = await play(make_bot(), where, assignment.ticket, tls_ca=tls_ca, tls=tls)
        except BotError as exc:
            played.error = str(exc)
            run.errors.append(str(exc))
        else:
            run.results.append(played.result)
            if on_result is not None:
                on_result(played.result)
        run.matches.append(played)
        if on_match is not None:
            on_match(played)

    def retry(problem: str, delay: float) -> float:
        run.reconnects += 1
        if on_retry is not None:
            on_retry(Retry(problem, delay))
        return delay

    failures = 0
    try:
        while not enough.is_set():
            try:
                async with open_channel(address, tls_ca) as channel:
                    # Never more at once than are still wanted: an assignment the bot would
                    # not play counts against it as a no-show.
                    wanted = concurrency if max_matches is None else max_matches - started
                    stream = lrpc.LadderStub(channel).Seek(
                        lpb.SeekRequest(concurrency=max(1, min(concurrency, wanted))),
                        metadata=bearer(token),
                    )
                    async for message in _messages(stream, enough):
                        failures = 0
                        if message.HasField("seeking"):
                            run.bot_id = message.seeking.bot_id
                        elif message.HasField("assignment"):
                            started += 1
                            task = asyncio.ensure_future(play_one(message.assignment))
                            playing.add(task)
                            task.add_done_callback(playing.discard)
                            if max_matches is not None and started >= max_matches:
                                enough.set()
                        elif message.HasField("match_ended"):
                            run.ended.append(message.match_ended)
                            if on_ended is not None:
                                on_ended(message.match_ended)
                if enough.is_set():
                    break
                # Ended with status OK: the ladder is stopping (or restarting).
                failures += 1
                await asyncio.sleep(
                    retry(
                        f"the ladder at {address} closed the Seek stream",
                        reconnect_backoff(failures),
                    )
                )
            except grpc.aio.AioRpcError as exc:
                if exc.code() in FINAL:
                    raise BotError(f"the ladder refused the bot: {exc.details()}") from None
                failures += 1
                delay = reconnect_backoff(failures)
                if exc.code() is grpc.StatusCode.RESOURCE_EXHAUSTED:
                    delay = max(delay, _retry_after(exc))
                    problem = f"the ladder at {address} asks to wait: {exc.details()}"
                elif exc.code() is grpc.StatusCode.UNAVAILABLE:
                    problem = f"cannot reach the ladder at {address} ({exc.details()})"
                else:
                    problem = (
                        f"the Seek stream to {address} failed ({exc.code().name}: {exc.details()})"
                    )
                await asyncio.sleep(retry(problem, delay))
        if playing:
            await asyncio.gather(*playing)
    finally:
        for task in playing:
            task.cancel()
    return run


def _retry_after(exc: grpc.aio.AioRpcError) -> float:
    """Seconds the ladder asked to wait (its ``retry-after-ms`` trailing metadata), or 0."""
    for key, value in exc.trailing_metadata() or ():
        if key == RETRY_AFTER_KEY:
            try:
                return max(0.0, int(value) / 1000)
            except (TypeError, ValueError):
                return 0.0
    return 0.0


async def _messages(
    stream: grpc.aio.UnaryStreamCall[lpb.SeekRequest, lpb.SeekResponse], done: asyncio.Event
) -> AsyncIterator[lpb.SeekResponse]:
    """The stream's messages until it ends or ``done`` is set (then the call is cancelled)."""
    stop = asyncio.ensure_future(done.wait())
    try:
        while True:
            read = asyncio.ensure_future(stream.read())
            await asyncio.wait({read, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not read.done():
                read.cancel()
                return
            message = read.result()
            if not isinstance(message, lpb.SeekResponse):  # grpc.aio.EOF: the stream ended
                return
            yield message
    finally:
        stop.cancel()
        stream.cancel()
