"""The bubblewrap command line that runs one bot command in its sandbox.

Inside: the system's ``/usr`` (and the merged-/usr links), the organiser's toolchain folders,
and the bot's own folder, all read-only; a private tmpfs of ``tmpfs_bytes`` at ``/tmp`` (also
the bot's ``HOME``); a private ``/proc`` and a minimal ``/dev``; the folder holding the
referee's Unix socket at ``/run/kassen`` (read-only). Outside it nothing else exists: no host ``/tmp``,
no home, no database, no token file, no other bot. Every namespace is new (the network one
has only a loopback that leads nowhere), the environment is exactly ``env``, the process is
killed when its parent dies, and it cannot open a terminal's input (new session).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from server.sandbox.host import Host

#: Where things appear inside the sandbox.
BOT_DIR = "/bot"
SOCKET_DIR = "/run/kassen"
SOCKET_NAME = "referee.sock"
#: What a sandboxed bot finds in ``KASSEN_ADDRESS``: the referee's socket (``seat_socket``).
INSIDE_ADDRESS = f"unix:{SOCKET_DIR}/{SOCKET_NAME}"
#: The user the bot is inside its namespace.
INSIDE_USER = 1000
#: Links of a merged-/usr system (Debian 12 and later).
MERGED_USR = (
    ("usr/bin", "/bin"),
    ("usr/sbin", "/sbin"),
    ("usr/lib", "/lib"),
    ("usr/lib64", "/lib64"),
)
#: Files of /etc that runtimes read to start (the dynamic loader's cache, Java's alternatives).
ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/alternatives",
    "/etc/java-17-openjdk",
    "/etc/java-21-openjdk",
)


@dataclass(frozen=True)
class Sandboxed:
    """One command to run in a sandbox."""

    bot_dir: Path
    command: str  # a shell command line, run by /bin/sh -c from the bot's folder
    socket_dir: Path | None = None
    tmpfs_bytes: int = 64 * 1024 * 1024
    env: Mapping[str, str] = field(default_factory=dict)
    #: Extra read-only folders (toolchains outside /usr: /usr/local/go is inside already).
    read_only: Sequence[Path] = ()
    #: Read-only folders shown at another path inside: (outside, inside).
    mounts: Sequence[tuple[Path, str]] = ()
    #: A build writes into its bot folder; a match never does.
    writable_bot: bool = False


def sandbox_argv(host: Host, box: Sandboxed) -> list[str]:
    """The argv that runs ``box.command`` inside its sandbox (``host`` must have no problem).

    The sandbox user must be able to reach ``bot_dir`` and ``socket_dir`` (bubblewrap binds
    them as that user): keep them in an area made by ``sandbox_area``. Binding from
    descriptors opened by the ladder does not work here: a process that changed its user
    cannot read its own ``/proc/self/fd``."""
    if host.problem or host.bwrap is None or host.setpriv is None:
        raise RuntimeError(f"no sandbox on this host: {host.problem}")
    argv = [
        *host.as_sandbox_user(),
        host.bwrap,
        "--unshare-all",
        "--uid",
        str(INSIDE_USER),
        "--gid",
        str(INSIDE_USER),
        "--hostname",
        "sandbox",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for target, link in MERGED_USR:
        if Path("/" + target).exists():
            argv += ["--symlink", target, link]
    for path in ETC_FILES:
        argv += ["--ro-bind-try", path, path]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    # Shared memory is a tmpfs too, capped like /tmp: /dev/shm is a way round a memory bound.
    argv += ["--size", str(box.tmpfs_bytes), "--tmpfs", "/tmp"]
    argv += ["--size", str(box.tmpfs_bytes), "--tmpfs", "/dev/shm"]
    # After the tmpfs: a toolchain kept under the host's /tmp is shown on top of the private one.
    for folder in box.read_only:
        argv += ["--ro-bind", str(folder), str(folder)]
    for outside, inside in box.mounts:
        argv += ["--ro-bind", str(outside), inside]
    argv += ["--bind" if box.writable_bot else "--ro-bind", str(box.bot_dir), BOT_DIR]
    if box.socket_dir is not None:
        # Read-only: connecting to a socket needs no write access to its folder, and a bot
        # that could replace the socket file would sit between the next bot and the referee.
        argv += ["--ro-bind", str(box.socket_dir), SOCKET_DIR]
    # The root bubblewrap builds is a tmpfs of its own, writable and uncapped: freeze it.
    argv += ["--remount-ro", "/"]
    env = {"HOME": "/tmp", "PATH": "/usr/local/bin:/usr/bin:/bin", "TMPDIR": "/tmp", **box.env}
    for name, value in env.items():
        argv += ["--setenv", name, value]
    argv += ["--chdir", BOT_DIR, "/bin/sh", "-c", box.command]
    return argv


def sandbox_area(parent: Path) -> Path:
    """A folder the sandbox user may pass through but not list (mode 711), for the folders
    bound into sandboxes: each under a name nobody can guess (``new_folder``). Its parents
    must be passable too (``/tmp`` or ``/srv`` are; a home folder of mode 700 is not)."""
    area = parent / "sandbox-area"
    area.mkdir(mode=0o711, exist_ok=True)
    area.chmod(0o711)
    return area


def new_folder(area: Path, prefix: str) -> Path:
    """A fresh folder in ``area`` that the sandbox user may read (mode 755)."""
    folder = area / f"{prefix}-{secrets.token_hex(12)}"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    return folder
