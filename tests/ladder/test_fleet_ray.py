"""The ladder's matches on referee actors of a real Ray cluster (started here with ``ray start
--head``): bots follow their assignments to the actors, and an actor whose process is killed
mid-match voids its matches, is restarted by Ray somewhere else, and plays again.
Marked ``ray``: they run in ``tox -e ray``."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import grpc

from client_sdk.bot import AsyncBot, Request
from client_sdk.builtin import RandomBot
from client_sdk.ladder import LadderMatch, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from tests.kassen_processes import Process, free_port, launch, titled
from tests.ladder.test_ladder_over_grpc import register
from tests.tournament.test_ray import RAY_AUTH, cluster, pytestmark  # noqa: F401

KASSEN = [sys.executable, "-m", "kassen"]
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = 5000
join_timeout_ms = 20000

[[ladder.house]]
name = "house-random"
policy = "random"
game = "rumble-nation"

[referees]
ray_referees = 2
embedded = false
"""


class DelayBot(AsyncBot):
    """Plays randomly after ``delay_s`` per decision (a match that lasts a while)."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.inner = RandomBot(11)

    async def choose_async(self, request: Request) -> int:
        await asyncio.sleep(self.delay_s)
        return self.inner.choose(request)


def start_ladder(folder: Path, cluster_address: str) -> Process:
    (folder / "ladder.toml").write_text(CONFIG, encoding="utf-8")
    address = f"127.0.0.1:{free_port()}"
    return launch(
        ["ladder", "serve", "--address", address, "--web", "none",
         "--db", f"sqlite:///{folder / 'ladder.sqlite'}", "--config", str(folder / "ladder.toml"),
         "--referees", f"ray:{cluster_address}", "--log-level", "warning"],
        address, folder / "ladder.log", folder, "matches on", env=RAY_AUTH, within_s=120,
    )  # fmt: skip


def referee_actor_pids() -> list[int]:
    """Pids of the processes of our referee actors (Ray titles them after the class)."""
    return titled(b"ray::RefereeActor")


def test_bots_play_on_ray_referees_and_a_killed_one_is_restarted(
    cluster: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    ladder = start_ladder(tmp_path, cluster)
    try:
        asyncio.run(_scenario(ladder.address))
    finally:
        ladder.stop()
    assert "Traceback" not in ladder.output(), ladder.output()[-3000:]


async def _scenario(address: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        bot = await register(lrpc.LadderStub(channel), "rides-ray")
    seen: list[LadderMatch] = []
    run = await seek_and_play(
        lambda: DelayBot(0.0), address, bot.token, max_matches=4, on_match=seen.append
    )
    assert not run.errors
    referees = {m.assignment.referee_address for m in seen}
    assert len(referees) == 2 and address not in referees and "" not in referees
    # The referee actors' processes die while one plays a match: the match is voided, Ray
    # starts the actors again (new processes, new ports), and the ladder plays on them again.
    slow: list[LadderMatch] = []
    ended: list[lpb.MatchEnded] = []
    playing = asyncio.ensure_future(
        seek_and_play(
            lambda: DelayBot(0.2),
            address,
            bot.token,
            max_matches=3,
            on_match=slow.append,
            on_ended=ended.append,
        )
    )
    before = referee_actor_pids()
    assert len(before) == 2, before
    earlier = {m.assignment.match_id for m in seen}  # their last match_ended may come late

    def fresh() -> list[lpb.MatchEnded]:
        return [e for e in ended if e.match_id not in earlier]

    await asyncio.sleep(1.5)  # the first slow match (some 3 s) is under way on one of them
    assert not fresh(), "the first match ended too soon to be killed in the middle"
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    await asyncio.wait_for(playing, 180)
    reasons = [pb.ResultReason.Name(e.reason) for e in fresh()]
    assert "RESULT_REASON_VOIDED" in reasons, reasons
    # Ray starts the actors again (new processes, new ports); the ladder takes them back and
    # plays on them: the bot's next matches complete there.
    again: list[LadderMatch] = []
    run = await asyncio.wait_for(
        seek_and_play(
            lambda: DelayBot(0.0), address, bot.token, max_matches=2, on_match=again.append
        ),
        180,
    )
    assert not run.errors and len(run.results) == 2
    assert all(r.reason == pb.RESULT_REASON_COMPLETED for r in run.results)
    now_at = {m.assignment.referee_address for m in again}
    assert now_at and not now_at & referees, (now_at, referees)  # new ports: restarted
