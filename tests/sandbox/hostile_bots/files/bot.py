"""Hostile: read the host's files (a ladder database and a token file by their real paths,
links to them planted by the build), the environment of host processes through /proc, another
submission's folder by its real path, and any descriptor inherited from the referee; report
each on stderr (a read prints what it got), then play normally."""

import os
import sys


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def read(what: str, path: str) -> None:
    try:
        if os.path.isdir(path):
            got = " ".join(sorted(os.listdir(path)))
        else:
            with open(path, "rb") as file:
                got = file.read(300).decode("utf-8", "replace")
        report(f"LEAK: {what} {path}: {got!r}")
    except OSError as error:
        report(f"contained: {what}: {error.strerror}")


database, token, test_pid, helper_pid, victim = sys.argv[1:6]
read("database", database)
read("token file", token)
read("database link", "db-link")
read("database hard link", "db-hard")
read("environ link", "env-link")
read("test process environ", f"/proc/{test_pid}/environ")
read("test process cmdline", f"/proc/{test_pid}/cmdline")
read("helper environ", f"/proc/{helper_pid}/environ")
read("other submission", victim)
read("other submission's secret", os.path.join(victim, "secret.txt"))
read("sandbox area", os.path.dirname(victim))
read("host root's home", "/root")
read("host shadow file", "/etc/shadow")

# What the kernel tells of its mounts: the host folders bound in (its own, the socket's, the
# SDK's) by their outside paths. Names, not access: none of them is reachable from here.
with open("/proc/self/mountinfo") as file:
    roots = sorted({line.split()[3] for line in file if line.split()[3] not in ("/", "/null")})
report(f"seen: mount roots {roots}")

# Every process it can see is its own (a private PID namespace).
for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            names = sorted(v.split(b"=")[0].decode() for v in file.read().split(b"\0") if v)
        report(f"seen: pid {pid} environ names {names}")
    except OSError as error:
        report(f"seen: pid {pid} environ unreadable: {error.strerror}")

# Descriptors: stdin, stdout, stderr, the ticket's pipe and nothing of the referee's.
for fd in sorted(int(f) for f in os.listdir("/proc/self/fd")):
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        continue
    expected = fd <= 2 or (target.startswith(("pipe:", "/proc/")) and fd >= 3)
    report(f"{'fd' if expected else 'LEAK: fd'} {fd} -> {target}")

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-files"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
