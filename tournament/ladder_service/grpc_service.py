"""``kassen.v1.Ladder`` over gRPC: registration, tokens, Seek streams, the public ladder, admin.

Every refusal is a status code with a message naming the problem (ladder.proto lists them).
A bot authenticates with its token (``authorization: Bearer <token>``); the organiser's admin
calls need the referee's organiser token when one is set. A service without one listens on
loopback only and answers them for any caller, as ``kassen serve`` does CreateMatch: whoever
can reach it is on the organiser's machine. RegisterBot needs no token (the organiser's
lifts its rate limit).
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from typing import Any, TypeAlias

import grpc

from games import UnknownGame, get_game
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.auth import presented_token
from tournament.ladder_service.grpc_challenges import ChallengeCalls
from tournament.ladder_service.grpc_submissions import SubmissionCalls
from tournament.ladder_service.rate_limit import RateLimiter
from tournament.ladder_service.registry import BotRecord, NameTaken, RegistryError
from tournament.ladder_service.service import BotNotAllowed, LadderService, PoolKey
from tournament.ladder_service.tokens import same_secret

Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
#: Trailing metadata of a Seek refused RESOURCE_EXHAUSTED: milliseconds to wait before the
#: next Seek (client_sdk.ladder reads it).
RETRY_AFTER_KEY = "retry-after-ms"
#: Seek streams per bot: 10 at once, then one every 2 s (a reconnect loop without backoff
#: cannot keep the matchmaker busy).
SEEK_BURST = 10
SEEKS_PER_SECOND = 0.5


class LadderServicer(SubmissionCalls, ChallengeCalls, lrpc.LadderServicer):
    def __init__(self, service: LadderService, admin_token: str | None) -> None:
        self.service = service
        self.admin_token = admin_token
        #: Registrations per client host: 5 at once, then one a minute (the organiser, with
        #: the admin token, is not limited).
        self.registrations = RateLimiter(burst=5, per_second=1 / 60)
        self.seeks = RateLimiter(burst=SEEK_BURST, per_second=SEEKS_PER_SECOND)
        self._standings: tuple[int, lpb.GetStandingsResponse] | None = None

    # ------------------------------------------------------------------ bots

    async def RegisterBot(
        self, request: lpb.RegisterBotRequest, context: Context
    ) -> lpb.RegisterBotResponse:
        client = _client_host(context)
        token = presented_token(context.invocation_metadata() or ())
        organiser = token is not None and self._is_admin(token)  # may register in bulk
        if not organiser and not self.registrations.allow(client):
            wait = math.ceil(self.registrations.retry_after(client))
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many registrations from {client}: try again in {wait} s",
            )
        try:
            game = get_game(request.game)
        except UnknownGame as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"game: {exc}")
        variant = request.variant or game.variants[0]
        counts = tuple(sorted(set(request.player_counts))) or game.player_counts
        pools = [PoolKey(game.name, variant, n) for n in counts]
        run = [key for key in pools if key in self.service.pools]
        if not run:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"this ladder runs no pool for {game.name}/{variant} with "
                f"{', '.join(map(str, counts))} players (GetLadder lists none)",
            )
        try:
            bot, token = await self.service.register(
                name=request.name,
                owner=request.owner,
                game=game.name,
                variant=variant,
                pools=run,
                description=request.description,
                accepts_challenges=request.accepts_challenges,
            )
        except NameTaken as exc:
            await context.abort(grpc.StatusCode.ALREADY_EXISTS, str(exc))
        except RegistryError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return lpb.RegisterBotResponse(bot_id=bot.id, token=token)

    async def RotateToken(
        self, request: lpb.RotateTokenRequest, context: Context
    ) -> lpb.RotateTokenResponse:
        bot = await self._bot(context)
        return lpb.RotateTokenResponse(token=await self.service.rotate_token(bot))

    async def Seek(
        self, request: lpb.SeekRequest, context: Context
    ) -> AsyncIterator[lpb.SeekResponse]:
        bot = await self._bot(context)
        if not self.seeks.allow(bot.id):
            wait = self.seeks.retry_after(bot.id)
            # The wait also as a number, for clients (the SDK waits that long, then retries).
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"bot {bot.name} opens Seek streams too often: try again in {math.ceil(wait)} s",
                trailing_metadata=((RETRY_AFTER_KEY, str(math.ceil(wait * 1000))),),
            )
        try:
            async for message in self.service.seek(bot, request.concurrency or 1):
                yield message
        except BotNotAllowed as exc:
            code = (
                grpc.StatusCode.FAILED_PRECONDITION
                if "replaced" in str(exc)
                else grpc.StatusCode.PERMISSION_DENIED
            )
            await context.abort(code, str(exc))

    async def _bot(self, context: Context) -> BotRecord:
        token = presented_token(context.invocation_metadata() or ())
        if token is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "this call needs the bot's token (metadata authorization: Bearer <token>)",
            )
        bot = self.service.bots.by_token(token)
        if bot is None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "unknown bot token")
        if bot.status == "revoked":
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"bot {bot.name} is revoked: {bot.status_reason}".rstrip(": "),
            )
        return bot

    # ------------------------------------------------------------------ public

    async def GetLadder(
        self, request: lpb.GetLadderRequest, context: Context
    ) -> lpb.GetLadderResponse:
        key = self._pool_of(request)
        if key is None:
            await context.abort(
                grpc.StatusCode.NOT_FOUND,
                f"this ladder runs no pool {request.game}/{request.variant or '-'}/"
                f"{request.players or '-'}p",
            )
        return lpb.GetLadderResponse(rows=self._rows(key), kind=_kind(key))

    async def GetStandings(
        self, request: lpb.GetStandingsRequest, context: Context
    ) -> lpb.GetStandingsResponse:
        """Every pool at once, from a copy made when the standings last changed: strangers
        asking in a loop cost the ladder's loop the answer's encoding, nothing more."""
        version = self.service.version
        if self._standings is None or self._standings[0] != version:
            pools = [
                lpb.PoolStanding(
                    game=key.game,
                    variant=key.variant,
                    players=key.players,
                    kind=_kind(key),
                    rows=self._rows(key),
                    live_match_ids=self.service.live_matches(key),
                )
                for key in self.service.pools
            ]
            referees = {
                match_id: lpb.LiveReferee(address=address, tls=tls)
                for match_id, (address, tls) in self.service.live_referees().items()
            }
            self._standings = (
                version,
                lpb.GetStandingsResponse(pools=pools, live_referees=referees),
            )
        return self._standings[1]

    def _rows(self, key: PoolKey) -> list[lpb.LadderRow]:
        rows = []
        for rank, (rating, bot) in enumerate(self.service.ladder(key), start=1):
            rated = math.isfinite(rating.rating)
            bounded = rated and math.isfinite(rating.low) and math.isfinite(rating.high)
            rows.append(
                lpb.LadderRow(
                    rank=rank,
                    bot_id=bot.id,
                    name=bot.name,
                    owner=bot.owner,
                    rating=_finite(rating.rating),
                    low=_finite(rating.low),
                    high=_finite(rating.high),
                    games=rating.matches,
                    provisional=rating.provisional,
                    online=self.service.online(bot.id),
                    house=bot.house,
                    rated=rated,
                    bounded=bounded,
                    status=bot.status,
                    accepts_challenges=bot.accepts_challenges,
                )
            )
        return rows

    def _pool_of(self, request: lpb.GetLadderRequest) -> PoolKey | None:
        for key in self.service.pools:
            if key.game != request.game:
                continue
            if request.variant and key.variant != request.variant:
                continue
            if request.players and key.players != request.players:
                continue
            return key
        return None

    async def GetBot(self, request: lpb.GetBotRequest, context: Context) -> lpb.GetBotResponse:
        bot = self.service.bots.get(request.bot_id)
        if bot is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no bot {request.bot_id[:40]!r}")
        token = presented_token(context.invocation_metadata() or ())
        own = token is not None and (
            self.service.bots.by_token(token) == bot or self._is_admin(token)
        )
        return lpb.GetBotResponse(bot=self._info(bot, private=own))

    # ------------------------------------------------------------------ admin

    async def ListBots(
        self, request: lpb.ListBotsRequest, context: Context
    ) -> lpb.ListBotsResponse:
        await self._admin(context)
        bots = self.service.bots.all()
        return lpb.ListBotsResponse(bots=[self._info(b, private=True) for b in bots])

    async def SetBotStatus(
        self, request: lpb.SetBotStatusRequest, context: Context
    ) -> lpb.SetBotStatusResponse:
        await self._admin(context)
        try:
            bot = await self.service.set_status(request.bot_id, request.status, request.reason)
        except RegistryError as exc:
            code = (
                grpc.StatusCode.NOT_FOUND
                if str(exc).startswith("no bot")
                else grpc.StatusCode.INVALID_ARGUMENT
            )
            await context.abort(code, str(exc))
        return lpb.SetBotStatusResponse(bot=self._info(bot, private=True))

    def _is_admin(self, token: str) -> bool:
        return self.admin_token is not None and same_secret(token, self.admin_token)

    async def _admin(self, context: Context) -> None:
        if self.admin_token is None:
            return  # loopback only (the service refuses other addresses without a token)
        token = presented_token(context.invocation_metadata() or ())
        if token is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "this call needs the organiser token (metadata authorization: Bearer <token>)",
            )
        if not self._is_admin(token):
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong organiser token")

    def _info(self, bot: BotRecord, private: bool) -> lpb.BotInfo:
        played = self.service.played(bot.id, bot.game)
        submitted = self.service.submitted
        kind, playing_version, pinned, newest_state = (
            "house" if bot.house else "person" if bot.person else "connected",
            0,
            False,
            "",
        )
        if submitted is not None and submitted.is_submitted(bot.id):
            kind = "submitted"
            found = submitted.all_versions(bot.id)
            playing = submitted.playing(bot.id)
            playing_version = playing.number if playing else 0
            pinned = playing.pinned if playing else False
            newest_state = found[0].state if found else ""
        return lpb.BotInfo(
            bot_id=bot.id,
            name=bot.name,
            owner=bot.owner,
            game=bot.game,
            variant=bot.variant,
            player_counts=bot.player_counts,
            description=bot.description,
            status=bot.status,
            status_reason=bot.status_reason if private else "",
            house=bot.house,
            online=self.service.online(bot.id),
            games=played,
            failures_in_row=bot.failures_in_row,
            kind=kind,
            playing_version=playing_version,
            pinned=pinned,
            newest_state=newest_state,
            accepts_challenges=bot.accepts_challenges,
        )


def _client_host(context: Context) -> str:
    """``ipv4:127.0.0.1:5555`` → ``ipv4:127.0.0.1`` (the port changes with every connection)."""
    peer = context.peer() or "unknown"
    return peer.rsplit(":", 1)[0] if peer.count(":") >= 2 else peer


def _kind(key: PoolKey) -> str:
    return "score" if key.players == 1 else "elo"


def _finite(value: float) -> float:
    return value if math.isfinite(value) else 0.0


def add_ladder_service(servicer: LadderServicer, server: grpc.aio.Server) -> None:
    lrpc.add_LadderServicer_to_server(servicer, server)
