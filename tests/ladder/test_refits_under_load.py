"""Refits while results keep coming: 16 connected bots play on a real ``kassen ladder serve``
whose pool already holds thousands of results, so every match end asks for a refit while
others are still running. The fits run in their worker on a copy of the results; none may
fail, every match's ``MatchEnded`` must reach its bots, and the table shown at the end must
hold every result stored."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
import sqlalchemy as sa

from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from tests.conftest import Depth
from tests.ladder.big_ladder import LadderProcess, played_replay, seed_database
from tests.ladder.test_load_isolation import result, run_clients
from tournament.ladder_service import registry
from tournament.storage import connect

pytestmark = pytest.mark.timing

BOTS = 16


def test_refits_never_fail_while_16_bots_play(tmp_path: Path, depth: Depth) -> None:
    database = tmp_path / "ladder.sqlite"
    seeded = seed_database(database, depth(2_000, 60_000), 1_000, played_replay())
    ladder = LadderProcess(tmp_path, database, decision_ms=2000, web=False).start()
    seconds = depth(6, 20)
    try:
        tokens = list(seeded.author_tokens[:BOTS])
        clients = [run_clients("bots", ladder.address, seconds, tokens[i::2]) for i in range(2)]
        played = {k: v for c in clients for k, v in result(c, seconds + 180).items()}
        standings = asyncio.run(refitted_standings(ladder.address, database))
    finally:
        assert ladder.stop() == 0
    log = "".join(ladder.text)
    for trouble in ("refit failed", "never retrieved", "Traceback", "not stored"):
        assert trouble not in log, trouble
    assigned = sum(bot["assigned"] for bot in played.values())
    assert assigned >= BOTS * 3
    for bot in played.values():
        assert bot["ended"] == bot["assigned"], bot
        assert set(bot["reasons"]) == {"RESULT_REASON_COMPLETED"}, bot
    engine = connect(f"sqlite:///{database}")
    with engine.connect() as conn:
        done = conn.execute(
            sa.select(sa.func.count()).where(registry.ladder_matches.c.status == "done")
        ).scalar_one()
        authors_with_history = conn.execute(
            sa.select(sa.func.count(sa.distinct(registry.ladder_ratings.c.bot_id))).where(
                registry.ladder_ratings.c.bot_id.in_(seeded.author_ids[:BOTS])
            )
        ).scalar_one()
    engine.dispose()
    (pool,) = standings.pools
    # Each two-player match counts one game for each of its two bots.
    assert sum(row.games for row in pool.rows) == 2 * done
    assert done >= seeded.matches + assigned / 2  # two authors may meet in one match
    assert authors_with_history == BOTS


async def refitted_standings(address: str, database: Path) -> lpb.GetStandingsResponse:
    """The standings once the table covers every result stored (refits are paced: the last
    results are fitted a moment after their matches end), or the last ones after 60 s."""
    engine = connect(f"sqlite:///{database}", create=False)
    try:
        for _ in range(300):
            with engine.connect() as conn:
                done = conn.execute(
                    sa.select(sa.func.count()).where(registry.ladder_matches.c.status == "done")
                ).scalar_one()
            standings = await get_standings(address)
            if sum(row.games for pool in standings.pools for row in pool.rows) == 2 * done:
                break
            await asyncio.sleep(0.2)
        return standings
    finally:
        engine.dispose()


async def get_standings(address: str) -> lpb.GetStandingsResponse:
    async with grpc.aio.insecure_channel(address) as channel:
        answer: lpb.GetStandingsResponse = await lrpc.LadderStub(channel).GetStandings(
            lpb.GetStandingsRequest(), timeout=30
        )
        return answer
