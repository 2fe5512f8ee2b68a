"""Every example bot on a ladder whose matches are played by a referee fleet: a
``kassen serve --workers 2`` and a referee actor on a real Ray cluster, the ladder's own
referee playing none. Each example follows its assignments to those referees (one match of
each at least: both referees have room for 100 matches, so they take turns) and is rated.

One ladder (``kassen ladder serve --referees HOST:PORT,ray:CLUSTER``), one ``kassen serve``
and one Ray cluster for the module; each example runs as a real subprocess. Marked
``crosslang`` (tox -e crosslang installs Ray for it).
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from tests.crosslang.test_examples import ROOT, built, environment
from tests.crosslang.test_ladder_examples import run_example
from tests.crosslang.toolchains import LANGUAGES
from tests.kassen_processes import free_port, launch
from tests.tournament.test_ray import RAY_AUTH, cluster  # noqa: F401
from tournament.ladder_service import registry
from tournament.storage import connect

pytestmark = [
    pytest.mark.crosslang,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed (pip install 'kassen[ray]'; tox -e crosslang installs it)",
    ),
]
KASSEN = [sys.executable, "-m", "kassen"]
MATCHES = 4
#: Registrations with it are not rate limited (six bots from one host at once would be).
ORGANISER = "fleet-crosslang-organiser-token-0123456789"
RUN_TIMEOUT_S = 300
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = 5000
bank_ms = 20000
join_timeout_ms = 60000
pause_after_failures = 0

[[ladder.house]]
name = "house-random"
policy = "random"
game = "rumble-nation"

[referees]
ray_referees = 1
embedded = false
"""


@dataclass
class Fleet:
    ladder: str
    referee: str
    database: str


@pytest.fixture(scope="module")
def fleet(cluster: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:  # noqa: F811
    folder = tmp_path_factory.mktemp("fleet")
    referee = f"127.0.0.1:{free_port()}"
    serve = launch(
        ["serve", "--address", referee, "--workers", "2", "--store", "none",
         "--replays", str(folder / "replays"), "--max-live-matches", "100"],
        referee, folder / "referee.log", folder, '"serving"', within_s=120,
    )  # fmt: skip
    (folder / "ladder.toml").write_text(CONFIG, encoding="utf-8")
    (folder / "admin.token").write_text(ORGANISER, encoding="utf-8")
    address = f"127.0.0.1:{free_port()}"
    database = f"sqlite:///{folder / 'ladder.sqlite'}"
    try:
        ladder = launch(
            ["ladder", "serve", "--address", address, "--web", "none", "--db", database,
             "--config", str(folder / "ladder.toml"), "--referees", f"{referee},ray:{cluster}",
             "--admin-token-file", str(folder / "admin.token"), "--log-level", "warning"],
            address, folder / "ladder.log", folder, "matches on", env=RAY_AUTH, within_s=120,
        )  # fmt: skip
        try:
            yield Fleet(address, referee, database)
        finally:
            ladder.stop()
        assert "Traceback" not in ladder.output(), ladder.output()[-3000:]
    finally:
        serve.stop()


def _command(language: str, address: str, token_file: Path) -> list[str]:
    # One match at a time: a bot that may hold two can be given a fifth while it plays its
    # fourth (it cannot lower its concurrency on an open stream), which it would not join.
    flags = ["--token-file", str(token_file), "--matches", str(MATCHES), "--concurrency", "1"]
    if language == "python":
        bot = f"{ROOT / 'examples' / 'python' / 'bot.py'}:MostSoldiersBot"
        return [*KASSEN, "bot", "ladder", bot, "--address", address, *flags]
    return [str(built(language)), "--ladder", address, *flags]


@pytest.mark.parametrize("language", ["python", *LANGUAGES])
def test_example_follows_its_assignments_to_the_fleet_and_is_rated(
    language: str, fleet: Fleet, tmp_path: Path
) -> None:
    command = _command(language, fleet.ladder, tmp_path / "bot.token")
    asyncio.run(_plays_on_the_fleet(language, command, fleet, tmp_path / "bot.token"))


async def _plays_on_the_fleet(
    language: str, command: list[str], fleet: Fleet, token_file: Path
) -> None:
    async with grpc.aio.insecure_channel(fleet.ladder) as channel:
        stub = lrpc.LadderStub(channel)
        bot = await stub.RegisterBot(
            lpb.RegisterBotRequest(name=f"{language}-fleet", game="rumble-nation"),
            metadata=(("authorization", f"Bearer {ORGANISER}"),),
        )
        token_file.write_text(bot.token + "\n")
        code, out, err = await run_example(command, environment(), RUN_TIMEOUT_S)
        assert code == 0, (code, out, err[-3000:])
        if language == "python":  # kassen bot ladder sums up on stderr
            assert f"played {MATCHES} matches" in err, err[-3000:]
        else:
            assert out.count("match over:") == MATCHES, (out, err[-3000:])
        engine = connect(fleet.database, create=False)
        rows: list[registry.MatchRow] = []
        for _ in range(200):
            rows = registry.recent_matches(engine, bot.bot_id)
            if len(rows) >= MATCHES and all(r.status == "done" for r in rows):
                break
            await asyncio.sleep(0.1)
        engine.dispose()
        assert len(rows) == MATCHES and all(r.reason == "COMPLETED" for r in rows), rows
        for row in rows:
            (mine,) = [seat for seat in row.seats if seat.bot_id == bot.bot_id]
            assert mine.failure == "", row
        for _ in range(200):  # the table follows each result's refit
            ladder_rows = (await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))).rows
            (ranked,) = [r for r in ladder_rows if r.bot_id == bot.bot_id]
            if ranked.games == MATCHES:
                break
            await asyncio.sleep(0.1)
        assert ranked.games == MATCHES and ranked.rated
    # Where they were played: the kassen serve's workers name theirs (w0-, w1-); the others
    # were on the Ray referee; none on the ladder's own.
    on_serve = [r.id for r in rows if r.id.startswith(("w0-", "w1-"))]
    elsewhere = [r.id for r in rows if r.id not in on_serve]
    assert on_serve and elsewhere, [r.id for r in rows]
    async with (
        grpc.aio.insecure_channel(fleet.referee) as to_serve,
        grpc.aio.insecure_channel(fleet.ladder) as to_ladder,
    ):
        for match_id in on_serve:
            found = await rpc.RefereeStub(to_serve).GetMatch(pb.GetMatchRequest(match_id=match_id))
            assert found.match.match_id == match_id
        for match_id in [r.id for r in rows]:
            with pytest.raises(grpc.aio.AioRpcError) as absent:
                await rpc.RefereeStub(to_ladder).GetMatch(pb.GetMatchRequest(match_id=match_id))
            assert absent.value.code() is grpc.StatusCode.NOT_FOUND
