"""What a process needs to build and run submissions on this host, made once.

``SandboxKit.make`` finds what the host offers (``server.sandbox.host``), makes the passable
area the sandboxes' folders live in, the Python runtime's folder, and the runtimes' table;
``build_box`` and ``run_command`` turn a submission's folder and manifest into what
``server.sandbox.build`` and the referee run. ``kassen match --seat sub:DIR`` and the ladder
both use it, so a bot author's local match starts the bot exactly as the ladder will.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import structlog

from server.sandbox.build import BuildLimits, BuildResult, build
from server.sandbox.bwrap import Sandboxed, new_folder, sandbox_area
from server.sandbox.cgroup import sweep_dead
from server.sandbox.host import Host, detect
from server.sandbox.process import SandboxedCommand, SandboxLimits
from server.sandbox.runtimes import Runtime, host_runtimes, make_python_folder
from tournament.submissions.manifest import RUNTIMES, Manifest

log = structlog.get_logger("kassen.sandbox")

#: A Rust toolchain folder for the rust runtime, instead of ``rustc --print sysroot``: for a
#: host whose toolchain lives where the sandbox user cannot reach it (rustup under /root).
RUST_SYSROOT_ENV = "KASSEN_RUST_SYSROOT"
DEFAULT_BUILD = BuildLimits()
DEFAULT_RUN = SandboxLimits()


class NoSandbox(RuntimeError):
    """This host cannot run submissions; the message says why in one line."""


@dataclass(frozen=True)
class SandboxKit:
    host: Host
    area: Path
    runtimes: dict[str, Runtime]
    #: Folders made for this kit alone (the Python runtime's copy), removed by ``close``.
    own: tuple[Path, ...] = ()

    @classmethod
    def make(
        cls,
        parent: Path,
        allowed: Sequence[str] = RUNTIMES,
        rust_sysroot: Path | None = None,
    ) -> SandboxKit:
        """Detect the host and prepare ``parent/sandbox-area`` (``parent`` and the folders
        above it must let other users pass). Raises ``NoSandbox`` naming what is missing.
        ``rust_sysroot`` defaults to ``$KASSEN_RUST_SYSROOT`` when that is set."""
        if rust_sysroot is None and os.environ.get(RUST_SYSROOT_ENV):
            rust_sysroot = Path(os.environ[RUST_SYSROOT_ENV])
        host = detect()
        if host.problem:
            raise NoSandbox(host.problem)
        swept = sweep_dead(host)
        if swept:
            log.info("removed cgroups left by a stopped process", count=swept)
        area = sandbox_area(parent)
        python = make_python_folder(new_folder(area, "python")) if "python" in allowed else None
        own = (python,) if python is not None else ()
        return cls(host, area, host_runtimes(python, rust_sysroot, allowed), own)

    def close(self) -> None:
        """Remove what was made for this kit alone (each referee process makes its own)."""
        for folder in self.own:
            shutil.rmtree(folder, ignore_errors=True)

    def runtime(self, manifest: Manifest) -> Runtime:
        runtime = self.runtimes.get(manifest.runtime)
        if runtime is None:
            raise NoSandbox(f"this host does not offer the {manifest.runtime} runtime")
        if runtime.problem:
            raise NoSandbox(f"the {manifest.runtime} runtime is unavailable: {runtime.problem}")
        return runtime

    def copy_in(self, folder: Path, manifest: Manifest) -> Path:
        """A copy of ``folder`` in the area, readable by the sandbox user (``exclude`` left
        out): local runs build there, never in the author's own folder."""
        target = new_folder(self.area, "bot")
        excluded = {(folder / each).resolve() for each in manifest.exclude}

        def ignore(where: str, names: list[str]) -> list[str]:
            return [name for name in names if (Path(where) / name).resolve() in excluded]

        shutil.copytree(folder, target, symlinks=True, ignore=ignore, dirs_exist_ok=True)
        for each in [target, *target.rglob("*")]:
            if not each.is_symlink():
                mode = each.stat().st_mode
                each.chmod(mode | 0o444 | (0o111 if mode & 0o100 or each.is_dir() else 0))
        return target

    def box(
        self, folder: Path, command: str, runtime: Runtime, socket_dir: Path | None = None
    ) -> Sandboxed:
        return Sandboxed(
            bot_dir=folder,
            command=command,
            socket_dir=socket_dir,
            env=runtime.environment(),
            read_only=runtime.read_only,
            mounts=runtime.mounts,
        )

    async def build(
        self, folder: Path, manifest: Manifest, limits: BuildLimits = DEFAULT_BUILD
    ) -> BuildResult | None:
        """Run the manifest's build in ``folder`` (None: it has none)."""
        if manifest.build is None:
            return None
        box = self.box(folder, manifest.build, self.runtime(manifest))
        return await build(self.host, box, limits)

    def run_command(
        self,
        folder: Path,
        manifest: Manifest,
        socket_dir: Path,
        limits: SandboxLimits = DEFAULT_RUN,
    ) -> SandboxedCommand:
        box = self.box(folder, manifest.run, self.runtime(manifest), socket_dir)
        return SandboxedCommand(self.host, box, limits)
