"""Connect a bot to a referee and play one seat to the end, rejoining after a dropped stream.

from client_sdk import Bot, run_bot
result = run_bot(MyBot(), address="127.0.0.1:50051", ticket="...")

A referee that speaks TLS needs the CA that signed its certificate: ``tls_ca=`` PEM bytes, or
for ``run_bot`` a PEM file named by ``KASSEN_TLS_CA``. Without one the channel is plaintext.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, cast

import grpc

from client_sdk.bot import AsyncBot, Bot, Request
from client_sdk.ticket import TicketError, seat_ticket
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

#: gRPC codes after which rejoining cannot help.
FATAL = {
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.UNIMPLEMENTED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
#: Codes of a join refused before the referee answered it (a burst of joins, a referee that
#: is starting or busy): the join is tried again after a pause (docs/protocol.md). Under a
#: burst gRPC also ends streams CANCELLED, or INTERNAL when it masks the status
#: (grpc/grpc#36066), before the referee has read their Join (tests/fuzz/test_join_burst.py).
REFUSED = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.INTERNAL,
}
#: Refused joins tried again, and the pause before each: doubling from the first, at most
#: the cap, each drawn between half and all of it (jitter: a burst of bots does not come
#: back all at once).
JOIN_RETRIES = 6
JOIN_BACKOFF_S = 0.1
JOIN_BACKOFF_CAP_S = 2.0


def join_backoff(attempt: int, draw: random.Random | None = None) -> float:
    """The pause before the ``attempt``-th retry of a refused join (1, 2, ...)."""
    ceiling = min(JOIN_BACKOFF_CAP_S, JOIN_BACKOFF_S * 2.0 ** (attempt - 1))
    fraction = draw.random() if draw is not None else random.random()
    return ceiling * (0.5 + 0.5 * fraction)


#: The environment variable naming the PEM file of the CA to trust (see run_bot).
TLS_CA_ENV = "KASSEN_TLS_CA"
PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"


#: The notice a stream receives when another stream joined with the same ticket.
DISPLACED = "displaced"


class BotError(RuntimeError):
    """The referee refused the bot (wrong ticket, malformed messages) or could not be reached."""


def request_from_proto(game: str, message: pb.DecisionRequest) -> Request:
    return Request(
        request_id=message.request_id,
        game=game,
        seat=message.seat,
        kind=message.kind,
        options=tuple(wire.option_from_proto(o) for o in message.options),
        observation=wire.observation_from_proto(message.observation),
        decision_ms=message.clock.decision_ms,
        bank_ms=message.clock.bank_ms,
        events=tuple(message.events),
    )


async def _answer(bot: Bot, request: Request) -> int:
    if isinstance(bot, AsyncBot):
        return await bot.choose_async(request)
    return bot.choose(request)


class _Stream:
    """What one stream got to: whether the referee answered its Join, and the match's id
    (from its Joined)."""

    joined = False
    match_id = ""


async def _play_stream(
    bot: Bot, stub: rpc.RefereeStub, ticket: str, stream: _Stream
) -> pb.MatchOver | None:
    """One stream: join, answer until MatchOver. Returns None if the stream dropped."""
    call = cast("grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse]", stub.Play())  # type: ignore[call-arg]
    await call.write(
        pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name=getattr(bot, "name", "bot")))
    )
    game = ""
    answered = 0  # the stale rule: within one stream, answer only newer requests
    while True:
        read = await call.read()
        if read is grpc.aio.EOF:
            return None
        message = cast(pb.PlayResponse, read)
        which = message.WhichOneof("message")
        if which == "decision":
            if message.decision.request_id <= answered:
                continue  # stale or repeated: already answered on this stream
            answered = message.decision.request_id
            started = time.perf_counter()
            index = await _answer(bot, request_from_proto(game, message.decision))
            think_us = int((time.perf_counter() - started) * 1e6)
            answer = pb.Answer(
                request_id=message.decision.request_id, option_index=index, think_time_us=think_us
            )
            try:
                await call.write(pb.PlayRequest(answer=answer))
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
                # The referee ended this stream while the bot thought: what it said last (a
                # "displaced" notice, MatchOver) may still be unread, and decides what follows.
                return await _last_words(bot, call)
        elif which == "notice" and message.notice.code == DISPLACED:
            # Another connection holds this seat now: rejoining would only take it back.
            call.cancel()
            raise BotError(f"displaced: {message.notice.message}")
        elif which == "ping":
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
        elif which == "joined":
            stream.joined = True
            stream.match_id = message.joined.match_id
            game = message.joined.setup.game
            bot.on_joined(message.joined)
        elif which == "events":
            bot.on_events(tuple(message.events.events))
        elif which == "match_over":
            if message.match_over.events:
                bot.on_events(tuple(message.match_over.events))
            bot.on_match_over(message.match_over)
            await call.done_writing()
            over: pb.MatchOver = message.match_over
            return over


async def _last_words(bot: Bot, call: Any) -> pb.MatchOver | None:
    """What an ended stream still holds: MatchOver (returned), a "displaced" notice
    (``BotError``), or nothing (None: the stream dropped, the seat may rejoin)."""
    while True:
        try:
            read = await call.read()
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            return None
        if read is grpc.aio.EOF:
            return None
        message = cast(pb.PlayResponse, read)
        which = message.WhichOneof("message")
        if which == "notice" and message.notice.code == DISPLACED:
            raise BotError(f"displaced: {message.notice.message}")
        if which == "match_over":
            if message.match_over.events:
                bot.on_events(tuple(message.match_over.events))
            bot.on_match_over(message.match_over)
            over: pb.MatchOver = message.match_over
            return over


async def _finished_result(stub: rpc.RefereeStub, match_id: str) -> pb.MatchOver | None:
    """The result of ``match_id`` if the referee says it is finished, else None."""
    try:
        call = stub.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=10.0)
        found = await cast("Awaitable[pb.GetMatchResponse]", call)
    except grpc.aio.AioRpcError:
        return None
    if found.match.status != "finished" or not found.match.HasField("result"):
        return None
    result: pb.MatchOver = found.match.result
    return result


def open_channel(
    address: str, tls_ca: bytes | None = None, tls: bool | None = None
) -> grpc.aio.Channel:
    """A channel to the referee: TLS trusting ``tls_ca`` (PEM) if given, plaintext otherwise;
    ``tls=True`` without a CA: TLS trusting the system's roots."""
    if tls is None:
        tls = tls_ca is not None
    if not tls:
        return grpc.aio.insecure_channel(address)
    return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=tls_ca))


def read_tls_ca(path: str) -> bytes:
    """The PEM certificates in ``path``; ``BotError`` names the file if it holds none."""
    try:
        pem = Path(path).read_bytes()
    except OSError as exc:
        raise BotError(f"cannot read the TLS CA file {path}: {exc.strerror or exc}") from None
    if PEM_CERTIFICATE not in pem:
        raise BotError(f"the TLS CA file {path} holds no PEM certificate")
    return pem


def tls_ca_from_env() -> bytes | None:
    """The CA named by ``KASSEN_TLS_CA``, or None (plaintext) if it is unset or empty."""
    path = os.environ.get(TLS_CA_ENV, "")
    return read_tls_ca(path) if path else None


async def play(
    bot: Bot,
    address: str,
    ticket: str,
    *,
    tls_ca: bytes | None = None,
    tls: bool | None = None,
    rejoins: int = 5,
    join_retries: int = JOIN_RETRIES,
) -> pb.MatchOver:
    """Play the seat of ``ticket`` to the end; rejoin up to ``rejoins`` times if the stream drops.

    A join the referee refuses before answering it (UNAVAILABLE, RESOURCE_EXHAUSTED) is tried
    again up to ``join_retries`` times, after growing pauses with jitter (``join_backoff``).
    ``tls_ca``: PEM of the CA that signed the referee's certificate (TLS); None: plaintext
    (``tls=True``: TLS with the system's roots).
    """
    attempts = 0
    refused = 0
    match_id = ""  # known once a stream was joined: a refused rejoin asks for the result
    async with open_channel(address, tls_ca, tls) as channel:
        stub = rpc.RefereeStub(channel)
        while True:
            stream = _Stream()
            try:
                result = await _play_stream(bot, stub, ticket, stream)
            except grpc.aio.AioRpcError as exc:
                match_id = stream.match_id or match_id
                if match_id and exc.code() is grpc.StatusCode.PERMISSION_DENIED:
                    # The ticket died with the match while this seat was reconnecting: the
                    # result is public.
                    over = await _finished_result(stub, match_id)
                    if over is not None:
                        bot.on_match_over(over)
                        return over
                if not stream.joined and exc.code() in REFUSED:
                    refused += 1
                    if refused > join_retries:
                        raise BotError(
                            f"the referee refused to join {refused} times "
                            f"({exc.code().name}: {exc.details()})"
                        ) from None
                    await asyncio.sleep(join_backoff(refused))
                    continue
                if exc.code() in FATAL:
                    raise BotError(f"{exc.code().name}: {exc.details()}") from None
                result = None
                error = f"{exc.code().name}: {exc.details()}"
            else:
                match_id = stream.match_id or match_id
                error = "the stream ended before the match did"
            if result is not None:
                return result
            attempts += 1
            if attempts > rejoins:
                raise BotError(f"gave up after {rejoins} rejoins ({error})")
            await asyncio.sleep(min(0.05 * 2**attempts, 2.0))


def run_bot(
    bot: Bot,
    address: str | None = None,
    ticket: str | None = None,
    *,
    tls_ca: bytes | None = None,
    tls: bool | None = None,
    rejoins: int = 5,
    join_retries: int = JOIN_RETRIES,
) -> pb.MatchOver:
    """Blocking: play one seat. Address and TLS CA default to KASSEN_ADDRESS and the file
    named by KASSEN_TLS_CA; the ticket to the file named by KASSEN_TICKET_FILE (how a
    launched bot gets it), else KASSEN_TICKET (client_sdk/ticket.py)."""
    address = address or os.environ.get("KASSEN_ADDRESS", "")
    if not address:
        raise BotError("no referee address (set KASSEN_ADDRESS)")
    if not ticket:
        try:
            ticket = seat_ticket()
        except TicketError as exc:
            raise BotError(str(exc)) from None
    if tls_ca is None:
        tls_ca = tls_ca_from_env()
    return asyncio.run(
        play(bot, address, ticket, tls_ca=tls_ca, rejoins=rejoins, join_retries=join_retries)
    )
