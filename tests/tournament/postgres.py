"""A throwaway PostgreSQL server for tests (initdb + pg_ctl on a free loopback port)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BINARIES = ("initdb", "pg_ctl")


def missing() -> str | None:
    """Why a PostgreSQL server cannot be started here, or None if it can."""
    for name in BINARIES:
        if shutil.which(name) is None:
            return f"PostgreSQL's {name} is not installed (Debian package postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as another user"
    return None


def _as_owner(argv: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root; as root, run it as the postgres (or nobody) user.
    if os.geteuid() != 0:
        return argv
    user = (
        "postgres"
        if subprocess.run(["id", "postgres"], capture_output=True).returncode == 0
        else "nobody"
    )
    return ["runuser", "-u", user, "--", *argv]


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh server; stop it and delete its files afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = Path(tempfile.mkdtemp(prefix="kassen-pg-"))
    os.chmod(folder, 0o777)
    data = folder / "data"
    try:
        subprocess.run(
            _as_owner(["initdb", "-D", str(data), "-A", "trust", "-U", "kassen"]),
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_owner(
                ["pg_ctl", "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start"]
            ),
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql+psycopg://kassen@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                _as_owner(["pg_ctl", "-D", str(data), "-m", "immediate", "stop"]),
                capture_output=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
