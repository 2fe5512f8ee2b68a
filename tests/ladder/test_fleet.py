"""The ladder's matches on other referees, over real gRPC on loopback: placement, the
assignment naming the referee, the HostMatch stream as the match's lifeline, refusals."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest

from client_sdk.builtin import RandomBot
from client_sdk.ladder import LadderMatch, bearer, seek_and_play
from client_sdk.runner import play
from games.contract import GameConfig
from kassen.v1 import fleet_pb2 as fpb
from kassen.v1 import fleet_pb2_grpc as frpc
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from server import hosting_service
from server.app import running_server
from server.hosting import MatchPlan, SeatPlan
from server.hosting_wire import plan_to_proto
from server.referee import Referee
from server.results import Reason
from server.settings import MatchSettings, ServerSettings, TimeControl
from tests.ladder.test_ladder_over_grpc import POOL, SETTINGS, register
from tests.ladder.test_web_pages import SlowBot, first_running, web_of
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.fleet import FleetSettings, RemoteReferee
from tournament.storage import connect

TOKEN = "fleet-test-organiser-token-0123456789"
REMOTE_ONLY = dataclasses.replace(SETTINGS, referees=FleetSettings(addresses=("x:1",)))


@contextlib.asynccontextmanager
async def hosting_referee(
    settings: ServerSettings | None = None,
) -> AsyncIterator[tuple[Referee, grpc.aio.Channel]]:
    """A referee that hosts matches, and a channel to it."""
    async with (
        running_server("127.0.0.1:0", settings=settings) as remote,
        grpc.aio.insecure_channel(remote.address) as channel,
    ):
        yield remote, channel


def _plan(*seats: SeatPlan, decision_ms: int = 2000) -> MatchPlan:
    settings = MatchSettings(
        game="rumble-nation",
        config=GameConfig(players=len(seats), variant="base"),
        seed=7,
        time_control=TimeControl(decision_ms=decision_ms, bank_ms=0),
        join_timeout_ms=30_000,
    )
    return MatchPlan(settings, seats)


def test_matches_are_played_on_the_remote_referee_the_assignment_names(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        async with running_server("127.0.0.1:0") as remote:
            referees = [RemoteReferee(remote.address, None)]
            async with running_ladder(engine, REMOTE_ONLY, remote=referees) as service:
                address = service.referee.address
                async with grpc.aio.insecure_channel(address) as channel:
                    bot = await register(lrpc.LadderStub(channel), "far-away")
                seen: list[LadderMatch] = []
                run = await seek_and_play(
                    lambda: RandomBot(3), address, bot.token, max_matches=3, on_match=seen.append
                )
                assert not run.errors
                assert [m.assignment.referee_address for m in seen] == [remote.address] * 3
                assert not service.referee.matches  # none on the ladder's own referee
                assert {m.assignment.match_id for m in seen} <= set(remote.matches)
                for _ in range(100):
                    rows = registry.recent_matches(engine, bot.bot_id, 10)
                    if len(rows) == 3 and all(r.status == "done" for r in rows):
                        break
                    await asyncio.sleep(0.05)
                assert sorted(r.status for r in rows) == ["done"] * 3

    asyncio.run(scenario())


def test_the_embedded_referee_plays_when_nothing_else_is_listed(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        async with running_ladder(engine, SETTINGS) as service:
            address = service.referee.address
            async with grpc.aio.insecure_channel(address) as channel:
                bot = await register(lrpc.LadderStub(channel), "at-home")
            seen: list[LadderMatch] = []
            await seek_and_play(
                lambda: RandomBot(3), address, bot.token, max_matches=1, on_match=seen.append
            )
            assert seen[0].assignment.referee_address == ""
            assert seen[0].assignment.match_id in service.referee.matches
            assert [slot.label for slot in service.fleet.slots] == ["embedded"]

    asyncio.run(scenario())


def test_an_unreachable_referee_is_left_out_and_the_embedded_one_plays(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        gone = RemoteReferee("127.0.0.1:9", None)  # discard port: nothing listens
        settings = dataclasses.replace(
            SETTINGS, referees=FleetSettings(addresses=(gone.address,), embedded=True)
        )
        async with running_ladder(engine, settings, remote=[gone]) as service:
            address = service.referee.address
            async with grpc.aio.insecure_channel(address) as channel:
                bot = await register(lrpc.LadderStub(channel), "stays-home")
            seen: list[LadderMatch] = []
            run = await seek_and_play(
                lambda: RandomBot(3), address, bot.token, max_matches=2, on_match=seen.append
            )
            assert not run.errors
            assert [m.assignment.referee_address for m in seen] == ["", ""]
            assert gone.failures >= 1 and gone.live == 0

    asyncio.run(scenario())


def test_a_coordinator_that_leaves_aborts_the_hosted_match_and_its_seats_hear_it() -> None:
    async def scenario() -> None:
        settings = ServerSettings(admin_token=TOKEN)
        async with hosting_referee(settings) as (remote, channel):
            plan = _plan(SeatPlan("joiner"), SeatPlan("house", "house", "random", 1))
            call = frpc.RefereeHostStub(channel).HostMatch(
                plan_to_proto(plan), metadata=bearer(TOKEN)
            )
            first = await call.read()
            assert isinstance(first, fpb.HostMatchResponse)
            started = first.started
            match = remote.matches[started.match_id]
            assert started.tickets[0] and not started.tickets[1]
            call.cancel()
            await asyncio.wait_for(match.finished.wait(), 10)
            assert match.result is not None
            assert match.result.reason is Reason.ABORTED

    asyncio.run(scenario())


def test_a_hosted_match_says_it_is_alive_and_ends_with_its_result_and_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hosting_service, "ALIVE_EVERY_S", 0.05)

    async def scenario() -> None:
        async with hosting_referee() as (remote, channel):

            async def late_join(ticket: str) -> None:
                await asyncio.sleep(0.3)  # several alive messages meanwhile
                await play(RandomBot(5), remote.address, ticket)

            plan = _plan(SeatPlan("late"), SeatPlan("b", "house", "greedy", 2))
            events = []
            async for event in frpc.RefereeHostStub(channel).HostMatch(plan_to_proto(plan)):
                events.append(event)
                if event.WhichOneof("event") == "started":
                    joining = asyncio.ensure_future(late_join(event.started.tickets[0]))
            await joining
        kinds = [event.WhichOneof("event") for event in events]
        assert kinds[0] == "started" and kinds[-1] == "ended"
        assert kinds.count("alive") >= 3
        ended = events[-1].ended
        assert ended.result.reason == pb.RESULT_REASON_COMPLETED
        assert [seat.bot_name for seat in ended.result.seats] == ["late", "b"]
        assert ended.decisions > 0 and '"seed"' in ended.replay_json

    asyncio.run(scenario())


def test_host_calls_need_the_organiser_token() -> None:
    async def scenario() -> None:
        settings = ServerSettings(admin_token=TOKEN)
        async with hosting_referee(settings) as (remote, channel):
            stub = frpc.RefereeHostStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.DescribeHost(fpb.DescribeHostRequest())
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
            described = await stub.DescribeHost(fpb.DescribeHostRequest(), metadata=bearer(TOKEN))
            assert described.max_live_matches == settings.max_live_matches
            assert described.workers == 1 and not described.runtimes
            plan = plan_to_proto(_plan(SeatPlan("a"), SeatPlan("b")))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.HostMatch(plan).read()
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
            assert not remote.matches

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("seat", "code", "words"),
    [
        (SeatPlan("x", "house", "no-such-policy"), "INVALID_ARGUMENT", "no-such-policy"),
        (SeatPlan("x", "submitted", folder="/srv/bot"), "FAILED_PRECONDITION", "no submitted"),
    ],
)
def test_a_seat_the_referee_cannot_run_is_refused_by_name(
    seat: SeatPlan, code: str, words: str
) -> None:
    async def scenario() -> None:
        async with hosting_referee() as (remote, channel):
            plan = plan_to_proto(_plan(SeatPlan("a"), seat))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await frpc.RefereeHostStub(channel).HostMatch(plan).read()
            assert refused.value.code().name == code
            assert words in (refused.value.details() or "")
            assert not remote.matches

    asyncio.run(scenario())


def test_the_standings_say_where_a_remote_match_can_be_watched(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        slow = dataclasses.replace(
            REMOTE_ONLY, time_control=TimeControl(decision_ms=60_000, bank_ms=0)
        )
        async with running_server("127.0.0.1:0") as remote:
            referees = [RemoteReferee(remote.address, None)]
            async with (
                running_ladder(engine, slow, remote=referees) as service,
                grpc.aio.insecure_channel(service.referee.address) as channel,
            ):
                stub = lrpc.LadderStub(channel)
                bot = await register(stub, "watched")
                seek = stub.Seek(lpb.SeekRequest(concurrency=1), metadata=bearer(bot.token))
                while True:
                    message = await asyncio.wait_for(seek.read(), 30)
                    assert isinstance(message, lpb.SeekResponse)
                    if message.HasField("assignment"):
                        break
                match_id = message.assignment.match_id
                for _ in range(100):
                    standings = await stub.GetStandings(lpb.GetStandingsRequest())
                    if match_id in standings.live_referees:
                        break
                    await asyncio.sleep(0.05)
                assert standings.live_referees[match_id].address == remote.address
                pool = next(p for p in standings.pools if p.players == POOL.players)
                assert match_id in pool.live_match_ids
                seek.cancel()

    asyncio.run(scenario())


def test_the_page_shows_a_remote_match_live_from_its_referee(tmp_path: Path) -> None:
    """The page's process watches a match where it is played, not at the ladder."""

    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        async with running_server("127.0.0.1:0") as remote:
            referees = [RemoteReferee(remote.address, None)]
            async with (
                running_ladder(engine, REMOTE_ONLY, remote=referees) as service,
                web_of(service) as page,
                grpc.aio.insecure_channel(service.referee.address) as channel,
            ):
                bot = await register(lrpc.LadderStub(channel), "watched-far")
                playing = asyncio.ensure_future(
                    seek_and_play(SlowBot, service.referee.address, bot.token, max_matches=1)
                )
                match_id = await first_running(service)
                assert match_id in remote.matches
                async with httpx.AsyncClient(base_url=f"http://{page.address}") as http:
                    updates = await _live_updates(http, match_id)
                await playing
        assert updates[-1][0] == "over"
        assert updates[-1][1]["reason"] == "RESULT_REASON_COMPLETED"
        frames = [data for kind, data in updates if kind == "frame"]
        assert len(frames) >= 2 and all(len(f["view"]["areas"]) == 11 for f in frames)

    asyncio.run(scenario())


def test_a_persons_game_is_played_on_the_remote_referee(tmp_path: Path) -> None:
    """The page's process plays a person's seat where the match is hosted."""

    async def scenario() -> dict[str, Any]:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        async with running_server("127.0.0.1:0") as remote:
            referees = [RemoteReferee(remote.address, None)]
            async with (
                running_ladder(engine, REMOTE_ONLY, remote=referees) as service,
                web_of(service) as page,
                httpx.AsyncClient(base_url=f"http://{page.address}", timeout=60) as http,
            ):
                (house,) = service.house
                made = await http.post(
                    "/api/play",
                    json={
                        "game": POOL.game,
                        "variant": POOL.variant,
                        "players": 2,
                        "opponents": [house],
                    },
                )
                assert made.status_code == 200, made.text
                hosted = remote.matches[made.json()["match_id"]]
                # a person's reconnect window (a page reload) goes with the plan
                assert (
                    hosted.settings.reconnect_ms == service.settings.challenges.person_reconnect_ms
                )
                key = made.json()["url"].rsplit("/", 1)[-1]
                async with http.stream("GET", f"/api/play/{key}/events") as stream:
                    kind = ""
                    async for line in stream.aiter_lines():
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: ") and kind == "decision":
                            request = json.loads(line[6:])["request_id"]
                            sent = await http.post(
                                f"/api/play/{key}/answer",
                                json={"request_id": request, "option": 0},
                            )
                            assert sent.status_code == 204
                        elif line.startswith("data: ") and kind == "over":
                            over: dict[str, Any] = json.loads(line[6:])
                            return over
        raise AssertionError("the person's game did not end")

    over = asyncio.run(scenario())
    assert over["reason"] == "RESULT_REASON_COMPLETED"
    assert {s["rank"] for s in over["seats"]} <= {1, 2}


async def _live_updates(http: httpx.AsyncClient, match_id: str) -> list[tuple[str, Any]]:
    """Every Server-Sent Event of the page's live view of ``match_id`` (the page may not
    know the match for its first second: its standings are cached)."""
    for _ in range(50):
        updates: list[tuple[str, Any]] = []
        async with http.stream("GET", f"/api/matches/{match_id}/live", timeout=60) as stream:
            if stream.status_code == 404:
                await asyncio.sleep(0.1)
                continue
            kind = ""
            async for line in stream.aiter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    updates.append((kind, json.loads(line[6:])))
            return updates
    raise AssertionError(f"the page never showed match {match_id} live")


def test_a_placement_that_breaks_frees_its_bots_for_the_next_one(tmp_path: Path) -> None:
    """An unexpected error while placing a match must not keep its bots reserved."""

    async def scenario() -> None:
        engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
        async with running_ladder(engine, SETTINGS) as service:
            place = service.fleet.place
            broken: list[MatchPlan] = []

            async def first_breaks(plan: MatchPlan) -> Any:
                if not broken:
                    broken.append(plan)
                    raise RuntimeError("a bug in placement")
                return await place(plan)

            service.fleet.place = first_breaks  # type: ignore[method-assign]
            async with grpc.aio.insecure_channel(service.referee.address) as channel:
                bot = await register(lrpc.LadderStub(channel), "survives-a-bug")
            run = await asyncio.wait_for(
                seek_and_play(
                    lambda: RandomBot(3), service.referee.address, bot.token, max_matches=1
                ),
                30,
            )
            assert broken and len(run.results) == 1
            assert not any(key.startswith("reserved-") for key in service.running)

    asyncio.run(scenario())
