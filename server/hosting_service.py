"""``RefereeHost``: a referee hosts a coordinator's matches over gRPC (server/hosting.py).

``HostMatch`` is one server stream per match: ``started`` as soon as the match exists,
``alive`` every ``ALIVE_EVERY_S`` while it runs (so the coordinator can tell a silent,
unreachable referee from a long match), ``ended`` last. The stream is the match's lifeline
both ways: if it breaks before the end the coordinator voids the match, and the referee
aborts it (every seat told) because nobody is left to record it.

Under ``kassen serve --workers N`` the coordinator's connection lands on one worker, which
places the matches on every worker in turn (its own or, relayed as raw bytes, another's
private socket), so one coordinator connection uses all the workers.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import grpc
import structlog

from games import InvalidConfig
from kassen.v1 import fleet_pb2 as fpb
from server.forwarding import Router, raw_bytes, relay_stream
from server.hosting import CannotHost, Hosting, NoSandboxHere
from server.hosting_wire import end_to_proto, plan_from_proto
from server.limits import InvalidSetting, UnknownGame
from server.referee import Stopping, TooManyMatches
from server.service import Context, Unreadable, lenient

log = structlog.get_logger("kassen.hosting")
SERVICE = fpb.DESCRIPTOR.services_by_name["RefereeHost"].full_name
#: How often a hosted match says it is alive.
ALIVE_EVERY_S = 2.0


class HostingServicer:
    """Hosts matches on this process's referee; with ``router`` (a worker of several), the
    matches are spread over every worker in turn."""

    def __init__(self, hosting: Hosting, router: Router | None = None) -> None:
        self.hosting = hosting
        self.router = router
        self._turn = itertools.count()

    async def HostMatch(self, data: bytes, context: Context) -> None:
        router = self.router
        if router is not None:
            target = next(self._turn) % router.slot.count
            if target != router.slot.index:
                await relay_stream(router.channel(target), f"/{SERVICE}/HostMatch", data, context)
                return
        request = lenient(fpb.HostMatchRequest)(data)
        if isinstance(request, Unreadable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.describe())
        assert isinstance(request, fpb.HostMatchRequest)
        await self._host(request, context)

    async def _host(self, request: fpb.HostMatchRequest, context: Context) -> None:
        try:
            plan = plan_from_proto(request)
            hosted = self.hosting.host(plan)
        except NoSandboxHere as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        except (UnknownGame, InvalidConfig, InvalidSetting, CannotHost) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except Stopping as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        except TooManyMatches as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        try:
            await context.write(
                fpb.HostMatchResponse(
                    started=fpb.HostedMatchStarted(
                        match_id=hosted.match_id, tickets=hosted.tickets, setup=hosted.setup
                    )
                )
            )
            while True:
                done, _ = await asyncio.wait({hosted.ended}, timeout=ALIVE_EVERY_S)
                if done:
                    break
                alive = fpb.HostedMatchAlive(decisions=hosted.decisions())
                await context.write(fpb.HostMatchResponse(alive=alive))
            ended = end_to_proto(hosted.ended.result())
            await context.write(fpb.HostMatchResponse(ended=ended))
        finally:
            if not hosted.ended.done():
                log.warning("coordinator left a hosted match: aborted", match=hosted.match_id)
                hosted.abort()

    async def DescribeHost(self, data: bytes, context: Context) -> fpb.DescribeHostResponse:
        workers = self.router.slot.count if self.router is not None else 1
        return fpb.DescribeHostResponse(
            max_live_matches=self.hosting.referee.settings.max_live_matches * workers,
            runtimes=self.hosting.runtimes,
            workers=workers,
        )


def add_hosting_service(servicer: HostingServicer, server: grpc.aio.Server) -> str:
    """Register ``RefereeHost`` on ``server``; returns its full name (for reflection)."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "HostMatch": grpc.unary_stream_rpc_method_handler(
            servicer.HostMatch, request_deserializer=raw_bytes, response_serializer=_serialize
        ),
        "DescribeHost": grpc.unary_unary_rpc_method_handler(
            servicer.DescribeHost, request_deserializer=raw_bytes, response_serializer=_serialize
        ),
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)
    return SERVICE


def _serialize(message: Any) -> bytes:
    return message if isinstance(message, bytes) else bytes(message.SerializeToString())
