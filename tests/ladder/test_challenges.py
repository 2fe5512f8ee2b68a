"""Challenges over gRPC, on a real ladder with connected SDK bots: a bot's author challenges a
bot that accepts challenges; both bots are assigned the match marked unrated, play it, and it
is recorded unrated (never among the rated results) and listed for both bots. Refusals: a bot
that does not accept, a person's seat asked for without the page's relay token, too many
challenges of one bot at once, unknown bots and seats; SetChallenges turns it on and off."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import grpc
import pytest

from client_sdk.builtin import RandomBot
from client_sdk.ladder import LadderMatch, bearer, seek_and_play
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.settings import TimeControl
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.challenges import ChallengeSettings
from tournament.ladder_service.service import HouseBot, LadderService, LadderSettings, PoolKey
from tournament.storage import connect

POOL = PoolKey("rumble-nation", "base", 2)
SETTINGS = LadderSettings(
    pools=(POOL,),
    house_bots=(HouseBot("house-random", "random", POOL.game, POOL.variant, (2,)),),
    time_control=TimeControl(decision_ms=5_000, bank_ms=10_000),
    tick_s=0.05,
    challenges=ChallengeSettings(wait_s=20, per_bot_at_once=1),
)


@contextlib.asynccontextmanager
async def ladder(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[LadderService]:
    engine = connect(f"sqlite:///{tmp_path_factory.mktemp('challenges') / 'ladder.sqlite'}")
    async with running_ladder(engine, SETTINGS) as service:
        yield service


async def register(
    stub: lrpc.LadderStub, name: str, accepts: bool = False
) -> lpb.RegisterBotResponse:
    made: lpb.RegisterBotResponse = await stub.RegisterBot(
        lpb.RegisterBotRequest(
            name=name, game=POOL.game, variant=POOL.variant, accepts_challenges=accepts
        )
    )
    return made


def test_a_bot_challenges_another_and_the_match_is_unrated_for_both(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    asyncio.run(asyncio.wait_for(challenged_and_played(tmp_path_factory), 180))


async def challenged_and_played(tmp_path_factory: pytest.TempPathFactory) -> None:
    async with (
        ladder(tmp_path_factory) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        target = await register(stub, "target-bot", accepts=True)
        challenger = await register(stub, "challenger-bot")
        seen: dict[str, list[LadderMatch]] = {"target": [], "challenger": []}
        runs = [
            asyncio.create_task(
                seek_and_play(
                    lambda: RandomBot(1),
                    service.referee.address,
                    made.token,
                    on_match=seen[who].append,
                )
            )
            for who, made in (("target", target), ("challenger", challenger))
        ]
        try:
            await until(lambda: {target.bot_id, challenger.bot_id} <= set(service.seekers))
            started = await stub.Challenge(
                lpb.ChallengeRequest(
                    game=POOL.game, variant=POOL.variant, players=2, opponents=[target.bot_id]
                ),
                metadata=bearer(challenger.token),
            )
            assert started.ticket == ""  # the challenger's own comes in its Assignment
            assert sorted(started.seat_names) == ["challenger-bot", "target-bot"]
            match_id = started.match_id

            def played_by_both() -> bool:
                return all(
                    any(m.assignment.match_id == match_id for m in found) for found in seen.values()
                )

            await until(played_by_both, 60)
            for found in seen.values():
                (match,) = [m for m in found if m.assignment.match_id == match_id]
                assert match.assignment.unrated
                assert match.result is not None
            row = await until_stored(service, match_id)
            assert row.status == "unrated"
            assert {s.bot_id for s in row.seats} == {target.bot_id, challenger.bot_id}
            rated = registry.results(service.engine, POOL.game, POOL.variant, 2)
            assert match_id not in {m for m, _ in rated}
            for bot_id in (target.bot_id, challenger.bot_id):
                listed = registry.recent_matches(service.engine, bot_id)
                assert match_id in {m.id for m in listed}
        finally:
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)


def test_challenges_are_refused_by_name(tmp_path_factory: pytest.TempPathFactory) -> None:
    asyncio.run(asyncio.wait_for(refusals(tmp_path_factory), 180))


async def refusals(tmp_path_factory: pytest.TempPathFactory) -> None:
    async with (
        ladder(tmp_path_factory) as service,
        grpc.aio.insecure_channel(service.referee.address) as channel,
    ):
        stub = lrpc.LadderStub(channel)
        shy = await register(stub, "shy-bot")
        keen = await register(stub, "keen-bot", accepts=True)
        asker = await register(stub, "asker-bot")
        runs = [
            asyncio.create_task(
                seek_and_play(lambda: RandomBot(2), service.referee.address, made.token)
            )
            for made in (shy, keen, asker)
        ]
        try:
            await until(lambda: len(service.seekers) == 3)

            async def refused(
                request: lpb.ChallengeRequest, token: str | None
            ) -> grpc.aio.AioRpcError:
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.Challenge(request, metadata=bearer(token) if token else None)
                return caught.value

            def ask(*opponents: str, **extra: object) -> lpb.ChallengeRequest:
                return lpb.ChallengeRequest(
                    game=POOL.game, variant=POOL.variant, players=2, opponents=opponents, **extra
                )

            error = await refused(ask(shy.bot_id), asker.token)
            assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert "does not accept challenges" in (error.details() or "")
            error = await refused(ask(keen.bot_id), None)
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED
            error = await refused(ask(keen.bot_id, person=True), asker.token)
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED
            error = await refused(ask("no-such-bot"), asker.token)
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
            error = await refused(ask(keen.bot_id, seat=5), asker.token)
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "seat" in (error.details() or "")
            error = await refused(ask(asker.bot_id), asker.token)
            assert "itself" in (error.details() or "")

            # Turned on, the shy bot can be challenged; one challenge at a time per bot.
            info = await stub.SetChallenges(
                lpb.SetChallengesRequest(accept=True), metadata=bearer(shy.token)
            )
            assert info.bot.accepts_challenges
            first = await stub.Challenge(ask(shy.bot_id), metadata=bearer(asker.token))
            assert first.match_id
            error = await refused(ask(shy.bot_id), keen.token)
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "per_bot_at_once" in (error.details() or "")
        finally:
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)


async def until(condition: Callable[[], object], timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def until_stored(service: LadderService, match_id: str) -> registry.MatchRow:
    for _ in range(600):
        row = registry.match_row(service.engine, match_id)
        if row is not None and row.status != "running":
            return row
        await asyncio.sleep(0.05)
    raise AssertionError(f"{match_id} not stored")
