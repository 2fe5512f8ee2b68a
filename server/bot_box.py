"""Launching and reaping a command bot: its own session, resource limits, nothing left behind.

Every ``cmd:`` bot starts through ``server/bot_launcher.py`` in a new session, so its process
group holds the bot and everything it forks. The launcher lowers the bot's limits (address
space, CPU seconds, open files, and optionally processes), arms a parent-death signal and
leaves a watchdog that kills the group when the bot or the referee ends (also after
``kill -9`` of the referee). The referee kills the group when the match is over and the bot
has not exited within ``EXIT_GRACE_S``. The seat's ticket reaches the bot on an inherited pipe
(``KASSEN_TICKET_FILE``), never in its environment or on a command line. What this protects
against, and what not, is in docs/security.md: it is a fence against accidents, not a sandbox
for hostile code.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import IO, Any

from server.bot_stderr import StderrReader
from server.launch import with_our_python

LAUNCHER = Path(__file__).with_name("bot_launcher.py")
#: A bot still running this long after its match ended is killed (with its group). As long as
#: the conformance kit waits for a bot to exit by itself (``conformance.EXIT_WITHIN_S``).
EXIT_GRACE_S = 5.0
#: What is read of a bot's stderr once it has exited, whatever the rate limit (its last words).
LAST_WORDS_BYTES = 1 << 20
MAX_LIMIT = 2**31 - 1
#: Words in a bot's last stderr lines that tell which limit it ran into.
_MEMORY_WORDS = ("memoryerror", "bad_alloc", "cannot allocate memory", "out of memory")
_FILES_WORDS = ("too many open files",)
_PROCESS_WORDS = ("can't start new thread", "resource temporarily unavailable")


@dataclass(frozen=True, slots=True)
class BoxLimits:
    """A command bot's resource limits; 0 means "not limited" (the referee's own limit).

    ``memory_mb`` bounds the memory it allocates (RLIMIT_DATA: heap and private writable
    mappings), ``cpu_s`` CPU seconds over the bot's life (SIGXCPU, then SIGKILL 5 s later),
    ``open_files`` file descriptors. Off by default: ``processes`` (Linux counts RLIMIT_NPROC
    per user, threads included, so it means "this many more tasks than the user runs at
    launch") and ``address_space_mb`` (RLIMIT_AS counts what a runtime only reserves: the
    JVM example needs 4-6 GB of it to play). See docs/security.md.
    """

    memory_mb: int = 2048
    cpu_s: int = 3600
    open_files: int = 512
    processes: int = 0
    address_space_mb: int = 0

    def merged(self, table: Mapping[str, Any], name: Callable[[str], str] = str) -> BoxLimits:
        """These limits with ``table``'s values (keys as the fields). Raises ``ValueError``
        naming the key (as ``name`` spells it: a TOML key or a flag) for an unknown key or a
        value that is not a whole number from 0 to ``MAX_LIMIT``."""
        known = asdict(self)
        for key, value in table.items():
            if key not in known:
                raise ValueError(
                    f"unknown limit {name(str(key))} (known: {', '.join(name(k) for k in known)})"
                )
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_LIMIT:
                raise ValueError(
                    f"{name(key)} must be a whole number from 0 (no limit) to {MAX_LIMIT}, "
                    f"not {value!r}"
                )
        return replace(self, **dict(table))

    def launcher_flags(self) -> list[str]:
        flags: list[str] = []
        for key, value in asdict(self).items():
            if value:
                flags += ["--" + key.replace("_", "-"), str(value)]
        return flags


DEFAULT_LIMITS = BoxLimits()
#: The limits' names, as a tournament file and ``BoxLimits.merged`` spell them.
LIMIT_KEYS = tuple(each.name for each in fields(BoxLimits))


def boxed_command(
    command: Sequence[str], limits: BoxLimits, ticket_fd: int | None = None
) -> list[str]:
    """The launcher's command line that becomes ``command`` with ``limits`` (and the ticket
    on descriptor ``ticket_fd`` of ours: the number is on the line, the ticket never is)."""
    return [
        sys.executable,
        "-I",
        "-S",
        str(LAUNCHER),
        "--parent",
        str(os.getpid()),
        *(["--ticket-fd", str(ticket_fd)] if ticket_fd is not None else []),
        *limits.launcher_flags(),
        "--",
        *with_our_python(command),
    ]


def ticket_pipe(ticket: str) -> int:
    """The read end of a pipe that holds ``ticket`` and nothing else; its write end is closed,
    so whoever reads it first gets the ticket and then end-of-file, and nobody gets it twice.
    (A ticket is far below the pipe's buffer: the write never blocks.)"""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, ticket.encode())
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    return read_end


async def start(
    command: Sequence[str],
    env: Mapping[str, str],
    cwd: str | None,
    limits: BoxLimits,
    stderr: int | IO[Any],
    ticket: str | None = None,
) -> asyncio.subprocess.Process:
    """Start a bot in its own session, with no stdin and stdout discarded, and its seat's
    ``ticket`` (if given) on a pipe it inherits (``KASSEN_TICKET_FILE``). Raises ``OSError``
    when the launcher cannot start (e.g. a missing working directory); a bot program that
    cannot start exits with code 127 and says why on stderr."""
    ticket_fd = ticket_pipe(ticket) if ticket is not None else None
    try:
        return await asyncio.create_subprocess_exec(
            *boxed_command(command, limits, ticket_fd),
            env=dict(env),
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
            pass_fds=() if ticket_fd is None else (ticket_fd,),
        )
    finally:
        if ticket_fd is not None:
            os.close(ticket_fd)  # the bot holds the only read end now


def kill_group(process: asyncio.subprocess.Process) -> None:
    """SIGKILL the bot's whole process group. Only while the bot is not reaped: then its pid
    is still its group's id and cannot name someone else's group."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


def exit_note(code: int, tail: bytes, limits: BoxLimits) -> str | None:
    """What the referee can tell about why a bot ended (one line for its stderr tail)."""
    last = tail[-2048:].decode("utf-8", "replace").lower()
    if code == -signal.SIGXCPU:
        return f"kassen: killed by SIGXCPU: the CPU time limit (cpu_s = {limits.cpu_s}) ran out"
    if code == -signal.SIGKILL:
        return (
            "kassen: killed by SIGKILL (not by the referee): the CPU time hard limit "
            f"(cpu_s = {limits.cpu_s}, + 5 s) or the system's out-of-memory killer"
        )
    if code < 0:
        return f"kassen: killed by {signal.Signals(-code).name}"
    if code == 0:
        return None
    if (limits.memory_mb or limits.address_space_mb) and any(w in last for w in _MEMORY_WORDS):
        if limits.address_space_mb:
            return (
                f"kassen: out of memory: the limits are memory_mb = {limits.memory_mb}, "
                f"address_space_mb = {limits.address_space_mb}"
            )
        return f"kassen: out of memory: the limit is memory_mb = {limits.memory_mb}"
    if limits.open_files and any(word in last for word in _FILES_WORDS):
        return f"kassen: out of file descriptors: the limit is open_files = {limits.open_files}"
    if limits.processes and any(word in last for word in _PROCESS_WORDS):
        return f"kassen: cannot start a process or thread: processes = {limits.processes}"
    return None


class BoxedBot:
    """A running command bot: its process (the bot itself, so ``returncode`` is the bot's
    own), its stderr reader, and the way to end it."""

    def __init__(
        self, process: asyncio.subprocess.Process, stderr: StderrReader, limits: BoxLimits
    ) -> None:
        self.process = process
        self.stderr = stderr
        self.limits = limits
        self.killed = False

    @classmethod
    async def launch(
        cls,
        command: Sequence[str],
        env: Mapping[str, str],
        cwd: str | None = None,
        limits: BoxLimits = DEFAULT_LIMITS,
        on_tail: Callable[[bytes], None] | None = None,
        label: str = "",
        ticket: str | None = None,
    ) -> BoxedBot:
        """Start the bot (with its seat's ``ticket`` on a pipe, if given); its stderr goes to a
        pipe of ours (read at a bounded rate)."""
        read_end, write_end = os.pipe()
        try:
            process = await start(command, env, cwd, limits, write_end, ticket)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        return cls(process, StderrReader(read_end, on_tail, label=label), limits)

    async def wait(self) -> int:
        """The bot's exit status as soon as it exits (a child still holding its stderr does
        not delay it: the watchdog kills that child). Its last stderr lines are in the tail,
        with a note naming the limit it ran into when that can be told."""
        code = await self.process.wait()
        self.stderr.read_available(LAST_WORDS_BYTES)
        note = None if self.killed else exit_note(code, self.stderr.tail, self.limits)
        if note:
            self.stderr.note(note)
        return code

    def kill(self) -> None:
        self.killed = self.killed or self.process.returncode is None
        kill_group(self.process)

    async def close(self) -> None:
        """Kill what is left of the bot's group, reap the bot, close its stderr."""
        self.kill()
        try:
            await self.process.wait()
        finally:
            self.stderr.close()

    async def end(self, grace: float = EXIT_GRACE_S) -> None:
        """After the match: ``grace`` seconds to exit by itself, then ``close``."""
        if self.process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), grace)
        await self.close()
