"""The Ladder service's calls for submitted bots: SubmitBot, ListVersions, GetBotLog and
PinVersion (``LadderServicer`` inherits them).

A bot's versions, logs and stderr tails are its owner's (the bot's token) and the
organiser's: nobody else is told anything about them, not even that they exist.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, TypeAlias

import grpc

from kassen.v1 import ladder_pb2 as lpb
from server.auth import presented_token
from tournament.ladder_service import versions
from tournament.ladder_service.registry import BotRecord, RegistryError
from tournament.ladder_service.service import LadderService
from tournament.ladder_service.submitted import (
    Header,
    SubmittedBots,
    TooManyUploads,
    UploadRefused,
)
from tournament.ladder_service.versions import Version

Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
MAX_CHUNK = 32 * 1024


class SubmissionCalls:
    service: LadderService

    async def _bot(self, context: Context) -> BotRecord:
        raise NotImplementedError

    async def _admin(self, context: Context) -> None:
        raise NotImplementedError

    def _is_admin(self, token: str) -> bool:
        raise NotImplementedError

    def _info(self, bot: BotRecord, private: bool) -> lpb.BotInfo:
        raise NotImplementedError

    async def SubmitBot(
        self, request_iterator: AsyncIterator[lpb.SubmitBotRequest], context: Context
    ) -> lpb.SubmitBotResponse:
        submitted = await self._submitted(context)
        bot = await self._bot(context)
        first = await anext(aiter(request_iterator), None)
        if first is None or first.WhichOneof("part") != "header":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "header: send it first")
        given = first.header
        header = Header(given.format, given.size, given.sha256, given.note)

        async def chunks() -> AsyncIterator[bytes]:
            async for part in request_iterator:
                if part.WhichOneof("part") != "chunk":
                    raise UploadRefused("header: sent twice")
                if len(part.chunk) > MAX_CHUNK:
                    raise UploadRefused(f"chunk: at most {MAX_CHUNK:,} bytes each")
                yield part.chunk

        try:
            version = await submitted.receive(bot, header, chunks())
        except TooManyUploads as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        except UploadRefused as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return lpb.SubmitBotResponse(
            version=version.number, state=version.state, runtime=version.runtime
        )

    async def ListVersions(
        self, request: lpb.ListVersionsRequest, context: Context
    ) -> lpb.ListVersionsResponse:
        submitted = await self._submitted(context)
        bot_id = await self._whose(request.bot_id, context)
        found = submitted.all_versions(bot_id)
        playing = versions.playing(found)
        return lpb.ListVersionsResponse(
            versions=[
                _version(v, playing is not None and v.number == playing.number) for v in found
            ]
        )

    async def GetBotLog(
        self, request: lpb.GetBotLogRequest, context: Context
    ) -> lpb.GetBotLogResponse:
        await self._submitted(context)
        bot_id = await self._whose(request.bot_id, context)
        engine, writer = self.service.engine, self.service.writer
        try:
            if request.match_id:
                text = await writer.call(versions.tail, engine, bot_id, request.match_id[:64])
                return lpb.GetBotLogResponse(stderr=text)
            if not request.version:
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT, "version or match_id: name one"
                )
            build, validation = await writer.call(versions.logs, engine, bot_id, request.version)
            matches = await writer.call(versions.tail_matches, engine, bot_id)
        except RegistryError as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        return lpb.GetBotLogResponse(build_log=build, validation_log=validation, match_ids=matches)

    async def PinVersion(
        self, request: lpb.PinVersionRequest, context: Context
    ) -> lpb.PinVersionResponse:
        submitted = await self._submitted(context)
        await self._admin(context)
        bot = self.service.bots.get(request.bot_id)
        if bot is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no bot {request.bot_id[:40]!r}")
        try:
            await submitted.pin(bot.id, request.version)
        except RegistryError as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        self.service.version += 1
        return lpb.PinVersionResponse(bot=self._info(bot, private=True))

    async def _submitted(self, context: Context) -> SubmittedBots:
        if self.service.submitted is None:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                "this ladder does not accept submitted bots ([submissions] enabled = false)",
            )
        return self.service.submitted

    async def _whose(self, bot_id: str, context: Context) -> str:
        """The bot a private read is about: the token's own bot, or (for the organiser's
        token, or any caller of a ladder without one) the one named."""
        token = presented_token(context.invocation_metadata() or ())
        own = self.service.bots.by_token(token) if token else None
        if own is not None and (not bot_id or bot_id == own.id):
            return own.id
        if not bot_id:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "this call needs the bot's token (metadata authorization: Bearer <token>)",
            )
        await self._admin(context)
        if self.service.bots.get(bot_id) is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no bot {bot_id[:40]!r}")
        return bot_id


def _version(version: Version, playing: bool) -> lpb.BotVersion:
    return lpb.BotVersion(
        number=version.number,
        state=version.state,
        summary=version.summary,
        runtime=version.runtime,
        sha256=version.sha256,
        size=version.size,
        note=version.note,
        submitted_at=version.submitted_at,
        playing=playing,
        pinned=version.pinned,
    )
