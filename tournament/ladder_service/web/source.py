"""What the web page knows of the ladder, from its own process.

The page runs in a process of its own (``web.process``), so nothing a visitor does can stall
the loop that runs the matches. It reads the database itself (finished matches, bots, rating
history, replays), in a few threads of its own, and asks the ladder over gRPC only for what
lives in the ladder's memory: the standings (``Ladder/GetStandings``: every pool's table, who
is online, which matches are live), fetched at most once per ``STANDINGS_TTL_S`` however
many visitors ask, and the live matches (``Referee/Watch``, one stream per match for every
viewer, ``web.live``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

import grpc
from sqlalchemy.engine import Engine

from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from tournament.ladder_service.service import PoolKey
from tournament.ladder_service.web.live import RELAY_KEY

P = ParamSpec("P")
T = TypeVar("T")

#: How old the standings shown may be.
STANDINGS_TTL_S = 1.0
#: Threads reading the database (a visitor's request waits for one; the ladder never does).
DB_THREADS = 4


@dataclass(frozen=True, slots=True)
class PoolView:
    """One pool as the ladder last reported it."""

    key: PoolKey
    kind: str
    rows: tuple[dict[str, Any], ...]
    live: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    pools: tuple[PoolView, ...]
    fetched_at: float
    #: When it was asked for, by the wall clock (the database's times are wall-clock times).
    asked_at: float
    #: Live matches another referee hosts: match id -> (its address, TLS or not).
    referees: Mapping[str, tuple[str, bool]] = field(default_factory=dict)

    def pool(self, key: PoolKey) -> PoolView | None:
        return next((p for p in self.pools if p.key == key), None)

    @property
    def live(self) -> frozenset[str]:
        return frozenset(m for p in self.pools for m in p.live)

    @property
    def online(self) -> frozenset[str]:
        return frozenset(r["bot_id"] for p in self.pools for r in p.rows if r["online"])


def _row(row: lpb.LadderRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "bot_id": row.bot_id,
        "name": row.name,
        "owner": row.owner,
        "rating": row.rating if row.rated else None,
        "low": row.low if row.bounded else None,
        "high": row.high if row.bounded else None,
        "games": row.games,
        "provisional": row.provisional,
        "online": row.online,
        "house": row.house,
        "status": row.status,
        "accepts_challenges": row.accepts_challenges,
    }


def standings_from(response: lpb.GetStandingsResponse, asked_at: float) -> Standings:
    return Standings(
        pools=tuple(
            PoolView(
                key=PoolKey(p.game, p.variant, p.players),
                kind=p.kind,
                rows=tuple(_row(r) for r in p.rows),
                live=tuple(p.live_match_ids),
            )
            for p in response.pools
        ),
        fetched_at=time.monotonic(),
        asked_at=asked_at,
        referees={
            match_id: (where.address, where.tls)
            for match_id, where in response.live_referees.items()
        },
    )


class LadderUnavailable(RuntimeError):
    """The ladder did not answer (the page says so with 503)."""


class ChallengeRefused(RuntimeError):
    """The ladder did not start a person's game: ``status`` (HTTP) and the ladder's reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


#: The ladder's refusals as HTTP statuses.
HTTP_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
}
#: A challenge may wait for a busy bot (the ladder's challenges.wait_ms) before it answers.
CHALLENGE_TIMEOUT_S = 120.0


class LadderSource:
    """The database, the standings and the live matches, as the page's handlers use them."""

    def __init__(
        self,
        engine: Engine,
        channel: grpc.aio.Channel,
        relay_token: str | None = None,
    ) -> None:
        self.engine = engine
        self.channel = channel
        self.relay_token = relay_token
        self._ladder = lrpc.LadderStub(channel)
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=DB_THREADS, thread_name_prefix="kassen-web-db"
        )
        self._standings: Standings | None = None
        self._fetching: asyncio.Task[Standings] | None = None

    async def db(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args)`` in one of the page's database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, functools.partial(fn, *args, **kwargs))

    async def standings(self, asked_after: float = 0.0) -> Standings:
        """The standings, at most ``STANDINGS_TTL_S`` old and asked for after the wall-clock
        time ``asked_after`` (a match that started since is then in them); concurrent callers
        share one call (which a visitor who leaves does not cancel)."""
        known = self._standings
        if (
            known is not None
            and time.monotonic() - known.fetched_at < STANDINGS_TTL_S
            and known.asked_at > asked_after
        ):
            return known
        if self._fetching is None or self._fetching.done():
            self._fetching = asyncio.get_running_loop().create_task(self._fetch())
            self._fetching.add_done_callback(_retrieved)
        return await asyncio.shield(self._fetching)

    async def _fetch(self) -> Standings:
        asked_at = time.time()
        try:
            response = await self._ladder.GetStandings(lpb.GetStandingsRequest(), timeout=10)
        except grpc.aio.AioRpcError as exc:
            raise LadderUnavailable(f"the ladder did not answer: {exc.details()}") from None
        self._standings = standings_from(response, asked_at)
        return self._standings

    async def challenge(self, request: lpb.ChallengeRequest) -> lpb.ChallengeResponse:
        """Ask the ladder for a person's game (``ChallengeRefused`` says why not)."""
        metadata = ((RELAY_KEY, self.relay_token),) if self.relay_token else None
        try:
            response: lpb.ChallengeResponse = await self._ladder.Challenge(
                request, metadata=metadata, timeout=CHALLENGE_TIMEOUT_S
            )
        except grpc.aio.AioRpcError as exc:
            status = HTTP_STATUS.get(exc.code(), 503)
            raise ChallengeRefused(status, exc.details() or exc.code().name) from None
        return response

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)


def _retrieved(task: asyncio.Task[Standings]) -> None:
    """Marks a failed fetch's exception as seen (its callers may all have left)."""
    if not task.cancelled():
        task.exception()
