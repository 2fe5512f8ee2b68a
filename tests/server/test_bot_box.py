"""Command bots run in a box (server/bot_box.py): their own session, resource limits, stderr
read into a bounded tail at a bounded rate, and no process of theirs left behind: not after
their match, not after ``kassen match`` returns, not after the runner is killed with SIGKILL.

Every bot here is a real process: a small Python script written into ``tmp_path``. Processes
are found by a marker on their command line (the launcher's, the bot's and the children's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
import structlog

from games import GameConfig
from games.policies import make_policy
from server.app import running_server
from server.bot_box import DEFAULT_LIMITS, BoxedBot, BoxLimits
from server.bot_stderr import BURST_BYTES, LOGGED_LINES, RATE_BYTES_S, TAIL_BYTES
from server.referee import CommandBot, LocalBot
from server.results import Reason
from server.settings import MatchSettings
from tests.conftest import Depth
from tournament.config import BotEntry, ConfigError, TournamentConfig, load_file, validate
from tournament.runner import Finished, play_on_referee
from tournament.schedule import ScheduledMatch

ROOT = Path(__file__).resolve().parents[2]

BOT = '''
import os, signal, sys, time

marker, mode, folder = sys.argv[1], sys.argv[2], sys.argv[3]


def child():
    """A child that ignores SIGTERM, holds the bot's stderr and would outlive it."""
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
        os._exit(0)
    return pid


def record(*pids):
    path = os.path.join(folder, f"{os.getpid()}.pids")
    with open(path + ".tmp", "w") as out:
        out.write(" ".join(str(p) for p in pids))
    os.replace(path + ".tmp", path)


if mode == "play":  # plays a match, then lingers with its child
    record(os.getpid(), child())
    import random
    from client_sdk import Bot, run_bot

    class Random(Bot):
        name = "random"

        def choose(self, request):
            return random.randrange(len(request.options))

    run_bot(Random())
    time.sleep(3600)
elif mode == "hang":  # never joins; the test kills the runner meanwhile
    record(os.getpid(), child())
    time.sleep(3600)
elif mode == "crash":  # exits at once while its child still holds stderr
    record(os.getpid(), child())
    print("boom: the bot gives up", file=sys.stderr, flush=True)
    sys.exit(3)
elif mode == "alloc":
    block = bytearray(4 << 30)
    time.sleep(3600)
elif mode == "spin":
    while True:
        pass
elif mode == "files":
    held = [open(__file__) for _ in range(100)]
    time.sleep(3600)
elif mode == "limits":  # says which limits it runs with
    import resource

    for name in ("RLIMIT_DATA", "RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_CORE"):
        print(name, *resource.getrlimit(getattr(resource, name)), file=sys.stderr)
elif mode == "spew":  # writes to stderr as fast as it can, forever
    line = b"x" * 1023 + b"\\n"
    while True:
        os.write(2, line * 64)
'''


@pytest.fixture
def marker() -> Iterator[str]:
    """A word on the command line of every process of this test; none may survive it."""
    word = f"kassen-box-{uuid.uuid4().hex}"
    yield word
    for pid in processes_with(word):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def processes_with(marker: str, *, besides: tuple[int, ...] = ()) -> list[int]:
    """Live processes (zombies count as gone) whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in besides:
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in command and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def gone(pids: list[int]) -> bool:
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            return False
    return True


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition()`` (a process state, which has no event to wait on) until true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def bot_command(tmp_path: Path, marker: str, mode: str) -> list[str]:
    script = tmp_path / "box_bot.py"
    script.write_text(BOT)
    folder = tmp_path / "pids"
    folder.mkdir(exist_ok=True)
    return ["python", str(script), marker, mode, str(folder)]


def recorded(tmp_path: Path) -> dict[int, list[int]]:
    """The pids each bot recorded (itself and its child), by the bot's pid."""
    return {
        int(path.name.split(".")[0]): [int(p) for p in path.read_text().split()]
        for path in (tmp_path / "pids").glob("*.pids")
    }


def kassen_match(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kassen", "match", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )


def test_a_bot_whose_child_outlives_it_leaves_no_process_after_kassen_match(
    tmp_path: Path, marker: str
) -> None:
    command = " ".join(bot_command(tmp_path, marker, "play"))
    runner = kassen_match(
        "rumble-nation", "--seed", "4", "--seat", f"cmd:{command}", "--seat", "random",
        "--replays", str(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    out, err = runner.communicate(timeout=120)
    assert runner.returncode == 0, err
    assert "Result: completed" in out and "forfeited" not in out, out
    assert len(recorded(tmp_path)) == 1
    assert wait_until(lambda: not processes_with(marker), 10), processes_with(marker)


def test_no_bot_process_survives_a_kill_9_of_kassen_match(tmp_path: Path, marker: str) -> None:
    command = " ".join(bot_command(tmp_path, marker, "hang"))
    runner = kassen_match(
        "rumble-nation", "--seat", f"cmd:{command}", "--seat", f"cmd:{command}",
        "--replays", str(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    try:
        assert wait_until(lambda: len(recorded(tmp_path)) == 2, 60), runner.stderr
        launched = [pid for pids in recorded(tmp_path).values() for pid in pids]
        assert len(processes_with(marker, besides=(runner.pid,))) >= 4  # launched as recorded
    finally:
        runner.kill()
        runner.wait(timeout=30)
    assert wait_until(lambda: gone(launched), 10), launched
    assert wait_until(lambda: not processes_with(marker), 10), processes_with(marker)


def test_a_bot_that_exits_while_its_child_holds_stderr_is_reported_crashed_at_once(
    tmp_path: Path, marker: str
) -> None:
    command = " ".join(bot_command(tmp_path, marker, "crash"))
    started = time.monotonic()
    runner = kassen_match(
        "rumble-nation", "--seat", f"cmd:{command}", "--seat", "random",
        "--replays", str(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    out, err = runner.communicate(timeout=120)
    took = time.monotonic() - started
    assert runner.returncode == 0, err
    crashed = [line for line in out.splitlines() if "bot_crashed" in line]
    assert len(crashed) == 1, out
    assert "exited with code 3" in crashed[0] and "boom: the bot gives up" in crashed[0]
    assert "no_show" not in out
    assert took < 25, f"{took:.1f} s: reported after the join window, not at the exit"
    assert "Event loop is closed" not in err and "Traceback" not in err, err
    assert wait_until(lambda: not processes_with(marker), 10), processes_with(marker)


def test_bots_are_gone_after_each_match_of_a_tournament(
    tmp_path: Path, marker: str, depth: Depth
) -> None:
    """The bot lingers after MatchOver, so each match takes the whole exit grace (5 s): one
    match at the fast depth, a second on the same referee with ``--slow``."""
    matches = depth(fast=1, slow=2)
    command = " ".join(bot_command(tmp_path, marker, "play"))
    config = TournamentConfig(
        game="rumble-nation", players=2, seed=7, bots=(BotEntry("lingers", "command", command),)
    )
    bots = {"lingers": config.bots[0], "random": BotEntry("random", "builtin", "random")}
    lingering: list[list[int]] = []

    async def tournament() -> None:
        async with running_server() as referee:
            for index in range(matches):
                seen = set(recorded(tmp_path))
                spec = ScheduledMatch(index, 0, 100 + index, ("lingers", "random"))
                finished = await play_on_referee(referee, config, bots, spec)
                assert finished is not None
                new = [
                    pid
                    for bot, pids in recorded(tmp_path).items()
                    if bot not in seen
                    for pid in pids
                ]
                assert len(new) == 2
                # The match is over; its bot and the bot's child must go (the bot has a grace
                # period to exit by itself first), long before the tournament ends.
                if not await asyncio.to_thread(wait_until, partial(gone, new), 15):
                    lingering.append(new)

    asyncio.run(tournament())
    assert not lingering, f"bots still running after their match: {lingering}"
    assert len(recorded(tmp_path)) == matches


async def one_match(command: list[str], limits: BoxLimits = DEFAULT_LIMITS) -> tuple[str, str]:
    """A match of the command bot against a built-in: its seat's reason and detail."""
    async with running_server() as referee:
        settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=9)
        local = {1: LocalBot(make_policy("random", "rumble-nation", 1), "random")}
        bot = CommandBot(command, "boxed", limits=limits)
        match, _ = referee.create_match(settings, local, commands={0: bot})
        await asyncio.wait_for(match.finished.wait(), 60)
        assert match.result is not None
        seat = match.result.seats[0]
        return seat.reason.value, seat.detail


def test_a_bot_allocating_4_gib_is_stopped_by_the_default_memory_limit(
    tmp_path: Path, marker: str
) -> None:
    reason, detail = asyncio.run(one_match(bot_command(tmp_path, marker, "alloc")))
    assert reason == Reason.BOT_CRASHED.value, detail
    assert "MemoryError" in detail and f"memory_mb = {DEFAULT_LIMITS.memory_mb}" in detail, detail


def test_a_spinning_bot_is_stopped_by_its_cpu_limit(tmp_path: Path, marker: str) -> None:
    limits = BoxLimits(cpu_s=1)
    reason, detail = asyncio.run(one_match(bot_command(tmp_path, marker, "spin"), limits))
    assert reason == Reason.BOT_CRASHED.value, detail
    assert "SIGXCPU" in detail and "cpu_s = 1" in detail, detail


def test_a_bot_opening_too_many_files_is_stopped_by_its_limit(tmp_path: Path, marker: str) -> None:
    limits = BoxLimits(open_files=40)
    reason, detail = asyncio.run(one_match(bot_command(tmp_path, marker, "files"), limits))
    assert reason == Reason.BOT_CRASHED.value, detail
    assert "Too many open files" in detail and "open_files = 40" in detail, detail


def test_a_bot_flooding_stderr_is_read_at_a_bounded_rate_into_a_bounded_tail(
    tmp_path: Path, marker: str
) -> None:
    async def flood() -> tuple[int, int, float, float, bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
        with structlog.testing.capture_logs() as logs:
            box = await BoxedBot.launch(bot_command(tmp_path, marker, "spew"), env, label="spew")
            started, cpu = time.monotonic(), time.process_time()
            try:
                await asyncio.sleep(2)  # the bot writes as fast as it can meanwhile
            finally:
                elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
                await box.close()
        lines = sum(1 for entry in logs if entry["event"] == "bot_stderr")
        return box.stderr.received, lines, elapsed, cpu, box.stderr.tail

    received, lines, elapsed, cpu, tail = asyncio.run(flood())
    # Reading everything costs the referee a core (3.3 s of CPU in 5 s: docs/security.md).
    assert cpu < 0.3 * elapsed, f"the referee spent {cpu:.2f} s of CPU in {elapsed:.2f} s"
    # Unbounded, a pipe drains at hundreds of MB/s; here: the burst plus the rate.
    assert received <= BURST_BYTES + RATE_BYTES_S * (elapsed + 0.5), received
    assert received >= BURST_BYTES // 2  # it did read
    assert len(tail) <= TAIL_BYTES and b"x" * 100 in tail
    assert lines <= LOGGED_LINES
    assert wait_until(lambda: not processes_with(marker), 10), processes_with(marker)


def write_tournament(tmp_path: Path, command: str, bot_limits: str, limits: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f"""
[tournament]
game = "rumble-nation"
seed = 3

[tournament.limits]
{limits}

[[bots]]
name = "boxed"
command = {command!r}
{bot_limits}

[[bots]]
name = "random"
builtin = "random"
"""
    )
    return path


def test_limits_come_from_the_bot_over_the_tournament_over_the_defaults(tmp_path: Path) -> None:
    path = write_tournament(tmp_path, "python bot.py", "limits = {cpu_s = 7}", "memory_mb = 900")
    config = load_file(path)
    validate(replace(config, output=str(tmp_path)))
    assert config.bot_limits(config.bots[0]) == BoxLimits(
        memory_mb=900, cpu_s=7, open_files=DEFAULT_LIMITS.open_files, processes=0
    )
    again = TournamentConfig.from_dict(json.loads(json.dumps(config.to_dict())))  # resume
    assert again.bot_limits(again.bots[0]) == config.bot_limits(config.bots[0])


@pytest.mark.parametrize(
    ("bot_limits", "limits", "problem"),
    [
        ("limits = {memory = 5}", "", "unknown key memory (did you mean memory_mb?)"),
        ("limits = {cpu_s = -1}", "", "cpu_s must be at least 0"),
        ("limits = {open_files = true}", "", "open_files must be a whole number"),
        ("limits = 5", "", "limits must be a table"),
        ("", "memory_mb = 'lots'", "memory_mb must be a whole number"),
        ("", "cpus = 2", "unknown key cpus (did you mean cpu_s?)"),
    ],
)
def test_a_bad_limit_is_one_line_naming_it(
    tmp_path: Path, bot_limits: str, limits: str, problem: str
) -> None:
    path = write_tournament(tmp_path, "python bot.py", bot_limits, limits)
    with pytest.raises(ConfigError, match=re.escape(problem)):
        validate(replace(load_file(path), output=str(tmp_path)))


def test_limits_apply_to_command_bots_only(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[[bots]]\nname = "r"\nbuiltin = "random"\nlimits = {cpu_s = 1}\n')
    with pytest.raises(ConfigError, match="limits apply to command bots only"):
        load_file(path)


def test_a_tournament_bot_runs_with_its_own_limits(tmp_path: Path, marker: str) -> None:
    command = " ".join(bot_command(tmp_path, marker, "spin"))
    config = load_file(write_tournament(tmp_path, command, "limits = {cpu_s = 1}", ""))
    bots = {bot.name: bot for bot in config.bots}

    async def one() -> Finished:
        async with running_server() as referee:
            spec = ScheduledMatch(0, 0, 5, ("boxed", "random"))
            return await play_on_referee(referee, config, bots, spec)

    _, seats = asyncio.run(one())
    assert seats[0].reason == Reason.BOT_CRASHED.value and "SIGXCPU" in seats[0].detail, seats


def test_kassen_match_sets_the_limits_of_its_command_bots(tmp_path: Path, marker: str) -> None:
    command = " ".join(bot_command(tmp_path, marker, "spin"))
    runner = kassen_match(
        "rumble-nation", "--seat", f"cmd:{command}", "--seat", "random", "--bot-cpu-s", "1",
        "--replays", str(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    out, err = runner.communicate(timeout=120)
    assert runner.returncode == 0, err
    crashed = [line for line in out.splitlines() if "bot_crashed" in line]
    assert len(crashed) == 1 and "SIGXCPU" in crashed[0] and "cpu_s = 1" in crashed[0], out
    refused = kassen_match("rumble-nation", "--seat", "random", "--seat", "random",
                           "--bot-open-files", "-1", cwd=tmp_path)  # fmt: skip
    out, err = refused.communicate(timeout=60)
    assert refused.returncode == 2 and not out
    assert err.strip().splitlines() == [
        "kassen: error: --bot-open-files must be a whole number from 0 (no limit) to "
        "2147483647, not -1"
    ]


def test_the_bot_runs_with_the_limits_it_was_given(tmp_path: Path, marker: str) -> None:
    async def limits_seen(limits: BoxLimits) -> dict[str, tuple[int, int]]:
        box = await BoxedBot.launch(bot_command(tmp_path, marker, "limits"), {}, limits=limits)
        try:
            assert await box.wait() == 0, box.stderr.tail
        finally:
            await box.close()
        lines = [line.split() for line in box.stderr.tail.decode().splitlines() if line]
        return {name: (int(soft), int(hard)) for name, soft, hard in lines}

    given = BoxLimits(memory_mb=3000, cpu_s=20, open_files=64, processes=7, address_space_mb=9000)
    seen = asyncio.run(limits_seen(given))
    assert seen["RLIMIT_DATA"] == (3000 << 20, 3000 << 20)
    assert seen["RLIMIT_AS"] == (9000 << 20, 9000 << 20)
    assert seen["RLIMIT_CPU"] == (20, 25)  # SIGXCPU at the limit, SIGKILL 5 s later
    assert seen["RLIMIT_NOFILE"] == (64, 64)
    soft, hard = seen["RLIMIT_NPROC"]  # the user's tasks at launch + 7 (root ignores it)
    assert soft == hard and 7 < soft < resource.getrlimit(resource.RLIMIT_NPROC)[1]
    assert seen["RLIMIT_CORE"] == (0, 0)
    unlimited = asyncio.run(limits_seen(BoxLimits(memory_mb=0, cpu_s=0, open_files=0)))
    assert unlimited["RLIMIT_DATA"] == resource.getrlimit(resource.RLIMIT_DATA)
    assert unlimited["RLIMIT_AS"] == resource.getrlimit(resource.RLIMIT_AS)  # the default
    assert unlimited["RLIMIT_CPU"] == resource.getrlimit(resource.RLIMIT_CPU)
    assert unlimited["RLIMIT_NPROC"] == resource.getrlimit(resource.RLIMIT_NPROC)
