"""Hostile: signal and ptrace processes outside its sandbox (the test's, and a process of the
sandbox's own outside user) and pid 1; report each on stderr, then play normally."""

import ctypes
import errno
import os
import signal
import sys

PTRACE_ATTACH = 16
PTRACE_DETACH = 17


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


libc = ctypes.CDLL(None, use_errno=True)
test_pid, helper_pid = int(sys.argv[1]), int(sys.argv[2])
for name, pid in (("test process", test_pid), ("helper", helper_pid)):
    for sig in (signal.SIGTERM, signal.SIGKILL, signal.SIGSTOP):
        try:
            os.kill(pid, sig)
            report(f"LEAK: {sig.name} sent to the {name} ({pid})")
        except OSError as error:
            report(f"contained: {sig.name} to the {name}: {error.strerror}")
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
        report(f"LEAK: ptrace attached to the {name} ({pid})")
        libc.ptrace(PTRACE_DETACH, pid, None, None)
    else:
        report(f"contained: ptrace the {name}: {errno.errorcode[ctypes.get_errno()]}")
# Pid 1 here is the sandbox's own init (bubblewrap's), not the host's.
with open("/proc/1/cmdline", "rb") as file:
    init = file.read().split(b"\0")[0].decode()
report(f"pid 1 is {init!r}")
for pid in ("1", "self"):  # no capability, even inside its own user namespace
    with open(f"/proc/{pid}/status") as file:
        caps = dict(
            line.split(":\t") for line in file.read().splitlines() if line.startswith("Cap")
        )
    held = {k: v for k, v in caps.items() if int(v, 16)}
    report(
        f"LEAK: pid {pid} holds capabilities {held}"
        if held
        else f"contained: pid {pid} holds no capability"
    )
if libc.ptrace(PTRACE_ATTACH, 1, None, None) == 0:
    report("ptrace attached to pid 1 (its own sandbox's init)")
    libc.ptrace(PTRACE_DETACH, 1, None, None)
else:
    report(f"contained: ptrace pid 1: {errno.errorcode[ctypes.get_errno()]}")
try:
    os.kill(1, signal.SIGKILL)  # the kernel ignores it for a namespace's init
    report("SIGKILL to pid 1 returned")
except OSError as error:
    report(f"contained: SIGKILL to pid 1: {error.strerror}")

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-signals"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
