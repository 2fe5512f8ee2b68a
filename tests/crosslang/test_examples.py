"""The example bots in other languages: each builds from a clean clone with its own tools,
plays real matches against the Python referee (launched by it, with the ticket on a pipe named
by KASSEN_TICKET_FILE, never in its environment), passes the conformance kit, says in one line
that it has no ticket when it has none, and stops (exit code 3, no rejoin) when another
connection takes its seat over.

Marked ``crosslang`` (``pytest -m "not crosslang"`` skips them); a missing toolchain skips a
language with one line naming it (C++: the Debian packages to install, see toolchains.py). Go
and Rust need no system protoc: they get grpcio-tools' (tools/protoc). Build caches: cargo's
target folder is shared in ~/.cache/kassen/ so that CI runs on the same machine reuse it (a
CARGO_TARGET_DIR of the caller's wins); Maven, Go and npm keep their own caches.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client_sdk import RandomBot, Request, play
from games import GameConfig
from games.policies import make_policy
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.referee import CommandBot, LocalBot
from server.results import Reason
from server.seats import RemoteSeat
from server.settings import MatchSettings, TimeControl
from tests.crosslang.toolchains import LANGUAGES, build_environment, skip_reason

pytestmark = pytest.mark.crosslang

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CACHE = Path.home() / ".cache" / "kassen" / "examples"
BUILD_TIMEOUT_S = 900
#: What a displaced example prints (one line, on stderr) before it exits with this code.
DISPLACED_LINE = "displaced: another connection took this seat over"
EXIT_DISPLACED = 3
#: How long a displaced example may take to exit once its replacement has joined.
DISPLACED_EXIT_S = 5.0


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        # A CARGO_TARGET_DIR of the caller's wins: two checkouts that share the cache would
        # otherwise build their own Rust example over each other's binary.
        "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR") or str(CACHE / "rust-target"),
    }


_built: dict[str, str] = {}


def built(language: str) -> Path:
    """Build the example once per test session (or skip, naming what is missing)."""
    reason = skip_reason(language)
    if reason:
        pytest.skip(reason)
    if language not in _built:
        done = subprocess.run(
            ["bash", str(EXAMPLES / language / "build.sh")],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            env={**environment(), **build_environment(language)},
        )
        _built[language] = "" if done.returncode == 0 else (done.stdout + done.stderr)[-3000:]
    if _built[language]:
        pytest.fail(f"{language} example did not build:\n{_built[language]}")
    return EXAMPLES / language / "run.sh"


async def _match(
    commands: dict[int, list[str]],
    players: int,
    variant: str,
    seed: int,
    game: str = "rumble-nation",
) -> list[tuple[Reason, bool, int]]:
    os.environ["CARGO_TARGET_DIR"] = environment()["CARGO_TARGET_DIR"]
    async with running_server() as referee:
        settings = MatchSettings(
            game=game,
            config=GameConfig(players, variant),
            seed=seed,
            time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
            join_timeout_ms=60_000,
        )
        local = {
            p: LocalBot(make_policy("random", game, p), "random")
            for p in range(players)
            if p not in commands
        }
        bots = {p: CommandBot(command=c, name=Path(c[0]).parent.name) for p, c in commands.items()}
        match, tickets = referee.create_match(settings, local, bots)
        for index in commands:
            seat = match.seats[index]
            assert isinstance(seat, RemoteSeat)
            await asyncio.wait_for(seat.ever_joined.wait(), 120)
            # Joined, so it has read its ticket: from the pipe, since its environment has none.
            assert seat.process is not None
            environ = Path(f"/proc/{seat.process.pid}/environ").read_bytes().split(b"\0")
            assert b"KASSEN_TICKET_FILE=/dev/fd/3" in environ
            seen = b"\0".join([*environ, Path(f"/proc/{seat.process.pid}/cmdline").read_bytes()])
            assert not any(t.encode() in seen for t in tickets if t)
        await asyncio.wait_for(match.finished.wait(), 300)
        assert match.result is not None and match.result.reason is Reason.COMPLETED
        return [(s.reason, s.forfeited, s.decisions) for s in match.result.seats]


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_builds_and_plays_full_matches(language: str) -> None:
    run = built(language)
    for players, variant, seat in ((2, "base", 0), (4, "advanced", 2)):
        seats = asyncio.run(_match({seat: [str(run)]}, players, variant, seed=7))
        reason, forfeited, decisions = seats[seat]
        assert reason is Reason.COMPLETED and not forfeited and decisions > 0, seats


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_passes_the_conformance_kit(language: str) -> None:
    run = built(language)
    result = subprocess.run(
        [sys.executable, "-m", "kassen", "bot", "check", "--", str(run)],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment(),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failed" in result.stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_without_a_ticket_says_so_in_one_line(language: str) -> None:
    run = built(language)
    env = {k: v for k, v in environment().items() if not k.startswith("KASSEN_TICKET")}
    done = subprocess.run(
        [str(run)],
        env={**env, "KASSEN_ADDRESS": "127.0.0.1:9"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "no seat ticket" in lines[0], lines
    assert "KASSEN_TICKET_FILE" in lines[0] and "KASSEN_TICKET" in lines[0]


def test_four_languages_in_one_game() -> None:
    available = [language for language in LANGUAGES if not skip_reason(language)]
    if len(available) < 4:
        pytest.skip(f"only {len(available)} toolchains installed: {', '.join(available)}")
    chosen = available[:4]
    commands = {seat: [str(built(language))] for seat, language in enumerate(chosen)}
    seats = asyncio.run(_match(commands, 4, "advanced", seed=11))
    assert all(
        reason is Reason.COMPLETED and not forfeited and decisions > 0
        for reason, forfeited, decisions in seats
    ), (chosen, seats)


def test_two_languages_play_a_root_contest() -> None:
    """The examples know nothing of Root: options and keys are enough to play it."""
    available = [language for language in LANGUAGES if not skip_reason(language)]
    if len(available) < 2:
        pytest.skip(f"only {len(available)} toolchains installed: {', '.join(available)}")
    chosen = available[-2:]
    commands = {seat: [str(built(language))] for seat, language in enumerate(chosen)}
    seats = asyncio.run(_match(commands, 2, "winter", seed=3, game="root"))
    assert all(
        reason is Reason.COMPLETED and not forfeited and decisions > 0
        for reason, forfeited, decisions in seats
    ), (chosen, seats)


class CountingBot(RandomBot):
    """A random bot that counts the decisions it answers."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(self, request: Request) -> int:
        self.decisions += 1
        return super().choose(request)


async def _collect(stream: asyncio.StreamReader | None, into: bytearray) -> None:
    assert stream is not None
    while chunk := await stream.read(4096):
        into += chunk


async def _displaced(run: Path) -> None:
    """The example joins seat 0; a Python bot joins with the same ticket and plays the match."""
    async with running_server() as referee:
        settings = MatchSettings(
            game="rumble-nation",
            config=GameConfig(2, "base"),
            seed=5,
            time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
            join_timeout_ms=300_000,
        )
        match, tickets = referee.create_match(settings)
        seat = match.seats[0]
        assert isinstance(seat, RemoteSeat)
        # A plain process, not a CommandBot: the referee would count its exit as a crash of
        # the seat, which the replacement now plays.
        process = await asyncio.create_subprocess_exec(
            str(run),
            env={**environment(), "KASSEN_ADDRESS": referee.address, "KASSEN_TICKET": tickets[0]},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, stderr = bytearray(), bytearray()
        readers = asyncio.gather(_collect(process.stdout, stdout), _collect(process.stderr, stderr))
        playing: list[asyncio.Task[pb.MatchOver]] = []
        try:
            await asyncio.wait_for(seat.ever_joined.wait(), 60)
            assert seat.stream_generation == 1

            replacement = CountingBot(seed=1)
            took_over = time.monotonic()
            playing.append(asyncio.create_task(play(replacement, referee.address, tickets[0])))
            try:
                code = await asyncio.wait_for(process.wait(), DISPLACED_EXIT_S)
            except TimeoutError:
                pytest.fail(
                    f"still running {DISPLACED_EXIT_S} s after it was displaced:\n"
                    + stderr.decode(errors="replace")[-2000:]
                )
            exited_after = time.monotonic() - took_over
            await asyncio.wait_for(readers, 5)
            out, err = stdout.decode(errors="replace"), stderr.decode(errors="replace")
            assert code == EXIT_DISPLACED, (code, out, err)
            assert exited_after < DISPLACED_EXIT_S
            assert err.count(DISPLACED_LINE) == 1, err
            assert "match over" not in out, out
            # Seat 1 was kept out so far: the match waited and the ticket stayed valid for the
            # example's whole life, so a rejoin would have shown as a third stream. It never
            # received a decision either; the replacement plays every decision of seat 0.
            assert seat.stream_generation == 2, err
            playing.append(
                asyncio.create_task(play(RandomBot(seed=2), referee.address, tickets[1]))
            )
            overs = await asyncio.wait_for(asyncio.gather(*playing), 120)
            await asyncio.wait_for(match.finished.wait(), 10)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            readers.cancel()
            for task in playing:
                task.cancel()
        # The example never rejoined: its stream and the replacement's, no third.
        assert seat.stream_generation == 2
        assert match.result is not None and match.result.reason is Reason.COMPLETED
        mine = match.result.seats[0]
        assert mine.reason is Reason.COMPLETED and not mine.forfeited, match.result.seats
        assert mine.decisions == replacement.decisions > 0, (mine, replacement.decisions)
        for over in overs:
            assert over.reason == pb.RESULT_REASON_COMPLETED
            assert not over.seats[0].forfeited


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_stops_when_displaced(language: str) -> None:
    """A second connection with the example's ticket takes its seat over: the example hears
    ``displaced``, does not rejoin (that would take the seat back) and exits with code 3."""
    run = built(language)
    asyncio.run(_displaced(run))
