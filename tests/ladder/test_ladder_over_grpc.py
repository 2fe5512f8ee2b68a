"""The ladder over real gRPC on loopback: register, seek, play against house bots, get rated."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

import grpc
import pytest
from sqlalchemy.engine import Engine

from client_sdk.builtin import GreedyBot, RandomBot
from client_sdk.ladder import bearer, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.settings import ServerSettings, TimeControl
from tests.tournament import postgres
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderService, LadderSettings, PoolKey
from tournament.storage import connect

POOL = PoolKey("rumble-nation", "base", 2)
SETTINGS = LadderSettings(
    pools=(POOL,),
    house_bots=(HouseBot("house-random", "random", "rumble-nation", "base", (2,)),),
    time_control=TimeControl(decision_ms=2000, bank_ms=5000),
    pause_after_failures=2,
    tick_s=0.05,
)


async def register(stub: lrpc.LadderAsyncStub, name: str) -> lpb.RegisterBotResponse:
    return await stub.RegisterBot(
        lpb.RegisterBotRequest(name=name, owner="ann", game="rumble-nation", player_counts=[2])
    )


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite'}"


async def settled_ladder(
    stub: lrpc.LadderAsyncStub, bot_id: str, games: int
) -> lpb.GetLadderResponse:
    """The ladder once ``bot_id``'s last result is in (a result is rated just after the bot
    hears MatchOver)."""
    for _ in range(200):
        ladder = await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))
        if any(row.bot_id == bot_id and row.games >= games for row in ladder.rows):
            return ladder
        await asyncio.sleep(0.05)
    raise AssertionError(f"the ladder never showed {games} games of {bot_id}: {ladder}")


#: A clock so slow that a match is still running (waiting for its bots) when the test looks.
SLOW = LadderSettings(
    pools=(POOL,),
    house_bots=SETTINGS.house_bots,
    time_control=TimeControl(decision_ms=60_000, bank_ms=0),
    join_timeout_ms=60_000,
    tick_s=0.05,
)


async def next_assignment(
    seek: grpc.aio.UnaryStreamCall[lpb.SeekRequest, lpb.SeekResponse],
) -> lpb.Assignment:
    while True:
        message = await asyncio.wait_for(seek.read(), 30)
        assert isinstance(message, lpb.SeekResponse)
        if message.HasField("assignment"):
            return message.assignment


@contextlib.asynccontextmanager
async def ladder_stub(
    engine: Engine, settings: LadderSettings = SETTINGS
) -> AsyncIterator[tuple[LadderService, lrpc.LadderAsyncStub]]:
    """A running ladder and a client of its Ladder service."""
    async with (
        running_ladder(engine, settings) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        yield service, lrpc.LadderStub(channel)


def run(body: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(body, 180))


def test_two_connected_bots_play_are_rated_and_shown(database: str) -> None:
    run(two_connected_bots(connect(database)))


async def two_connected_bots(engine: Engine) -> None:
    async with running_ladder(engine, SETTINGS) as service:
        address = service.referee.address
        async with grpc.aio.insecure_channel(address) as channel:
            stub = lrpc.LadderStub(channel)
            greedy = await register(stub, "greedy-one")
            rand = await register(stub, "random-one")
            runs = await asyncio.wait_for(
                asyncio.gather(
                    seek_and_play(lambda: GreedyBot(1), address, greedy.token, max_matches=4),
                    seek_and_play(lambda: RandomBot(2), address, rand.token, max_matches=4),
                ),
                timeout=120,
            )
            assert [len(r.results) for r in runs] == [4, 4]
            assert runs[0].bot_id == greedy.bot_id
            ladder = await settled_ladder(stub, greedy.bot_id, 4)
    names = {row.name: row for row in ladder.rows}
    assert set(names) == {"greedy-one", "random-one", "house-random"}
    assert names["greedy-one"].games >= 4 and names["greedy-one"].provisional
    assert names["house-random"].house and names["house-random"].online
    assert not names["greedy-one"].online  # it stopped seeking
    stored = registry.recent_matches(engine, greedy.bot_id)
    assert len(stored) >= 4 and all(m.status == "done" for m in stored)
    assert registry.replay_of(engine, stored[0].id)
    assert registry.rating_history(engine, greedy.bot_id, 2)


def test_tokens_names_and_admin_refusals(database: str) -> None:
    run(tokens_names_and_refusals(connect(database)))


async def tokens_names_and_refusals(engine: Engine) -> None:
    async with ladder_stub(engine) as (_service, stub):
        first = await register(stub, "alpha")
        listed = await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))
        (fresh,) = [row for row in listed.rows if row.bot_id == first.bot_id]
        assert fresh.games == 0 and fresh.provisional  # on the ladder before its first match
        with pytest.raises(grpc.aio.AioRpcError) as taken:
            await register(stub, "alpha")
        assert taken.value.code() == grpc.StatusCode.ALREADY_EXISTS
        with pytest.raises(grpc.aio.AioRpcError) as bad:
            await register(stub, "a b")
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "3-32 characters" in (bad.value.details() or "")
        with pytest.raises(grpc.aio.AioRpcError) as no_pool:
            await stub.RegisterBot(lpb.RegisterBotRequest(name="rooty", game="root"))
        assert no_pool.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        rotated = await stub.RotateToken(lpb.RotateTokenRequest(), metadata=bearer(first.token))
        seek = stub.Seek(lpb.SeekRequest(), metadata=bearer(first.token))
        with pytest.raises(grpc.aio.AioRpcError) as old:
            await seek.read()
        assert old.value.code() == grpc.StatusCode.PERMISSION_DENIED
        mine = await stub.GetBot(
            lpb.GetBotRequest(bot_id=first.bot_id), metadata=bearer(rotated.token)
        )
        assert mine.bot.name == "alpha"
        with pytest.raises(grpc.aio.AioRpcError) as unauthenticated:
            await stub.RotateToken(lpb.RotateTokenRequest())
        assert unauthenticated.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_a_bot_that_keeps_failing_is_paused_and_told_why(database: str) -> None:
    run(failing_bot_paused(connect(database)))


#: A short join window: the failing bot's two NO_SHOWs take seconds, not the default 2 x 10 s.
QUICK_NO_SHOW = dataclasses.replace(SETTINGS, join_timeout_ms=1_500)


async def failing_bot_paused(engine: Engine) -> None:
    async with ladder_stub(engine, QUICK_NO_SHOW) as (_service, stub):
        mute = await register(stub, "mute")
        # Seeks but never joins its matches: each one is a NO_SHOW.
        seek = stub.Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(mute.token))
        assignments = 0
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            while True:
                message = await asyncio.wait_for(seek.read(), 60)
                assert isinstance(message, lpb.SeekResponse)
                assignments += message.HasField("assignment")
        assert ended.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "paused after 2 failed matches in a row" in (ended.value.details() or "")
        assert assignments == 2
        info = await stub.GetBot(lpb.GetBotRequest(bot_id=mute.bot_id), metadata=bearer(mute.token))
        assert info.bot.status == "paused" and "NO_SHOW" in info.bot.status_reason
        public = await stub.GetBot(lpb.GetBotRequest(bot_id=mute.bot_id))
        assert public.bot.status_reason == ""  # only its owner and the admin see why


def test_stopping_the_service_voids_running_matches(database: str) -> None:
    run(stop_with_a_match_running(connect(database)))


async def stop_with_a_match_running(engine: Engine) -> None:
    async with ladder_stub(engine, SLOW) as (service, stub):
        bot = await register(stub, "thinker")
        seek = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
        await next_assignment(seek)  # joins nothing: its match waits for it (60 s window)
        assert len(service.running) == 1
    (match,) = registry.recent_matches(engine)
    assert (match.status, match.reason) == ("voided", "ABORTED")
    assert all(seat.rank == 0 for seat in match.seats)


def test_registrations_are_rate_limited_per_client_but_not_for_the_organiser(
    database: str,
) -> None:
    run(registration_limits(connect(database)))


async def registration_limits(engine: Engine) -> None:
    token = "organiser-token-for-tests-0123456789"
    async with (
        running_ladder(
            engine, SETTINGS, server_settings=ServerSettings(admin_token=token)
        ) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        for i in range(5):
            await register(stub, f"bot-{i}")
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await register(stub, "bot-5")
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "too many registrations" in (refused.value.details() or "")
        for i in range(5, 12):
            await stub.RegisterBot(
                lpb.RegisterBotRequest(name=f"bot-{i}", game="rumble-nation"),
                metadata=bearer(token),
            )
        listed = await stub.ListBots(lpb.ListBotsRequest(), metadata=bearer(token))
        assert len([b for b in listed.bots if not b.house]) == 12
        with pytest.raises(grpc.aio.AioRpcError) as denied:
            await stub.ListBots(lpb.ListBotsRequest())
        assert denied.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_a_reconnecting_bot_keeps_its_running_matches_within_its_concurrency(
    database: str,
) -> None:
    run(reconnect_keeps_concurrency(connect(database)))


async def reconnect_keeps_concurrency(engine: Engine) -> None:
    async with ladder_stub(engine, SLOW) as (service, stub):
        bot = await register(stub, "dropper")
        first = stub.Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(bot.token))
        await next_assignment(first)
        first.cancel()  # the stream drops; its match (not joined yet) is still running
        second = stub.Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(bot.token))
        seeking = await asyncio.wait_for(second.read(), 30)
        assert isinstance(seeking, lpb.SeekResponse) and seeking.HasField("seeking")
        service.matchmaking_round()
        with pytest.raises(asyncio.TimeoutError):  # no second match while the first runs
            await asyncio.wait_for(second.read(), 1.0)
        assert sum(bot.bot_id in r.seats for r in service.running.values()) == 1


def test_the_organiser_pauses_revokes_and_reinstates_a_bot(database: str) -> None:
    run(organiser_statuses(connect(database)))


async def organiser_statuses(engine: Engine) -> None:
    token = "organiser-token-for-tests-0123456789"
    async with (
        running_ladder(
            engine, SETTINGS, server_settings=ServerSettings(admin_token=token)
        ) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        bot = await register(stub, "watched")
        seek = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
        first = await asyncio.wait_for(seek.read(), 30)
        assert isinstance(first, lpb.SeekResponse) and first.HasField("seeking")
        with pytest.raises(grpc.aio.AioRpcError) as not_admin:
            await stub.SetBotStatus(
                lpb.SetBotStatusRequest(bot_id=bot.bot_id, status="paused"),
                metadata=bearer(bot.token),
            )
        assert not_admin.value.code() == grpc.StatusCode.PERMISSION_DENIED
        paused = await stub.SetBotStatus(
            lpb.SetBotStatusRequest(bot_id=bot.bot_id, status="paused", reason="too slow"),
            metadata=bearer(token),
        )
        assert paused.bot.status == "paused" and paused.bot.status_reason == "too slow"
        with pytest.raises(grpc.aio.AioRpcError) as ended:  # its Seek stream ends, saying why
            while True:
                await asyncio.wait_for(seek.read(), 30)
        assert ended.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "paused: too slow" in (ended.value.details() or "")
        await stub.SetBotStatus(
            lpb.SetBotStatusRequest(bot_id=bot.bot_id, status="active"), metadata=bearer(token)
        )
        again = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
        back = await asyncio.wait_for(again.read(), 30)
        assert isinstance(back, lpb.SeekResponse) and back.HasField("seeking")
        again.cancel()
        await stub.SetBotStatus(
            lpb.SetBotStatusRequest(bot_id=bot.bot_id, status="revoked", reason="cheating"),
            metadata=bearer(token),
        )
        with pytest.raises(grpc.aio.AioRpcError) as revoked:
            await stub.RotateToken(lpb.RotateTokenRequest(), metadata=bearer(bot.token))
        assert revoked.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "revoked: cheating" in (revoked.value.details() or "")
        listed = await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))
        assert bot.bot_id not in {row.bot_id for row in listed.rows}  # off the public ladder


def test_a_restarted_ladder_carries_on_from_its_database(database: str) -> None:
    engine = connect(database)
    run(play_some(engine, "veteran", 3))
    run(play_some(engine, "newcomer", 2))
    run(check_standing(connect(database)))


async def play_some(engine: Engine, name: str, matches: int) -> None:
    async with running_ladder(engine, SETTINGS) as service:
        async with grpc.aio.insecure_channel(service.referee.address) as channel:
            bot = await register(lrpc.LadderStub(channel), name)
        done = await seek_and_play(
            lambda: RandomBot(1), service.referee.address, bot.token, max_matches=matches
        )
        assert len(done.results) == matches
        async with grpc.aio.insecure_channel(service.referee.address) as channel:
            await settled_ladder(lrpc.LadderStub(channel), bot.bot_id, matches)


async def check_standing(engine: Engine) -> None:
    async with (
        running_ladder(engine, SETTINGS) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        ladder = await lrpc.LadderStub(channel).GetLadder(
            lpb.GetLadderRequest(game="rumble-nation")
        )
    games = {row.name: row.games for row in ladder.rows}
    assert games["veteran"] == 3 and games["newcomer"] == 2
    assert games["house-random"] == 5  # every rated result was read back at start


@pytest.mark.skipif(postgres.missing() is not None, reason=str(postgres.missing()))
def test_the_ladder_on_postgresql() -> None:
    with postgres.postgres_server() as url:
        engine = connect(url)
        run(play_some(engine, "pg-bot", 2))
        run(check_pg(connect(url)))


async def check_pg(engine: Engine) -> None:
    async with (
        running_ladder(engine, SETTINGS) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        ladder = await lrpc.LadderStub(channel).GetLadder(
            lpb.GetLadderRequest(game="rumble-nation")
        )
    assert {row.name: row.games for row in ladder.rows}["pg-bot"] == 2
    (match, *_) = registry.recent_matches(engine)
    assert registry.replay_of(engine, match.id)


def test_an_assignment_carries_the_seed_commitment_never_the_seed(database: str) -> None:
    run(assignment_keeps_chance_secret(connect(database)))


async def assignment_keeps_chance_secret(engine: Engine) -> None:
    async with ladder_stub(engine, SLOW) as (service, stub):
        bot = await register(stub, "curious")
        seek = stub.Seek(lpb.SeekRequest(), metadata=bearer(bot.token))
        assignment = await next_assignment(seek)
        match = service.referee.matches[assignment.match_id]
        seed, salt = str(match.settings.seed), match.settings.salt
        assert assignment.setup.seed_commitment == match.commitment
        wire = assignment.SerializeToString()
        assert seed.encode() not in wire and salt.encode() not in wire
        public = await stub.GetLadder(lpb.GetLadderRequest(game="rumble-nation"))
        assert seed.encode() not in public.SerializeToString()
        seek.cancel()
