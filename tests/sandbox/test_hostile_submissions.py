"""Hostile submissions, each played through the path the ladder uses (``SandboxKit``: copied
into the sandbox area, built, run by the referee as a ``CommandBot`` with ``sandbox=``, the
referee reached only through its Play-only socket), and each held to the outcome declared
beside it in ``hostile_bots/<name>/expect.toml`` (hostile_bots/README.md lists them).

Every bot tries its attack, says on stderr what happened (``contained: ...``; ``LEAK: ...``
when an attack worked) and, where it can, then plays its seat to the end, so a contained
attack reads differently from a crash. Whatever each bot declares, every run is also checked
from the host: the listeners the test opened heard nothing, no canary (the ladder database,
the token file, a process environment, another submission's secret) appears in anything the
bot could print, the host process of the sandbox's own user is alive and running, the bot's
cgroups are gone and no process it started is left.

Real bubblewrap and cgroup v1, as root or not; skipped, naming what is missing, elsewhere.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from server.sandbox.cgroup import BotCgroup
from server.sandbox.host import OUTSIDE_USER, detect
from tournament.submissions.kit import SandboxKit

HOST = detect()
pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        HOST.problem is not None or HOST.memory_cgroup is None or HOST.pids_cgroup is None,
        reason=HOST.problem or "no writable cgroup v1 memory and pids hierarchies here",
    ),
]
BOTS = Path(__file__).parent / "hostile_bots"
NAMES = sorted(p.name for p in BOTS.iterdir() if (p / "expect.toml").is_file())
ROOT = Path(__file__).resolve().parents[2]
GAME = "rumble-nation"
#: The bound ``server.bot_stderr`` keeps of a bot's stderr, and room for the referee's note.
TAIL_BYTES = 8192 + 512


@dataclass
class Expect:
    """``expect.toml``: the limits a bot runs under and the outcome it must get."""

    about: str
    limits: dict[str, int] = field(default_factory=dict)
    build_limits: dict[str, int] = field(default_factory=dict)
    join_timeout_ms: int = 15_000
    reason: str = "completed"
    build: str = ""
    tail_has: list[str] = field(default_factory=list)
    tail_lacks: list[str] = field(default_factory=list)
    detail_has: list[str] = field(default_factory=list)
    max_seconds: float = 60.0
    filled_mb: int = 0
    forked_below: int = 0
    rss_growth_mb: int = 0
    max_folder_mb: float = 0.0
    marked_at_the_end: int = 0
    max_fds_grown: int = 0
    max_tasks: int = 0
    max_cores: float = 0.0
    cli: bool = False

    @classmethod
    def of(cls, name: str) -> Expect:
        data = tomllib.loads((BOTS / name / "expect.toml").read_text(encoding="utf-8"))
        return cls(
            about=data["about"],
            limits=data.get("limits", {}),
            build_limits=data.get("build_limits", {}),
            join_timeout_ms=data.get("match", {}).get("join_timeout_ms", 15_000),
            cli=data.get("cli", False),
            **data.get("expect", {}),
        )


@dataclass
class World:
    """What the host holds that a bot must not reach, and the placeholders of the bots'
    manifests (``@NAME@``) that tell the bots where it is."""

    placeholders: dict[str, str]
    canaries: list[str]
    stream_listeners: list[socket.socket]
    datagram_listeners: list[socket.socket]
    helper: subprocess.Popen[bytes]
    victim: Path
    victim_files: dict[str, bytes]

    def heard(self) -> list[str]:
        """What reached a listener: a connection waiting to be accepted, a datagram."""
        heard = []
        readable, _, _ = select.select(self.stream_listeners, [], [], 0)
        heard += [f"a connection to {s.getsockname()!r}" for s in readable]
        for each in self.datagram_listeners:
            try:
                data = each.recv(65536)
                heard.append(f"a datagram to {each.getsockname()!r}: {data[:40]!r}")
            except BlockingIOError:
                pass
        return heard


def host_address() -> str | None:
    """This host's own non-loopback address (the one its default route leaves by)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 9))  # no datagram is sent
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def as_sandbox_user(*argv: str) -> list[str]:
    """``argv`` as the sandbox's outside user, outside any sandbox."""
    if os.geteuid() != 0:
        return list(argv)
    return [
        "setpriv",
        f"--reuid={OUTSIDE_USER}",
        f"--regid={OUTSIDE_USER}",
        "--clear-groups",
        *argv,
    ]


@pytest.fixture(scope="module")
def kit() -> Iterator[SandboxKit]:
    parent = Path(tempfile.mkdtemp(prefix="kassen-hostile-"))
    os.chmod(parent, 0o711)
    try:
        yield SandboxKit.make(parent)
    finally:
        shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
def world(kit: SandboxKit, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """Canaries in files the sandbox's outside user could read but for its sandbox, in the
    environment of this process and of a host process of that user, and in another
    submission; listeners on loopback, the host's own address and an abstract socket."""
    token = secrets.token_hex(8)
    canaries = {name: f"CANARY-{name}-{token}" for name in ("DB", "TOKEN", "ENV", "VICTIM")}
    open_folder = Path(tempfile.mkdtemp(prefix="kassen-hostile-host-"))
    os.chmod(open_folder, 0o755)
    database, token_file = open_folder / "ladder.sqlite", open_folder / "organiser.token"
    database.write_text(f"SQLite format 3 {canaries['DB']}")
    token_file.write_text(canaries["TOKEN"])
    for each in (database, token_file):
        each.chmod(0o644)
    monkeypatch.setenv("KASSEN_ADMIN_TOKEN", canaries["ENV"])
    helper = subprocess.Popen(
        as_sandbox_user("/usr/bin/python3", "-c", "import time; time.sleep(3600)"),
        env={"PATH": "/usr/bin:/bin", "KASSEN_ADMIN_TOKEN": canaries["ENV"]},
    )
    victim_source = open_folder / "victim"
    victim_source.mkdir()
    (victim_source / "kassen-bot.toml").write_text('[bot]\nruntime = "binary"\nrun = "true"\n')
    (victim_source / "secret.txt").write_text(canaries["VICTIM"])
    from tournament.submissions.manifest import read_manifest

    victim = kit.copy_in(victim_source, read_manifest(victim_source))
    # Readable by that user outside a sandbox: only the sandbox stands between.
    for path in (database, victim / "secret.txt"):
        seen = subprocess.run(as_sandbox_user("cat", str(path)), capture_output=True, text=True)
        assert seen.stdout.endswith(canaries["DB" if path == database else "VICTIM"]), seen

    address = host_address()
    streams: list[socket.socket] = []
    datagrams: list[socket.socket] = []
    for kind, bucket in ((socket.SOCK_STREAM, streams), (socket.SOCK_DGRAM, datagrams)):
        for where in ("127.0.0.1", address or "127.0.0.1"):
            listener = socket.socket(socket.AF_INET, kind)
            listener.bind((where, 0))
            if kind == socket.SOCK_STREAM:
                listener.listen(16)
            listener.setblocking(False)
            bucket.append(listener)
    abstract = f"kassen-hostile-{token}"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind("\0" + abstract)
    unix.listen(16)
    streams.append(unix)
    placeholders = {
        "HOST_IP": address or "127.0.0.1",
        "TCP_LO": str(streams[0].getsockname()[1]),
        "TCP_HOST": str(streams[1].getsockname()[1]),
        "UDP_LO": str(datagrams[0].getsockname()[1]),
        "UDP_HOST": str(datagrams[1].getsockname()[1]),
        "ABSTRACT": abstract,
        "DATABASE": str(database),
        "TOKEN": str(token_file),
        "TEST_PID": str(os.getpid()),
        "HELPER_PID": str(helper.pid),
        "VICTIM": str(victim),
        "MARKER": f"kassen-hostile-marker-{token}",
    }
    files = {p.name: p.read_bytes() for p in victim.iterdir()}
    try:
        yield World(
            placeholders, list(canaries.values()), streams, datagrams, helper, victim, files
        )
    finally:
        helper.kill()
        helper.wait()
        for listener in (*streams, *datagrams):
            listener.close()
        shutil.rmtree(open_folder, ignore_errors=True)
        shutil.rmtree(victim, ignore_errors=True)


@pytest.fixture
def cgroups(monkeypatch: pytest.MonkeyPatch) -> list[BotCgroup]:
    """Every cgroup made for a build or a run during the test."""
    made: list[BotCgroup] = []
    create = BotCgroup.create.__func__  # type: ignore[attr-defined]

    def recording(cls: type[BotCgroup], *args: Any, **kwargs: Any) -> BotCgroup:
        group: BotCgroup = create(cls, *args, **kwargs)
        made.append(group)
        return group

    monkeypatch.setattr(BotCgroup, "create", classmethod(recording))
    return made


def submission(name: str, world: World, into: Path) -> Path:
    """A copy of the bot's folder with its manifest's placeholders filled in."""
    folder = into / name
    shutil.copytree(BOTS / name, folder)
    (folder / "expect.toml").unlink()
    manifest = folder / "kassen-bot.toml"
    text = manifest.read_text(encoding="utf-8")
    for key, value in world.placeholders.items():
        text = text.replace(f"@{key}@", value)
    assert "@" not in text, f"an unknown placeholder in {name}'s manifest: {text}"
    manifest.write_text(text, encoding="utf-8")
    return folder


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def marked_processes(marker: str) -> list[str]:
    """Processes (of any user) whose command line or environment holds ``marker`` (the bots
    that start processes put it in both), but for this one."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (
                (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            )
            environ = (entry / "environ").read_bytes().decode("utf-8", "replace")
            uid = (entry / "status").read_text().split("\nUid:")[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in cmdline or marker in environ:
            found.append(f"pid {entry.name} uid {uid}: {cmdline.strip()[-100:]}")
    return found


def process_state(pid: int) -> str:
    """R, S, T (stopped)... from /proc/PID/stat."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def wait_for(condition: Any, within_s: float) -> Any:
    """Poll ``condition`` until it is falsy (returned) or ``within_s`` runs out (returned)."""
    deadline = time.monotonic() + within_s
    while (left := condition()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@dataclass
class Outcome:
    build_summary: str = ""
    build_seconds: float = 0.0
    folder_mb: float = 0.0
    reason: str = ""
    detail: str = ""
    tail: str = ""
    summary: bytes = b""
    other_takeovers: int = 0
    other_forfeited: bool = False
    seconds: float = 0.0
    changed: list[str] = field(default_factory=list)
    #: What the build left in its folder that the host should not hold: set-ID bits, files
    #: others may write, files not the ladder's.
    unsafe: list[str] = field(default_factory=list)
    #: Its processes found by the marker when the match ended (the scan sees them).
    marked: list[str] = field(default_factory=list)
    #: The most descriptors this process (the referee's) held during the match, over before.
    fds_grown: int = 0
    #: This process's most resident memory during the match.
    peak_mb: float = 0.0
    #: The most asyncio tasks at once in this process (a Play stream is one or two).
    peak_tasks: int = 0


def unsafe_files(folder: Path) -> list[str]:
    """Files under ``folder`` (itself included) that are set-user-ID or set-group-ID, that
    users other than the owner may write, or that are not this process's user's."""
    found = []
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            continue
        if info.st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_IWGRP | stat.S_IWOTH):
            found.append(f"{path.relative_to(folder)}: mode {stat.filemode(info.st_mode)}")
        if info.st_uid != os.geteuid():
            found.append(f"{path.relative_to(folder)}: owned by uid {info.st_uid}")
    return found


def listing(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.lstat().st_size for p in sorted(folder.rglob("*"))}


class Peaks:
    """The most descriptors and resident memory this process (the referee's) holds, looked
    at every 50 ms."""

    def __init__(self) -> None:
        self.descriptors = 0
        self.resident_mb = 0.0
        self.tasks = 0

    async def watch(self) -> None:
        while True:
            self.descriptors = max(self.descriptors, len(os.listdir("/proc/self/fd")))
            self.resident_mb = max(self.resident_mb, resident_mb())
            self.tasks = max(self.tasks, len(asyncio.all_tasks()))
            await asyncio.sleep(0.05)


async def play_through_the_kit(
    kit: SandboxKit, source: Path, expect: Expect, marker: str
) -> Outcome:
    """Copy, build and play ``source`` as the ladder does: one seat, a random bot in the other."""
    from client_sdk import play
    from client_sdk.loading import load_bot
    from games import GameConfig, get_game
    from kassen.commands.match_output import reason_text
    from server.app import running_server
    from server.referee import CommandBot
    from server.sandbox.build import BuildLimits, folder_bytes
    from server.sandbox.process import SandboxLimits
    from server.sandbox.seat_socket import seat_socket
    from server.settings import MatchSettings
    from tournament.submissions.manifest import read_manifest

    manifest = read_manifest(source)
    folder = kit.copy_in(source, manifest)
    outcome = Outcome()
    if manifest.build is not None:
        built = await kit.build(folder, manifest, BuildLimits(**expect.build_limits))
        assert built is not None
        outcome.build_summary, outcome.build_seconds = built.summary, built.seconds
        outcome.folder_mb = folder_bytes(folder) / (1 << 20)
        outcome.unsafe = unsafe_files(folder)
        if not built.ok:
            return outcome
    before = listing(folder)
    game = get_game(GAME)
    settings = MatchSettings(
        game=GAME,
        config=GameConfig(players=2, variant=game.variants[0]),
        seed=secrets.randbits(31),
        join_timeout_ms=expect.join_timeout_ms,
    )
    started = time.monotonic()
    async with (
        running_server("127.0.0.1:0") as referee,
        seat_socket(referee, kit.area) as socket_dir,
    ):
        command = kit.run_command(folder, manifest, socket_dir, SandboxLimits(**expect.limits))
        bot = CommandBot(command=[], name=source.name, sandbox=command)
        fds_before = len(os.listdir("/proc/self/fd"))
        peaks = Peaks()
        sampler = asyncio.create_task(peaks.watch())
        match, tickets = referee.create_match(settings, commands={0: bot})
        other = asyncio.create_task(play(load_bot("random", 1), referee.address, tickets[1]))
        await asyncio.wait_for(match.finished.wait(), expect.max_seconds)
        outcome.marked = marked_processes(marker)
        await asyncio.gather(other, return_exceptions=True)
        sampler.cancel()
        outcome.fds_grown = peaks.descriptors - fds_before
        outcome.peak_mb = peaks.resident_mb
        outcome.peak_tasks = peaks.tasks
        outcome.seconds = time.monotonic() - started
        # The ladder's referee keeps running: it must end the sandbox by itself.
        await asyncio.wait_for(match.seats[0].exited.wait(), 30)  # type: ignore[attr-defined]
        summary = match.summary()
        outcome.tail = match.seats[0].stderr_tail.decode("utf-8", "replace")  # type: ignore[attr-defined]
    hostile, other_seat = sorted(summary.result.seats, key=lambda s: s.seat)
    outcome.reason = reason_text(hostile.reason) if hostile.forfeited else "completed"
    outcome.detail = hostile.detail
    outcome.summary = summary.SerializeToString()
    outcome.other_takeovers = other_seat.takeovers
    outcome.other_forfeited = other_seat.forfeited
    after = listing(folder)
    outcome.changed = sorted(
        k for k in before.keys() | after.keys() if before.get(k) != after.get(k)
    )
    return outcome


@pytest.mark.parametrize("name", NAMES)
def test_a_hostile_submission_gets_its_declared_outcome(
    name: str, kit: SandboxKit, world: World, cgroups: list[BotCgroup], tmp_path: Path
) -> None:
    expect = Expect.of(name)
    source = submission(name, world, tmp_path)
    rss_before = resident_mb()
    outcome = asyncio.run(play_through_the_kit(kit, source, expect, world.placeholders["MARKER"]))
    said = f"{name} ({expect.about}):\n{outcome}"
    print(said)

    assert outcome.unsafe == [], said
    if expect.build and not expect.build.startswith("built"):
        assert outcome.build_summary.startswith(expect.build), said
        assert outcome.build_seconds < expect.max_seconds, said
        if expect.max_folder_mb:
            assert outcome.folder_mb <= expect.max_folder_mb, said
    else:
        assert outcome.build_summary.startswith(expect.build), said
        assert outcome.reason == expect.reason, said
        assert outcome.seconds < expect.max_seconds, said
        for words in expect.tail_has:
            assert words in outcome.tail, f"{words!r} not in the tail: {said}"
        for words in ("LEAK", *expect.tail_lacks):
            assert words not in outcome.tail, f"{words!r} in the tail: {said}"
        for words in expect.detail_has:
            assert words in outcome.detail, f"{words!r} not in the detail: {said}"
        assert len(outcome.tail.encode()) <= TAIL_BYTES, said
        # The other seat played its own seat to the end, never taken over.
        assert outcome.other_takeovers == 0 and not outcome.other_forfeited, said
        assert outcome.changed == [], f"its folder changed: {said}"
    if expect.filled_mb:
        filled = [int(n) for n in re.findall(r"stopped at (\d+) MB", outcome.tail)]
        assert len(filled) == 2, said
        assert all(expect.filled_mb // 2 <= n <= expect.filled_mb for n in filled), said
    if expect.forked_below:
        forked = int(re.findall(r"stopped at (\d+) processes", outcome.tail)[0])
        assert 3 <= forked < expect.forked_below, said
    if expect.marked_at_the_end:
        assert len(outcome.marked) >= expect.marked_at_the_end, said
    if expect.max_cores:
        cores = float(re.findall(r"([0-9.]+) cores", outcome.tail)[0])
        assert cores <= expect.max_cores, said
    if expect.max_tasks:
        assert outcome.peak_tasks <= expect.max_tasks, said
    if expect.max_fds_grown:
        assert outcome.fds_grown <= expect.max_fds_grown, said
    if expect.rss_growth_mb:
        assert max(resident_mb(), outcome.peak_mb) - rss_before < expect.rss_growth_mb, said

    # From the host, whatever the bot said.
    assert world.heard() == [], said
    printed = outcome.tail + outcome.detail + outcome.summary.decode("utf-8", "replace")
    assert [c for c in world.canaries if c in printed] == [], said
    assert world.helper.poll() is None, "the host process of the sandbox's user was killed"
    state = process_state(world.helper.pid)
    assert state in "SR", f"the host process of the sandbox's user is in state {state}"
    assert {p.name: p.read_bytes() for p in world.victim.iterdir()} == world.victim_files
    assert cgroups, "no cgroup was made: the bot did not run in one"
    left = wait_for(lambda: [f for g in cgroups for f in g.folders if f.exists()], 10)
    assert left == [], f"cgroups left behind: {left}"
    marker = world.placeholders["MARKER"]
    assert wait_for(lambda: marked_processes(marker), 10) == [], said


@pytest.mark.parametrize("name", [n for n in NAMES if Expect.of(n).cli])
def test_through_kassen_match(name: str, world: World, tmp_path: Path) -> None:
    """The same bot through ``kassen match --seat sub:DIR`` (a process of its own, with the
    organiser's token in its environment), checked from the host: the match ends, its seat
    is not forfeited, no canary is printed, nothing heard, nothing left running."""
    expect = Expect.of(name)
    source = submission(name, world, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "match", GAME, "--seat", f"sub:{source}"]
        + ["--seat", "random", "--replays", str(tmp_path / "replays"), "--log-level", "debug"],
        capture_output=True,
        text=True,
        timeout=expect.max_seconds + 60,
        cwd=ROOT,
        env={**os.environ, "KASSEN_ADMIN_TOKEN": world.canaries[2]},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Result: " in done.stdout, output
    assert "forfeited" not in done.stdout, output
    assert "LEAK" not in output, output
    assert [c for c in world.canaries if c in output] == [], output
    assert world.heard() == [], output
    assert world.helper.poll() is None
    assert wait_for(lambda: marked_processes(world.placeholders["MARKER"]), 10) == []


def test_the_host_side_checks_can_fail(world: World) -> None:
    """A process of the sandbox's user outside a sandbox reads the database and the other
    submission's secret, its connection is heard, a process with the marker in its
    environment is found, and a stopped helper is seen stopped."""
    seen = subprocess.run(
        as_sandbox_user("cat", world.placeholders["DATABASE"], str(world.victim / "secret.txt")),
        capture_output=True,
        text=True,
    )
    assert world.canaries[0] in seen.stdout and world.canaries[3] in seen.stdout
    with socket.create_connection(("127.0.0.1", int(world.placeholders["TCP_LO"])), timeout=5):
        time.sleep(0.2)
        assert world.heard() != []
    marker = world.placeholders["MARKER"]
    marked = subprocess.Popen(
        as_sandbox_user("sleep", "60"), env={"PATH": "/usr/bin:/bin", "HOSTILE_MARKER": marker}
    )
    try:
        assert wait_for(lambda: not marked_processes(marker), 5) is False
    finally:
        marked.kill()
        marked.wait()
    os.kill(world.helper.pid, signal.SIGSTOP)
    try:
        assert wait_for(lambda: process_state(world.helper.pid) != "T", 5) is False
    finally:
        os.kill(world.helper.pid, signal.SIGCONT)
