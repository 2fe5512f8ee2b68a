"""A submitted bot running in its sandbox: started for one seat, watched, and killed whole.

The launch order is: a shell that enters the bot's cgroups and sets its CPU limit
(``cgroup.enter_argv``) → ``setpriv`` as the unprivileged sandbox user → bubblewrap →
``/bin/sh -c RUN`` inside. The seat's ticket comes on an inherited pipe (``KASSEN_TICKET_FILE``
names it, as for every launched bot), the referee is at ``unix:/run/kassen/referee.sock``
(``seat_socket``), and nothing else of the host is reachable. ``kill`` empties the cgroup, so
nothing the bot forked, double-forked or ``setsid``-ed outlives its match.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, replace

from server.bot_box import EXIT_GRACE_S, LAST_WORDS_BYTES, ticket_pipe
from server.bot_launcher import TICKET_FILE_ENV
from server.bot_stderr import StderrReader
from server.sandbox.bwrap import INSIDE_ADDRESS, Sandboxed, sandbox_argv
from server.sandbox.cgroup import BotCgroup, Bounds
from server.sandbox.host import OUTSIDE_USER, Host

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """What one running submitted bot may use (the organiser's ``[submissions]`` limits).

    ``memory_mb`` and ``processes`` hold for the sum of the bot's processes (cgroup; without
    one, see ``host.Host.bounds``), ``cpu_s`` for each process (RLIMIT_CPU), ``tmpfs_mb`` for
    each of its two writable places (/tmp and /dev/shm, whose pages the memory bound counts
    too), ``open_files`` for each process (RLIMIT_NOFILE): every connection a bot opens to the
    referee's socket is a descriptor of the referee's too, so this bounds what one bot can
    take of the referee's own; ``cpus`` for the cores its processes use together (cgroup
    ``cpu``, where the host has one)."""

    memory_mb: int = 512
    processes: int = 64
    cpu_s: int = 900
    tmpfs_mb: int = 64
    open_files: int = 512
    cpus: float = 1.0


@dataclass(frozen=True, slots=True)
class SandboxedCommand:
    """Everything the referee needs to start one submitted bot for a seat."""

    host: Host
    box: Sandboxed
    limits: SandboxLimits = SandboxLimits()


class SandboxedBot:
    """A running sandboxed bot with the interface of ``server.bot_box.BoxedBot``."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        stderr: StderrReader,
        cgroup: BotCgroup,
        limits: SandboxLimits,
    ) -> None:
        self.process = process
        self.stderr = stderr
        self.cgroup = cgroup
        self.limits = limits
        self.killed = False

    @classmethod
    async def launch(
        cls,
        command: SandboxedCommand,
        on_tail: Callable[[bytes], None] | None = None,
        label: str = "",
        ticket: str | None = None,
    ) -> SandboxedBot:
        """Start the bot in a fresh sandbox and cgroup. Raises ``OSError`` when the sandbox
        cannot be made (the cgroup is removed again)."""
        limits = command.limits
        cgroup = await asyncio.to_thread(
            BotCgroup.create,
            command.host,
            Bounds(
                memory_bytes=limits.memory_mb * MB, processes=limits.processes, cpus=limits.cpus
            ),
        )
        ticket_fd = ticket_pipe(ticket) if ticket is not None else None
        if ticket_fd is not None and os.geteuid() == 0:
            # The bot opens /dev/fd/N, which checks the pipe's owner: make it the sandbox's.
            os.fchown(ticket_fd, OUTSIDE_USER, OUTSIDE_USER)
        env = dict(command.box.env)
        env["KASSEN_ADDRESS"] = INSIDE_ADDRESS
        if ticket_fd is not None:
            env[TICKET_FILE_ENV] = f"/dev/fd/{ticket_fd}"
        box = replace(command.box, env=env, tmpfs_bytes=limits.tmpfs_mb * MB)
        argv = cgroup.enter_argv(
            sandbox_argv(command.host, box), cpu_s=limits.cpu_s, open_files=limits.open_files
        )
        read_end, write_end = os.pipe()
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                env={"PATH": "/usr/bin:/bin"},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=write_end,
                start_new_session=True,
                pass_fds=() if ticket_fd is None else (ticket_fd,),
            )
        except BaseException:
            os.close(read_end)
            await asyncio.to_thread(cgroup.remove)
            raise
        finally:
            os.close(write_end)
            if ticket_fd is not None:
                os.close(ticket_fd)
        return cls(process, StderrReader(read_end, on_tail, label=label), cgroup, limits)

    async def wait(self) -> int:
        """The sandbox's exit status once its bot exits, with a note on its stderr tail when
        a bound ended it."""
        code = await self.process.wait()
        self.stderr.read_available(LAST_WORDS_BYTES)
        note = None if self.killed else self.exit_note(code)
        if note:
            self.stderr.note(note)
        return code

    def exit_note(self, code: int) -> str | None:
        limits = self.limits
        if self.cgroup.oom_kills():
            return f"kassen: out of memory: the sandbox's bound is memory_mb = {limits.memory_mb}"
        if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
            return f"kassen: the CPU time limit ran out (cpu_s = {limits.cpu_s})"
        if code in (-signal.SIGKILL, 128 + signal.SIGKILL):
            return (
                "kassen: killed by SIGKILL (not by the referee): the CPU time hard limit "
                f"(cpu_s = {limits.cpu_s}, + 5 s)"
            )
        return None

    def kill(self) -> None:
        """SIGKILL every process of the sandbox (its cgroup; without one, bubblewrap, whose
        death ends the sandbox's PID namespace)."""
        self.killed = self.killed or self.process.returncode is None
        # Once, without waiting: this runs on the referee's loop. ``close`` waits in a thread
        # until the cgroup is empty (a fork racing this signal included).
        self.cgroup.signal_all()
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    async def close(self) -> None:
        """Kill what is left, reap the sandbox, close its stderr, remove its cgroup."""
        self.kill()
        try:
            await self.process.wait()
        finally:
            self.stderr.close()
            await asyncio.to_thread(self.cgroup.remove)

    async def end(self, grace: float = EXIT_GRACE_S) -> None:
        """After the match: ``grace`` seconds to exit by itself, then ``close``."""
        if self.process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), grace)
        await self.close()
