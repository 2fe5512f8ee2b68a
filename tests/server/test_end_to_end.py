"""Matches over real gRPC on loopback: every transport, spectators, queries, hidden information."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from client_sdk import RandomBot, Request, play
from games import GameConfig
from games.policies import make_policy
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.match import Match
from server.referee import CommandBot, LocalBot
from server.replay import verify_file
from server.results import Reason
from server.settings import MatchSettings

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


class RecordingBot(RandomBot):
    """A random bot that keeps every request and event it was sent."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.requests: list[Request] = []
        self.events: list[pb.Event] = []
        self.result: pb.MatchOver | None = None

    def choose(self, request: Request) -> int:
        self.requests.append(request)
        self.events.extend(request.events)
        return super().choose(request)

    def on_events(self, events: tuple[pb.Event, ...]) -> None:
        self.events.extend(events)

    def on_match_over(self, result: pb.MatchOver) -> None:
        self.result = result


def public_events(match: Match) -> list[str]:
    """Every public event of a finished match, by re-simulating it from its seed."""
    state = match.game.new(match.settings.config, match.settings.seed)
    found = [e for e in getattr(state, "setup_events", ()) if e.private_to is None]
    for seat, index in match.state.history:
        found.extend(e for e in state.apply(seat, index) if e.private_to is None)
    return [wire.event_to_proto(match.game, e).data_json for e in found]


def test_all_three_transports_in_one_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(3, "advanced"), seed=8)
            command = CommandBot(
                command=[sys.executable, "-m", "kassen", "bot", "run", "greedy"],
                name="launched",
                cwd=str(ROOT),
            )
            match, tickets = referee.create_match(
                settings,
                local={0: LocalBot(make_policy("greedy", "rumble-nation", 1), "in-process")},
                commands={2: command},
            )
            assert tickets[0] == "" and tickets[1] and tickets[2]
            remote = RecordingBot(3)
            over = await play(remote, referee.address, tickets[1])
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert [s.forfeited for s in match.result.seats] == [False, False, False]
            assert over.reason == pb.RESULT_REASON_COMPLETED
            assert sorted(s.rank for s in over.seats) == [1, 2, 3]
            assert [s.bot_name for s in over.seats] == ["in-process", "random", "launched"]
            assert remote.requests and all(r.seat == 1 for r in remote.requests)
            assert verify_file(Path(over.replay_path)).decisions == match.decisions

    run(scenario())


def test_no_seat_or_spectator_sees_another_seats_hidden_daimyo() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            for seed in range(4):
                settings = MatchSettings(
                    game="rumble-nation", config=GameConfig(4, "advanced"), seed=seed
                )
                match, tickets = referee.create_match(settings)
                bots = [RecordingBot(seed * 10 + i) for i in range(4)]
                updates: list[pb.WatchResponse] = []

                async def spectate(
                    match_id: str = match.id, updates: list[pb.WatchResponse] = updates
                ) -> None:
                    async with grpc.aio.insecure_channel(referee.address) as channel:
                        async for update in rpc.RefereeStub(channel).Watch(
                            pb.WatchRequest(match_id=match_id)
                        ):
                            updates.append(update)

                watcher = asyncio.create_task(spectate())
                await asyncio.gather(
                    *(play(b, referee.address, t) for b, t in zip(bots, tickets, strict=True))
                )
                await watcher
                cards = match.state.daimyo_card  # type: ignore[attr-defined]
                for seat, bot in enumerate(bots):
                    for request in bot.requests:
                        view = request.observation
                        for other, seen in enumerate(view.seats):
                            if other != seat and not seen.daimyo_revealed:
                                assert seen.daimyo_card is None
                        if view.phase != "draft":
                            assert view.seats[seat].daimyo_card == cards[seat]
                    revealed_by_use = {
                        json.loads(e.data_json)["card"]
                        for e in bot.events
                        if e.kind == "daimyo_card"
                    }
                    hidden = {cards[p] for p in range(4) if p != seat} - revealed_by_use
                    for event in bot.events:
                        assert not any(
                            card in event.data_json
                            for card in hidden
                            if event.kind != "daimyo_display"
                        )
                assert updates and updates[-1].HasField("match_over")
                for update in updates:
                    if update.HasField("observation"):
                        for seen in update.observation.rumble_nation.seats:
                            assert seen.daimyo_card == "" or seen.daimyo_revealed
                    assert not update.observation.rumble_nation.HasField("viewer")

    run(scenario())


def test_queries_list_games_get_match_list_matches_get_replay() -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            games = await stub.ListGames(pb.ListGamesRequest())
            rn = next(g for g in games.games if g.name == "rumble-nation")
            assert list(rn.variants) == ["base", "advanced"] and list(rn.player_counts) == [2, 3, 4]
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="rumble-nation", players=2, seed=99)
            )
            waiting = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert waiting.match.status == "waiting" and list(waiting.match.joined) == [
                False,
                False,
            ]
            try:
                await stub.GetReplay(pb.GetReplayRequest(match_id=created.match_id))
                raise AssertionError("replay of an unfinished match")
            except grpc.aio.AioRpcError as exc:
                assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION
            await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(created.tickets))
            )
            listed = await stub.ListMatches(pb.ListMatchesRequest())
            assert listed.matches[0].match_id == created.match_id
            assert listed.matches[0].status == "finished"
            replay = json.loads(
                (await stub.GetReplay(pb.GetReplayRequest(match_id=created.match_id))).replay_json
            )
            assert replay["seed"] == 99 and replay["finished"]
            assert waiting.match.setup.seed_commitment == replay["seed_commitment"]
            for bad in (
                stub.CreateMatch(pb.CreateMatchRequest(game="chess", players=2)),
                stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation", players=9)),
            ):
                try:
                    await bad
                    raise AssertionError("accepted a bad match")
                except grpc.aio.AioRpcError as exc:
                    assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT
            try:
                await stub.GetMatch(pb.GetMatchRequest(match_id="nope"))
                raise AssertionError("found a match that does not exist")
            except grpc.aio.AioRpcError as exc:
                assert exc.code() == grpc.StatusCode.NOT_FOUND

    run(scenario())


def test_health_and_reflection_list_the_services() -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            health = health_pb2_grpc.HealthStub(channel)
            status = await health.Check(health_pb2.HealthCheckRequest(service="kassen.v1.Referee"))
            assert status.status == health_pb2.HealthCheckResponse.SERVING
            reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
            call = reflection.ServerReflectionInfo()
            await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
            response = await call.read()
            names = {s.name for s in response.list_services_response.service}
            assert {"kassen.v1.Referee", "grpc.health.v1.Health"} <= names
            await call.write(
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="kassen.v1.Referee")
            )
            described = await call.read()
            assert described.file_descriptor_response.file_descriptor_proto
            await call.done_writing()

    run(scenario())


def test_delayed_spectator_sees_events_late() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=3)
            match, tickets = referee.create_match(settings)
            loop = asyncio.get_running_loop()
            arrivals: list[tuple[float, pb.WatchResponse]] = []
            watching = asyncio.Event()  # the first update (the setup) has arrived

            async def spectate() -> None:
                async with grpc.aio.insecure_channel(referee.address) as channel:
                    stub = rpc.RefereeStub(channel)
                    async for update in stub.Watch(
                        pb.WatchRequest(match_id=match.id, delay_ms=400)
                    ):
                        arrivals.append((loop.time(), update))
                        watching.set()

            watcher = asyncio.create_task(spectate())
            await watching.wait()
            await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(tickets))
            )
            ended = loop.time()
            await watcher
            assert arrivals[-1][1].HasField("match_over")
            # The game itself ends within milliseconds; the delayed feed trails it by ~0.4 s.
            assert arrivals[-1][0] - ended >= 0.3
            assert [e.data_json for _, u in arrivals for e in u.events] == public_events(match)

    run(scenario())


def test_a_bot_process_that_dies_before_joining_fails_at_once_not_after_the_join_window() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(
                game="rumble-nation", config=GameConfig(2), seed=1, join_timeout_ms=20_000
            )
            crash = CommandBot(command=[sys.executable, "-c", "raise SystemExit(4)"], name="crash")
            local = {1: LocalBot(make_policy("random", "rumble-nation", 1), "random")}
            loop = asyncio.get_running_loop()
            started = loop.time()
            match, _ = referee.create_match(settings, local=local, commands={0: crash})
            await match.finished.wait()
            assert loop.time() - started < 5
            assert match.result is not None
            assert match.result.seats[0].reason is Reason.BOT_CRASHED
            assert "code 4" in match.result.seats[0].detail

    run(scenario())
