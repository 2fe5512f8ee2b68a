"""A bot on a ladder: keep a Seek stream open, play every match it is given, keep seeking.

``seek_and_play`` is the whole loop: one Seek stream with the bot's token, up to
``concurrency`` matches at once (each a fresh bot from ``make_bot``, played with ``play``
over Referee/Play on the same address), and a reconnect with backoff when the ladder is
unreachable. It stops when the ladder refuses the bot (paused, revoked, unknown token: a
``BotError`` saying why), when cancelled, or once ``max_matches`` have been given (it stops
seeking then and returns when they are over).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc

from client_sdk.bot import Bot
from client_sdk.runner import BotError, join_backoff, open_channel, play
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


@dataclass(slots=True)
class LadderRun:
    """What one ``seek_and_play`` did (for logs and tests)."""

    bot_id: str = ""
    results: list[pb.MatchOver] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0


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
) -> LadderRun:
    run = LadderRun()
    playing: set[asyncio.Task[None]] = set()
    started = 0
    #: Set once ``max_matches`` have been given: the Seek stream closes at once, so the ladder
    #: assigns no match that the bot would leave unplayed (a no-show counts as a failure).
    enough = asyncio.Event()

    async def play_one(ticket: str) -> None:
        try:
            result = await play(make_bot(), address, ticket, tls_ca=tls_ca)
        except BotError as exc:
            run.errors.append(str(exc))
        else:
            run.results.append(result)
            if on_result is not None:
                on_result(result)

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
                            task = asyncio.ensure_future(play_one(message.assignment.ticket))
                            playing.add(task)
                            task.add_done_callback(playing.discard)
                            if max_matches is not None and started >= max_matches:
                                enough.set()
            except grpc.aio.AioRpcError as exc:
                if exc.code() in FINAL:
                    raise BotError(f"the ladder refused the bot: {exc.details()}") from None
                failures += 1
                run.reconnects += 1
                await asyncio.sleep(join_backoff(failures))
        if playing:
            await asyncio.gather(*playing)
    finally:
        for task in playing:
            task.cancel()
    return run


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
