"""The ``kassen.v1.Referee`` gRPC service (grpc.aio): the wire face of ``server.referee``."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from google.protobuf.message import DecodeError, Message

from games import InvalidConfig, UnknownGame, games
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.limits import InvalidSetting, settings_from_request
from server.match import Match
from server.referee import Referee, Stopping, TooManyMatches
from server.replay import replay_record
from server.results import Reason
from server.seats import Receipt, RemoteSeat
from server.settings import DEFAULT_MAX_DECISIONS, MAX_WATCH_DELAY_MS
from server.spectators import watch_bytes
from server.store import MAX_LIST, StoredMatch, StoreUnavailable
from server.watcher_limits import TooManyWatchers

log = structlog.get_logger("kassen.service")
Context = grpc.aio.ServicerContext[Any, Any]

#: How long a new stream may take to send its Join.
JOIN_MESSAGE_TIMEOUT_S = 10.0
#: How long writing MatchOver to a stream that rejoined as the match ended may take.
LATE_JOIN_WRITE_S = 1.0
#: How long a stream stays open after its last message (MatchOver, a "displaced" notice) for
#: the bot to read it: a grpc.aio client that reads only after the RPC has ended gets EOF
#: instead of the messages still unread, so the stream ends when the bot half-closes or
#: cancels, or after this long.
LAST_WORDS_S = 2.0
#: Call metadata of a trusted relay of ``Watch`` (``ServerSettings.relay_token``).
RELAY_HEADER = "x-kassen-relay"


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A request whose bytes are not the message they should be. gRPC would answer UNKNOWN
    with a parser's exception; the handlers answer ``INVALID_ARGUMENT`` (or, on a seat's
    stream after its Join, ``MALFORMED_MESSAGE``) instead."""

    what: str
    error: str

    def describe(self) -> str:
        return f"unreadable {self.what}: {self.error}"


def lenient(message: type[Message]) -> Callable[[bytes], Message | Unreadable]:
    """A request deserializer that returns ``Unreadable`` instead of raising."""

    def parse(data: bytes) -> Message | Unreadable:
        try:
            return message.FromString(data)
        except (DecodeError, RuntimeWarning, ValueError) as exc:
            return Unreadable(message.DESCRIPTOR.name, str(exc) or type(exc).__name__)

    return parse


def refuse_unreadable(
    method: Callable[[Any, Context], Awaitable[Any]],
) -> Callable[[Any, Context], Awaitable[Any]]:
    """A unary handler that answers an ``Unreadable`` request with INVALID_ARGUMENT."""

    async def guarded(request: Any, context: Context) -> Any:
        if isinstance(request, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.describe())
        return await method(request, context)

    return guarded


def serialize_play(message: pb.PlayResponse | bytes) -> bytes:
    """A Play stream's message; the match writes its DecisionRequests already encoded
    (kassen.wire.assemble), everything else is a PlayResponse."""
    return message if isinstance(message, bytes) else message.SerializeToString()


def serialize_watch(message: pb.WatchResponse | bytes) -> bytes:
    """A Watch stream's message: joined from parts encoded once (server/public_record.py)."""
    return message if isinstance(message, bytes) else message.SerializeToString()


def play_handler(servicer: RefereeService) -> grpc.RpcMethodHandler[Any, Any]:
    return grpc.stream_stream_rpc_method_handler(
        servicer.Play,
        request_deserializer=lenient(pb.PlayRequest),
        response_serializer=serialize_play,
    )


def add_referee_service(servicer: RefereeService, server: grpc.aio.Server) -> None:
    """Register the Referee service as ``add_RefereeServicer_to_server`` does, with request
    deserializers that turn bytes that are not a message into ``Unreadable``."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "Play": play_handler(servicer),
        "Watch": grpc.unary_stream_rpc_method_handler(
            servicer.watch_checked,
            request_deserializer=lenient(pb.WatchRequest),
            response_serializer=serialize_watch,
        ),
    }
    unary: list[tuple[str, type[Message], Callable[[Any, Context], Awaitable[Any]]]] = [
        ("CreateMatch", pb.CreateMatchRequest, servicer.CreateMatch),
        ("GetMatch", pb.GetMatchRequest, servicer.GetMatch),
        ("ListMatches", pb.ListMatchesRequest, servicer.ListMatches),
        ("GetReplay", pb.GetReplayRequest, servicer.GetReplay),
        ("ListGames", pb.ListGamesRequest, servicer.ListGames),
    ]
    for name, request, method in unary:
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            refuse_unreadable(method),
            request_deserializer=lenient(request),
            response_serializer=lambda response: response.SerializeToString(),
        )
    service = pb.DESCRIPTOR.services_by_name["Referee"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)


def add_seat_service(servicer: RefereeService, server: grpc.aio.Server) -> None:
    """Register ``Referee/Play`` alone (the sandboxes' socket: server/sandbox/seat_socket.py);
    every other method of the service is UNIMPLEMENTED there."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "Play": play_handler(servicer),
    }
    service = pb.DESCRIPTOR.services_by_name["Referee"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)


class RefereeService(rpc.RefereeServicer):
    def __init__(self, referee: Referee) -> None:
        self.referee = referee

    # ------------------------------------------------------------------ Play

    # The generated servicer types Play as a response iterator; this handler writes through
    # the context instead (the match writes straight to the stream), so it returns None.
    async def Play(  # type: ignore[override]
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: Context
    ) -> None:
        """One seat's stream. The match writes to ``context``; this reads what the bot sends."""
        try:
            first = await asyncio.wait_for(context.read(), JOIN_MESSAGE_TIMEOUT_S)
        except TimeoutError:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "send Join first")
        if isinstance(first, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, first.describe())
        if first is grpc.aio.EOF or first.WhichOneof("message") != "join":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be Join")
        found = self.referee.seat_for(first.join.ticket)
        if found is None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "unknown or expired seat ticket")
        match, seat = found
        if first.join.bot_name and not seat.bot_name:
            seat.bot_name = first.join.bot_name[:100]
        joined = pb.Joined(
            match_id=match.id,
            seat=seat.index,
            setup=match.setup_proto(),
            time_control=pb.TimeControl(
                decision_ms=match.settings.time_control.decision_ms,
                bank_ms=match.settings.time_control.bank_ms,
            ),
        )
        # Joined is written as the stream takes the seat: it is the stream's first message.
        taken = len(seat.takeovers)
        generation, done, accepted = await seat.take_over(context, pb.PlayResponse(joined=joined))
        if len(seat.takeovers) > taken:  # it displaced a stream that still held the seat
            match.log.warning(
                "seat_taken_over",
                seat=seat.index,
                before_decision=seat.takeovers[-1].before_decision,
            )
        if not accepted:
            # The match had ended when this stream joined: it hears the result and ends, and
            # the seat is never held by a stream nobody will close. (A stream that took the
            # seat hears MatchOver from the match, even if it ends right after.)
            if match.result is not None:
                with contextlib.suppress(Exception):
                    over = pb.PlayResponse(match_over=match.result_proto())
                    await asyncio.wait_for(context.write(over), LATE_JOIN_WRITE_S)
            return
        match.log.debug("seat_joined", seat=seat.index, generation=generation)
        reader = asyncio.get_running_loop().create_task(self._read(context, seat, generation))
        try:
            await done.wait()  # replaced by a rejoin, broken, MatchOver sent, or a flood
            if reader.done() and not reader.cancelled() and reader.result() is Receipt.FLOODED:
                await context.abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    "this seat sent far more messages than it was asked for: it fails FLOODED"
                    " and its stream is closed",
                )
            if not reader.done():  # the bot reads its last message, then closes its side
                await asyncio.wait({reader}, timeout=LAST_WORDS_S)
        finally:
            reader.cancel()
            seat.detach(generation)

    async def _read(self, context: Context, seat: RemoteSeat, generation: int) -> Receipt | None:
        """Judge what the bot sends (``RemoteSeat.receive``): nothing is queued beyond what
        the match needs, and a seat that floods has its stream ended."""
        while True:
            try:
                message = await context.read()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken connection ends this stream
                if not isinstance(exc, grpc.aio.AioRpcError):
                    seat.violate(
                        Reason.MALFORMED_MESSAGE, f"unreadable message: {exc}", time.monotonic()
                    )
                return None
            if message is grpc.aio.EOF:
                # The bot half-closed: it will send nothing more, but it can still hear MatchOver.
                seat.detach(generation, half_closed=True)
                return None
            if generation != seat.stream_generation or seat.closed:
                continue  # a displaced stream, or the match is over: nothing it says counts
            now = time.monotonic()
            if isinstance(message, Unreadable):
                seat.violate(Reason.MALFORMED_MESSAGE, message.describe(), now)
                continue
            receipt = seat.receive(message, now)
            if receipt is Receipt.DUPLICATE:
                await seat.send(
                    pb.PlayResponse(
                        notice=pb.Notice(
                            code="duplicate_answer",
                            message=f"request {message.answer.request_id} was already "
                            "answered; ignored",
                        )
                    )
                )
            elif receipt is Receipt.FLOODED:
                seat.detach(generation)  # the RPC ends; nothing more is read from it
                return receipt

    # ------------------------------------------------------------------ match management

    async def CreateMatch(
        self, request: pb.CreateMatchRequest, context: Context
    ) -> pb.CreateMatchResponse:
        try:
            settings = settings_from_request(request)
            match, tickets = self.referee.create_match(settings, caller=self.caller(context))
        except (UnknownGame, InvalidConfig, InvalidSetting) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except Stopping as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        except TooManyMatches as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        return pb.CreateMatchResponse(match_id=match.id, tickets=tickets, setup=match.setup_proto())

    def caller(self, context: Context) -> str:
        """Whose limits a new match counts against: the organiser when the referee has a
        token (every holder of the token is the organiser), otherwise the client's host."""
        if self.referee.settings.admin_token:
            return "the organiser"
        return peer_host(context.peer())

    async def find(self, match_id: str, context: Context) -> Match | StoredMatch | None:
        """The match, in memory or stored; UNAVAILABLE when the store does not answer."""
        try:
            return await self.referee.find(match_id)
        except StoreUnavailable as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
            raise  # not reached: abort raises

    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.GetMatchResponse:
        match = await self.find(request.match_id, context)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if isinstance(match, StoredMatch):
            return pb.GetMatchResponse(match=match.summary_proto())
        return pb.GetMatchResponse(match=match.summary())

    async def ListMatches(
        self, request: pb.ListMatchesRequest, context: Context
    ) -> pb.ListMatchesResponse:
        limit = min(request.limit or 100, MAX_LIST)
        try:
            newest = await self.referee.newest(limit)
        except StoreUnavailable as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        return pb.ListMatchesResponse(
            matches=[
                m.summary_proto() if isinstance(m, StoredMatch) else m.summary() for m in newest
            ]
        )

    def watcher(self, context: Context) -> str | None:
        """Whose spectator limit a Watch counts against: the client's host, or nobody's for a
        trusted relay (the call presents ``ServerSettings.relay_token``)."""
        token = self.referee.settings.relay_token
        if token:
            expected = token.encode()
            for key, value in context.invocation_metadata() or ():
                presented = value if isinstance(value, bytes) else str(value).encode()
                if key == RELAY_HEADER and hmac.compare_digest(presented, expected):
                    return None
        return self.client_host(context)

    def client_host(self, context: Context) -> str:
        """The host the call came from."""
        return peer_host(context.peer())

    async def watch_checked(self, request: pb.WatchRequest | Unreadable, context: Context) -> None:
        """``Watch``, answering unreadable bytes with INVALID_ARGUMENT."""
        if isinstance(request, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.describe())
        await self.Watch(request, context)

    # The generated servicer types Watch as yielding messages; this one writes them, encoded
    # (serialize_watch passes bytes through), to the stream itself, so that a spectator who
    # leaves is let go of at once: a handler that yields is suspended in gRPC's write when its
    # client cancels, and its cleanup would wait for the garbage collector.
    async def Watch(  # type: ignore[override]
        self, request: pb.WatchRequest, context: Context
    ) -> None:
        match = await self.find(request.match_id, context)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if isinstance(match, StoredMatch):
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"match {request.match_id!r} is over and archived: GetReplay has its record",
            )
            return
        if request.delay_ms > MAX_WATCH_DELAY_MS:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"delay_ms = {request.delay_ms} is above its limit {MAX_WATCH_DELAY_MS}",
            )
        caller = self.watcher(context)
        try:
            self.referee.watchers.admit(match.id, caller)
        except TooManyWatchers as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        updates = watch_bytes(match, request.delay_ms)
        try:
            async for update in updates:
                await context.write(update)
        finally:
            await updates.aclose()
            self.referee.watchers.release(match.id, caller)

    async def GetReplay(
        self, request: pb.GetReplayRequest, context: Context
    ) -> pb.GetReplayResponse:
        match = await self.find(request.match_id, context)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if isinstance(match, StoredMatch):
            if not match.revealed:
                await context.abort(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "the replay is published when the match's seed block is over",
                )
            return pb.GetReplayResponse(replay_json=match.replay_text())
        if match.result is None:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the match is not finished")
        if not match.seed_revealed:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                "the replay is published when the match's seed block is over",
            )
        return pb.GetReplayResponse(replay_json=json.dumps(replay_record(match)))

    async def ListGames(
        self, request: pb.ListGamesRequest, context: Context
    ) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(
            games=[
                pb.GameInfo(
                    name=g.name, title=g.title, variants=g.variants, player_counts=g.player_counts
                )
                for g in games().values()
            ]
        )


def peer_host(peer: str) -> str:
    """The host of a gRPC peer (``ipv4:127.0.0.1:5000`` -> ``127.0.0.1``, ``ipv6:[::1]:5000``
    -> ``::1``): one caller per host, whatever port each connection comes from."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6":
        return rest.rsplit(":", 1)[0].strip("[]")
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer or "unknown"


__all__ = ["DEFAULT_MAX_DECISIONS", "RefereeService"]
