"""Connect a bot to a referee and play one seat to the end, rejoining after a dropped stream.

from client_sdk import Bot, run_bot
result = run_bot(MyBot(), address="127.0.0.1:50051", ticket="...")
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import cast

import grpc

from client_sdk.bot import AsyncBot, Bot, Request
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


async def _play_stream(bot: Bot, stub: rpc.RefereeStub, ticket: str) -> pb.MatchOver | None:
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
            await call.write(pb.PlayRequest(answer=answer))
        elif which == "ping":
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
        elif which == "joined":
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


async def play(bot: Bot, address: str, ticket: str, *, rejoins: int = 5) -> pb.MatchOver:
    """Play the seat of ``ticket`` to the end; rejoin up to ``rejoins`` times if the stream drops."""
    attempts = 0
    async with grpc.aio.insecure_channel(address) as channel:
        stub = rpc.RefereeStub(channel)
        while True:
            try:
                result = await _play_stream(bot, stub, ticket)
            except grpc.aio.AioRpcError as exc:
                if exc.code() in FATAL:
                    raise BotError(f"{exc.code().name}: {exc.details()}") from None
                result = None
                error = f"{exc.code().name}: {exc.details()}"
            else:
                error = "the stream ended before the match did"
            if result is not None:
                return result
            attempts += 1
            if attempts > rejoins:
                raise BotError(f"gave up after {rejoins} rejoins ({error})")
            await asyncio.sleep(min(0.05 * 2**attempts, 2.0))


def run_bot(
    bot: Bot, address: str | None = None, ticket: str | None = None, *, rejoins: int = 5
) -> pb.MatchOver:
    """Blocking: play one seat. Address and ticket default to KASSEN_ADDRESS / KASSEN_TICKET."""
    address = address or os.environ.get("KASSEN_ADDRESS", "")
    ticket = ticket or os.environ.get("KASSEN_TICKET", "")
    if not address or not ticket:
        raise BotError("no referee address or seat ticket (set KASSEN_ADDRESS and KASSEN_TICKET)")
    return asyncio.run(play(bot, address, ticket, rejoins=rejoins))
