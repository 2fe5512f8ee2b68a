"""The ``kassen.v1.Referee`` gRPC service (grpc.aio): the wire face of ``server.referee``."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from games import InvalidConfig, UnknownGame, games
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.limits import InvalidSetting, settings_from_request
from server.referee import Referee, TooManyMatches
from server.replay import replay_record
from server.results import Reason
from server.seats import Incoming, RemoteSeat
from server.settings import DEFAULT_MAX_DECISIONS, MAX_WATCH_DELAY_MS
from server.spectators import watch

log = structlog.get_logger("kassen.service")
Context = grpc.aio.ServicerContext[Any, Any]

#: How long a new stream may take to send its Join.
JOIN_MESSAGE_TIMEOUT_S = 10.0


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
        if first is grpc.aio.EOF or first.WhichOneof("message") != "join":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be Join")
        found = self.referee.seat_for(first.join.ticket)
        if found is None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "unknown or expired seat ticket")
        match, seat = found
        if first.join.bot_name and not seat.bot_name:
            seat.bot_name = first.join.bot_name[:100]
        generation, done = await seat.take_over(context)
        match.log.debug("seat_joined", seat=seat.index, generation=generation)
        joined = pb.Joined(
            match_id=match.id,
            seat=seat.index,
            setup=match.setup_proto(),
            time_control=pb.TimeControl(
                decision_ms=match.settings.time_control.decision_ms,
                bank_ms=match.settings.time_control.bank_ms,
            ),
        )
        await seat.send(pb.PlayResponse(joined=joined))
        reader = asyncio.get_running_loop().create_task(self._read(context, seat, generation))
        try:
            await done.wait()  # replaced by a rejoin, broken, or MatchOver was sent
        finally:
            reader.cancel()
            seat.detach(generation)

    async def _read(self, context: Context, seat: RemoteSeat, generation: int) -> None:
        """Feed what the bot sends into the seat's inbox; anything invalid is a violation."""
        inbox = seat.inbox
        while True:
            try:
                message = await context.read()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken connection or unreadable bytes end this stream
                if not isinstance(exc, grpc.aio.AioRpcError):
                    detail = f"unreadable message: {exc}"
                    inbox.put_nowait(
                        Incoming(
                            "violation",
                            time.monotonic(),
                            reason=Reason.MALFORMED_MESSAGE,
                            detail=detail,
                        )
                    )
                return
            if message is grpc.aio.EOF:
                # The bot half-closed: it will send nothing more, but it can still hear MatchOver.
                seat.detach(generation, half_closed=True)
                return
            now = time.monotonic()
            which = message.WhichOneof("message")
            if which == "answer":
                inbox.put_nowait(Incoming("answer", now, answer=message.answer))
            elif which == "pong":
                seat.pong(message.pong.nonce, now)
            else:
                detail = (
                    "a second Join on the same stream"
                    if which == "join"
                    else "a message with no content"
                )
                inbox.put_nowait(
                    Incoming("violation", now, reason=Reason.MALFORMED_MESSAGE, detail=detail)
                )

    # ------------------------------------------------------------------ match management

    async def CreateMatch(
        self, request: pb.CreateMatchRequest, context: Context
    ) -> pb.CreateMatchResponse:
        try:
            settings = settings_from_request(request)
            match, tickets = self.referee.create_match(settings)
        except (UnknownGame, InvalidConfig, InvalidSetting) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except TooManyMatches as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        return pb.CreateMatchResponse(match_id=match.id, tickets=tickets, setup=match.setup_proto())

    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.GetMatchResponse:
        match = self.referee.matches.get(request.match_id)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        return pb.GetMatchResponse(match=match.summary())

    async def ListMatches(
        self, request: pb.ListMatchesRequest, context: Context
    ) -> pb.ListMatchesResponse:
        limit = request.limit or 100
        newest = list(self.referee.matches.values())[::-1][:limit]
        return pb.ListMatchesResponse(matches=[m.summary() for m in newest])

    async def Watch(
        self, request: pb.WatchRequest, context: Context
    ) -> AsyncIterator[pb.WatchResponse]:
        match = self.referee.matches.get(request.match_id)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if request.delay_ms > MAX_WATCH_DELAY_MS:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"delay_ms = {request.delay_ms} is above its limit {MAX_WATCH_DELAY_MS}",
            )
        async for update in watch(match, request.delay_ms):
            yield update

    async def GetReplay(
        self, request: pb.GetReplayRequest, context: Context
    ) -> pb.GetReplayResponse:
        match = self.referee.matches.get(request.match_id)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
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


__all__ = ["DEFAULT_MAX_DECISIONS", "RefereeService"]
