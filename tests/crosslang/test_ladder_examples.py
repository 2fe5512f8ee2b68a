"""The example bots in ladder mode: each keeps a ``Ladder/Seek`` stream open with its token,
plays the matches it is given over ``Referee/Play`` and, with ``--matches 2``, stops seeking
after two assignments and exits 0 once both are played; the ladder records both matches done,
with no failure on the example's seat. Started while the ladder is down, it keeps reconnecting
and plays once the ladder is back. A wrong token is a refusal the example names and stops on
(it does not retry).

Each test starts a ladder in-process (one pool, Rumble Nation for two, one random house bot),
registers the example over gRPC and runs the built example as a real subprocess. Marked
``crosslang`` like test_examples.py, whose build helper they share.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import grpc
import pytest
from sqlalchemy.engine import Engine

from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.settings import TimeControl
from tests.crosslang.test_examples import built, environment
from tests.crosslang.toolchains import LANGUAGES
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderSettings, PoolKey
from tournament.storage import connect

pytestmark = pytest.mark.crosslang

MATCHES = 2
SETTINGS = LadderSettings(
    pools=(PoolKey("rumble-nation", "base", 2),),
    house_bots=(HouseBot("house-random", "random", "rumble-nation", "base", (2,)),),
    # Generous: the machine may be busy, and a failure must come from the example, not the clock.
    time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
    join_timeout_ms=60_000,
    # Never paused: a failed match shows as a failure on its seat, which the test reports.
    pause_after_failures=0,
    tick_s=0.05,
)
#: How long an example may take for its two matches (a JVM starts slowly on a busy machine).
RUN_TIMEOUT_S = 300
#: How long a refused example may take to say so and exit.
REFUSED_TIMEOUT_S = 60


async def _register(address: str, name: str) -> lpb.RegisterBotResponse:
    async with grpc.aio.insecure_channel(address) as channel:
        return await lrpc.LadderStub(channel).RegisterBot(
            lpb.RegisterBotRequest(
                name=name, owner="crosslang", game="rumble-nation", player_counts=[2]
            )
        )


async def run_example(
    command: list[str], env: dict[str, str], timeout_s: float
) -> tuple[int, str, str]:
    """Run an example to its exit: its code, stdout and stderr (the test fails if it is still
    running after ``timeout_s``)."""
    process = await asyncio.create_subprocess_exec(
        *command,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout_s)
    except TimeoutError:
        process.kill()
        out, err = await process.communicate()
        pytest.fail(
            f"{command[0]} still running after {timeout_s} s\nstdout:\n"
            + out.decode(errors="replace")[-2000:]
            + "\nstderr:\n"
            + err.decode(errors="replace")[-3000:]
        )
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def ladder_command(run: Path, address: str, token_file: Path) -> list[str]:
    """The example in ladder mode: two matches (``MATCHES``), two at once at most."""
    return [
        str(run),
        "--ladder",
        address,
        "--token-file",
        str(token_file),
        "--matches",
        str(MATCHES),
        "--concurrency",
        "2",
    ]


async def _recorded(engine: Engine, bot_id: str, count: int) -> list[registry.MatchRow]:
    """The bot's matches once ``count`` of them are recorded finished (a result is written
    just after the seats hear MatchOver, so it may trail the example's exit a little)."""
    rows: list[registry.MatchRow] = []
    for _ in range(600):
        rows = registry.recent_matches(engine, bot_id)
        if len(rows) >= count and all(row.finished_at is not None for row in rows):
            return rows
        await asyncio.sleep(0.05)
    return rows


async def _plays_two_matches(run: Path, language: str, tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    async with running_ladder(engine, SETTINGS) as service:
        address = service.referee.address
        bot = await _register(address, f"{language}-example")
        token_file = tmp_path / "bot.token"
        token_file.write_text(bot.token + "\n")
        code, out, err = await run_example(
            ladder_command(run, address, token_file), environment(), RUN_TIMEOUT_S
        )
        assert code == 0, (code, out, err[-3000:])
        assert out.count("match over:") == MATCHES, (out, err[-3000:])
        rows = await _recorded(engine, bot.bot_id, MATCHES)
    _assert_played(rows, bot.bot_id)


def _assert_played(rows: list[registry.MatchRow], bot_id: str) -> None:
    # It stopped seeking after two assignments: exactly two matches, both played out.
    assert len(rows) == MATCHES, rows
    for row in rows:
        assert row.status == "done", row
        assert row.reason == "COMPLETED", row
        (mine,) = [seat for seat in row.seats if seat.bot_id == bot_id]
        assert mine.failure == "", row


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_plays_ladder_matches(language: str, tmp_path: Path) -> None:
    run = built(language)
    asyncio.run(_plays_two_matches(run, language, tmp_path))


def _free_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


async def _collect(stream: asyncio.StreamReader | None, into: bytearray) -> None:
    assert stream is not None
    while chunk := await stream.read(4096):
        into += chunk


async def _reconnects(run: Path, language: str, tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    async with running_ladder(engine, SETTINGS) as service:
        bot = await _register(service.referee.address, f"{language}-example")
    token_file = tmp_path / "bot.token"
    token_file.write_text(bot.token + "\n")
    # The ladder is down: the example starts, fails to seek, and backs off.
    address = _free_address()
    process = await asyncio.create_subprocess_exec(
        *ladder_command(run, address, token_file),
        env=environment(),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = bytearray(), bytearray()
    readers = asyncio.gather(_collect(process.stdout, out), _collect(process.stderr, err))
    try:
        for _ in range(1200):
            if err.count(b"seek stream lost") >= 2 or process.returncode is not None:
                break
            await asyncio.sleep(0.05)
        assert err.count(b"seek stream lost") >= 2, err.decode(errors="replace")[-3000:]
        # The ladder comes back on that address (same database, so the token is still good).
        async with running_ladder(engine, SETTINGS, address=address):
            try:
                code = await asyncio.wait_for(process.wait(), RUN_TIMEOUT_S)
            except TimeoutError:
                pytest.fail("still running:\n" + err.decode(errors="replace")[-3000:])
            await asyncio.wait_for(readers, 10)
            text, log = out.decode(errors="replace"), err.decode(errors="replace")
            assert code == 0, (code, text, log[-3000:])
            assert text.count("match over:") == MATCHES, (text, log[-3000:])
            rows = await _recorded(engine, bot.bot_id, MATCHES)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        readers.cancel()
    _assert_played(rows, bot.bot_id)


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_reconnects_when_the_ladder_comes_back(language: str, tmp_path: Path) -> None:
    run = built(language)
    asyncio.run(_reconnects(run, language, tmp_path))


async def _refused(run: Path, tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    async with running_ladder(engine, SETTINGS) as service:
        token_file = tmp_path / "wrong.token"
        token_file.write_text("not-a-token-of-this-ladder\n")
        # The environment form of ladder mode (no flags).
        env = {
            **environment(),
            "KASSEN_LADDER_ADDRESS": service.referee.address,
            "KASSEN_TOKEN_FILE": str(token_file),
        }
        code, out, err = await run_example([str(run)], env, REFUSED_TIMEOUT_S)
        rows = registry.recent_matches(engine)
    assert code == 1, (code, out, err[-3000:])
    assert "the ladder refused the bot" in err and "unknown bot token" in err, err[-3000:]
    assert "match over" not in out
    assert rows == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_stops_when_the_ladder_refuses_its_token(language: str, tmp_path: Path) -> None:
    run = built(language)
    asyncio.run(_refused(run, tmp_path))
