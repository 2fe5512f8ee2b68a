"""Hostile: write outside its tmpfs (its own folder, the root, /usr, the referee's socket
folder, the socket itself), then fill /tmp and /dev/shm to their cap; report each on stderr,
free the space and play normally."""

import ctypes
import os
import sys


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


for path in (
    "/bot/evil",
    "/bot/bot.py",
    "/evil",
    "/usr/evil",
    "/usr/bin/python3",
    "/run/kassen/evil",
):
    try:
        with open(path, "a") as file:
            file.write("hostile")
        report(f"LEAK: wrote {path}")
    except OSError as error:
        report(f"contained: write {path}: {error.strerror}")
for what, call in (
    ("remove the referee's socket", lambda: os.unlink("/run/kassen/referee.sock")),
    ("replace the referee's socket", lambda: os.rename("/tmp", "/run/kassen/referee.sock")),
    ("make a folder in /run", lambda: os.mkdir("/run/evil")),
    ("chmod its own folder", lambda: os.chmod("/bot", 0o777)),
):
    try:
        call()
        report(f"LEAK: {what}")
    except OSError as error:
        report(f"contained: {what}: {error.strerror}")

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
libc = ctypes.CDLL(None, use_errno=True)


def remount_writable() -> None:
    """In a child: a user and mount namespace of its own (every capability there), its folder,
    the root and the socket folder remounted writable, then written."""
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        report(f"contained: a user namespace of its own: {os.strerror(ctypes.get_errno())}")
        return
    for target in (b"/bot", b"/", b"/run/kassen", b"/usr"):
        flags = MS_REMOUNT | MS_BIND
        if libc.mount(None, target, None, flags, None) != 0:
            report(
                f"contained: remount {target.decode()} writable: {os.strerror(ctypes.get_errno())}"
            )
            continue
        try:
            with open(os.path.join(target.decode(), "evil"), "w") as file:
                file.write("hostile")
            report(f"LEAK: remounted {target.decode()} writable and wrote to it")
        except OSError as error:
            report(f"contained: write {target.decode()} after remounting: {error.strerror}")


if os.fork() == 0:
    remount_writable()
    sys.stdout.flush()
    os._exit(0)
os.wait()

MB = 1 << 20
for folder in ("/tmp", "/dev/shm"):
    written = 0
    path = os.path.join(folder, "fill")
    try:
        with open(path, "wb") as file:
            while written < 4096 * MB:
                file.write(b"\xff" * MB)
                file.flush()
                written += MB
        report(f"LEAK: filled {folder} with {written // MB} MB")
    except OSError as error:
        report(f"contained: fill {folder}: stopped at {written // MB} MB: {error.strerror}")
    os.unlink(path)

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-writes"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
