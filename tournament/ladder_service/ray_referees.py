"""Referees on a Ray cluster: Ray places them and restarts them, the ladder plays on them.

Each referee is a Ray actor (``RefereeActor``) whose process runs an ordinary referee server
(``server.app.running_server``, with ``RefereeHost``) on its node's address, an organiser
token of this ladder run, and, when the ladder takes submitted bots, a sandbox runner of its
own, so a match's submitted bots run on the node that referees it. The ladder reaches each
one as any remote referee (``RayReferee`` is a ``fleet.RemoteReferee`` that asks its actor
where it listens).

Ray does what Ray is for: placement (``SPREAD`` over the nodes, one CPU each), failure
detection (a dead actor's calls raise) and restarts (``max_restarts``: a new process on a
live node, with a new address, which ``RayReferee.describe`` learns). The matches a dead
referee was playing end VOIDED (fleet.py); nothing is retried inside Ray, because a match
cannot be replayed from the middle with the same bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import structlog

from server.hosting import RefereeUnavailable
from tournament.ladder_service.fleet import RemoteReferee

log = structlog.get_logger("kassen.fleet")
#: Times Ray restarts a referee actor whose process or node died (-1: always).
MAX_RESTARTS = -1
#: How long an actor may take to say where it listens (a restarted one starts its referee).
ACTOR_TIMEOUT_S = 20.0


class RefereeActor:
    """One referee in the actor's process (an async actor: the referee runs on its loop)."""

    def __init__(
        self,
        token: str,
        runtimes: tuple[str, ...],
        sandbox_folder: str,
        max_live: int,
        relay_token: str | None,
    ) -> None:
        self.token = token
        self.relay_token = relay_token
        self.runtimes = runtimes
        self.sandbox_folder = sandbox_folder
        self.max_live = max_live
        self._address = ""
        self._starting: asyncio.Lock | None = None
        self._stack = contextlib.AsyncExitStack()

    async def serve(self) -> str:
        """Start the referee once (a restarted actor starts a new one); its address."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if not self._address:
                self._address = await self._start()
        return self._address

    async def _start(self) -> str:
        import ray

        from server.app import running_server
        from server.logs import configure
        from server.settings import ServerSettings

        configure("warning")
        node_address: Any = ray.util.get_node_ip_address  # untyped in Ray; absent in mypy's env
        host = node_address()
        settings = ServerSettings(
            admin_token=self.token, max_live_matches=self.max_live, relay_token=self.relay_token
        )
        referee = await self._stack.enter_async_context(
            running_server(f"{host}:0", settings=settings)
        )
        if self.runtimes:
            from tournament.submissions.runner import SandboxRunner

            folder = Path(self.sandbox_folder)
            runner = await self._stack.enter_async_context(
                SandboxRunner.opened(referee, folder, self.runtimes)
            )
            assert referee.hosting is not None
            referee.hosting.run_submitted(runner.seat, runner.runtimes)
        return referee.address

    async def stop(self) -> None:
        await self._stack.aclose()
        self._address = ""


class RayReferee(RemoteReferee):
    """A referee actor as the fleet sees it: asks the actor for its address each time it
    is described (a restarted actor listens somewhere else)."""

    def __init__(self, actor: Any, index: int, token: str, errors: tuple[type[BaseException], ...]):
        super().__init__("", token, label=f"ray-referee-{index}")
        self.actor = actor
        self.errors = errors

    async def describe(self) -> None:
        # Ray's answer as a plain future: waited for with a timeout that never waits on Ray
        # to give up (awaiting a call of an actor being restarted could hang past any
        # cancellation).
        answer = asyncio.wrap_future(self.actor.serve.remote().future())
        done, _ = await asyncio.wait({answer}, timeout=ACTOR_TIMEOUT_S)
        if not done:
            answer.cancel()
            raise RefereeUnavailable(f"the Ray actor did not answer within {ACTOR_TIMEOUT_S} s")
        try:
            address = answer.result()
        except self.errors as exc:
            raise RefereeUnavailable(f"the Ray actor is not available: {exc}") from None
        if not isinstance(address, str) or not address:
            raise RefereeUnavailable(f"the Ray actor gave no address ({address!r})")
        if address != self.address:
            await self.close()
            self.address = address
        await super().describe()


@contextlib.asynccontextmanager
async def ray_referees(
    cluster: str,
    count: int,
    runtimes: tuple[str, ...] = (),
    sandbox_folder: Path | None = None,
    max_live: int = 100,
    relay_token: str | None = None,
) -> AsyncIterator[list[RayReferee]]:
    """``count`` referee actors on the Ray cluster ``cluster`` (joined as tournaments join
    it: ``tournament.ray_pool.connect``), killed when the block exits. ``RayUnavailable``
    names a cluster that cannot be joined."""
    from tournament.ray_pool import connect

    ray = await asyncio.to_thread(connect, cluster)
    token = secrets.token_urlsafe(32)  # this run's referees only: Ray carries it to them
    remote_class = ray.remote(RefereeActor).options(
        num_cpus=1, max_restarts=MAX_RESTARTS, scheduling_strategy="SPREAD"
    )
    folder = str((sandbox_folder or Path("runs/sandbox")).resolve())
    actors = [
        remote_class.remote(token, runtimes, folder, max_live, relay_token) for _ in range(count)
    ]
    errors = _actor_errors(ray)
    referees = [RayReferee(actor, index, token, errors) for index, actor in enumerate(actors)]
    try:
        yield referees
    finally:
        for referee in referees:
            await referee.close()
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)


def _actor_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """What Ray raises for a call to an actor that died or cannot be reached."""
    found: list[type[BaseException]] = []
    for name in ("RayActorError", "ActorDiedError", "ActorUnavailableError", "RayError"):
        error = getattr(ray.exceptions, name, None)
        if isinstance(error, type) and issubclass(error, BaseException):
            found.append(error)
    return tuple(found)
