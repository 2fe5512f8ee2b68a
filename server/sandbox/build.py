"""Building a submission: its ``build`` command, once, in a sandbox with no network.

The build sees the same read-only system and toolchains as a match, and its own folder
writable (where the build's outputs go). It is bounded in time (killed whole at
``time_s``), memory and processes (its cgroup), its log (``log_bytes``: the first half and
the last half are kept, the middle cut) and the bytes its folder grows by: no file it writes
may pass ``disk_mb`` (RLIMIT_FSIZE), and the folder is measured every ``CHECK_EVERY_S`` at
most, more often while measuring is cheap (``MIN_CHECK_S`` for a small folder), so a build that
writes many files without end is killed soon after it passes ``disk_mb``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import stat
import time
from dataclasses import dataclass, replace
from pathlib import Path

from server.sandbox.bwrap import Sandboxed, sandbox_argv
from server.sandbox.cgroup import BotCgroup, Bounds
from server.sandbox.host import OUTSIDE_USER, Host

MB = 1024 * 1024
#: Mode bits a built file loses when its folder is handed back: set-user-ID, set-group-ID, and
#: write access for anyone but its owner.
UNSAFE_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_IWGRP | stat.S_IWOTH
#: The folder is measured at most this far apart, and at least this far apart...
CHECK_EVERY_S = 1.0
MIN_CHECK_S = 0.05
#: ...so that measuring it takes at most 1 / CHECK_COST of the build's time (a folder of a
#: few files is measured every 50 ms: a fast writer passes disk_mb by 50 ms of its writing).
CHECK_COST = 20


@dataclass(frozen=True, slots=True)
class BuildLimits:
    time_s: int = 600
    memory_mb: int = 4096
    processes: int = 256
    #: /tmp (caches: Go's, Cargo's) and /dev/shm, each.
    tmpfs_mb: int = 2048
    #: How much the submission's folder may grow.
    disk_mb: int = 2048
    log_bytes: int = 64 * 1024


DEFAULT_LIMITS = BuildLimits()


@dataclass(frozen=True, slots=True)
class BuildResult:
    ok: bool
    #: One line: "built in 12.3 s", "build failed: exit status 2", "build timed out ..."
    summary: str
    log: str
    seconds: float


async def build(host: Host, box: Sandboxed, limits: BuildLimits = DEFAULT_LIMITS) -> BuildResult:
    """Run ``box.command`` with ``box.bot_dir`` writable; never raises for what the build
    does (a failure is a result), only when no sandbox can be made."""
    box = replace(box, writable_bot=True, tmpfs_bytes=limits.tmpfs_mb * MB, socket_dir=None)
    await asyncio.to_thread(hand_over, box.bot_dir, OUTSIDE_USER)
    try:
        return await _build(host, box, limits)
    finally:
        # Back to us, so no later sandbox (the same user) can change what was built.
        await asyncio.to_thread(hand_over, box.bot_dir, os.geteuid())


def hand_over(folder: Path, uid: int) -> None:
    """Make ``folder``'s tree ``uid``'s (the sandbox user writes during a build only; a
    process that is not root cannot give files away, and needs not: it is the sandbox user).
    Given back to us, nothing the build made stays writable by others or set-ID."""
    give = os.geteuid() == 0
    back = uid == os.geteuid()
    if not give and not back:
        return
    paths = [folder]
    for root, folders, files in os.walk(folder):
        paths += [Path(root) / name for name in folders + files]
    for path in paths:
        if give:
            os.lchown(path, uid, uid)
        mode = path.lstat().st_mode
        if back and not stat.S_ISLNK(mode) and mode & UNSAFE_BITS:
            path.chmod(stat.S_IMODE(mode) & ~UNSAFE_BITS)


async def _build(host: Host, box: Sandboxed, limits: BuildLimits) -> BuildResult:
    cgroup = await asyncio.to_thread(
        BotCgroup.create,
        host,
        Bounds(memory_bytes=limits.memory_mb * MB, processes=limits.processes),
    )
    started = time.monotonic()
    log = BoundedLog(limits.log_bytes)
    try:
        process = await asyncio.create_subprocess_exec(
            *cgroup.enter_argv(sandbox_argv(host, box), file_bytes=limits.disk_mb * MB),
            env={"PATH": "/usr/bin:/bin"},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
        assert process.stdout is not None
        reader = asyncio.ensure_future(_read(process.stdout, log))
        why = await _watch(process, box.bot_dir, limits)
        if why is not None:
            await asyncio.to_thread(cgroup.kill_all)
        code = await process.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reader, 5)
        reader.cancel()
    finally:
        oom = cgroup.oom_kills()
        await asyncio.to_thread(cgroup.remove)
    seconds = time.monotonic() - started
    if why is None and oom:
        why = f"build ran out of memory (memory_mb = {limits.memory_mb})"
    if why is None and code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
        why = f"build wrote a file larger than disk_mb = {limits.disk_mb} MB"
    if why is None and code != 0:
        why = f"build failed: exit status {code}"
    summary = why or f"built in {seconds:.1f} s"
    return BuildResult(why is None, summary, log.text(), seconds)


async def _watch(
    process: asyncio.subprocess.Process, folder: Path, limits: BuildLimits
) -> str | None:
    """Wait for the build to end; the reason to kill it, if it outlives a bound."""
    deadline = time.monotonic() + limits.time_s
    start_bytes = await asyncio.to_thread(folder_bytes, folder)
    every = MIN_CHECK_S
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return f"build timed out after {limits.time_s} s (time_s)"
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), min(left, every))
            return None
        began = time.monotonic()
        grown = await asyncio.to_thread(folder_bytes, folder) - start_bytes
        every = min(CHECK_EVERY_S, max(MIN_CHECK_S, (time.monotonic() - began) * CHECK_COST))
        if grown > limits.disk_mb * MB:
            return f"build wrote more than disk_mb = {limits.disk_mb} MB into its folder"


def folder_bytes(folder: Path) -> int:
    """The bytes of the files under ``folder`` (links not followed)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


class BoundedLog:
    """The first and the last ``limit / 2`` bytes of a stream, with a line saying how much
    was cut between them."""

    def __init__(self, limit: int) -> None:
        self.half = limit // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.cut = 0

    def add(self, chunk: bytes) -> None:
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > self.half:
            self.cut += len(self.tail) - self.half
            del self.tail[: len(self.tail) - self.half]

    def text(self) -> str:
        middle = f"\n[... {self.cut:,} bytes cut ...]\n".encode() if self.cut else b""
        return bytes(self.head + middle + self.tail).decode("utf-8", "replace")


async def _read(stream: asyncio.StreamReader, log: BoundedLog) -> None:
    while chunk := await stream.read(65_536):
        log.add(chunk)
