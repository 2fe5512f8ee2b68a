"""What the submitted bots' sandbox costs: start-up and memory; figures in docs/performance.md.

    python -m benchmarks.sandbox [--runs 10] [--idle 10,50]

* start-up: from ``create_match`` to the seat joined, for the Python example bot and the Go
  example bot (its binary, ``examples/go/bin/bot``, built by ``examples/go/build.sh``): started
  bare (a plain subprocess), as a launched command bot (the ``cmd:`` box) and in the sandbox
  (cgroup + setpriv + bubblewrap, referee over the Unix socket); medians of ``--runs`` each;
* memory: N sandboxes left idle (``sleep``, and the Python SDK imported), measured by their
  cgroups (every process of a sandbox, bubblewrap's included, is charged there).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from games.contract import GameConfig
from games.policies.registry import make_policy
from server.app import running_server
from server.logs import configure
from server.referee import CommandBot, LocalBot, Referee
from server.sandbox.bwrap import Sandboxed, new_folder, sandbox_area, sandbox_argv
from server.sandbox.cgroup import BotCgroup, Bounds
from server.sandbox.host import detect
from server.sandbox.seat_socket import seat_socket
from server.settings import MatchSettings, TimeControl
from tournament.submissions.kit import SandboxKit
from tournament.submissions.manifest import Manifest

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOT = ROOT / "examples" / "python" / "bot.py"
GO_BOT = ROOT / "examples" / "go" / "bin" / "bot"
MB = 1024 * 1024


SETTINGS = MatchSettings(
    game="rumble-nation",
    config=GameConfig(players=2),
    seed=1,
    time_control=TimeControl(decision_ms=5000, bank_ms=10_000),
    join_timeout_ms=60_000,
)


async def join_seconds(referee: Referee, bot: CommandBot | list[str], cwd: Path) -> float:
    """Seconds from creating a match to the seat joined (the match then plays out): ``bot``
    launched by the referee, or (an argv) started here with nothing around it."""
    started = time.perf_counter()
    local = {1: LocalBot(make_policy("random", "rumble-nation", 1), "random")}
    process = None
    if isinstance(bot, CommandBot):
        match, _ = referee.create_match(SETTINGS, local=local, commands={0: bot})
    else:
        match, tickets = referee.create_match(SETTINGS, local=local)
        env = {**os.environ, "KASSEN_ADDRESS": referee.address, "KASSEN_TICKET": tickets[0]}
        process = await asyncio.create_subprocess_exec(
            *bot, cwd=cwd, env=env, stdout=asyncio.subprocess.DEVNULL
        )
    seat = match.seats[0]
    await asyncio.wait_for(seat.ever_joined.wait(), 60)  # type: ignore[attr-defined]
    joined = time.perf_counter() - started
    await match.finished.wait()
    if process is not None:
        await process.wait()
    return joined


async def startup(runs: int) -> list[tuple[str, float, float, float]]:
    """(bot, median seconds started bare, as a launched bot, in the sandbox) for each bot."""
    parent = Path(tempfile.mkdtemp(prefix="kassen-bench-"))
    os.chmod(parent, 0o711)
    rows = []
    try:
        kit = SandboxKit.make(parent, ("python", "binary"))
        bots = {"python": _python_folder(kit.area)}
        if GO_BOT.exists():
            bots["go"] = _binary_folder(kit.area, GO_BOT)
        else:
            print(f"(go skipped: build {GO_BOT} with examples/go/build.sh)")
        async with (
            running_server("127.0.0.1:0") as referee,
            seat_socket(referee, kit.area) as socket_dir,
        ):
            for name, (folder, manifest, plain) in bots.items():
                sandboxed = CommandBot(
                    command=[],
                    name=name,
                    sandbox=kit.run_command(folder, manifest, socket_dir),
                )
                direct = CommandBot(command=plain, name=name, cwd=str(folder))
                bare, plain_times, boxed_times = [], [], []
                for _ in range(runs):
                    bare.append(await join_seconds(referee, plain, folder))
                    plain_times.append(await join_seconds(referee, direct, folder))
                    boxed_times.append(await join_seconds(referee, sandboxed, folder))
                medians = [statistics.median(t) for t in (bare, plain_times, boxed_times)]
                rows.append((name, medians[0], medians[1], medians[2]))
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    return rows


def _python_folder(area: Path) -> tuple[Path, Manifest, list[str]]:
    folder = new_folder(area, "bench-python")
    shutil.copy(PYTHON_BOT, folder / "bot.py")
    os.chmod(folder / "bot.py", 0o644)
    plain = [sys.executable, str(folder / "bot.py")]
    return folder, Manifest(runtime="python", run="python bot.py"), plain


def _binary_folder(area: Path, binary: Path) -> tuple[Path, Manifest, list[str]]:
    folder = new_folder(area, "bench-binary")
    shutil.copy(binary, folder / "bot")
    os.chmod(folder / "bot", 0o755)
    return folder, Manifest(runtime="binary", run="./bot"), [str(folder / "bot")]


async def idle_memory(count: int, command: str) -> float:
    """Mean MB charged to each of ``count`` idle sandboxes running ``command``."""
    host = detect()
    assert host.memory_cgroup is not None, "needs a memory cgroup"
    parent = Path(tempfile.mkdtemp(prefix="kassen-bench-"))
    os.chmod(parent, 0o711)
    area = sandbox_area(parent)
    kit = SandboxKit.make(parent, ("python",))
    runtime = kit.runtimes["python"]
    cgroups: list[BotCgroup] = []
    processes = []
    try:
        for _ in range(count):
            folder = new_folder(area, "idle")
            box = Sandboxed(
                bot_dir=folder,
                command=command,
                env=runtime.environment(),
                mounts=runtime.mounts,
            )
            cgroup = BotCgroup.create(host, Bounds(memory_bytes=512 * MB, processes=64))
            cgroups.append(cgroup)
            processes.append(
                await asyncio.create_subprocess_exec(
                    *cgroup.enter_argv(sandbox_argv(host, box)),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                )
            )
        await asyncio.sleep(3.0)  # every one started and settled
        used = [int((c.folders[0] / "memory.usage_in_bytes").read_text()) for c in cgroups]
        return statistics.mean(used) / MB
    finally:
        for cgroup in cgroups:
            cgroup.remove()
        for process in processes:
            await process.wait()
        shutil.rmtree(parent, ignore_errors=True)


async def main_async(runs: int, idle: list[int]) -> None:
    print(
        f"# sandbox benchmark, {platform.node()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}"
    )
    print("start-up: create_match → seat joined (median of", runs, "runs)")
    for name, bare, plain, boxed in await startup(runs):
        print(
            f"  {name:<7} bare {bare * 1000:6.1f} ms   launched (cmd:) {plain * 1000:6.1f} ms   "
            f"sandboxed {boxed * 1000:6.1f} ms: {boxed / bare:.2f}x bare, "
            f"{boxed / plain:.2f}x launched"
        )
    print("memory of idle sandboxes (mean charged to each one's cgroup)")
    for count in idle:
        asleep = await idle_memory(count, "exec sleep 3600")
        python = await idle_memory(
            count, "exec python -c 'import client_sdk, time; time.sleep(3600)'"
        )
        print(
            f"  {count:>3} sandboxes: sleep {asleep:5.1f} MB each, Python SDK {python:5.1f} MB each"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--idle", default="10,50", help="counts of idle sandboxes, e.g. 10,50")
    args = parser.parse_args(argv)
    host = detect()
    if host.problem:
        print(f"no sandbox here: {host.problem}", file=sys.stderr)
        return 1
    configure("warning", json=False)
    asyncio.run(main_async(args.runs, [int(n) for n in args.idle.split(",") if n]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
