"""The Python SDK against a real referee: rejoining, async bots, bots loaded by name."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from client_sdk import AsyncBot, Bot, BotError, RandomBot, Request, play
from client_sdk.loading import BotNotFound, load_bot
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.results import Reason
from server.seats import RemoteSeat
from server.settings import MatchSettings
from tests.server.test_end_to_end import run

ROOT = Path(__file__).resolve().parents[2]


def test_run_bot_rejoins_after_the_referee_drops_its_stream() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            match, tickets = referee.create_match(
                MatchSettings(game="rumble-nation", config=GameConfig(2), seed=4)
            )
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)

            class Dropped(RandomBot):
                def __init__(self) -> None:
                    super().__init__(1)
                    self.asked = 0

                def choose(self, request: Request) -> int:
                    self.asked += 1
                    if self.asked == 3:  # the connection breaks while this answer is on its way
                        asyncio.get_running_loop().call_soon(seat.end_stream)
                    return super().choose(request)

            results = await asyncio.gather(
                play(Dropped(), referee.address, tickets[0]),
                play(RandomBot(2), referee.address, tickets[1]),
            )
            assert all(r.reason == pb.RESULT_REASON_COMPLETED for r in results)
            assert match.result is not None and not any(s.forfeited for s in match.result.seats)
            assert seat.stream_generation >= 2  # it really rejoined

    run(scenario())


def test_async_bot_plays_a_match() -> None:
    class Thoughtful(AsyncBot):
        name = "thoughtful"

        async def choose_async(self, request: Request) -> int:
            await asyncio.sleep(0)
            return len(request.options) - 1

    async def scenario() -> None:
        async with running_server() as referee:
            _, tickets = referee.create_match(
                MatchSettings(game="rumble-nation", config=GameConfig(2), seed=5)
            )
            over, _ = await asyncio.gather(
                play(Thoughtful(), referee.address, tickets[0]),
                play(RandomBot(1), referee.address, tickets[1]),
            )
            assert over.seats[0].bot_name == "thoughtful" and not over.seats[0].forfeited
            assert over.seats[0].decisions > 5

    run(scenario())


def test_wrong_ticket_is_a_bot_error_not_a_retry_loop() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            try:
                await play(RandomBot(1), referee.address, "not-a-ticket")
                raise AssertionError("joined with a bad ticket")
            except BotError as exc:
                assert "PERMISSION_DENIED" in str(exc)

    run(scenario())


def test_load_bot_by_file_and_class(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "from client_sdk import Bot\n\nclass Mine(Bot):\n    name = 'mine'\n\n    def choose(self, request):\n        return 0\n"
    )
    assert load_bot(f"{tmp_path / 'mine.py'}:Mine").name == "mine"
    assert isinstance(load_bot("random"), Bot)
    for bad, message in (
        ("nosuch", "unknown bot"),
        (f"{tmp_path / 'mine.py'}:Nope", "no 'Nope' in 'mine' (its bots: Mine)"),
        ("no_module_here:X", "cannot import"),
    ):
        try:
            load_bot(bad)
            raise AssertionError(f"loaded {bad}")
        except BotNotFound as exc:
            assert message in str(exc)


def test_kassen_bot_run_plays_a_bot_class_from_a_file(tmp_path: Path) -> None:
    (tmp_path / "first.py").write_text(
        "from client_sdk import Bot\n\nclass First(Bot):\n    name = 'first'\n\n    def choose(self, request):\n        return 0\n"
    )

    async def scenario() -> None:
        async with running_server() as referee:
            match, tickets = referee.create_match(
                MatchSettings(game="rumble-nation", config=GameConfig(2), seed=6)
            )
            env = {
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "KASSEN_ADDRESS": referee.address,
                "KASSEN_TICKET": tickets[0],
            }
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "kassen",
                "bot",
                "run",
                f"{tmp_path / 'first.py'}:First",
                env=env,
                stderr=subprocess.PIPE,
            )
            await play(RandomBot(3), referee.address, tickets[1])
            _, stderr = await process.communicate()
            assert process.returncode == 0, stderr
            assert b"over, rank" in stderr
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert match.result.seats[0].bot_name == "first"

    run(scenario())


def test_channel_errors_are_reported_after_rejoins_run_out() -> None:
    async def scenario() -> None:
        try:
            # A join that cannot reach the referee is retried (bounded), then reported.
            await play(RandomBot(1), "127.0.0.1:1", "ticket", rejoins=1, join_retries=2)
            raise AssertionError("played without a referee")
        except BotError as exc:
            assert "refused to join 3 times (UNAVAILABLE" in str(exc)

    run(scenario())


def test_a_rejoin_refused_because_the_match_ended_meanwhile_gets_the_result() -> None:
    """A seat whose stream dropped and whose match ended before it came back (its ticket died
    with the match) hears the result from GetMatch instead of failing with PERMISSION_DENIED."""

    async def scenario() -> None:
        async with running_server() as referee:
            match, tickets = referee.create_match(
                MatchSettings(game="rumble-nation", config=GameConfig(2), seed=4, reconnect_ms=10)
            )
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            heard: list[pb.MatchOver] = []

            class Dropped(RandomBot):
                def choose(self, request: Request) -> int:
                    # The connection breaks while this answer is on its way; the SDK rejoins
                    # after 0.1 s, when the reconnect window (10 ms) has long run out: the
                    # seat forfeits, the fallback plays it to the end, the ticket dies.
                    asyncio.get_running_loop().call_soon(seat.end_stream)
                    return super().choose(request)

                def on_match_over(self, over: pb.MatchOver) -> None:
                    heard.append(over)

            results = await asyncio.gather(
                play(Dropped(1), referee.address, tickets[0]),
                play(RandomBot(2), referee.address, tickets[1]),
            )
            assert match.result is not None
            assert results[0].match_id == match.id == results[1].match_id
            assert results[0].seats[0].forfeited
            assert results[0].seats[0].reason == pb.RESULT_REASON_DISCONNECTED
            assert heard == [results[0]]

    run(scenario())
