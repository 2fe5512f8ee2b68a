"""The referees a ladder plays its matches on, and where each new match goes.

The coordinator (``LadderService``) plans a match; ``Fleet.place`` puts it on the referee
with the most room that can play it (a match with a submitted bot needs a referee that runs
that bot's runtime). Referees:

- ``EmbeddedReferee``: the ladder's own referee, in its own process (``kassen ladder serve``
  alone: everything on one machine, as before fleets);
- ``RemoteReferee``: a referee reached over gRPC (``RefereeHost``): a ``kassen serve``
  (``--workers N`` spreads the matches over its workers), or a Ray actor
  (``ray_referees``), on this machine or another.

Failures: a referee that cannot be reached, or refuses for a reason of its own, is left out
for a while (``DOWN_FOR_S``, doubling up to ``MAX_DOWN_S``) and asked again; a match whose
referee is lost mid-way ends VOIDED (server/hosting.py ``lost``), its bots free at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import grpc
import structlog

from kassen.v1 import fleet_pb2 as fpb
from kassen.v1 import fleet_pb2_grpc as frpc
from server.hosting import (
    CannotHost,
    Hosted,
    Hosting,
    MatchEnd,
    MatchPlan,
    RefereeUnavailable,
    lost,
)
from server.hosting_wire import end_from_proto, plan_to_proto
from server.referee import Stopping, TooManyMatches
from server.results import Reason

log = structlog.get_logger("kassen.fleet")

#: How long a referee that failed is left out before it is asked again (doubling per failure).
DOWN_FOR_S = 1.0
MAX_DOWN_S = 30.0
#: How long a referee may take to say a match has started.
START_TIMEOUT_S = 15.0
#: A hosted match whose referee says nothing for this long is taken for lost (it says it is
#: alive every two seconds: server/hosting_service.py).
SILENCE_S = 15.0
#: How long ``DescribeHost`` may take.
DESCRIBE_TIMEOUT_S = 5.0
#: How long asking a referee left out may take in all (a Ray actor may be restarting).
ASK_TIMEOUT_S = 30.0
#: A referee's channel tries to connect again at least this often while it cannot: gRPC's
#: own default grows to two minutes, and until it tries, every call fails at once, so a
#: referee back after a long outage stayed left out long after the fleet asked again.
RECONNECT_MS = 2000


@dataclass(frozen=True)
class FleetSettings:
    """``[referees]`` of ladder.toml (or ``--referees``): where the matches are played."""

    #: ``kassen serve`` referees (host:port); one with ``--workers N`` spreads over N.
    addresses: tuple[str, ...] = ()
    #: They speak TLS, checked with ``tls_ca`` (None: the system's roots).
    tls: bool = False
    tls_ca: Path | None = None
    #: Their organiser token (None: the ladder's own).
    token_file: Path | None = None
    #: A Ray cluster to start ``ray_referees`` referee actors on ("auto", "local" or an
    #: address; None: no Ray).
    ray: str | None = None
    ray_referees: int = 2
    #: Whether the ladder's own referee hosts matches too (None: only when nothing else is
    #: listed).
    embedded: bool | None = None

    @property
    def remote(self) -> bool:
        return bool(self.addresses or self.ray)

    @property
    def uses_embedded(self) -> bool:
        return self.embedded if self.embedded is not None else not self.remote


@dataclass(eq=False)
class RefereeSlot:
    """One referee as the fleet sees it. ``address`` is what the bots of its matches are
    told ("" for the ladder's own); ``live`` counts the matches placed on it."""

    label: str
    address: str = ""
    tls: bool = False
    capacity: int = 100
    runtimes: tuple[str, ...] = ()
    live: int = 0
    #: Matches ever placed here (of referees with as much room, the least used gets the next).
    placed: int = 0
    failures: int = 0
    #: When it is asked again (``Fleet`` asks; a referee left out takes no match until it
    #: has answered).
    down_until: float = 0.0
    healthy: bool = True
    known: bool = False

    def up(self) -> bool:
        return self.known and self.healthy

    def can_play(self, plan: MatchPlan) -> bool:
        needed = {seat.runtime for seat in plan.seats if seat.kind == "submitted"}
        return self.live < self.capacity and needed <= set(self.runtimes)

    def failed(self, why: str) -> None:
        if not self.healthy and time.monotonic() < self.down_until:
            return  # the same failure, seen by another of its matches
        self.healthy = False
        self.failures += 1
        wait = min(MAX_DOWN_S, DOWN_FOR_S * 2 ** (self.failures - 1))
        self.down_until = time.monotonic() + wait
        log.warning("referee left out", referee=self.label, problem=why, retry_in_s=wait)

    def recovered(self) -> None:
        if not self.healthy:
            log.info("referee back", referee=self.label)
        self.healthy = True
        self.failures = 0
        self.down_until = 0.0

    async def describe(self) -> None:
        """Learn the referee's capacity and runtimes; ``RefereeUnavailable`` if it cannot."""
        self.known = True

    async def host(self, plan: MatchPlan) -> Hosted:
        raise NotImplementedError

    async def close(self) -> None:
        return None


class EmbeddedReferee(RefereeSlot):
    """The ladder's own referee, hosting in-process."""

    def __init__(self, hosting: Hosting, capacity: int) -> None:
        super().__init__("embedded", capacity=capacity, known=True)
        self.hosting = hosting

    async def describe(self) -> None:
        self.runtimes = self.hosting.runtimes
        self.known = True

    async def host(self, plan: MatchPlan) -> Hosted:
        try:
            return self.hosting.host(plan)
        except (Stopping, TooManyMatches) as exc:
            raise RefereeUnavailable(str(exc)) from None


class RemoteReferee(RefereeSlot):
    """A referee over gRPC. ``token``: its organiser token; ``tls_ca``: the CA its TLS
    certificate is checked with (None and ``tls``: the system's roots)."""

    def __init__(
        self,
        address: str,
        token: str | None,
        *,
        tls: bool = False,
        tls_ca: bytes | None = None,
        label: str | None = None,
    ) -> None:
        super().__init__(label or address, address=address, tls=tls)
        self.token = token
        self.tls_ca = tls_ca
        self._channel: grpc.aio.Channel | None = None

    def _stub(self) -> frpc.RefereeHostAsyncStub:
        if self._channel is None:
            options = [
                ("grpc.max_receive_message_length", -1),
                ("grpc.max_reconnect_backoff_ms", RECONNECT_MS),
            ]
            if self.tls:
                credentials = grpc.ssl_channel_credentials(root_certificates=self.tls_ca)
                self._channel = grpc.aio.secure_channel(self.address, credentials, options)
            else:
                self._channel = grpc.aio.insecure_channel(self.address, options)
        return frpc.RefereeHostStub(self._channel)

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),) if self.token else ()

    async def describe(self) -> None:
        try:
            answer = await self._stub().DescribeHost(
                fpb.DescribeHostRequest(), metadata=self._metadata(), timeout=DESCRIBE_TIMEOUT_S
            )
        except grpc.aio.AioRpcError as exc:
            raise RefereeUnavailable(f"{exc.code().name}: {exc.details()}") from None
        self.capacity = answer.max_live_matches or self.capacity
        self.runtimes = tuple(answer.runtimes)
        self.known = True

    async def host(self, plan: MatchPlan) -> Hosted:
        call = self._stub().HostMatch(plan_to_proto(plan), metadata=self._metadata())
        try:
            first = await asyncio.wait_for(call.read(), START_TIMEOUT_S)
        except TimeoutError:
            call.cancel()
            raise RefereeUnavailable(f"no answer within {START_TIMEOUT_S:.0f} s") from None
        except grpc.aio.AioRpcError as exc:
            if exc.code() in (grpc.StatusCode.INVALID_ARGUMENT,):
                raise CannotHost(exc.details() or "refused") from None
            raise RefereeUnavailable(f"{exc.code().name}: {exc.details()}") from None
        if (
            first is grpc.aio.EOF
            or cast(fpb.HostMatchResponse, first).WhichOneof("event") != "started"
        ):
            call.cancel()
            raise RefereeUnavailable("the referee did not say the match started")
        started = cast(fpb.HostMatchResponse, first).started
        ended: asyncio.Future[MatchEnd] = asyncio.get_running_loop().create_future()
        progress = _Progress()
        players = plan.settings.config.players
        reader = asyncio.get_running_loop().create_task(
            self._follow(call, started.match_id, players, ended, progress)
        )
        progress.reader = reader

        def abort() -> None:
            progress.aborted = True
            call.cancel()

        return Hosted(
            started.match_id,
            list(started.tickets),
            started.setup,
            ended,
            abort,
            lambda: progress.decisions,
        )

    async def _follow(
        self,
        call: grpc.aio.UnaryStreamCall[fpb.HostMatchRequest, fpb.HostMatchResponse],
        match_id: str,
        players: int,
        ended: asyncio.Future[MatchEnd],
        progress: _Progress,
    ) -> None:
        """Read the match's events until its end; a referee that fails or falls silent
        ends it VOIDED (ABORTED when the ladder itself aborted it)."""
        why = "the referee ended the stream without the match's end"
        try:
            while True:
                read = await asyncio.wait_for(call.read(), SILENCE_S)
                if read is grpc.aio.EOF:
                    break
                event = cast(fpb.HostMatchResponse, read)
                kind = event.WhichOneof("event")
                if kind == "alive":
                    progress.decisions = event.alive.decisions
                elif kind == "ended":
                    ended.set_result(end_from_proto(event.ended))
                    return
        except TimeoutError:
            why = f"the referee said nothing for {SILENCE_S:.0f} s"
            call.cancel()
        except (grpc.aio.AioRpcError, asyncio.CancelledError) as exc:
            if isinstance(exc, grpc.aio.AioRpcError):
                why = f"the referee was lost ({exc.code().name}: {exc.details()})"
            else:
                why = "the ladder stopped following the match"
        finally:
            if not ended.done():
                if progress.aborted:
                    ended.set_result(lost(match_id, players, "aborted", Reason.ABORTED))
                else:
                    log.warning("match lost with its referee", match=match_id, problem=why)
                    self.failed(why)
                    ended.set_result(lost(match_id, players, why))

    async def close(self) -> None:
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.close()
            self._channel = None


@dataclass(slots=True)
class _Progress:
    decisions: int = 0
    aborted: bool = False
    reader: asyncio.Task[None] | None = None


@dataclass
class Fleet:
    """The referees and the matches placed on them."""

    slots: list[RefereeSlot]
    #: Called when a referee comes back (the matchmaker may have waited for it).
    on_change: Callable[[], None] = lambda: None
    _health: asyncio.Task[None] | None = field(default=None, init=False)
    _stopping: bool = field(default=False, init=False)

    async def start(self) -> None:
        """Ask every referee what it can host (one that does not answer is left out and
        asked again), and keep asking the ones left out."""
        await asyncio.gather(*(self._ask(slot) for slot in self.slots))
        self._health = asyncio.get_running_loop().create_task(self._keep_asking())

    async def _ask(self, slot: RefereeSlot) -> bool:
        """Whether ``slot`` answers (then it is taken back); a failure of any kind leaves it
        out for longer (one referee that hangs or breaks must not stop the asking)."""
        asking = asyncio.ensure_future(slot.describe())
        done, _ = await asyncio.wait({asking}, timeout=ASK_TIMEOUT_S)
        if not done:  # cancelled, not waited for: it may not end at once
            asking.cancel()
            problem = f"no answer within {ASK_TIMEOUT_S:.0f} s"
        elif asking.cancelled():
            problem = "the question was cancelled"
        elif isinstance(asking.exception(), RefereeUnavailable):
            problem = str(asking.exception())
        elif (error := asking.exception()) is not None:  # whatever it is, the referee stays out
            problem = f"{type(error).__name__}: {error}"
        else:
            slot.recovered()
            return True
        slot.known = True  # known to be there, unreachable: left out until it answers
        slot.failed(problem)
        return False

    async def _keep_asking(self) -> None:
        while not self._stopping:
            await asyncio.sleep(DOWN_FOR_S)
            now = time.monotonic()
            waiting = [s for s in self.slots if not s.healthy and now >= s.down_until]
            answers = await asyncio.gather(*(self._ask(slot) for slot in waiting))
            if any(answers):
                self.on_change()

    def can_place(self, plan: MatchPlan) -> bool:
        return any(slot.up() and slot.can_play(plan) for slot in self.slots)

    async def place(self, plan: MatchPlan) -> tuple[RefereeSlot, Hosted]:
        """Host ``plan`` on the referee with the most room that can play it, trying the
        next one when a referee fails. Raises ``RefereeUnavailable`` when none can, and
        ``CannotHost`` for a plan no referee would play."""
        tried: set[int] = set()
        while True:
            ready = [s for s in self.slots if id(s) not in tried and s.up() and s.can_play(plan)]
            if not ready:
                raise RefereeUnavailable("no referee can host the match now")
            slot = min(ready, key=lambda s: (s.live / max(1, s.capacity), s.placed))
            tried.add(id(slot))
            slot.live += 1  # reserved while it is being asked
            try:
                hosted = await slot.host(plan)
            except RefereeUnavailable as exc:
                slot.live -= 1
                slot.failed(str(exc))
                continue
            except BaseException:
                slot.live -= 1
                raise
            slot.recovered()
            slot.placed += 1
            return slot, hosted

    def release(self, slot: RefereeSlot) -> None:
        slot.live -= 1
        self.on_change()

    async def stop(self) -> None:
        self._stopping = True
        if self._health is not None:
            self._health.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._health
        for slot in self.slots:
            await slot.close()
