"""Adversarial bot clients, written directly against the raw ``Referee.Play`` stub.

Each bot plays one seat. A well-behaved ``FirstOptionBot`` answers index 0 of every
DecisionRequest, answers every Ping and returns the MatchOver. The others behave exactly like it
until their ``misbehave_at``-th distinct DecisionRequest, then do one bad thing (sleep past the
clock, answer out of range, answer the wrong request id, send an empty message, a second Join,
drop the stream, ...). Whatever happens, each bot returns a ``BotLog`` of what it saw.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

import grpc

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

if TYPE_CHECKING:
    Call: TypeAlias = grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse]
else:
    Call = grpc.aio.StreamStreamCall


@dataclass
class BotLog:
    """What a bot saw on all of its streams."""

    joined: list[pb.Joined] = field(default_factory=list)
    #: Every DecisionRequest received, in order, as (stream number, request).
    requests: list[tuple[int, pb.DecisionRequest]] = field(default_factory=list)
    notices: list[pb.Notice] = field(default_factory=list)
    match_over: pb.MatchOver | None = None
    #: Streams opened by the bot (1, or more after a rejoin).
    streams: int = 0
    #: A stream ended by the referee without a MatchOver.
    eof_without_match_over: bool = False
    #: The status of a stream that failed with a gRPC error.
    error: grpc.StatusCode | None = None
    error_details: str = ""
    #: The request ids this bot misbehaved on (or dropped its stream on).
    misbehaved_on: list[int] = field(default_factory=list)

    def request_ids(self, stream: int | None = None) -> list[int]:
        return [r.request_id for s, r in self.requests if stream is None or s == stream]


class Action(enum.Enum):
    """What a bot does after misbehaving."""

    CONTINUE = "continue"  # keep reading (and answering any later request) on this stream
    HOLD = "hold"  # keep reading and answering pings, but answer no more requests
    LEAVE = "leave"  # the stream was dropped: return at once
    REJOIN = "rejoin"  # the stream was dropped: open a new one with the same ticket


def answer(
    request: pb.DecisionRequest, index: int = 0, request_id: int | None = None
) -> pb.PlayRequest:
    rid = request.request_id if request_id is None else request_id
    return pb.PlayRequest(answer=pb.Answer(request_id=rid, option_index=index))


class FirstOptionBot:
    """Well behaved: answers option 0 of every request, every ping, and returns the MatchOver."""

    name = "first_option"

    def __init__(self, misbehave_at: int = 3) -> None:
        self.misbehave_at = misbehave_at
        self.log = BotLog()
        self._distinct: set[int] = set()
        self._misbehaved = False
        self.ticket = ""
        #: Set when the bot has misbehaved (tests wait on it to time a second action).
        self.misbehaved = asyncio.Event()

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        """The bad thing. The well-behaved bot simply answers."""
        await self.respond(call, request)
        return Action.CONTINUE

    async def respond(self, call: Call, request: pb.DecisionRequest) -> None:
        await call.write(answer(request))

    def join_request(self, ticket: str) -> pb.PlayRequest:
        return pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name=self.name, bot_version="test"))

    async def play(self, address: str, ticket: str) -> BotLog:
        """Play the seat to the end (or until the bot leaves); never raises for gRPC errors."""
        self.ticket = ticket
        action: Action | None = Action.REJOIN
        while action is Action.REJOIN:
            async with grpc.aio.insecure_channel(address) as channel:
                action = await self._stream(channel, ticket)
        return self.log

    async def _stream(self, channel: grpc.aio.Channel, ticket: str) -> Action | None:
        self.log.streams += 1
        stream = self.log.streams
        call = rpc.RefereeStub(channel).Play()
        answering = True
        try:
            await call.write(self.join_request(ticket))
            while True:
                message = await call.read()
                if not isinstance(message, pb.PlayResponse):  # grpc.aio.EOF
                    self.log.eof_without_match_over = True
                    return None
                which = message.WhichOneof("message")
                if which == "joined":
                    self.log.joined.append(message.joined)
                elif which == "ping":
                    await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
                elif which == "notice":
                    self.log.notices.append(message.notice)
                elif which == "match_over":
                    self.log.match_over = message.match_over
                    await call.done_writing()
                    return None
                elif which == "decision":
                    request = message.decision
                    self.log.requests.append((stream, request))
                    self._distinct.add(request.request_id)
                    if not answering:
                        continue
                    if not self._misbehaved and len(self._distinct) == self.misbehave_at:
                        self._misbehaved = True
                        self.log.misbehaved_on.append(request.request_id)
                        self.misbehaved.set()
                        action = await self.misbehave(call, request)
                        if action is Action.HOLD:
                            answering = False
                        elif action in (Action.LEAVE, Action.REJOIN):
                            call.cancel()
                            return action
                    else:
                        await self.respond(call, request)
        except grpc.aio.AioRpcError as exc:
            self.log.error = exc.code()
            self.log.error_details = exc.details() or ""
            return None
        except asyncio.InvalidStateError:  # wrote after the referee ended the stream
            self.log.eof_without_match_over = self.log.match_over is None
            return None


class SleeperBot(FirstOptionBot):
    """Sleeps past its clock instead of answering (then reads on, answering nothing)."""

    name = "sleeper"

    def __init__(self, sleep_s: float, misbehave_at: int = 3) -> None:
        super().__init__(misbehave_at)
        self.sleep_s = sleep_s

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await asyncio.sleep(self.sleep_s)
        return Action.HOLD


class IllegalBot(FirstOptionBot):
    """Answers the first option index that is out of range: len(options)."""

    name = "illegal"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await call.write(answer(request, index=len(request.options)))
        return Action.HOLD


class StaleBot(FirstOptionBot):
    """Answers a request id that is not open."""

    name = "stale"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await call.write(answer(request, request_id=request.request_id + 1000))
        return Action.HOLD


class DuplicateBot(FirstOptionBot):
    """Sends every correct answer twice (the copies must be ignored with a Notice)."""

    name = "duplicate"

    async def respond(self, call: Call, request: pb.DecisionRequest) -> None:
        await call.write(answer(request))
        await call.write(answer(request))

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await self.respond(call, request)
        return Action.CONTINUE


class EmptyMessageBot(FirstOptionBot):
    """Sends a PlayRequest with no oneof set instead of an answer."""

    name = "empty_message"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await call.write(pb.PlayRequest())
        return Action.HOLD


class SecondJoinBot(FirstOptionBot):
    """Sends a second Join on its stream instead of an answer."""

    name = "second_join"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await call.write(self.join_request(self.ticket))
        return Action.HOLD


class DisconnectBot(FirstOptionBot):
    """Cancels its stream when asked a decision and never comes back."""

    name = "disconnect"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        return Action.LEAVE


class RejoinBot(FirstOptionBot):
    """Cancels its stream when asked a decision, rejoins with the same ticket, plays on."""

    name = "rejoin"

    def __init__(self, misbehave_at: int = 3, pause_s: float = 0.05) -> None:
        super().__init__(misbehave_at)
        self.pause_s = pause_s

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        call.cancel()
        await asyncio.sleep(self.pause_s)  # let the referee see the stream drop
        return Action.REJOIN


class HalfCloseBot(FirstOptionBot):
    """Half-closes its stream (done_writing) when asked a decision and keeps reading."""

    name = "half_close"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        await call.done_writing()
        return Action.HOLD


class HoldBot(FirstOptionBot):
    """Stops answering (but keeps its stream open) at its ``misbehave_at``-th request."""

    name = "hold"

    async def misbehave(self, call: Call, request: pb.DecisionRequest) -> Action:
        return Action.HOLD


@dataclass(frozen=True)
class Refusal:
    """How the referee answered a lone Join (or other first message) on a fresh stream."""

    code: grpc.StatusCode | None
    details: str
    first_message: pb.PlayResponse | None


async def send_first(address: str, first: pb.PlayRequest) -> Refusal:
    """Open a Play stream, send one message and read the referee's reply (or its error)."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = rpc.RefereeStub(channel).Play()
        try:
            await call.write(first)
            message = await call.read()
        except grpc.aio.AioRpcError as exc:
            return Refusal(exc.code(), exc.details() or "", None)
        call.cancel()
        return Refusal(None, "", message if isinstance(message, pb.PlayResponse) else None)


async def join_with(address: str, ticket: str, bot_name: str = "intruder") -> Refusal:
    return await send_first(address, pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name=bot_name)))


__all__ = [
    "Action",
    "BotLog",
    "DisconnectBot",
    "DuplicateBot",
    "EmptyMessageBot",
    "FirstOptionBot",
    "HalfCloseBot",
    "HoldBot",
    "IllegalBot",
    "Refusal",
    "RejoinBot",
    "SecondJoinBot",
    "SleeperBot",
    "StaleBot",
    "join_with",
    "send_first",
]
