"""Per-bot memory, process-count and CPU bounds in cgroup v1 (the ``memory``, ``pids`` and
``cpu`` controllers), and killing everything a bot left behind.

A bot's sandbox is put into its own cgroup before bubblewrap starts (``enter_argv``), so every
process it forks, double-forks or ``setsid``s stays counted and killable: the memory bound
holds for the sum of its processes (``/dev/shm`` and ``MAP_SHARED`` pages included: shared
memory is charged to the cgroup that touched it), ``pids.max`` stops a fork bomb, and
``cpu.cfs_quota_us`` holds the cores all its processes use together (one bot spinning eight
processes does not take the host's every core from the referee and the other bots), and
``kill_all`` empties the cgroup when the match ends, whatever the bot did.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from server.sandbox.host import Host

#: Each process's bots' cgroups are in a folder named by this and its pid.
OWNER_PREFIX = "owner-"
#: The CPU hard limit is this many seconds above the soft one: SIGXCPU first, SIGKILL after.
CPU_HARD_MARGIN_S = 5
#: The period of the CPU quota (``cpu.cfs_period_us``): 100 ms, the kernel's default.
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class Bounds:
    memory_bytes: int = 512 * 1024 * 1024
    processes: int = 64
    #: Cores its processes may use together; 0: no bound.
    cpus: float = 0.0


@dataclass
class BotCgroup:
    """The cgroups (one per controller the host offers) of one sandboxed bot."""

    folders: tuple[Path, ...]
    #: Where the host has no cgroup for a bound, the rlimit that stands in for it
    #: (``enter_argv`` sets them): RLIMIT_DATA bytes for memory, RLIMIT_NPROC for processes.
    data_bytes: int = 0
    nproc: int = 0

    @classmethod
    def create(cls, host: Host, bounds: Bounds, name: str = "") -> BotCgroup:
        """A new cgroup, under this process's own folder (``sweep_dead`` finds those of
        processes that died without removing theirs)."""
        name = name or f"{OWNER_PREFIX}{os.getpid()}/bot-{secrets.token_hex(6)}"
        folders = []
        if host.memory_cgroup is not None:
            memory = host.memory_cgroup / name
            memory.mkdir(parents=True)
            _write(memory / "memory.limit_in_bytes", bounds.memory_bytes)
            with contextlib.suppress(OSError):  # swap accounting is not always on
                _write(memory / "memory.memsw.limit_in_bytes", bounds.memory_bytes)
            folders.append(memory)
        if host.pids_cgroup is not None:
            pids = host.pids_cgroup / name
            pids.mkdir(parents=True)
            _write(pids / "pids.max", bounds.processes)
            folders.append(pids)
        if host.cpu_cgroup is not None and bounds.cpus > 0:
            cpu = host.cpu_cgroup / name
            cpu.mkdir(parents=True)
            _write(cpu / "cpu.cfs_period_us", CPU_PERIOD_US)
            _write(cpu / "cpu.cfs_quota_us", max(1000, round(bounds.cpus * CPU_PERIOD_US)))
            folders.append(cpu)
        return cls(
            tuple(folders),
            data_bytes=0 if host.memory_cgroup is not None else bounds.memory_bytes,
            nproc=0 if host.pids_cgroup is not None else bounds.processes,
        )

    def enter_argv(
        self, argv: list[str], cpu_s: int = 0, file_bytes: int = 0, open_files: int = 0
    ) -> list[str]:
        """``argv`` started from a shell that first moves itself into these cgroups and, with
        ``cpu_s``, bounds the CPU seconds of each of its processes (SIGXCPU at ``cpu_s``,
        SIGKILL ``CPU_HARD_MARGIN_S`` later: RLIMIT_CPU, inherited by every fork); with
        ``file_bytes``, the size of any file they write (SIGXFSZ beyond: RLIMIT_FSIZE); with
        ``open_files``, the descriptors each may hold (RLIMIT_NOFILE, soft and hard)."""
        steps = [f'echo $$ > "${i + 1}"' for i in range(len(self.folders))]
        if cpu_s:
            steps += [f"ulimit -S -t {cpu_s}", f"ulimit -H -t {cpu_s + CPU_HARD_MARGIN_S}"]
        if file_bytes:  # /bin/sh's ulimit -f counts 512-byte blocks (POSIX)
            steps.append(f"ulimit -f {-(-file_bytes // 512)}")
        if open_files:
            steps.append(f"ulimit -n {open_files}")
        if self.data_bytes or self.nproc:
            # Stand-ins for missing cgroups (host.Host.bounds says so), by util-linux's prlimit:
            # a POSIX shell's ulimit has no portable flag for the process count.
            stand_ins = [f"--data={self.data_bytes}"] if self.data_bytes else []
            stand_ins += [f"--nproc={self.nproc}"] if self.nproc else []
            argv = ["prlimit", *stand_ins, "--", *argv]
        if not steps:
            return argv
        script = " && ".join([*steps, f"shift {len(self.folders)}", 'exec "$@"'])
        procs = [str(folder / "cgroup.procs") for folder in self.folders]
        return ["/bin/sh", "-c", script, "sh", *procs, *argv]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError):
                text = (folder / "cgroup.procs").read_text()
                found |= {int(line) for line in text.split()}
        return found

    def oom_kills(self) -> int:
        """How many of its processes the kernel killed for want of memory."""
        for folder in self.folders:
            control = folder / "memory.oom_control"
            if control.exists():
                for line in control.read_text().splitlines():
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        return 0

    def signal_all(self) -> None:
        """SIGKILL every process in it once, without waiting (safe on an event loop)."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def kill_all(self, within_s: float = 5.0) -> None:
        """SIGKILL every process in it until none is left (new forks included)."""
        deadline = time.monotonic() + within_s
        while pids := self.pids():
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                raise RuntimeError(f"processes {sorted(pids)} survive SIGKILL")
            time.sleep(0.01)

    def remove(self) -> None:
        """Kill what is left and remove the cgroups (a cgroup with processes cannot go)."""
        self.kill_all()
        for folder in self.folders:
            for _ in range(100):  # the kernel frees a killed process's cgroup a moment later
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def sweep_dead(host: Host) -> int:
    """Kill what is left in the cgroups of Kassen processes that are gone (a ladder killed
    with ``kill -9`` cannot remove its bots' cgroups; their bubblewrap died with it, so they
    are normally empty) and remove them; how many were removed."""
    removed = 0
    for hierarchy in (host.memory_cgroup, host.pids_cgroup, host.cpu_cgroup):
        if hierarchy is None or not hierarchy.is_dir():
            continue
        for owner in hierarchy.iterdir():
            pid = owner.name.removeprefix(OWNER_PREFIX)
            if not owner.is_dir() or not pid.isdigit() or Path(f"/proc/{pid}").exists():
                continue
            for child in [c for c in owner.iterdir() if c.is_dir()]:
                BotCgroup((child,)).remove()
                removed += 1
            with contextlib.suppress(OSError):
                owner.rmdir()
    return removed


def _write(path: Path, value: int) -> None:
    path.write_text(f"{value}\n")
