"""A ladder's referee fleet under faults, with real processes killed for real (SIGKILL):

- a ``kassen serve`` referee dies mid-match: its matches end voided (stored so, never rated,
  every bot told VOIDED), and the bots play on at once on the other referee;
- the coordinator (``kassen ladder serve``) dies mid-match: the referee aborts the ladder's
  matches, and the ladder restarted on the same database voids them and carries on with the
  results it had, unchanged;
- a coordinator that cancels a hosted match: the referee aborts it and tells its seats.

Every process logs to a file, never a pipe (a pipe nobody reads fills and freezes its writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

import client_sdk.ladder
from client_sdk.bot import AsyncBot, Request
from client_sdk.builtin import RandomBot
from client_sdk.ladder import LadderMatch, bearer, seek_and_play
from client_sdk.runner import BotError, play
from games.contract import GameConfig
from kassen.v1 import fleet_pb2 as fpb
from kassen.v1 import fleet_pb2_grpc as frpc
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.hosting import MatchPlan, SeatPlan
from server.hosting_wire import plan_to_proto
from server.settings import FailurePolicy, MatchSettings, ServerSettings, TimeControl
from tests.kassen_processes import Process, free_port, launch
from tests.tournament import postgres
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.fleet import FleetSettings, RemoteReferee
from tournament.ladder_service.ratings import PoolRatings, Rating
from tournament.ladder_service.service import LadderService, LadderSettings, PoolKey
from tournament.storage import connect

pytestmark = pytest.mark.system
T = TypeVar("T")

TOKEN = "tok-" + "5" * 32
POOL = PoolKey("rumble-nation", "base", 2)
#: Connected bots, one match at a time each: three matches at once.
BOTS = 6
#: Each decision of a test bot waits this long, so a match lasts a few seconds: long enough
#: to be killed in the middle, short enough for several to finish.
THINK_S = 0.1
CLOCK = TimeControl(decision_ms=2000, bank_ms=5000)
JOIN_TIMEOUT_MS = 5000
#: How long the ladder may take to see a fault and act on it (loaded 2-core machine).
PROMPTLY_S = 10.0


# ---------------------------------------------------------------------- processes


@contextlib.contextmanager
def referee(folder: Path, name: str, token_file: Path, *flags: str) -> Iterator[Process]:
    """``kassen serve`` with an organiser token, keeping no finished match on disk."""
    address = f"127.0.0.1:{free_port()}"
    process = launch(
        ["serve", "--address", address, "--store", "none", "--admin-token-file", str(token_file)]
        + list(flags),
        address,
        folder / f"{name}.log",
        folder,
        '"serving"',
    )
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    path = tmp_path / "organiser.token"
    path.write_text(TOKEN + "\n")
    return path


# ---------------------------------------------------------------------- bots


@dataclass
class Played:
    """What the test's bots saw: each decision's match, each ``MatchEnded``, each match over.
    While ``moving`` is clear the bots hold their answers: no match of theirs can end then,
    so the test knows which matches are live when it kills a process."""

    decisions: dict[str, int] = field(default_factory=dict)
    joined: dict[str, int] = field(default_factory=dict)
    ended: dict[str, list[lpb.MatchEnded]] = field(default_factory=dict)
    over: list[LadderMatch] = field(default_factory=list)
    moving: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.moving.set()

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """The bots hold their answers in the block (well within their clocks), from a
        moment after it starts: what was answered has been played by then."""
        self.moving.clear()
        try:
            await asyncio.sleep(0.5)
            yield
        finally:
            self.moving.set()

    def count(self, match_id: str) -> None:
        self.decisions[match_id] = self.decisions.get(match_id, 0) + 1


class SlowBot(AsyncBot):
    """Plays at random, thinking ``THINK_S`` a decision; counts its decisions per match."""

    name = "slow"

    def __init__(self, played: Played) -> None:
        self.played = played
        self.match_id = ""
        self.inner = RandomBot()

    def on_joined(self, joined: pb.Joined) -> None:
        if not self.match_id:
            self.played.joined[joined.match_id] = self.played.joined.get(joined.match_id, 0) + 1
        self.match_id = joined.match_id

    async def choose_async(self, request: Request) -> int:
        await asyncio.sleep(THINK_S)
        await self.played.moving.wait()
        self.played.count(self.match_id)
        return self.inner.choose(request)


def start_bots(address: str, tokens: list[str], played: Played) -> list[asyncio.Task[Any]]:
    """Each bot seeks and plays (reconnecting with the SDK's backoff) until cancelled."""

    def on_ended(ended: lpb.MatchEnded) -> None:
        played.ended.setdefault(ended.match_id, []).append(ended)

    return [
        asyncio.create_task(
            seek_and_play(
                lambda: SlowBot(played),
                address,
                token,
                on_ended=on_ended,
                on_match=played.over.append,
            )
        )
        for token in tokens
    ]


async def stop_bots(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, BotError):
            await task


async def register_bots(address: str, names: list[str]) -> dict[str, lpb.RegisterBotResponse]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = lrpc.LadderStub(channel)
        return {
            name: await stub.RegisterBot(
                lpb.RegisterBotRequest(
                    name=name, owner="faults", game="rumble-nation", player_counts=[2]
                ),
                metadata=bearer(TOKEN),  # the organiser registers more than a client may
            )
            for name in names
        }


async def until(what: str, check: Callable[[], T | None], timeout: float = 20.0) -> T:
    """Poll ``check`` until it gives something true; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


async def until_stored(what: str, check: Callable[[], T | None], timeout: float = 20.0) -> T:
    """``until`` for a check that reads the database (in a thread: the loop plays on)."""
    deadline = time.monotonic() + timeout
    while True:
        found = await asyncio.to_thread(check)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.1)


def run(body: Coroutine[Any, Any, None], timeout: float = 90) -> None:
    asyncio.run(asyncio.wait_for(body, timeout))


# ---------------------------------------------------------------------- the database


@dataclass(frozen=True)
class StoredMatch:
    id: str
    status: str
    reason: str | None
    decisions: int | None
    started_at: float
    #: (bot id, rank, score, failure) by seat.
    seats: tuple[tuple[str, int, int, str], ...]


def stored_matches(engine: Engine) -> list[StoredMatch]:
    """Every match row with its seats (a match id stored twice would show twice)."""
    m, s = registry.ladder_matches.c, registry.ladder_seats.c
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(m.id, m.status, m.reason, m.decisions, m.started_at).order_by(m.started_at)
        ).all()
        seats: dict[str, list[tuple[int, tuple[str, int, int, str]]]] = {}
        for match_id, seat, bot_id, rank, score, failure in conn.execute(
            sa.select(s.match_id, s.seat, s.bot_id, s.rank, s.score, s.failure)
        ):
            seats.setdefault(match_id, []).append((seat, (bot_id, rank, score, failure)))
    return [
        StoredMatch(
            row.id,
            row.status,
            row.reason,
            row.decisions,
            row.started_at,
            tuple(seat for _, seat in sorted(seats.get(row.id, []))),
        )
        for row in rows
    ]


def by_id(engine: Engine) -> dict[str, StoredMatch]:
    return {match.id: match for match in stored_matches(engine)}


def ended_rows(engine: Engine, match_ids: set[str]) -> dict[str, StoredMatch] | None:
    """Every match stored, once each of ``match_ids`` is stored as ended; else None."""
    found = by_id(engine)
    ended = all(m in found and found[m].status != "running" for m in match_ids)
    return found if ended else None


def done_since(engine: Engine, known: set[str], count: int) -> list[StoredMatch] | None:
    """At least ``count`` done matches beyond ``known``, or None."""
    done = [m for m in stored_matches(engine) if m.status == "done" and m.id not in known]
    return done if len(done) >= count else None


def seen_over(played: Played, match_ids: set[str]) -> list[LadderMatch] | None:
    """Both seats' own view of each of these matches once each bot played it to its end."""
    found = [o for o in played.over if o.assignment.match_id in match_ids]
    return found if len(found) == 2 * len(match_ids) else None


def assert_each_once(matches: list[StoredMatch]) -> None:
    """No match id stored twice, each with its two seats, seats 0 and 1."""
    ids = [match.id for match in matches]
    assert len(ids) == len(set(ids)), f"a match id stored twice: {sorted(ids)}"
    for match in matches:
        assert len(match.seats) == 2, match


def assert_unrated(match: StoredMatch) -> None:
    """A voided match counts for nobody: no rank, score or failure on any seat."""
    assert match.status == "voided", match
    assert all(seat[1:] == (0, 0, "") for seat in match.seats), match


async def assert_ratings_match_the_results(
    address: str, engine: Engine, bots: dict[str, str]
) -> None:
    """GetLadder shows, for every bot, the done matches stored for it, and the ratings a
    fresh fit of the stored results gives. Called with the bots held (no match can end): a
    result stored a moment ago is refitted a moment later, so both are read until they meet."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = lrpc.LadderStub(channel)
        deadline = time.monotonic() + 5  # the bots' clocks run while they are held
        while True:
            expected = fitted(await asyncio.to_thread(stored_matches, engine), bots.values())
            answer = await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))
            shown = {row.bot_id: (row.games, row.rating) for row in answer.rows}
            if all(
                b in shown
                and shown[b][0] == expected[b].matches
                and _close(shown[b][1], expected[b].rating)
                for b in bots.values()
            ):
                return
            assert time.monotonic() < deadline, (expected, shown)
            await asyncio.sleep(0.1)


def fitted(matches: list[StoredMatch], bots: Iterable[str]) -> dict[str, Rating]:
    """The ratings of the done matches among ``matches``, fitted afresh."""
    fit = PoolRatings(POOL.players)
    for bot_id in bots:
        fit.add_bot(bot_id)
    for match in matches:
        if match.status != "done":
            continue
        places: dict[int, list[str]] = {}
        for bot_id, rank, _score, _failure in match.seats:
            places.setdefault(rank, []).append(bot_id)
        fit.add([tuple(b) if len(b) > 1 else b[0] for _, b in sorted(places.items())], match.id)
    return {rating.bot_id: rating for rating in fit.ratings()}


def _close(shown: float, fitted: float) -> bool:
    if not math.isfinite(fitted):
        return not math.isfinite(shown)
    return abs(shown - fitted) < 0.5


# ---------------------------------------------------------------------- a referee dies


def live_on(service: LadderService, address: str) -> dict[str, tuple[str, ...]]:
    """The ladder's live matches hosted at ``address``: match id -> its bots by seat."""
    return {
        match_id: running.seats
        for match_id, running in service.running.items()
        if running.hosted is not None
        and running.slot is not None
        and running.slot.address == address
    }


def test_a_referee_killed_mid_match_voids_its_matches_and_the_bots_play_on_the_other(
    tmp_path: Path, token_file: Path
) -> None:
    with referee(tmp_path, "a", token_file) as a, referee(tmp_path, "b", token_file) as b:
        run(referee_dies(connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}"), a, b))


async def referee_dies(engine: Engine, a: Process, b: Process) -> None:
    settings = LadderSettings(
        pools=(POOL,),
        time_control=CLOCK,
        join_timeout_ms=JOIN_TIMEOUT_MS,
        tick_s=0.05,
        referees=FleetSettings(addresses=(a.address, b.address), embedded=False),
    )
    remote = [RemoteReferee(a.address, TOKEN), RemoteReferee(b.address, TOKEN)]
    async with running_ladder(
        engine, settings, server_settings=ServerSettings(admin_token=TOKEN), remote=remote
    ) as service:
        address = service.referee.address
        bots = await register_bots(address, [f"bot-{n}" for n in range(BOTS)])
        played = Played()
        tasks = start_bots(address, [bot.token for bot in bots.values()], played)
        try:
            # Matches under way on A: both seats joined and deciding.
            await until(
                "two matches under way on referee A",
                lambda: (
                    sum(played.decisions.get(m, 0) >= 4 for m in live_on(service, a.address)) >= 2
                ),
            )
            async with played.held():
                lost = live_on(service, a.address)
                a.kill()
            killed = time.monotonic()
            assert len(lost) >= 2

            # The bots of the lost matches play again at once, on B.
            again: dict[str, float] = {}

            def moved() -> bool:
                for seats in live_on(service, b.address).values():
                    for bot in seats:
                        again.setdefault(bot, time.monotonic() - killed)
                return all(bot in again for seats in lost.values() for bot in seats)

            await until("the lost matches' bots playing on referee B", moved, PROMPTLY_S)
            # Each bot of a lost match heard that it was voided (both seats each).
            voided = pb.ResultReason.Value("RESULT_REASON_VOIDED")
            await until(
                "MatchEnded for both seats of every lost match",
                lambda: all(len(played.ended.get(m, [])) == 2 for m in lost),
            )
            for match_id in lost:
                heard = played.ended[match_id]
                assert {e.reason for e in heard} == {voided}, heard
                assert sorted(e.seat for e in heard) == [0, 1]
                assert all(e.rank == 0 for e in heard)
            # Stored voided, unrated, no seat's failure counted.
            stored = await until_stored(
                "the lost matches' ends stored", lambda: ended_rows(engine, set(lost))
            )
            for match_id, seats in lost.items():
                assert_unrated(stored[match_id])
                assert stored[match_id].reason == "VOIDED"
                assert tuple(seat[0] for seat in stored[match_id].seats) == seats
            # Matches keep completing, on B alone, as the bots saw them.
            after = await until_stored(
                "three matches started after the kill done",
                lambda: done_since(engine, set(stored), 3),
                30,
            )
            results = await until(
                "the bots' own results of those matches",
                lambda: seen_over(played, {m.id for m in after}),
            )
            for over in results:
                assert over.assignment.referee_address == b.address, over.assignment
                assert over.result is not None
                assert over.result.reason == pb.ResultReason.Value("RESULT_REASON_COMPLETED")
            assert max(again[bot] for seats in lost.values() for bot in seats) < 5.0, again
            async with played.held():
                await assert_ratings_match_the_results(
                    address, engine, {name: bot.bot_id for name, bot in bots.items()}
                )
        finally:
            await stop_bots(tasks)
    assert_each_once(stored_matches(engine))


# ---------------------------------------------------------------------- the coordinator dies

REFEREE_TOKEN = "tok-" + "6" * 32


@dataclass
class Ladder:
    """``kassen ladder serve`` as an organiser runs it, its matches on ``referee``; started
    again on the same database and address after a kill."""

    folder: Path
    database: str
    referee: str
    address: str = field(default_factory=lambda: f"127.0.0.1:{free_port()}")
    process: Process | None = None

    def start(self) -> Process:
        config = self.folder / "ladder.toml"
        config.write_text(
            f"""
            [ladder]
            pools = ["{POOL.game}/{POOL.variant}/{POOL.players}"]
            house = []
            decision_ms = {CLOCK.decision_ms}
            bank_ms = {CLOCK.bank_ms}
            join_timeout_ms = {JOIN_TIMEOUT_MS}

            [referees]
            embedded = false
            token_file = "{self.folder / "referee.token"}"
            """
        )
        self.process = launch(
            [
                "ladder", "serve",
                "--address", self.address,
                "--web", "none",
                "--db", self.database,
                "--config", str(config),
                "--admin-token-file", str(self.folder / "organiser.token"),
                "--referees", self.referee,
            ],
            self.address,
            self.folder / "ladder.log",
            self.folder,
            "kassen ladder: serving on",
        )  # fmt: skip
        return self.process

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'ladder.sqlite'}"
        return
    if postgres.missing() is not None:
        pytest.skip(str(postgres.missing()))
    with postgres.postgres_server() as url:
        yield url


async def referee_matches(address: str) -> dict[str, pb.MatchSummary]:
    async with grpc.aio.insecure_channel(address) as channel:
        answer = await rpc.RefereeStub(channel).ListMatches(pb.ListMatchesRequest(limit=1000))
    return {summary.match_id: summary for summary in answer.matches}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_coordinator_killed_mid_match_and_restarted_carries_on(
    tmp_path: Path, token_file: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bots reconnect as the SDK does, with its backoff capped lower than the usual 10 s:
    # the test need not wait that long for the same path.
    monkeypatch.setattr(client_sdk.ladder, "RECONNECT_CAP_S", 2.0)
    referee_token = tmp_path / "referee.token"
    referee_token.write_text(REFEREE_TOKEN + "\n")
    with database(kind, tmp_path) as url, referee(tmp_path, "referee", referee_token) as ref:
        ladder = Ladder(tmp_path, url, ref.address)
        try:
            run(coordinator_dies(ladder, ref, connect(url)))
        finally:
            ladder.stop()


async def coordinator_dies(ladder: Ladder, ref: Process, engine: Engine) -> None:
    process = await asyncio.to_thread(ladder.start)
    bots = await register_bots(ladder.address, [f"bot-{n}" for n in range(BOTS)])
    played = Played()
    tasks = start_bots(ladder.address, [bot.token for bot in bots.values()], played)
    try:
        await until_stored("two matches done", lambda: done_since(engine, set(), 2), 30)
        # A match under way on the referee (stored running, its bots deciding).
        await until_stored(
            "a match under way",
            lambda: any(
                m.status == "running" and played.decisions.get(m.id, 0) >= 4
                for m in stored_matches(engine)
            ),
        )
        async with played.held():
            on_referee = await referee_matches(ref.address)
            live = {m for m, summary in on_referee.items() if summary.status != "finished"}
            process.kill()
        killed = await asyncio.to_thread(by_id, engine)  # what the ladder had stored
        done = {m.id: m for m in killed.values() if m.status == "done"}
        running = {m.id for m in killed.values() if m.status == "running"}
        assert live and live <= running, (live, running)
        seated = {m for m in live if played.joined.get(m) == 2}  # both its bots in it
        assert seated, (live, played.joined)

        # The referee aborts what it hosted for the dead ladder, and tells its seats.
        aborted = pb.ResultReason.Value("RESULT_REASON_ABORTED")

        async def all_aborted() -> bool:
            now = await referee_matches(ref.address)
            return all(
                now[m].status == "finished" and now[m].result.reason == aborted for m in live
            )

        deadline = time.monotonic() + PROMPTLY_S
        while not await all_aborted():
            assert time.monotonic() < deadline, await referee_matches(ref.address)
            await asyncio.sleep(0.1)
        told = await until("the aborted matches' bots told", lambda: seen_over(played, seated))
        for over in told:
            assert over.result is not None and over.result.reason == aborted, over

        # Restarted on the same database and address: it voids what was running, keeps what
        # was done, and the bots (reconnecting on their own) play on.
        await asyncio.to_thread(ladder.start)
        after_restart = await asyncio.to_thread(by_id, engine)
        for match_id in running:
            assert_unrated(after_restart[match_id])
            assert after_restart[match_id].reason == "SERVICE_STOPPED"
        for match_id, before in done.items():
            assert after_restart[match_id] == before
        await until_stored(
            "two more matches done after the restart",
            lambda: done_since(engine, set(killed), 2),
            30,
        )
        async with played.held():
            await assert_ratings_match_the_results(
                ladder.address, engine, {name: bot.bot_id for name, bot in bots.items()}
            )
    finally:
        await stop_bots(tasks)
    assert_each_once(await asyncio.to_thread(stored_matches, engine))


# ---------------------------------------------------------------------- a coordinator cancels


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cancelled_host_match_stream_aborts_the_match_and_tells_its_seats(
    tmp_path: Path, token_file: Path, workers: int
) -> None:
    """With two workers one of the two matches is relayed to the other worker: the relay
    passes the cancellation on."""
    with referee(tmp_path, "referee", token_file, "--workers", str(workers)) as ref:
        run(coordinator_cancels(ref, workers), 60)


async def coordinator_cancels(ref: Process, workers: int) -> None:
    plan = MatchPlan(
        MatchSettings(
            game=POOL.game,
            config=GameConfig(players=2, variant=POOL.variant),
            seed=20261202,
            time_control=CLOCK,
            failure_policy=FailurePolicy.FORFEIT,
            join_timeout_ms=JOIN_TIMEOUT_MS,
        ),
        (SeatPlan("joiner"), SeatPlan("house", "house", "random", 7)),
    )
    aborted = pb.ResultReason.Value("RESULT_REASON_ABORTED")
    played = Played()
    async with grpc.aio.insecure_channel(ref.address) as channel:
        host = frpc.RefereeHostStub(channel)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await host.HostMatch(plan_to_proto(plan)).read()
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED  # organiser only
        calls, seats = [], {}
        for _ in range(2):
            call = host.HostMatch(plan_to_proto(plan), metadata=bearer(TOKEN))
            first = await asyncio.wait_for(call.read(), 15)
            assert isinstance(first, fpb.HostMatchResponse) and first.HasField("started"), first
            tickets = first.started.tickets
            assert tickets[0] and not tickets[1]  # the house seat plays inside the referee
            calls.append(call)
            seats[first.started.match_id] = asyncio.create_task(
                play(SlowBot(played), ref.address, tickets[0])
            )
        await until(
            "the joined seats deciding",
            lambda: all(played.decisions.get(m, 0) >= 3 for m in seats),
        )
        for call in calls:
            call.cancel()  # the coordinator goes away

        if workers == 2:  # one match on each worker: one of them through the relay
            assert {match_id.split("-")[0] for match_id in seats} == {"w0", "w1"}, seats
        for match_id, seat in seats.items():
            over = await asyncio.wait_for(seat, PROMPTLY_S)
            assert over.match_id == match_id and over.reason == aborted, over
            summary = await rpc.RefereeStub(channel).GetMatch(pb.GetMatchRequest(match_id=match_id))
            assert summary.match.status == "finished"
            assert summary.match.result.reason == aborted
    assert ref.output().count("coordinator left a hosted match: aborted") == 2
