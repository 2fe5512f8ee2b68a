"""``kassen`` commands run as real subprocesses by the tests: started, waited for until they
say they serve, stopped or killed; their output in a file (a pipe nobody reads would fill and
freeze them)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def clean_env() -> dict[str, str]:
    """Our environment without any KASSEN_ variable of the machine running the tests."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
    return {**clean, "PYTHONPATH": str(ROOT)}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Process:
    """A ``kassen`` subprocess serving on ``address``, its output in ``log``."""

    popen: subprocess.Popen[bytes]
    address: str
    log: Path

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as a crash or an OOM kill."""
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def launch(
    args: list[str],
    address: str,
    log: Path,
    folder: Path,
    ready: str,
    env: dict[str, str] | None = None,
    within_s: float = 30,
) -> Process:
    """Start ``kassen ARGS`` in ``folder``, its output appended to ``log``; return once it
    writes ``ready`` there (fail with its output if it exits or takes ``within_s``). ``env``:
    added to this process's environment (without its KASSEN_ variables)."""
    start = log.stat().st_size if log.exists() else 0
    with log.open("ab") as out:  # the child keeps its own descriptor
        popen = subprocess.Popen(
            [sys.executable, "-m", "kassen", *args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=folder,
            env={**clean_env(), **(env or {})},
        )
    process = Process(popen, address, log)
    deadline = time.monotonic() + within_s
    while ready.encode() not in log.read_bytes()[start:]:
        if popen.poll() is not None or time.monotonic() > deadline:
            process.stop()
            raise AssertionError(
                f"kassen {' '.join(args)} did not start:\n{process.output()[-4000:]}"
            )
        time.sleep(0.05)
    return process


def titled(prefix: bytes) -> list[int]:
    """Pids of the processes whose command line starts with ``prefix`` (Ray titles a busy
    worker ``ray::<function or actor class>``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if title.startswith(prefix):
                found.append(int(entry.name))
    return found
