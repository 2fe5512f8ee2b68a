"""One worker of ``kassen serve --workers N``: every call about a match reaches the worker
that owns it.

The kernel spreads *connections* over the workers (SO_REUSEPORT); a match belongs to the
worker that created it, and its id and seat tickets say which (``w<i>-`` in front). A worker
serves the calls about its own matches with the normal ``RefereeService``; a call about
another worker's match it forwards, as raw bytes, to that worker's private unix socket:

- ``Play``: the first message (the Join) is read to find the owner; if another worker owns
  the ticket, that message and everything after it are relayed both ways untouched (no
  parsing), and the owner's status ends the client's stream;
- ``GetMatch``, ``GetReplay``, ``Watch``: by ``match_id``;
- ``ListMatches``: every worker's newest matches, merged by creation time;
- ``CreateMatch`` and ``ListGames``: served here.

The caller's metadata (the organiser token) goes along, with the client's host in
``x-kassen-forwarded-for``, which only the private socket trusts (``OwnerService``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

import grpc
import structlog
from google.protobuf.message import Message

from kassen.v1 import referee_pb2 as pb
from server.referee import Referee
from server.service import (
    JOIN_MESSAGE_TIMEOUT_S,
    Context,
    RefereeService,
    Unreadable,
    lenient,
    peer_host,
    refuse_unreadable,
)
from server.store import MAX_LIST, StoredMatch, StoreUnavailable

log = structlog.get_logger("kassen.workers")
SERVICE = pb.DESCRIPTOR.services_by_name["Referee"].full_name
#: The worker-to-worker call that ``ListMatches`` fans out (served on the private socket only).
NEWEST = "/kassen.workers.Owner/Newest"
#: The client's host, as the worker it connected to saw it (trusted on the private socket).
FORWARDED_FOR = "x-kassen-forwarded-for"
#: Its creation times, newest first, in the trailing metadata of ``NEWEST``.
CREATED_AT = "x-kassen-created-at"
#: How long a relayed seat stream the owner has ended waits for the seat to half-close it.
HALF_CLOSE_WAIT_S = 1.0
#: The most workers ``kassen serve --workers`` starts.
MAX_WORKERS = 64

_OWNER = re.compile(r"w(\d{1,2})-")
#: Metadata gRPC sets itself, and a forwarded-for the client may have sent: never copied
#: onto a forwarded call (the relay sets its own).
_OWN_HEADERS = ("user-agent", "te", "content-type", FORWARDED_FOR)


@dataclass(frozen=True, slots=True)
class WorkerSlot:
    """Worker ``index`` of ``count``; ``socket_dir`` holds every worker's private socket."""

    index: int
    count: int
    socket_dir: str

    @property
    def prefix(self) -> str:
        """What starts the ids and tickets this worker hands out."""
        return f"w{self.index}-"

    def socket(self, index: int) -> str:
        return "unix:" + os.path.join(self.socket_dir, f"worker-{index}.sock")

    def owner(self, identifier: str) -> int | None:
        """The other worker that owns a match id or ticket; None when it is this one's, or
        no worker's (an id from another run: the store may still know it)."""
        index = owner_index(identifier)
        return index if index is not None and index != self.index and index < self.count else None


def owner_index(identifier: str) -> int | None:
    """The worker a match id or ticket names (``w<i>-``), if any."""
    found = _OWNER.match(identifier)
    return None if found is None else int(found.group(1))


def _raw(message: Message | bytes) -> bytes:
    return message if isinstance(message, bytes) else message.SerializeToString()


def raw_bytes(data: bytes) -> bytes:
    return data


def forwarded_metadata(context: Context) -> tuple[tuple[str, str | bytes], ...]:
    """The caller's metadata (the organiser token among it) and host, for the owner."""
    kept = tuple(
        (key, value)
        for key, value in context.invocation_metadata() or ()
        if not key.startswith((":", "grpc-")) and key not in _OWN_HEADERS
    )
    return (*kept, (FORWARDED_FOR, peer_host(context.peer())))


class _OwnStream:
    """A ``Play`` context whose first message was read already (to route it): the normal
    handler reads it again from here, and parses what comes after as it would."""

    _NOTHING: Any = object()

    def __init__(self, context: Context, first: object) -> None:
        self._context = context
        self._first = first
        self._parse = lenient(pb.PlayRequest)

    async def read(self) -> object:
        first, self._first = self._first, self._NOTHING
        if isinstance(first, BaseException):
            raise first
        if first is not self._NOTHING:
            return first
        data = await self._context.read()
        return data if data is grpc.aio.EOF else self._parse(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class Router:
    """Channels to the other workers' private sockets (opened when first needed)."""

    def __init__(self, slot: WorkerSlot) -> None:
        self.slot = slot
        # No size limit of its own: what a client sends was bounded by the public port
        # (--max-message-bytes), and what the owner answers is bounded by the client's own
        # limit, as it would be without the relay.
        self._options = [
            ("grpc.max_receive_message_length", -1),
            ("grpc.max_send_message_length", -1),
        ]
        self._channels: dict[int, grpc.aio.Channel] = {}
        #: Play streams relayed to another worker, and served here (the benchmark's share);
        #: Watch streams relayed.
        self.forwarded_streams = 0
        self.own_streams = 0
        self.forwarded_watches = 0

    def channel(self, index: int) -> grpc.aio.Channel:
        if index not in self._channels:
            self._channels[index] = grpc.aio.insecure_channel(
                self.slot.socket(index), options=self._options
            )
        return self._channels[index]

    async def close(self) -> None:
        """Close the channels; log how many seat streams were relayed and served here."""
        log.info(
            "worker_streams",
            worker=self.slot.index,
            forwarded=self.forwarded_streams,
            own=self.own_streams,
            forwarded_watches=self.forwarded_watches,
        )
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()


def _pairs(metadata: Any) -> tuple[tuple[str, str | bytes], ...]:
    return tuple((key, value) for key, value in metadata or ())


async def relay_stream(
    channel: grpc.aio.Channel, method: str, data: bytes, context: Context
) -> None:
    """Relay a server-streaming call (its request ``data``, as raw bytes) to ``channel`` and
    every message back, then its status."""
    call = channel.unary_stream(
        method, request_serializer=raw_bytes, response_deserializer=raw_bytes
    )(data, metadata=forwarded_metadata(context))
    try:  # written here, not yielded: a client that leaves cancels the relayed call at once
        async for relayed in call:
            await context.write(relayed)
    except grpc.aio.AioRpcError as error:
        await relay_error(context, error)
    finally:
        call.cancel()


async def relay_error(context: Context, error: grpc.aio.AioRpcError) -> None:
    await context.abort(error.code(), error.details() or "", _pairs(error.trailing_metadata()))


class RoutingService:
    """The public face of one worker: the normal service for its own matches, the owner's
    private socket for the others'."""

    def __init__(self, service: RefereeService, router: Router) -> None:
        self.service = service
        self.router = router

    # ------------------------------------------------------------------ Play

    async def Play(self, request_iterator: object, context: Context) -> None:
        try:
            first: object = await asyncio.wait_for(context.read(), JOIN_MESSAGE_TIMEOUT_S)
        except TimeoutError as exc:  # the normal handler refuses it as it always does
            first = exc
        owner = None
        if isinstance(first, bytes):
            first = lenient(pb.PlayRequest)(first)
            if isinstance(first, pb.PlayRequest) and first.WhichOneof("message") == "join":
                owner = self.router.slot.owner(first.join.ticket)
        if owner is None:
            self.router.own_streams += 1
            await self.service.Play(cast(Any, None), cast(Context, _OwnStream(context, first)))
            return
        assert isinstance(first, pb.PlayRequest)
        self.router.forwarded_streams += 1
        await self._relay_stream(owner, first.SerializeToString(), context)

    async def _relay_stream(self, owner: int, first: bytes, context: Context) -> None:
        """Relay a seat's stream to its owner and back until the owner ends it.

        The owner may end the stream while a message of the seat is on its way (the seat's
        last answer ends the match): that write fails, and grpc.aio then reports the call as
        INTERNAL "Internal error from Core" in place of the owner's status (grpc/grpc#36066).
        So a failed write only stops the relay upward; the owner's messages (its MatchOver)
        are still relayed, and the stream then ends OK, as it did at the owner. The seat's
        stream ends once the seat has half-closed it (or after ``HALF_CLOSE_WAIT_S``): a
        status that overtook the seat's own last write would hide the MatchOver from it, by
        the same grpc.aio bug on the seat's side.
        """
        open_call = self.router.channel(owner).stream_stream(
            f"/{SERVICE}/Play", request_serializer=raw_bytes, response_deserializer=raw_bytes
        )
        call = open_call(metadata=forwarded_metadata(context))
        write_failed = False

        async def upstream() -> None:
            nonlocal write_failed
            data: bytes | object = first
            while data is not grpc.aio.EOF:
                if not write_failed:
                    try:
                        await call.write(cast(bytes, data))
                    except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
                        write_failed = True  # the owner has ended the stream
                try:
                    data = await context.read()
                except asyncio.CancelledError:
                    raise
                except Exception:  # the seat's connection broke: the owner hears it too
                    call.cancel()
                    return
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await call.done_writing()

        pump = asyncio.get_running_loop().create_task(upstream())
        try:
            try:
                async for data in call:
                    await context.write(data)
            except grpc.aio.AioRpcError as error:
                if not (write_failed and error.code() == grpc.StatusCode.INTERNAL):
                    await relay_error(context, error)
            await asyncio.wait({pump}, timeout=HALF_CLOSE_WAIT_S)
        finally:
            pump.cancel()
            call.cancel()

    # ------------------------------------------------------------------ by match id

    async def _by_id(
        self,
        method: str,
        request_type: type[Message],
        data: bytes,
        context: Context,
        local: Callable[[Any, Context], Awaitable[Any]],
    ) -> Message | bytes:
        request = lenient(request_type)(data)
        if isinstance(request, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.describe())
        owner = self.router.slot.owner(cast(Any, request).match_id)
        if owner is None:
            return cast(Message, await local(request, context))
        call = self.router.channel(owner).unary_unary(
            f"/{SERVICE}/{method}", request_serializer=raw_bytes, response_deserializer=raw_bytes
        )
        try:
            answer: bytes = await call(data, metadata=forwarded_metadata(context))
            return answer
        except grpc.aio.AioRpcError as error:
            await relay_error(context, error)
            raise  # not reached: abort raises

    async def GetMatch(self, data: bytes, context: Context) -> Message | bytes:
        return await self._by_id(
            "GetMatch", pb.GetMatchRequest, data, context, self.service.GetMatch
        )

    async def GetReplay(self, data: bytes, context: Context) -> Message | bytes:
        return await self._by_id(
            "GetReplay", pb.GetReplayRequest, data, context, self.service.GetReplay
        )

    async def Watch(self, data: bytes, context: Context) -> None:
        request = cast(pb.WatchRequest | Unreadable, lenient(pb.WatchRequest)(data))
        owner = (
            None if isinstance(request, Unreadable) else self.router.slot.owner(request.match_id)
        )
        if owner is None:
            await self.service.watch_checked(request, context)
            return
        self.router.forwarded_watches += 1
        await relay_stream(self.router.channel(owner), f"/{SERVICE}/Watch", data, context)

    # ------------------------------------------------------------------ every worker

    async def ListMatches(self, data: bytes, context: Context) -> pb.ListMatchesResponse:
        request = cast(pb.ListMatchesRequest | Unreadable, lenient(pb.ListMatchesRequest)(data))
        if isinstance(request, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.describe())
            raise AssertionError  # not reached: abort raises
        limit = min(request.limit or 100, MAX_LIST)
        slot = self.router.slot
        workers = [slot.index, *(i for i in range(slot.count) if i != slot.index)]
        try:
            found = await asyncio.gather(
                newest(self.service.referee, limit),
                *(self._newest_of(i, data, context) for i in workers[1:]),
            )
        except StoreUnavailable as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        except grpc.aio.AioRpcError as error:
            await relay_error(context, error)
        merged: dict[str, tuple[float, pb.MatchSummary]] = {}
        for worker, entries in zip(workers, found, strict=True):
            for created_at, summary in entries:
                # A finished match may come from its owner's memory and from the shared store
                # through another worker: the owner's copy wins.
                if summary.match_id not in merged or worker == owner_index(summary.match_id):
                    merged[summary.match_id] = (created_at, summary)
        ordered = sorted(merged.values(), key=lambda entry: entry[0], reverse=True)
        return pb.ListMatchesResponse(matches=[summary for _, summary in ordered[:limit]])

    async def _newest_of(
        self, index: int, data: bytes, context: Context
    ) -> list[tuple[float, pb.MatchSummary]]:
        call = self.router.channel(index).unary_unary(
            NEWEST,
            request_serializer=raw_bytes,
            response_deserializer=pb.ListMatchesResponse.FromString,
        )(data, metadata=forwarded_metadata(context))
        response = await call
        times = dict(await call.trailing_metadata() or ()).get(CREATED_AT, "")
        created = [float(t) for t in str(times).split(",") if t]
        return list(zip(created, response.matches, strict=True))


async def newest(referee: Referee, limit: int) -> list[tuple[float, pb.MatchSummary]]:
    """This worker's ``limit`` newest matches (in memory or stored), with creation times."""
    return [
        (m.created_at, m.summary_proto() if isinstance(m, StoredMatch) else m.summary())
        for m in await referee.newest(limit)
    ]


class OwnerService(RefereeService):
    """The normal service, on a worker's private socket: a call forwarded by another worker
    counts against the limits of the client's host that worker saw."""

    def caller(self, context: Context) -> str:
        if not self.referee.settings.admin_token:
            return self.client_host(context)
        return super().caller(context)

    def client_host(self, context: Context) -> str:
        for key, value in context.invocation_metadata() or ():
            if key == FORWARDED_FOR:
                return str(value)
        return super().client_host(context)

    async def Newest(self, request: pb.ListMatchesRequest, context: Context) -> Message:
        limit = min(request.limit or 100, MAX_LIST)
        try:
            entries = await newest(self.referee, limit)
        except StoreUnavailable as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        context.set_trailing_metadata(((CREATED_AT, ",".join(repr(t) for t, _ in entries)),))
        return pb.ListMatchesResponse(matches=[summary for _, summary in entries])


def add_owner_service(servicer: OwnerService, server: grpc.aio.Server) -> None:
    """The worker-to-worker call on the private socket (the Referee service is added apart)."""
    handler = grpc.unary_unary_rpc_method_handler(
        refuse_unreadable(servicer.Newest),
        request_deserializer=lenient(pb.ListMatchesRequest),
        response_serializer=_raw,
    )
    service, method = NEWEST.strip("/").split("/")
    handlers = {method: handler}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)


def add_routing_service(routing: RoutingService, server: grpc.aio.Server) -> None:
    """Register the Referee service of a worker's public port: what needs routing takes raw
    bytes (parsed once, here or by the owner); the rest is the normal service."""
    service = routing.service
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "Play": grpc.stream_stream_rpc_method_handler(
            routing.Play, request_deserializer=raw_bytes, response_serializer=_raw
        ),
        "Watch": grpc.unary_stream_rpc_method_handler(
            routing.Watch, request_deserializer=raw_bytes, response_serializer=_raw
        ),
    }
    by_id: list[tuple[str, Callable[[bytes, Context], Awaitable[Any]]]] = [
        ("GetMatch", routing.GetMatch),
        ("GetReplay", routing.GetReplay),
        ("ListMatches", routing.ListMatches),
    ]
    for name, routed in by_id:
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            routed, request_deserializer=raw_bytes, response_serializer=_raw
        )
    local: list[tuple[str, type[Message], Callable[[Any, Context], Awaitable[Any]]]] = [
        ("CreateMatch", pb.CreateMatchRequest, service.CreateMatch),
        ("ListGames", pb.ListGamesRequest, service.ListGames),
    ]
    for name, request, method in local:
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            refuse_unreadable(method),
            request_deserializer=lenient(request),
            response_serializer=_raw,
        )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)
