"""Hostile: leave processes behind (a setsid double fork, a nohup'd sleeper ignoring SIGHUP and
SIGTERM, a child of its own session), try to leave its cgroup through a user namespace of its
own; play normally, then stay, ignoring SIGTERM."""

import ctypes
import os
import signal
import subprocess
import sys
import time

marker = sys.argv[1]
SLEEPER = [
    sys.executable,
    "-c",
    "import signal, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
    "time.sleep(600)",
    marker,
]


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


if os.fork() == 0:  # double fork into a new session
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, SLEEPER)
    os._exit(0)
os.wait()
subprocess.Popen(
    ["nohup", *SLEEPER],
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
    start_new_session=True,
)
subprocess.Popen(SLEEPER)
report("left three sleepers behind")

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
libc = ctypes.CDLL(None, use_errno=True)


def leave_the_cgroup() -> None:
    """In a child: a user namespace of its own (full capabilities there), a cgroup hierarchy
    mounted, itself written into its root."""
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        report(f"contained: a user namespace of its own: {os.strerror(ctypes.get_errno())}")
        return
    os.makedirs("/tmp/cg", exist_ok=True)
    if libc.mount(b"cgroup", b"/tmp/cg", b"cgroup", 0, b"pids") != 0:
        report(f"contained: mount a cgroup hierarchy: {os.strerror(ctypes.get_errno())}")
        return
    try:
        with open("/tmp/cg/cgroup.procs", "w") as file:
            file.write(str(os.getpid()))
        report("LEAK: moved itself to the root pids cgroup")
    except OSError as error:
        report(f"contained: move to the root cgroup: {error.strerror}")


if os.fork() == 0:
    leave_the_cgroup()
    os._exit(0)
os.wait()

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-leftovers"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end; staying")
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
time.sleep(600)
