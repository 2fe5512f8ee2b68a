"""A seat taken over is visible: a join with the seat's ticket while another stream still held
the seat counts as a takeover in the result (MatchOver, GetMatch), the replay (before which
decision, and when), ``kassen match`` and ``kassen replay verify``; a rejoin after the seat's
stream dropped is an ordinary reconnect and counts nothing. Real gRPC on loopback, real
processes for the command line."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import grpc
import pytest

from client_sdk import RandomBot, Request, play
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.replay import ReplayError, verify_record
from server.results import Reason
from server.seats import RemoteSeat
from server.settings import MatchSettings, TimeControl
from tests.server.test_end_to_end import run

if TYPE_CHECKING:
    Call: TypeAlias = grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse]
else:
    Call = grpc.aio.StreamStreamCall

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
#: Decisions the first stream of seat 0 answers before the second one arrives.
ANSWERED = 3


class CountingBot(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(self, request: Request) -> int:
        self.decisions += 1
        return super().choose(request)


def roomy(seed: int) -> MatchSettings:
    return MatchSettings(
        game="rumble-nation",
        config=GameConfig(2),
        seed=seed,
        time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
    )


async def answer_until_asked(call: Call, answers: int) -> None:
    """Join has been sent: answer ``answers`` decisions with option 0, then return holding
    the next request unanswered."""
    answered = 0
    while True:
        message = await call.read()
        assert message is not grpc.aio.EOF and not message.HasField("match_over"), message
        if message.HasField("ping"):
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
        elif message.HasField("decision"):
            if answered == answers:
                return
            reply = pb.Answer(request_id=message.decision.request_id, option_index=0)
            await call.write(pb.PlayRequest(answer=reply))
            answered += 1


async def rest_of(call: Call) -> list[pb.PlayResponse]:
    heard = []
    while (message := await call.read()) is not grpc.aio.EOF:
        heard.append(message)
    return heard


def seat_zero_decisions(record: dict[str, object], start: int, stop: int | None = None) -> int:
    decisions = record["decisions"]
    assert isinstance(decisions, list)
    return sum(1 for seat, _ in decisions[start:stop] if seat == 0)


def test_a_second_connection_with_the_ticket_is_counted_in_result_getmatch_and_replay(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with (
            running_server(replay_dir=tmp_path) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            match, tickets = referee.create_match(roomy(8))
            other = asyncio.create_task(play(RandomBot(1), referee.address, tickets[1]))
            first = stub.Play()
            await first.write(pb.PlayRequest(join=pb.Join(ticket=tickets[0], bot_name="first")))
            await answer_until_asked(first, ANSWERED)
            before = len(match.state.history)  # nothing moves while seat 0 is asked
            started = time.time()
            taker = CountingBot(2)
            taking = asyncio.create_task(play(taker, referee.address, tickets[0]))
            heard = await rest_of(first)
            assert [m.notice.code for m in heard if m.HasField("notice")] == ["displaced"]
            over, _ = await asyncio.gather(taking, other)

            # The result, as the seat that took over heard it.
            assert over.reason == pb.RESULT_REASON_COMPLETED
            assert [s.takeovers for s in over.seats] == [1, 0]
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            took = match.result.seats[0].takeovers
            assert len(took) == 1 and took[0].before_decision == before
            assert started <= took[0].at <= time.time()
            # GetMatch (public) shows it.
            summary = (await stub.GetMatch(pb.GetMatchRequest(match_id=match.id))).match
            assert [s.takeovers for s in summary.result.seats] == [1, 0]
            # The replay: before which decision, and when. The first stream made the seat's
            # decisions before it, the connection that took over every one after it.
            record = json.loads((tmp_path / f"{match.id}.json").read_text())
            seats = record["result"]["seats"]
            assert seats[1]["takeovers"] == []
            (entry,) = seats[0]["takeovers"]
            assert entry["before_decision"] == before
            at = datetime.fromisoformat(entry["at"].replace("Z", "+00:00")).timestamp()
            assert abs(at - took[0].at) < 0.002
            assert seat_zero_decisions(record, 0, before) == ANSWERED
            assert seat_zero_decisions(record, before) == taker.decisions > 0
            served = await stub.GetReplay(pb.GetReplayRequest(match_id=match.id))
            assert json.loads(served.replay_json)["result"]["seats"][0]["takeovers"] == [entry]
            assert verify_record(record).takeovers == [(0, before, entry["at"])]
            # A replay written before takeovers were recorded verifies as before.
            for each in record["result"]["seats"]:
                del each["takeovers"]
            assert verify_record(record).takeovers == []
            record["result"]["seats"][0]["takeovers"] = [{"before_decision": 10**6, "at": ""}]
            with pytest.raises(ReplayError, match="before_decision"):
                verify_record(record)

    run(scenario())


def test_a_rejoin_after_the_stream_dropped_is_a_reconnect_not_a_takeover(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with (
            running_server(replay_dir=tmp_path) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            match, tickets = referee.create_match(roomy(9))
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            other = asyncio.create_task(play(RandomBot(1), referee.address, tickets[1]))
            first = stub.Play()
            await first.write(pb.PlayRequest(join=pb.Join(ticket=tickets[0], bot_name="first")))
            await answer_until_asked(first, ANSWERED)
            first.cancel()  # the connection drops
            for _ in range(500):
                if not seat.connected:
                    break
                await asyncio.sleep(0.01)
            assert not seat.connected
            over, _ = await asyncio.gather(play(RandomBot(2), referee.address, tickets[0]), other)
            assert seat.stream_generation == 2  # it did rejoin
            assert [s.takeovers for s in over.seats] == [0, 0]
            assert match.result is not None and match.result.seats[0].takeovers == []
            assert match.result.seats[0].reason is Reason.COMPLETED
            summary = (await stub.GetMatch(pb.GetMatchRequest(match_id=match.id))).match
            assert [s.takeovers for s in summary.result.seats] == [0, 0]
            record = json.loads((tmp_path / f"{match.id}.json").read_text())
            assert [s["takeovers"] for s in record["result"]["seats"]] == [[], []]

    run(scenario())


def kassen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_kassen_match_and_replay_verify_tell_of_a_seat_taken_over(tmp_path: Path) -> None:
    spec = f"cmd:python {HERE / 'double_join.py'} 2"
    result = kassen(
        "match",
        "rumble-nation",
        "--seat",
        spec,
        "--seat",
        "random",
        "--seed",
        "3",
        "--replays",
        str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Result: completed" in result.stdout
    assert f"Player 1 ({spec}) was taken over once" in result.stdout
    assert result.stdout.count("was taken over") == 1
    replay = Path(re.search(r"Replay: (.+)", result.stdout).group(1))  # type: ignore[union-attr]
    record = json.loads(replay.read_text())
    (entry,) = record["result"]["seats"][0]["takeovers"]
    assert seat_zero_decisions(record, 0, entry["before_decision"]) == 2
    verified = kassen("replay", "verify", str(replay))
    assert verified.returncode == 0, verified.stderr
    lines = verified.stdout.splitlines()
    assert lines[0].startswith("ok: rumble-nation")
    assert lines[1:] == [
        f"seat 0 (player 1) was taken over before decision {entry['before_decision']}"
        f" ({entry['at']}): another stream joined with its ticket while its own still held it"
    ]
