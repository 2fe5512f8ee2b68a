"""Submitted bots' seats beside one referee: the host's sandbox kit and the referee's seat
socket, made once per referee process (the ladder's own, a ``kassen serve`` worker, a Ray
referee actor). ``seat`` turns a planned submitted seat into the sandboxed launch the
referee starts for it (server/hosting.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from server.hosting import CannotHost, SeatPlan
from server.referee import CommandBot, Referee
from server.sandbox.seat_socket import seat_socket
from tournament.submissions.kit import DEFAULT_RUN, NoSandbox, SandboxKit
from tournament.submissions.manifest import ManifestError, read_manifest


@dataclass(frozen=True)
class SandboxRunner:
    kit: SandboxKit
    socket_dir: Path
    allowed: tuple[str, ...]

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(
        cls,
        referee: Referee,
        parent: Path,
        allowed: Sequence[str],
        rust_sysroot: Path | None = None,
    ) -> AsyncIterator[SandboxRunner]:
        """The kit under ``parent`` and a seat socket for ``referee``, until the block exits.
        Raises ``NoSandbox`` naming what this host lacks."""
        kit = await asyncio.to_thread(SandboxKit.make, parent, tuple(allowed), rust_sysroot)
        try:
            async with seat_socket(referee, kit.area) as socket_dir:
                yield cls(kit, socket_dir, tuple(allowed))
        finally:
            await asyncio.to_thread(kit.close)

    @property
    def runtimes(self) -> list[str]:
        """The runtimes this host can run now."""
        return sorted(name for name, runtime in self.kit.runtimes.items() if not runtime.problem)

    def seat(self, plan: SeatPlan) -> CommandBot:
        """The sandboxed launch of a planned submitted seat; ``CannotHost`` says why not."""
        folder = Path(plan.folder)
        try:
            manifest = read_manifest(folder, self.allowed)
            command = self.kit.run_command(
                folder, manifest, self.socket_dir, plan.limits or DEFAULT_RUN
            )
        except (ManifestError, NoSandbox, OSError) as exc:
            raise CannotHost(f"the submitted bot {plan.name} cannot run here: {exc}") from None
        return CommandBot(command=[], name=plan.name, sandbox=command)
