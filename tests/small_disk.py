"""A real, tiny file system for tests of a full disk: a tmpfs of a few hundred KiB.

It is mounted in a private mount namespace held by a sleeping process (``unshare --mount``,
as root; otherwise ``unshare --user --map-root-user --mount``, where the kernel allows
unprivileged user namespaces), so nothing outside the test sees it and it disappears with
that process, whatever happens to the test. Commands run inside it with ``nsenter``; the test
reads and writes its files through ``/proc/PID/root``, the holder's view of the file system.
Where neither way works the test is skipped with a reason naming what it needs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

NEEDS = (
    "needs a small tmpfs for a full disk: root (unshare --mount, mount -t tmpfs) or "
    "unprivileged user namespaces (unshare --user --map-root-user --mount)"
)
FILLER = "filler"


@dataclass(frozen=True)
class SmallDisk:
    """A tmpfs mounted on ``mount``, as seen by commands run with ``run``."""

    mount: Path
    holder: int
    enter: tuple[str, ...]

    def seen(self, path: Path) -> Path:
        """``path`` (under ``mount``) as this process reaches it: through the holder's root."""
        return Path(f"/proc/{self.holder}/root{path}")

    def run(self, argv: Sequence[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` where the tmpfs is mounted (text output captured)."""
        return subprocess.run([*self.enter, *argv], capture_output=True, text=True, **kwargs)

    def fill(self, leave: int = 0) -> None:
        """Fill the file system with a file of zeros, then give back ``leave`` bytes."""
        filler = self.seen(self.mount / FILLER)
        descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            with contextlib.suppress(OSError):
                while os.write(descriptor, b"\0" * 4096):
                    pass
        finally:
            os.close(descriptor)
        if leave:
            os.truncate(filler, max(0, filler.stat().st_size - leave))

    def free(self) -> None:
        """Make room again: remove the filler."""
        self.seen(self.mount / FILLER).unlink(missing_ok=True)

    def files(self, folder: Path) -> list[str]:
        """Every file under ``folder`` (relative paths, sorted); folders alone are not listed."""
        root = self.seen(folder)
        if not root.exists():
            return []
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())


@contextlib.contextmanager
def small_disk(mount: Path, size_kib: int = 512) -> Iterator[SmallDisk]:
    """A ``SmallDisk`` of ``size_kib`` KiB on ``mount`` (created empty), for the test's
    duration; skips the test where no way to mount one works."""
    if not (shutil.which("unshare") and shutil.which("nsenter")):
        pytest.skip(f"{NEEDS}; unshare and nsenter (util-linux) are not installed")
    mount.mkdir(parents=True, exist_ok=True)
    script = f'mount -t tmpfs -o size={size_kib}k tmpfs "$0" && echo mounted && exec sleep 3600'
    ways: list[tuple[list[str], tuple[str, ...]]] = []
    if os.geteuid() == 0:
        ways.append((["unshare", "--mount", "--propagation", "private"], ("-m",)))
    ways.append(
        (
            ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private"],
            ("-U", "-m", "--preserve-credentials"),
        )
    )
    problems: list[str] = []
    for unshare, flags in ways:
        holder = subprocess.Popen(
            [*unshare, "sh", "-c", script, str(mount)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert holder.stdout is not None and holder.stderr is not None
        if holder.stdout.readline().strip() == "mounted":
            try:
                yield SmallDisk(mount, holder.pid, ("nsenter", "-t", str(holder.pid), *flags))
            finally:
                holder.send_signal(signal.SIGTERM)
                holder.wait(10)
                holder.stdout.close()
                holder.stderr.close()
            return
        holder.wait(10)
        problems.append(" ".join(holder.stderr.read().split()) or f"exit {holder.returncode}")
        holder.stdout.close()
        holder.stderr.close()
    pytest.skip(f"{NEEDS}; here: {'; '.join(problems)}")
