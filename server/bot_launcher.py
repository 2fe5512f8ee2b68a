"""The first program of a launched command bot: sets its limits and a watchdog, then becomes
the bot.

Run by ``server.bot_box`` as ``python -I -S bot_launcher.py --parent PID [--ticket-fd N]
[limits] -- COMMAND`` in a new session (so the bot's process group is this process's, and
``killpg`` of it reaches every process the bot forks). Standard library only, and no import of
kassen: it runs with ``-I -S`` (fast start, whatever the bot's working directory and
environment).

Why a watchdog process: the bot's process group must die when the bot exits (a child holding
stderr would otherwise outlive it) and when the referee dies, even by ``kill -9`` (nothing of
the referee runs then). ``PR_SET_PDEATHSIG`` reaches only the bot itself, never the children
it forks, so a small process outside the bot's tree (a double fork: init, not the bot, is its
parent) waits on pidfds of the referee and of the bot and kills the whole group when either
ends. It stays in the group, so it dies with it.

Why the ticket comes on a pipe: a seat's ticket in the bot's environment (or on its command
line) could be read from ``/proc/<pid>/environ`` by any process of the same user for as long as
the bot runs, and a ticket takes the seat over. The referee writes it into a pipe and closes the
write end; this launcher moves the read end to ``TICKET_FD`` and names it in
``KASSEN_TICKET_FILE``; the bot reads it once, after which the pipe holds nothing for anybody.
"""

from __future__ import annotations

import ctypes
import os
import resource
import select
import signal
import sys

PR_SET_PDEATHSIG = 1
#: The CPU hard limit is this many seconds above the soft one: SIGXCPU first, SIGKILL after.
CPU_HARD_MARGIN_S = 5
#: Exit status when the command cannot be executed (as a shell says).
CANNOT_EXECUTE = 127
LIMIT_FLAGS = ("--memory-mb", "--cpu-s", "--open-files", "--processes", "--address-space-mb")
#: The descriptor a launched bot reads its seat's ticket from (the first after stderr).
TICKET_FD = 3
TICKET_FILE_ENV = "KASSEN_TICKET_FILE"
TICKET_ENV = "KASSEN_TICKET"


def parse(argv: list[str]) -> tuple[int, int | None, dict[str, int], list[str]]:
    """``--parent PID``, ``--ticket-fd N`` (None without), limit flags (``--memory-mb N`` ...)
    and the command after ``--``."""
    if "--" not in argv:
        raise SystemExit("bot_launcher: usage: --parent PID [--memory-mb N ...] -- COMMAND")
    split = argv.index("--")
    flags, command = argv[:split], argv[split + 1 :]
    if len(flags) % 2 or not command:
        raise SystemExit("bot_launcher: flags take one value each, and a command must follow --")
    values = dict(zip(flags[::2], flags[1::2], strict=True))
    parent = int(values.pop("--parent"))
    ticket_fd = int(values.pop("--ticket-fd")) if "--ticket-fd" in values else None
    limits = {flag: int(values.pop(flag)) for flag in LIMIT_FLAGS if flag in values}
    if values:
        raise SystemExit(f"bot_launcher: unknown flags {sorted(values)}")
    return parent, ticket_fd, limits, command


def user_tasks(uid: int) -> int:
    """Tasks (threads count: Linux's RLIMIT_NPROC counts them) that ``uid`` runs now."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue  # gone meanwhile
        if int(fields.get("Uid", "-1 ").split()[0]) == uid:
            total += int(fields.get("Threads", "1"))
    return total


def hand_over_ticket(fd: int) -> None:
    """Put the ticket's pipe at ``TICKET_FD`` (inherited across exec, the only descriptor
    besides 0-2 the bot gets) and name it in ``KASSEN_TICKET_FILE``; a ``KASSEN_TICKET`` the
    environment still had goes (the file is the seat's ticket)."""
    if fd != TICKET_FD:
        os.dup2(fd, TICKET_FD, inheritable=True)
        os.close(fd)
    os.set_inheritable(TICKET_FD, True)
    os.environ[TICKET_FILE_ENV] = f"/dev/fd/{TICKET_FD}"
    os.environ.pop(TICKET_ENV, None)


def set_limits(limits: dict[str, int]) -> None:
    """Lower this process's limits (inherited by the bot across exec, and by its children).

    A value of 0 leaves that limit as it was. Hard limits are lowered too: the bot cannot raise
    them again (unless it runs as root: see docs/security.md). Core files are always off.
    """

    def lower(kind: int, soft: int, hard: int) -> None:
        _, current_hard = resource.getrlimit(kind)
        if current_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, current_hard), min(hard, current_hard)
        resource.setrlimit(kind, (soft, hard))

    lower(resource.RLIMIT_CORE, 0, 0)
    if memory := limits.get("--memory-mb", 0):  # what it allocates (private writable maps)
        lower(resource.RLIMIT_DATA, memory << 20, memory << 20)
    if space := limits.get("--address-space-mb", 0):  # also what it only reserves
        lower(resource.RLIMIT_AS, space << 20, space << 20)
    if cpu := limits.get("--cpu-s", 0):
        lower(resource.RLIMIT_CPU, cpu, cpu + CPU_HARD_MARGIN_S)
    if files := limits.get("--open-files", 0):
        lower(resource.RLIMIT_NOFILE, files, files)
    if processes := limits.get("--processes", 0):
        # Per user, not per bot: "N more tasks than this user runs now" (docs/security.md).
        allowed = user_tasks(os.getuid()) + processes
        lower(resource.RLIMIT_NPROC, allowed, allowed)


def set_parent_death_signal(signum: int) -> None:
    """Ask Linux to send ``signum`` to this process when its parent dies (kept across exec)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


def watchdog(group: int, watched: list[int]) -> None:
    """Wait until one of the watched processes (pidfds) ends, then kill the whole group (this
    process included). Never returns."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # never hold the bot's stderr pipe open
        os.dup2(null, fd)
    close_all_but(watched)  # nor the ticket's pipe: a reader of our /proc/<pid>/fd gets nothing
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)  # only SIGKILL (with the group) ends it
    poller = select.poll()
    for fd in watched:
        poller.register(fd, select.POLLIN)
    while not poller.poll():
        pass
    os.killpg(group, signal.SIGKILL)
    os._exit(0)  # not reached


def close_all_but(keep: list[int]) -> None:
    """Close every descriptor above 2 except ``keep``."""
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))


def start_watchdog(parent: int) -> None:
    """Double-fork the watchdog (its parent is then init, not the bot, which could wait for or
    kill its own children) watching the referee and this process, which becomes the bot.
    Without pidfds (Linux before 5.3) there is none: the referee's kills and the bot's
    parent-death signal remain."""
    try:
        watched = [os.pidfd_open(parent), os.pidfd_open(os.getpid())]
    except (AttributeError, OSError):
        return
    if os.getppid() != parent:  # the referee died before the pidfd was opened
        os._exit(CANNOT_EXECUTE)
    middle = os.fork()
    if middle == 0:
        if os.fork() == 0:
            try:
                watchdog(os.getpgrp(), watched)
            finally:
                os._exit(1)
        os._exit(0)
    os.waitpid(middle, 0)
    for fd in watched:  # pidfds are close-on-exec anyway; the bot gets none of them
        os.close(fd)


def main(argv: list[str]) -> None:
    parent, ticket_fd, limits, command = parse(argv)
    if ticket_fd is not None:
        hand_over_ticket(ticket_fd)
    start_watchdog(parent)
    set_limits(limits)
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(CANNOT_EXECUTE)
    for signum in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)  # what Python changed, the bot gets back
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot start {command[0]}: {exc.strerror or exc}", file=sys.stderr)
        os._exit(CANNOT_EXECUTE)


if __name__ == "__main__":
    main(sys.argv[1:])
