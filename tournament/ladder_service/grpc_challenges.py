"""The Ladder service's calls for challenges: SetChallenges and Challenge
(``LadderServicer`` inherits them).

A bot's author challenges with the bot's token (the bot plays, and is the client its limits
count against). A person's game is asked for by the ladder's web page only: it presents the
relay token, which only the ladder's own page process holds, and names the visitor's address
as the client. Nobody else can seat a person.
"""

from __future__ import annotations

import hmac
from typing import Any, TypeAlias

import grpc

from games import UnknownGame, get_game
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import referee_pb2 as pb
from server.service import RELAY_HEADER
from tournament.ladder_service.challenges import (
    ChallengeError,
    ChallengeLimited,
    ChallengeUnavailable,
)
from tournament.ladder_service.registry import BotRecord
from tournament.ladder_service.service import ChallengeAsk, LadderService, PoolKey

Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
MAX_CLIENT_CHARS = 64


class ChallengeCalls:
    service: LadderService

    async def _bot(self, context: Context) -> BotRecord:
        raise NotImplementedError

    def _info(self, bot: BotRecord, private: bool) -> lpb.BotInfo:
        raise NotImplementedError

    async def SetChallenges(
        self, request: lpb.SetChallengesRequest, context: Context
    ) -> lpb.SetChallengesResponse:
        bot = await self._bot(context)
        made = await self.service.set_accepts_challenges(bot, request.accept)
        return lpb.SetChallengesResponse(bot=self._info(made, private=True))

    async def Challenge(
        self, request: lpb.ChallengeRequest, context: Context
    ) -> lpb.ChallengeResponse:
        challenger: BotRecord | None = None
        if request.person:
            if not self._from_page(context):
                await context.abort(
                    grpc.StatusCode.PERMISSION_DENIED,
                    "only the ladder's web page seats a person (a bot challenges with its token)",
                )
            client = request.client[:MAX_CLIENT_CHARS] or "page"
        else:
            challenger = await self._bot(context)
            client = f"bot {challenger.name}"
        try:
            game = get_game(request.game)
        except UnknownGame as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"game: {exc}")
        ask = ChallengeAsk(
            pool=PoolKey(game.name, request.variant or game.variants[0], request.players),
            opponents=tuple(request.opponents),
            client=client,
            challenger=challenger,
            seat=request.seat if request.HasField("seat") else None,
        )
        try:
            started = await self.service.challenge(ask)
        except ChallengeLimited as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        except ChallengeUnavailable as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        except ChallengeError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return lpb.ChallengeResponse(
            match_id=started.match_id,
            seat=started.seat,
            ticket=started.ticket,
            setup=started.hosted.setup,
            referee_address=started.slot.address,
            referee_tls=started.slot.tls,
            seat_names=started.seat_names,
            time_control=pb.TimeControl(
                decision_ms=started.time_control.decision_ms,
                bank_ms=started.time_control.bank_ms,
            ),
        )

    def _from_page(self, context: Context) -> bool:
        token = self.service.referee.settings.relay_token
        if not token:
            return False
        for key, value in context.invocation_metadata() or ():
            presented = value if isinstance(value, bytes) else str(value).encode()
            if key == RELAY_HEADER and hmac.compare_digest(presented, token.encode()):
                return True
        return False
