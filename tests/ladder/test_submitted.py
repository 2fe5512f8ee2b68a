"""Submitted bots on a running ladder: uploaded, built and validated in the sandbox, played
and rated; their versions and logs are their author's; uploads are checked; an organiser
pins; the ladder's stop (and its kill -9) leaves no sandbox behind. Real gRPC, real
bubblewrap, real processes."""

from __future__ import annotations

import asyncio
import hashlib
import io
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest

from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.sandbox.cgroup import OWNER_PREFIX
from server.sandbox.host import detect
from server.settings import ServerSettings, TimeControl
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderService, LadderSettings, PoolKey
from tournament.ladder_service.submitted import SubmissionSettings
from tournament.storage import connect

ROOT = Path(__file__).resolve().parents[2]
HOST = detect()
pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        HOST.problem is not None, reason=f"submitted bots need a sandbox: {HOST.problem}"
    ),
]
POOL = PoolKey("rumble-nation", "base", 2)
ORGANISER = "organiser-token-for-tests"
PLAYER = (ROOT / "examples" / "python" / "bot.py").read_text()


def settings(folder: Path) -> LadderSettings:
    return LadderSettings(
        pools=(POOL,),
        house_bots=(HouseBot("house-random", "random", POOL.game, POOL.variant, (2,)),),
        time_control=TimeControl(decision_ms=3000, bank_ms=10_000),
        tick_s=0.05,
        gather_s=0.0,
        submissions=SubmissionSettings(enabled=True, folder=folder / "subs", max_upload_mb=1),
    )


def archive(files: dict[str, str]) -> bytes:
    """A tar.gz of ``files`` (name -> text)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tarred:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tarred.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def python_bot(run: str = "python bot.py", build: str | None = None) -> bytes:
    manifest = f'[bot]\nruntime = "python"\nrun = "{run}"\n'
    if build:
        manifest += f'build = "{build}"\n'
    return archive({"kassen-bot.toml": manifest, "bot.py": PLAYER})


def upload(
    data: bytes, sha256: str | None = None, size: int | None = None
) -> list[lpb.SubmitBotRequest]:
    header = lpb.SubmitHeader(
        format="tar.gz",
        size=len(data) if size is None else size,
        sha256=sha256 or hashlib.sha256(data).hexdigest(),
    )
    parts = [lpb.SubmitBotRequest(header=header)]
    parts += [lpb.SubmitBotRequest(chunk=data[i : i + 4096]) for i in range(0, len(data), 4096)]
    return parts


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def until_state(
    stub: lrpc.LadderAsyncStub, token: str, number: int, within_s: float = 90
) -> lpb.BotVersion:
    """The version once it is ready or failed."""
    deadline = time.monotonic() + within_s
    while True:
        found = await stub.ListVersions(lpb.ListVersionsRequest(), metadata=bearer(token))
        mine = [v for v in found.versions if v.number == number]
        if mine and mine[0].state in ("ready", "build_failed", "validation_failed"):
            return mine[0]
        assert time.monotonic() < deadline, f"version {number} stuck: {mine}"
        await asyncio.sleep(0.2)


async def register(stub: lrpc.LadderAsyncStub, name: str) -> tuple[str, str]:
    made = await stub.RegisterBot(
        lpb.RegisterBotRequest(name=name, game=POOL.game), metadata=bearer(ORGANISER)
    )
    return made.bot_id, made.token


class Ladder:
    def __init__(self, service: LadderService, stub: lrpc.LadderAsyncStub) -> None:
        self.service = service
        self.stub = stub


Test = Callable[[Ladder], Awaitable[None]]
Run = Callable[[Test], None]


@pytest.fixture
def run(passable: Path) -> Run:
    """``run(test)``: ``await test(ladder)`` inside a ladder with submissions on and an
    organiser token."""

    def runner(test: Test) -> None:
        async def body() -> None:
            engine = connect(f"sqlite:///{passable / 'ladder.sqlite'}")
            async with (
                running_ladder(
                    engine,
                    settings(passable),
                    server_settings=ServerSettings(admin_token=ORGANISER),
                ) as service,
                grpc.aio.insecure_channel(service.referee.address) as channel,
            ):
                await test(Ladder(service, lrpc.LadderStub(channel)))

        asyncio.run(asyncio.wait_for(body(), 240))

    return runner


def test_a_submitted_bot_is_built_validated_played_and_rated(run: Run) -> None:
    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "uploaded")
        answer = await stub.SubmitBot(
            iter(upload(python_bot(build="echo compiling"))), metadata=bearer(token)
        )
        assert (answer.version, answer.state, answer.runtime) == (1, "building", "python")
        version = await until_state(stub, token, 1)
        assert version.state == "ready", version.summary
        assert version.playing and "validated" in version.summary
        deadline = time.monotonic() + 60
        while True:
            rows = (await stub.GetLadder(lpb.GetLadderRequest(game=POOL.game))).rows
            mine = [r for r in rows if r.bot_id == bot_id]
            if mine and mine[0].games >= 3:
                break
            assert time.monotonic() < deadline, f"the submitted bot did not play: {rows}"
            await asyncio.sleep(0.2)
        info = (await stub.GetBot(lpb.GetBotRequest(bot_id=bot_id))).bot
        assert (info.kind, info.playing_version, info.newest_state) == ("submitted", 1, "ready")
        assert mine[0].rated and mine[0].online
        logs = await stub.GetBotLog(lpb.GetBotLogRequest(version=1), metadata=bearer(token))
        assert "compiling" in logs.build_log
        assert "COMPLETED" in logs.validation_log
        assert logs.match_ids, "its matches' stderr is kept for its author"
        # A submitted bot is run by the ladder: it may not also Seek.
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            async for _ in stub.Seek(lpb.SeekRequest(), metadata=bearer(token)):
                pass
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "submitted" in (refused.value.details() or "")

    run(test)


def test_versions_and_logs_are_for_the_author_and_the_organiser_only(run: Run) -> None:
    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "secretive")
        _other_id, other = await register(stub, "nosy")
        await stub.SubmitBot(iter(upload(python_bot())), metadata=bearer(token))
        await until_state(stub, token, 1)
        for metadata, code in (
            (bearer(other), grpc.StatusCode.PERMISSION_DENIED),
            ((), grpc.StatusCode.UNAUTHENTICATED),
        ):
            for call in (
                stub.ListVersions(lpb.ListVersionsRequest(bot_id=bot_id), metadata=metadata),
                stub.GetBotLog(lpb.GetBotLogRequest(bot_id=bot_id, version=1), metadata=metadata),
            ):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await call
                assert refused.value.code() == code
        # The nosy bot's own (empty) list is not the other's.
        own = await stub.ListVersions(lpb.ListVersionsRequest(), metadata=bearer(other))
        assert list(own.versions) == []
        organiser = await stub.ListVersions(
            lpb.ListVersionsRequest(bot_id=bot_id), metadata=bearer(ORGANISER)
        )
        assert [v.number for v in organiser.versions] == [1]
        public = (await stub.GetBot(lpb.GetBotRequest(bot_id=bot_id))).bot
        assert public.kind == "submitted" and public.status_reason == ""

    run(test)


def test_a_broken_build_and_a_failed_validation_are_shown_to_the_author(run: Run) -> None:
    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "unlucky")
        await stub.SubmitBot(
            iter(upload(python_bot(build="echo cannot compile >&2; exit 2"))),
            metadata=bearer(token),
        )
        broken = await until_state(stub, token, 1)
        assert broken.state == "build_failed" and "exit status 2" in broken.summary
        logs = await stub.GetBotLog(lpb.GetBotLogRequest(version=1), metadata=bearer(token))
        assert "cannot compile" in logs.build_log
        await stub.SubmitBot(
            iter(upload(python_bot(run="echo no referee for me >&2; exit 3"))),
            metadata=bearer(token),
        )
        failed = await until_state(stub, token, 2)
        assert failed.state == "validation_failed", failed.summary
        assert "BOT_CRASHED" in failed.summary
        logs = await stub.GetBotLog(lpb.GetBotLogRequest(version=2), metadata=bearer(token))
        assert "no referee for me" in logs.validation_log
        info = (await stub.GetBot(lpb.GetBotRequest(bot_id=bot_id))).bot
        assert (info.playing_version, info.online) == (0, False)
        assert all(bot_id not in r.seats for r in ladder.service.running.values())

    run(test)


def test_uploads_are_checked_before_anything_is_kept(run: Run) -> None:
    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        _bot_id, token = await register(stub, "careless")
        good = python_bot()
        cases = [
            (upload(good, sha256="0" * 64), "SHA-256"),
            (upload(good, size=len(good) + 10), "header said"),
            (upload(b"x" * (2 * 1024 * 1024)), "limit"),
            (upload(b"not an archive at all"), "archive refused"),
            (upload(archive({"bot.py": PLAYER})), "kassen-bot.toml"),
            (upload(good)[1:], "header"),
            (
                upload(archive({"kassen-bot.toml": '[bot]\nruntime = "cobol"\nrun = "x"\n'})),
                "runtime",
            ),
        ]
        for parts, words in cases:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.SubmitBot(iter(parts), metadata=bearer(token))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert words in (refused.value.details() or ""), refused.value.details()
        listed = await stub.ListVersions(lpb.ListVersionsRequest(), metadata=bearer(token))
        assert list(listed.versions) == []
        area = ladder.service.submitted.kit.area  # type: ignore[union-attr]
        assert not [p.name for p in area.iterdir() if p.name.startswith(("bot-", "upload-", "."))]
        with pytest.raises(grpc.aio.AioRpcError) as anonymous:
            await stub.SubmitBot(iter(upload(good)))
        assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED

    run(test)


def test_the_organiser_pins_and_unpins_a_version(run: Run) -> None:
    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "versioned")
        for number in (1, 2):
            await stub.SubmitBot(iter(upload(python_bot())), metadata=bearer(token))
            assert (await until_state(stub, token, number)).state == "ready"
        assert ladder.service.submitted.playing(bot_id).number == 2  # type: ignore[union-attr]
        with pytest.raises(grpc.aio.AioRpcError) as not_organiser:
            await stub.PinVersion(
                lpb.PinVersionRequest(bot_id=bot_id, version=1), metadata=bearer(token)
            )
        assert not_organiser.value.code() == grpc.StatusCode.PERMISSION_DENIED
        pinned = await stub.PinVersion(
            lpb.PinVersionRequest(bot_id=bot_id, version=1), metadata=bearer(ORGANISER)
        )
        assert (pinned.bot.playing_version, pinned.bot.pinned) == (1, True)
        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await stub.PinVersion(
                lpb.PinVersionRequest(bot_id=bot_id, version=7), metadata=bearer(ORGANISER)
            )
        assert missing.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        unpinned = await stub.PinVersion(
            lpb.PinVersionRequest(bot_id=bot_id, version=0), metadata=bearer(ORGANISER)
        )
        assert (unpinned.bot.playing_version, unpinned.bot.pinned) == (2, False)

    run(test)


def sandbox_processes(owner_pid: int) -> set[int]:
    """Processes in the bot cgroups of the process ``owner_pid`` (the ladder)."""
    found: set[int] = set()
    if HOST.pids_cgroup is None:
        return found
    owner = HOST.pids_cgroup / f"{OWNER_PREFIX}{owner_pid}"
    for procs in owner.glob("*/cgroup.procs"):
        try:
            found |= {int(pid) for pid in procs.read_text().split()}
        except OSError:
            continue
    return found


@pytest.mark.skipif(HOST.pids_cgroup is None, reason="needs a writable pids cgroup to count")
def test_a_ladder_killed_with_sigkill_leaves_no_sandbox_running(passable: Path) -> None:
    """The ladder as a real process: its bots play, it is killed -9 mid-match, and every
    process of every sandbox it started dies with it (bubblewrap's --die-with-parent)."""
    config = passable / "ladder.toml"
    config.write_text(
        '[ladder]\npools = ["rumble-nation/base/2"]\ndecision_ms = 3000\ngather_ms = 0\n'
        f'[submissions]\nenabled = true\nfolder = "{passable / "subs"}"\n'
    )
    port = _free_port()
    # Its log goes to a file, not a pipe: a pipe nobody reads fills up and stops the ladder
    # at its next log line.
    with (passable / "ladder.log").open("w") as log:
        ladder = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kassen",
                "ladder",
                "serve",
                "--config",
                str(config),
                "--db",
                f"sqlite:///{passable / 'ladder.sqlite'}",
                "--address",
                f"127.0.0.1:{port}",
                "--web",
                "none",
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=passable,
        )
    try:
        folder = passable / "mine"
        folder.mkdir()
        (folder / "kassen-bot.toml").write_text(
            '[bot]\nruntime = "python"\nrun = "python bot.py"\n'
        )
        (folder / "bot.py").write_text(PLAYER)
        token = passable / "token"
        address = f"127.0.0.1:{port}"
        _wait_for_port(port)
        kassen = [sys.executable, "-m", "kassen", "ladder"]
        subprocess.run(
            [
                *kassen,
                "register",
                "killed",
                "--game",
                "rumble-nation",
                "--address",
                address,
                "--token-file",
                str(token),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        done = subprocess.run(
            [
                *kassen,
                "submit",
                str(folder),
                "--token-file",
                str(token),
                "--address",
                address,
                "--wait",
                "90",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "ready" in done.stdout
        deadline = time.monotonic() + 60
        while not sandbox_processes(ladder.pid):
            assert time.monotonic() < deadline, "no sandboxed match started"
            time.sleep(0.05)
        ladder.send_signal(signal.SIGKILL)
        ladder.wait(30)
        deadline = time.monotonic() + 10
        while left := sandbox_processes(ladder.pid):
            assert time.monotonic() < deadline, f"sandbox processes outlived the ladder: {left}"
            time.sleep(0.05)
    finally:
        if ladder.poll() is None:
            ladder.kill()
            ladder.wait(30)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, within_s: float = 60) -> None:
    import socket

    deadline = time.monotonic() + within_s
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert time.monotonic() < deadline, f"the ladder never listened on {port}"
            time.sleep(0.1)


def test_a_version_being_built_when_the_ladder_stops_is_built_at_the_next_start(
    passable: Path,
) -> None:
    """Its state says ``stopped`` in between; nothing is lost and the restarted ladder
    finishes it (the build below sleeps the first time only: its folder remembers)."""
    slow_once = "if [ -f once ]; then exit 0; fi; touch once; sleep 600"

    async def body() -> None:
        engine = connect(f"sqlite:///{passable / 'ladder.sqlite'}")
        server = ServerSettings(admin_token=ORGANISER)
        async with (
            running_ladder(engine, settings(passable), server_settings=server) as service,
            grpc.aio.insecure_channel(service.referee.address) as channel,
        ):
            stub = lrpc.LadderStub(channel)
            _bot_id, token = await register(stub, "interrupted")
            await stub.SubmitBot(iter(upload(python_bot(build=slow_once))), metadata=bearer(token))
            deadline = time.monotonic() + 30
            while not list((passable / "subs" / "sandbox-area").glob("bot-*/once")):
                assert time.monotonic() < deadline, "the build never started"
                await asyncio.sleep(0.1)
        async with (
            running_ladder(engine, settings(passable), server_settings=server) as service,
            grpc.aio.insecure_channel(service.referee.address) as channel,
        ):
            stub = lrpc.LadderStub(channel)
            version = await until_state(stub, token, 1)
            assert version.state == "ready", version.summary

    asyncio.run(asyncio.wait_for(body(), 240))


def test_old_and_failed_versions_give_their_folders_back(run: Run) -> None:
    """Failed versions lose their folders at once, ready ones beyond the newest three when a
    newer one is ready (``retired``); records and logs stay."""

    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "prolific")
        submitted = ladder.service.submitted
        assert submitted is not None and submitted.kit is not None
        await stub.SubmitBot(
            iter(upload(python_bot(build="echo broken-build; exit 1"))), metadata=bearer(token)
        )
        assert (await until_state(stub, token, 1)).state == "build_failed"
        for number in range(2, 6):
            await stub.SubmitBot(iter(upload(python_bot())), metadata=bearer(token))
            assert (await until_state(stub, token, number)).state == "ready"
        states = {v.number: v.state for v in submitted.all_versions(bot_id)}
        assert states == {1: "build_failed", 2: "retired", 3: "ready", 4: "ready", 5: "ready"}
        kept = {
            v.number
            for v in submitted.all_versions(bot_id)
            if (submitted.kit.area / v.folder).exists()
        }
        assert kept == {3, 4, 5}
        logs = await stub.GetBotLog(lpb.GetBotLogRequest(version=1), metadata=bearer(token))
        assert "broken-build" in logs.build_log  # its log outlives its folder
        with pytest.raises(grpc.aio.AioRpcError) as retired:
            await stub.PinVersion(
                lpb.PinVersionRequest(bot_id=bot_id, version=2), metadata=bearer(ORGANISER)
            )
        assert "retired" in (retired.value.details() or "")

    run(test)


def test_a_bot_that_uploads_too_often_is_told_when_to_try_again(run: Run) -> None:
    """Every version is a build and a validation match: a bot gets a few at once, then one
    every two minutes (RESOURCE_EXHAUSTED, saying when)."""

    async def test(ladder: Ladder) -> None:
        stub = ladder.stub
        bot_id, token = await register(stub, "eager")
        submitted = ladder.service.submitted
        assert submitted is not None
        for _ in range(submitted.uploads.burst):  # its first uploads, as if made already
            assert submitted.uploads.allow(bot_id)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.SubmitBot(iter(upload(python_bot())), metadata=bearer(token))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "uploads too often: try again in" in (refused.value.details() or "")
        listed = await stub.ListVersions(lpb.ListVersionsRequest(), metadata=bearer(token))
        assert list(listed.versions) == []

    run(test)
