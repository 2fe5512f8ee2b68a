"""What a client can make the referee hold: a seat's inbox stays small whatever its bot sends,
a flood ends the seat with its own reason, and a finished match lets go of what it held.

Every scenario runs a real referee on a loopback port with raw gRPC clients.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from benchmarks.memory import free_port, play_matches, rss_mb
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.referee import TooManyMatches
from server.replay import verify_record
from server.results import Reason
from server.seats import FLOOD_DROPS, INBOX_LIMIT, UNASKED_BURST, RemoteSeat
from server.settings import MatchSettings, ServerSettings, TimeControl
from server.store import MatchStore
from tests.conftest import Depth
from tests.server.bots import FirstOptionBot

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
FLOOD_MESSAGES = 100_000


def run(scenario: Callable[[], Awaitable[T]], timeout: float = 120.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), timeout)

    return asyncio.run(bounded())


def two_seats(join_timeout_ms: int = 30_000) -> MatchSettings:
    return MatchSettings(
        game="rumble-nation",
        config=GameConfig(2, "base"),
        seed=11,
        time_control=TimeControl(decision_ms=2000, bank_ms=0),
        join_timeout_ms=join_timeout_ms,
    )


async def flood(
    address: str, ticket: str, messages: int, unasked: pb.PlayRequest
) -> tuple[int, str]:
    """Join, then send ``messages`` copies of ``unasked`` as fast as gRPC takes them.
    Returns how many were written before the stream ended, and how it ended."""
    sent = 0
    async with grpc.aio.insecure_channel(address) as channel:
        call: Any = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="flood")))
        first = await call.read()
        assert first.WhichOneof("message") == "joined"
        ended = "all written"
        try:
            for _ in range(messages):
                await call.write(unasked)
                sent += 1
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError) as exc:
            # The referee ends the call RESOURCE_EXHAUSTED; a client still writing into it
            # may only hear its transport's INTERNAL.
            ended = type(exc).__name__
        call.cancel()
        return sent, ended


@pytest.mark.parametrize(
    ("unasked", "reason"),
    [
        # Pongs to pings never sent: harmless one by one, a flood in bulk.
        (pb.PlayRequest(pong=pb.Pong(nonce=987654321)), pb.RESULT_REASON_FLOODED),
        # Answers while no request is open: the first is a stale answer (the seat fails
        # STALE_REQUEST), the rest a flood from a seat that has failed: dropped, then cut off.
        (pb.PlayRequest(answer=pb.Answer(request_id=1)), pb.RESULT_REASON_STALE_REQUEST),
    ],
    ids=["pongs", "answers"],
)
def test_a_flood_of_unasked_messages_ends_the_seat_and_the_inbox_stays_small(
    unasked: pb.PlayRequest, reason: int
) -> None:
    """The adversarial run's client sent 165,500 messages while not asked and the referee
    held ~94 MB for them. Now: at most the allowance is looked at, the inbox never holds
    more than its limit, the stream is ended and the seat fails (FLOODED for a flood)."""

    async def scenario() -> tuple[int, int, RemoteSeat, pb.MatchOver, Any]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            largest = 0
            sampling = True

            async def sample() -> None:
                nonlocal largest
                while sampling:
                    largest = max(largest, len(seat.inbox))
                    await asyncio.sleep(0)

            sampler = asyncio.create_task(sample())
            sent, ended = await flood(referee.address, tickets[0], FLOOD_MESSAGES, unasked)
            sampling = False
            await sampler
            # The other seat joins after the flood: the match is played to its end, with the
            # flooding seat played by the random policy.
            other = await FirstOptionBot(misbehave_at=10**9).play(referee.address, tickets[1])
            await match.finished.wait()
            assert other.match_over is not None
            return sent, largest, seat, other.match_over, ended

    sent, largest, seat, over, ended = run(scenario)
    assert largest <= INBOX_LIMIT
    assert sent < FLOOD_MESSAGES, f"the referee never ended the flooding stream ({ended})"
    assert seat.unasked_dropped >= FLOOD_DROPS - 1
    assert seat.unasked <= sent
    flooded = over.seats[0]
    assert flooded.reason == reason and flooded.forfeited
    if reason == pb.RESULT_REASON_FLOODED:
        assert f"sent {seat.unasked} messages it was not asked for" in flooded.detail
    assert over.reason == pb.RESULT_REASON_COMPLETED
    assert over.seats[1].reason == pb.RESULT_REASON_COMPLETED and over.seats[1].rank == 1
    assert len(seat.inbox) == 0 and seat.inbox.closed  # freed when the match ended


def test_a_few_repeated_answers_are_only_notices() -> None:
    """Within the allowance a repeated answer is harmless (a notice each), not a flood."""

    async def scenario() -> tuple[pb.MatchOver, int]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            async with grpc.aio.insecure_channel(referee.address) as channel:
                call: Any = rpc.RefereeStub(channel).Play()
                await call.write(pb.PlayRequest(join=pb.Join(ticket=tickets[0])))
                other = asyncio.create_task(
                    FirstOptionBot(misbehave_at=10**9).play(referee.address, tickets[1])
                )
                notices = 0
                repeated = False
                while True:
                    message = await call.read()
                    which = message.WhichOneof("message")
                    if which == "decision":
                        reply = pb.PlayRequest(
                            answer=pb.Answer(request_id=message.decision.request_id)
                        )
                        await call.write(reply)
                        if not repeated:
                            repeated = True
                            for _ in range(UNASKED_BURST // 2):
                                await call.write(reply)
                    elif which == "notice":
                        notices += int(message.notice.code == "duplicate_answer")
                    elif which == "match_over":
                        await other
                        return message.match_over, notices

    over, notices = run(scenario)
    assert over.seats[0].reason == pb.RESULT_REASON_COMPLETED
    assert notices == UNASKED_BURST // 2


def test_a_finished_match_lets_go_of_its_seats() -> None:
    """Inbox, request message, queued events and tickets go when the match ends."""

    async def scenario() -> tuple[Any, list[RemoteSeat], list[str], Any]:
        async with running_server() as referee:
            match, tickets = referee.create_match(two_seats())
            bots = [FirstOptionBot(misbehave_at=10**9) for _ in tickets]
            await asyncio.gather(
                *(b.play(referee.address, t) for b, t in zip(bots, tickets, strict=True))
            )
            await match.finished.wait()
            seats = [s for s in match.seats if isinstance(s, RemoteSeat)]
            return match, seats, tickets, referee

    match, seats, tickets, referee = run(scenario)
    assert match.result is not None and match.result.reason is Reason.COMPLETED
    for seat, ticket in zip(seats, tickets, strict=True):
        assert seat.inbox.closed and len(seat.inbox) == 0
        assert seat.open_request is None and not seat.undelivered
        assert seat.observation.ByteSize() == 0 and not seat.last_request  # request gone
        assert referee.seat_for(ticket) is None


# ---------------------------------------------------------------- finished matches on disk


async def play_out(referee: Any, settings: MatchSettings) -> str:
    """Create a match, play both seats with well-behaved bots, return its id."""
    match, tickets = referee.create_match(settings)
    bots = [FirstOptionBot(misbehave_at=10**9) for _ in tickets]
    await asyncio.gather(*(b.play(referee.address, t) for b, t in zip(bots, tickets, strict=True)))
    await match.finished.wait()
    return str(match.id)


def test_finished_matches_leave_memory_and_are_answered_from_the_store(tmp_path: Path) -> None:
    """Only ``recent_matches`` finished matches stay in memory; GetMatch, GetReplay and
    ListMatches answer the older ones from the store, also after a restart."""
    path = tmp_path / "store.sqlite"
    settings = ServerSettings(recent_matches=2)

    async def scenario() -> tuple[list[str], list[Any], list[str], Any, set[str]]:
        async with running_server(settings=settings, store=MatchStore.open(str(path))) as referee:
            ids = [await play_out(referee, two_seats()) for _ in range(5)]
            in_memory = set(referee.matches)
            async with grpc.aio.insecure_channel(referee.address) as channel:
                stub = rpc.RefereeStub(channel)
                summaries = [await stub.GetMatch(pb.GetMatchRequest(match_id=i)) for i in ids]
                replays = [
                    (await stub.GetReplay(pb.GetReplayRequest(match_id=i))).replay_json for i in ids
                ]
                listed = await stub.ListMatches(pb.ListMatchesRequest(limit=10))
        return ids, summaries, replays, listed, in_memory

    ids, summaries, replays, listed, in_memory = run(scenario)
    assert in_memory == set(ids[-2:])
    for match_id, got, text in zip(ids, summaries, replays, strict=True):
        assert got.match.match_id == match_id and got.match.status == "finished"
        assert got.match.result.reason == pb.RESULT_REASON_COMPLETED
        assert got.match.result.seed_reveal.salt  # public: no tournament block holds it
        record = json.loads(text)
        assert record["match_id"] == match_id and record["seed"] is not None
        assert verify_record(record).decisions == len(record["decisions"])
    assert [m.match_id for m in listed.matches] == ids[::-1]

    async def after_restart() -> Any:
        async with (
            running_server(settings=settings, store=MatchStore.open(str(path))) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            return await rpc.RefereeStub(channel).GetMatch(pb.GetMatchRequest(match_id=ids[0]))

    assert run(after_restart).match.result.reason == pb.RESULT_REASON_COMPLETED


def test_a_stored_match_keeps_its_seed_secret_until_revealed(tmp_path: Path) -> None:
    """A tournament match whose seed block is not over is stored without seed and salt;
    revealing it later (the match already out of memory) publishes them in the store."""

    async def scenario() -> tuple[Any, Any, Any, str]:
        store = MatchStore.open(str(tmp_path / "s.sqlite"))
        async with running_server(settings=ServerSettings(recent_matches=0), store=store) as ref:
            match, tickets = ref.create_match(replace(two_seats(), reveal_seed=False))
            bots = [FirstOptionBot(misbehave_at=10**9) for _ in tickets]
            await asyncio.gather(
                *(b.play(ref.address, t) for b, t in zip(bots, tickets, strict=True))
            )
            await match.finished.wait()
            assert match.id not in ref.matches
            async with grpc.aio.insecure_channel(ref.address) as channel:
                stub = rpc.RefereeStub(channel)
                secret = await stub.GetMatch(pb.GetMatchRequest(match_id=match.id))
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.GetReplay(pb.GetReplayRequest(match_id=match.id))
                match.reveal_seed()
                while (stored := await ref.archive.get(match.id)) is None or not stored.revealed:
                    await asyncio.sleep(0.01)  # the reveal is written by the store's thread
                public = await stub.GetMatch(pb.GetMatchRequest(match_id=match.id))
                replay = await stub.GetReplay(pb.GetReplayRequest(match_id=match.id))
            return secret, refused.value, public, replay.replay_json

    secret, refused, public, replay = run(scenario)
    assert not secret.match.result.HasField("seed_reveal")
    assert refused.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert public.match.result.seed_reveal.salt
    assert json.loads(replay)["seed"] == public.match.result.seed_reveal.seed


def test_a_match_in_a_long_join_window_does_not_stop_trimming() -> None:
    """The oldest match waits for its bots (a long join window) while others finish: the
    finished ones still leave memory beyond the recent few."""

    async def scenario() -> tuple[set[str], str, list[str]]:
        async with running_server(settings=ServerSettings(recent_matches=3)) as referee:
            waiting, _ = referee.create_match(two_seats(join_timeout_ms=600_000))
            ids = [await play_out(referee, two_seats()) for _ in range(8)]
            return set(referee.matches), waiting.id, ids

    in_memory, waiting, ids = run(scenario)
    assert in_memory == {waiting, *ids[-3:]}


# ---------------------------------------------------------------- limits


def test_limits_on_matches_waiting_and_alive_name_the_flag() -> None:
    """RESOURCE_EXHAUSTED names the limit reached: per caller first, then per referee; a
    match that ends (or starts) makes room again."""
    settings = ServerSettings(
        max_waiting_per_caller=2, max_live_per_caller=3, max_waiting_matches=10
    )

    async def scenario() -> list[str]:
        refusals: list[str] = []
        async with (
            running_server(settings=settings) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            request = pb.CreateMatchRequest(game="rumble-nation", players=2)

            async def refused() -> None:
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.CreateMatch(request)
                assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                refusals.append(caught.value.details() or "")

            first = await stub.CreateMatch(request)
            await stub.CreateMatch(request)
            await refused()  # two waiting
            bots = [
                asyncio.create_task(FirstOptionBot(misbehave_at=10**9).play(referee.address, t))
                for t in first.tickets
            ]
            while referee.matches[first.match_id].status == "waiting":
                await asyncio.sleep(0.01)
            await stub.CreateMatch(request)  # one started: room for one more waiting
            await refused()  # three alive
            await asyncio.gather(*bots)
            await referee.matches[first.match_id].finished.wait()
            await refused()  # one ended, but two of the three left still wait
            # The referee's own use (a tournament) counts against the referee's limits only.
            referee.create_match(two_seats())
        return refusals

    waiting, alive, still_waiting = run(scenario)
    assert still_waiting == waiting
    assert waiting.startswith("2 matches of 127.0.0.1 are waiting for their bots to join")
    assert "kassen serve --max-waiting-per-caller 2" in waiting
    assert alive.startswith("3 matches of 127.0.0.1 are alive")
    assert "--max-live-per-caller 3" in alive


def test_the_referee_wide_waiting_limit() -> None:
    async def scenario() -> str:
        async with running_server(settings=ServerSettings(max_waiting_matches=3)) as referee:
            for _ in range(3):
                referee.create_match(two_seats())
            with pytest.raises(TooManyMatches) as caught:
                referee.create_match(two_seats())
            return str(caught.value)

    assert run(scenario) == (
        "3 matches are waiting for their bots to join, the limit of this referee "
        "(kassen serve --max-waiting-matches 3)"
    )


# ---------------------------------------------------------------- the server's RSS

#: RSS growth allowed over ``RSS_MATCHES`` matches after a warm-up (measured: +2.5 MB over 500
#: on the 2-vCPU VM, docs/performance.md "Memory"; before the store, every finished match
#: stayed in memory, about 150 KB each for these games).
RSS_MATCHES = 400
RSS_GROWTH_MB = 15.0


@pytest.mark.timing
def test_server_memory_stays_flat_through_many_matches(tmp_path: Path, depth: Depth) -> None:
    """A real ``kassen serve`` plays 100 matches to warm up, then 400 more (150 at the fast
    depth: a match kept in memory, about 150 KB, would still show as 22 MB): its RSS grows by less
    than ``RSS_GROWTH_MB`` (finished matches go to the store, not memory)."""
    matches = depth(fast=150, slow=RSS_MATCHES)

    async def scenario() -> tuple[float, float]:
        address = f"127.0.0.1:{free_port()}"
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "kassen",
            "serve",
            "--address",
            address,
            "--store",
            str(tmp_path / "store.sqlite"),
            "--replays",
            str(tmp_path / "replays"),
            "--log-level",
            "warning",
            cwd=ROOT,
            stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = rpc.RefereeStub(channel)
                await stub.ListGames(pb.ListGamesRequest(), wait_for_ready=True, timeout=60)
                await play_matches(stub, server.pid, 100, 20, 0)
                warm = rss_mb(server.pid)
                await play_matches(stub, server.pid, matches, 20, 0)
                return warm, rss_mb(server.pid)
        finally:
            server.terminate()
            await server.wait()

    warm, after = run(scenario, timeout=300)
    assert after - warm < RSS_GROWTH_MB, f"RSS {warm:.1f} -> {after:.1f} MB"


@pytest.mark.parametrize(
    ("store", "says"),
    [
        ("/proc/no-such-folder/store.sqlite", "cannot create /proc/no-such-folder"),
        ("nosuchdb://host/x", "cannot open the match store nosuchdb://host/x"),
        ("postgresql://kassen:secret@127.0.0.1:1/kassen", "postgresql://kassen:***@127.0.0.1"),
    ],
    ids=["folder", "dialect", "unreachable"],
)
def test_a_store_that_cannot_be_opened_is_one_line(store: str, says: str) -> None:
    """`kassen serve --store` that cannot be opened: one line naming it (never a password),
    exit 2, before anything listens."""
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "serve", "--address", "127.0.0.1:0", "--store", store],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error: --store: "), done.stderr
    assert says in lines[0] and "secret" not in lines[0]


def test_a_store_that_stops_answering_is_unavailable(tmp_path: Path) -> None:
    """GetMatch and ListMatches need the store for matches out of memory: when it fails they
    answer UNAVAILABLE (not UNKNOWN with a traceback), and the referee goes on."""

    async def scenario() -> list[tuple[grpc.StatusCode, str]]:
        store = MatchStore.open(str(tmp_path / "store.sqlite"))
        codes = []
        async with (
            running_server(store=store) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            with store.engine.begin() as connection:  # the database loses its table
                connection.exec_driver_sql("DROP TABLE referee_matches_v1")
            stub = rpc.RefereeStub(channel)
            for call in (
                stub.GetMatch(pb.GetMatchRequest(match_id="abc")),
                stub.ListMatches(pb.ListMatchesRequest()),
            ):
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call
                codes.append((caught.value.code(), caught.value.details() or ""))
            await stub.ListGames(pb.ListGamesRequest())
        return codes

    for code, details in run(scenario):
        assert code == grpc.StatusCode.UNAVAILABLE
        assert details == "the match store is not answering; try again later"


def test_the_sqlite_store_takes_writers_from_several_processes(tmp_path: Path) -> None:
    """``kassen serve --workers N`` share one store file: WAL (readers never block the writer)
    and a busy timeout, on every connection."""
    store = MatchStore.open(str(tmp_path / "referee.sqlite"))
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 10_000
