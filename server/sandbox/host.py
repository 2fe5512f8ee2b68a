"""What this machine offers a sandbox, found once at start-up and said in words.

bubblewrap (Debian's ``bubblewrap``) makes the namespaces; it is started through ``setpriv``
as an unprivileged user (``nobody`` unless told otherwise), so even a ladder run as root never
gives a bot a root-owned process outside its namespaces. Memory and process-count bounds per
bot need a writable cgroup (v1 ``memory`` and ``pids`` here); without one they fall back to
rlimits, which the start-up line says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: The unprivileged user the sandbox runs as, outside its namespaces.
OUTSIDE_USER = 65534
CGROUP_V1 = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Host:
    bwrap: str | None
    setpriv: str | None
    #: Why a sandbox cannot be made here (None: it can).
    problem: str | None
    #: Writable cgroup v1 hierarchies for per-bot bounds (None where missing).
    memory_cgroup: Path | None
    pids_cgroup: Path | None
    #: A writable cgroup v1 ``cpu`` hierarchy: the cores a bot's processes may use together.
    cpu_cgroup: Path | None = None

    def as_sandbox_user(self) -> list[str]:
        """The argv prefix that drops to the sandbox's unprivileged user: ``setpriv`` when
        this process is root (a ladder run as another user starts bubblewrap as itself)."""
        if os.geteuid() != 0 or self.setpriv is None:
            return []
        return [
            self.setpriv,
            f"--reuid={OUTSIDE_USER}",
            f"--regid={OUTSIDE_USER}",
            "--clear-groups",
        ]

    def bounds(self) -> list[str]:
        """One line per bound, saying whether a cgroup or only an rlimit holds it."""
        if self.problem:
            return [f"no sandbox: {self.problem}"]
        memory = (
            "cgroup v1 memory"
            if self.memory_cgroup
            else "RLIMIT_DATA of each process only (no memory cgroup: shared memory escapes it)"
        )
        pids = (
            "cgroup v1 pids"
            if self.pids_cgroup
            else "RLIMIT_NPROC only (no pids cgroup: it counts every process of the sandbox user)"
        )
        cpu = "cgroup v1 cpu quota" if self.cpu_cgroup else "none (no cpu cgroup): all cores"
        return [
            "sandbox: bubblewrap, user/pid/ipc/mount/net/uts/cgroup namespaces, no network",
            f"memory per bot: {memory}",
            f"processes per bot: {pids}",
            f"cores per bot: {cpu}",
        ]


def detect() -> Host:
    """Look for bubblewrap and setpriv, try one sandbox, and find writable cgroups."""
    bwrap, setpriv = shutil.which("bwrap"), shutil.which("setpriv")
    problem = None
    if bwrap is None:
        problem = "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    elif setpriv is None:
        problem = "setpriv is not installed (Debian: util-linux)"
    else:
        problem = _try(bwrap, setpriv)
    return Host(
        bwrap,
        setpriv,
        problem,
        _writable(CGROUP_V1 / "memory"),
        _writable(CGROUP_V1 / "pids"),
        _writable(CGROUP_V1 / "cpu"),
    )


def _try(bwrap: str, setpriv: str) -> str | None:
    drop = [setpriv, f"--reuid={OUTSIDE_USER}", f"--regid={OUTSIDE_USER}", "--clear-groups"]
    argv = [
        *(drop if os.geteuid() == 0 else []),
        bwrap,
        "--unshare-all",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "/usr/bin/true",
    ]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap could not be started ({error})"
    if done.returncode != 0:
        said = " ".join(done.stderr.split())[:200] or f"exit {done.returncode}"
        return f"bubblewrap cannot make namespaces here as an unprivileged user ({said})"
    return None


def _writable(hierarchy: Path) -> Path | None:
    """Where per-bot cgroups go in ``hierarchy`` (its ``kassen`` child), if this user may
    make them; nothing is created while looking."""
    if (hierarchy / "tasks").exists() and os.access(hierarchy, os.W_OK):
        return hierarchy / "kassen"
    return None
