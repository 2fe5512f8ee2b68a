"""Per-bot bounds that hold for all of a bot's processes: a fork bomb stops at its process
count, memory beyond the bound (also through /dev/shm and shared mappings) gets the bot
killed and said so, and nothing it leaves behind (setsid, double fork) outlives kill_all."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sandbox.bwrap import Sandboxed, new_folder, sandbox_argv
from server.sandbox.cgroup import BotCgroup, Bounds
from server.sandbox.host import detect

HOST = detect()
pytestmark = pytest.mark.skipif(
    HOST.problem is not None or HOST.memory_cgroup is None or HOST.pids_cgroup is None,
    reason=HOST.problem or "no writable cgroup v1 memory and pids hierarchies here",
)
MB = 1024 * 1024


@pytest.fixture
def cgroup() -> Iterator[BotCgroup]:
    group = BotCgroup.create(HOST, Bounds(memory_bytes=96 * MB, processes=24))
    try:
        yield group
    finally:
        group.remove()
    assert not any(folder.exists() for folder in group.folders)


def start(area: Path, cgroup: BotCgroup, script: str, tmpfs_mb: int = 256) -> subprocess.Popen[str]:
    bot = new_folder(area, "bot")
    (bot / "hostile.py").write_text(script, encoding="utf-8")
    (bot / "hostile.py").chmod(0o644)
    box = Sandboxed(bot, "exec /usr/bin/python3 hostile.py", tmpfs_bytes=tmpfs_mb * MB)
    argv = cgroup.enter_argv(sandbox_argv(HOST, box))
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_fork_bomb_stops_at_the_process_bound(area: Path, cgroup: BotCgroup) -> None:
    bot = start(
        area,
        cgroup,
        "import os, time\n"
        "made = 0\n"
        "for _ in range(500):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30); os._exit(0)\n"
        "        made += 1\n"
        "    except OSError:\n"
        "        break\n"
        "print('forked', made, flush=True)\n",
    )
    out, _ = bot.communicate(timeout=60)
    assert 5 < int(out.split()[1]) < 24, out
    assert len(cgroup.pids()) <= 24
    cgroup.kill_all()
    assert not cgroup.pids()


@pytest.mark.parametrize(
    "allocation",
    [
        "b = bytearray(400 * 1024 * 1024)",
        # shared memory: a tmpfs file and a shared anonymous mapping, both charged to the bot
        "f = open('/dev/shm/x', 'wb')\nfor _ in range(200): f.write(bytes(1 << 20))",
        "import mmap\nm = mmap.mmap(-1, 400 << 20, flags=mmap.MAP_SHARED)\n"
        "for i in range(0, 400 << 20, 4096): m[i] = 1",
    ],
    ids=["heap", "dev-shm", "map-shared"],
)
def test_memory_beyond_the_bound_is_killed_and_said(
    area: Path, cgroup: BotCgroup, allocation: str
) -> None:
    bot = start(area, cgroup, allocation + "\nprint('ALLOCATED')\n", tmpfs_mb=512)
    out, _ = bot.communicate(timeout=60)
    assert "ALLOCATED" not in out
    assert cgroup.oom_kills() >= 1 or bot.returncode != 0


LEAVES_ONE_BEHIND = (
    "import os, sys, time\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        time.sleep(600)\n"
    "    os._exit(0)\n"
    "print('left one behind', flush=True)\n"
    "if sys.argv[1:] == ['stay']:\n"
    "    time.sleep(600)\n"
)


def wait_until_empty(cgroup: BotCgroup, within_s: float) -> set[int]:
    deadline = time.monotonic() + within_s
    while (left := cgroup.pids()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def test_what_a_bot_leaves_behind_dies_with_its_sandbox(area: Path, cgroup: BotCgroup) -> None:
    """The sandbox's PID namespace ends with the bot: a setsid grandchild goes with it."""
    bot = start(area, cgroup, LEAVES_ONE_BEHIND)
    out, _ = bot.communicate(timeout=60)
    assert "left one behind" in out
    assert wait_until_empty(cgroup, 5.0) == set()


def test_kill_all_ends_a_running_bot_and_everything_it_started(
    area: Path, cgroup: BotCgroup
) -> None:
    bot = start(area, cgroup, LEAVES_ONE_BEHIND.replace("sys.argv[1:] == ['stay']", "True"))
    assert bot.stdout is not None
    assert bot.stdout.readline().strip() == "left one behind"
    assert len(cgroup.pids()) >= 3  # the shell-turned-setpriv-turned-bwrap, its init, the bot...
    cgroup.kill_all()
    assert bot.wait(10) != 0
    assert cgroup.pids() == set()


def test_without_a_memory_cgroup_an_rlimit_stands_in(area: Path) -> None:
    """A host without a memory (or pids) cgroup still bounds a bot's heap (RLIMIT_DATA) and
    its processes (RLIMIT_NPROC), as its start-up line says."""
    from dataclasses import replace

    bare = replace(HOST, memory_cgroup=None, pids_cgroup=None, cpu_cgroup=None)
    assert any("RLIMIT_DATA" in line for line in bare.bounds())
    group = BotCgroup.create(bare, Bounds(memory_bytes=64 * MB, processes=24))
    assert group.folders == () and (group.data_bytes, group.nproc) == (64 * MB, 24)
    bot = start(
        area,
        group,
        "try:\n"
        "    hog = bytearray(256 * 1024 * 1024)\n"
        "    print('allocated', len(hog), flush=True)\n"
        "except MemoryError:\n"
        "    print('refused', flush=True)\n",
    )
    out, _ = bot.communicate(timeout=60)
    assert out.strip() == "refused"
