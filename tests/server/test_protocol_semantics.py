"""Protocol semantics that bots and organisers rely on: secret seeds and their commitments,
time-control defaults field by field, limits on what CreateMatch accepts, seat takeover with a
``displaced`` notice, a match nobody joined, spectators (late join, organiser's delay), pings."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from client_sdk import BotError, RandomBot, play
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.chance import SEED_BITS, check_commitment, draw_seed
from server.replay import ReplayError, verify_file
from server.results import Reason
from server.seats import RemoteSeat
from server.settings import MatchSettings, ServerSettings

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


# --------------------------------------------------------------------------- secret seeds


def test_seeds_come_from_the_os_csprng_not_from_pythons_random_state() -> None:
    random.seed(0)
    first = [draw_seed() for _ in range(500)]
    random.seed(0)
    second = [draw_seed() for _ in range(500)]
    assert first != second  # the global (seedable) generator plays no part
    assert len(set(first + second)) == 1000
    assert all(0 <= s < 2**SEED_BITS for s in first)
    assert max(first) > 2**62  # the whole 63-bit range is used, not a 31-bit one


def test_seats_see_a_commitment_and_matchover_reveals_seed_and_salt(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with (
            running_server(replay_dir=tmp_path) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation", players=2))
            commitment = created.setup.seed_commitment
            assert len(commitment) == 64
            secret = referee.matches[created.match_id].settings.seed
            # The wire no longer has a seed field in the setup at all.
            assert "seed" not in pb.MatchSetup.DESCRIPTOR.fields_by_name
            summary = (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).match
            assert not summary.result.HasField("seed_reveal")
            overs = await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(created.tickets))
            )
            for over in overs:
                assert over.seed_reveal.seed == secret
                assert check_commitment(over.seed_reveal.seed, over.seed_reveal.salt, commitment)
            record = json.loads(Path(overs[0].replay_path).read_text())
            assert record["seed"] == secret and record["seed_commitment"] == commitment
            assert verify_file(Path(overs[0].replay_path)).commitment_checked
            # A replay whose seed was changed no longer matches its commitment.
            forged = tmp_path / "forged.json"
            forged.write_text(json.dumps({**record, "seed": secret ^ 1}))
            with pytest.raises(ReplayError, match="commitment"):
                verify_file(forged)
            hidden = tmp_path / "hidden.json"
            hidden.write_text(json.dumps({**record, "seed": None, "salt": None}))
            with pytest.raises(ReplayError, match="not revealed"):
                verify_file(hidden)

    run(scenario())


# --------------------------------------------------------------------------- CreateMatch


def test_time_control_fields_default_one_by_one() -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)

            async def clock(tc: pb.TimeControl | None) -> tuple[int, int]:
                request = pb.CreateMatchRequest(game="rumble-nation", players=2)
                if tc is not None:
                    request.time_control.CopyFrom(tc)
                created = await stub.CreateMatch(request)
                control = referee.matches[created.match_id].settings.time_control
                return control.decision_ms, control.bank_ms

            assert await clock(None) == (1000, 10_000)
            assert await clock(pb.TimeControl(decision_ms=250)) == (250, 10_000)
            assert await clock(pb.TimeControl(bank_ms=0)) == (1000, 0)
            assert await clock(pb.TimeControl(bank_ms=3000)) == (1000, 3000)
            assert await clock(pb.TimeControl(decision_ms=50, bank_ms=0)) == (50, 0)
            await referee.shutdown()

    run(scenario())


@pytest.mark.parametrize(
    ("request_fields", "field"),
    [
        ({"join_timeout_ms": 10**9}, "join_timeout_ms"),
        ({"max_decisions": 10**8}, "max_decisions"),
        ({"watch_delay_ms": 10**9}, "watch_delay_ms"),
        ({"seed": 2**63}, "seed"),
        ({"time_control": pb.TimeControl(decision_ms=10**9)}, "time_control.decision_ms"),
        ({"time_control": pb.TimeControl(bank_ms=10**12)}, "time_control.bank_ms"),
        ({"players": 100}, "players"),
        ({"failure_policy": 7}, "failure_policy"),
    ],
)
def test_absurd_settings_are_refused_naming_the_field(
    request_fields: dict[str, Any], field: str
) -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            fields = {"game": "rumble-nation", "players": 2, **request_fields}
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await rpc.RefereeStub(channel).CreateMatch(pb.CreateMatchRequest(**fields))
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert field.split(".")[-1].replace("_", " ") in caught.value.details().replace(
                "_", " "
            )
            assert not referee.matches

    run(scenario())


def test_matches_alive_at_once_are_limited() -> None:
    async def scenario() -> None:
        settings = ServerSettings(max_live_matches=2)
        async with (
            running_server(settings=settings) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            request = pb.CreateMatchRequest(game="rumble-nation", players=2)
            first = await stub.CreateMatch(request)
            await stub.CreateMatch(request)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.CreateMatch(request)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "max-live-matches" in caught.value.details()
            # A finished match frees its place.
            await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(first.tickets))
            )
            await referee.matches[first.match_id].finished.wait()
            await asyncio.sleep(0)
            await stub.CreateMatch(request)

    run(scenario())


# --------------------------------------------------------------------------- seats


def test_a_second_stream_with_the_same_ticket_displaces_the_first_with_a_notice() -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=4)
            match, tickets = referee.create_match(settings)
            old = stub.Play()
            await old.write(pb.PlayRequest(join=pb.Join(ticket=tickets[0])))
            assert (await old.read()).WhichOneof("message") == "joined"
            other = asyncio.create_task(play(RandomBot(1), referee.address, tickets[1]))
            # The old stream holds the seat; a new stream (a rejoining bot) takes it over.
            taker = asyncio.create_task(play(RandomBot(0), referee.address, tickets[0]))
            heard: list[pb.PlayResponse] = []
            while (message := await old.read()) is not grpc.aio.EOF:
                heard.append(message)
            notices = [m.notice for m in heard if m.WhichOneof("message") == "notice"]
            assert [n.code for n in notices] == ["displaced"]
            assert heard[-1].WhichOneof("message") == "notice"  # the notice ends the stream
            assert await old.code() == grpc.StatusCode.OK
            overs = await asyncio.gather(taker, other)
            assert overs[0].reason == pb.RESULT_REASON_COMPLETED
            assert match.result is not None and not match.result.seats[0].forfeited

    run(scenario())


def test_the_sdk_stops_when_displaced_instead_of_taking_the_seat_back() -> None:
    under_way = asyncio.Event()  # the first seat has been asked three decisions

    class Slow(RandomBot):
        asked = 0

        def choose(self, request: Any) -> int:
            self.asked += 1
            if self.asked == 3:
                under_way.set()
            # Slow enough from then on that the game cannot end before the second bot has
            # joined, however loaded the machine (the takeover stops this bot at once).
            time.sleep(0.02 if self.asked < 3 else 0.25)
            return super().choose(request)

    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=9)
            match, tickets = referee.create_match(settings)
            first = asyncio.create_task(play(Slow(0), referee.address, tickets[0]))
            other = asyncio.create_task(play(RandomBot(1), referee.address, tickets[1]))
            await under_way.wait()
            second = await play(RandomBot(2), referee.address, tickets[0])
            with pytest.raises(BotError, match="displaced"):
                await first
            await other
            assert second.reason == pb.RESULT_REASON_COMPLETED
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat) and seat.stream_generation == 2  # no fight back

    run(scenario())


def test_a_match_nobody_joined_is_void_with_no_ranking() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(
                game="rumble-nation", config=GameConfig(3), seed=1, join_timeout_ms=200
            )
            match, _ = referee.create_match(settings)
            await match.finished.wait()
            assert match.result is not None
            assert match.result.reason is Reason.VOIDED
            assert [s.rank for s in match.result.seats] == [0, 0, 0]
            assert {s.reason for s in match.result.seats} == {Reason.NO_SHOW}

    run(scenario())


def test_a_bot_that_never_answers_pings_is_not_penalised() -> None:
    """Pings measure round trips; answering is optional (docs/protocol.md, Ping)."""

    async def silent_seat(address: str, ticket: str, pings: list[int]) -> pb.MatchOver:
        async with grpc.aio.insecure_channel(address) as channel:
            call = rpc.RefereeStub(channel).Play()
            await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket)))
            async for message in call:
                which = message.WhichOneof("message")
                if which == "ping":
                    pings.append(message.ping.nonce)  # and never answer
                elif which == "decision":
                    await asyncio.sleep(0.03)  # slow enough for pings to come
                    answer = pb.Answer(request_id=message.decision.request_id, option_index=0)
                    await call.write(pb.PlayRequest(answer=answer))
                elif which == "match_over":
                    return message.match_over
        raise AssertionError("no MatchOver")

    async def scenario() -> None:
        async with running_server(settings=ServerSettings(ping_interval_ms=100)) as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=2)
            match, tickets = referee.create_match(settings)
            pings: list[int] = []
            over, _ = await asyncio.gather(
                silent_seat(referee.address, tickets[0], pings),
                play(RandomBot(1), referee.address, tickets[1]),
            )
            assert len(pings) >= 3
            assert over.reason == pb.RESULT_REASON_COMPLETED
            assert not over.seats[0].forfeited and over.seats[0].reason == (
                pb.RESULT_REASON_COMPLETED
            )
            assert len(match.seats[0]._pings) <= 8  # unanswered pings are not hoarded
            # The SDK answers pings, so the other seat has a measured round trip.
            assert over.seats[1].mean_round_trip_us > 0

    run(scenario())


# --------------------------------------------------------------------------- spectators


async def _watch_all(
    address: str, match_id: str, delay_ms: int = 0, watching: asyncio.Event | None = None
) -> list[tuple[float, pb.WatchResponse]]:
    """Every update of a match with its arrival time; ``watching`` is set at the first one."""
    arrivals = []
    async with grpc.aio.insecure_channel(address) as channel:
        request = pb.WatchRequest(match_id=match_id, delay_ms=delay_ms)
        async for update in rpc.RefereeStub(channel).Watch(request):
            arrivals.append((time.monotonic(), update))
            if watching is not None:
                watching.set()
    return arrivals


def test_a_late_spectator_first_receives_the_public_history_then_the_rest() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=6)
            match, tickets = referee.create_match(settings)
            slow = RandomBot(0)
            first_half = asyncio.Event()
            original = slow.choose

            def choose(request: Any) -> int:
                if request.request_id == 6:
                    first_half.set()
                return original(request)

            slow.choose = choose  # type: ignore[method-assign]
            players = asyncio.gather(
                play(slow, referee.address, tickets[0]),
                play(RandomBot(1), referee.address, tickets[1]),
            )
            await first_half.wait()
            late = await _watch_all(referee.address, match.id)
            await players
            from tests.server.test_end_to_end import public_events

            everything = public_events(match)
            received = [e.data_json for _, u in late for e in u.events]
            assert received == everything  # the history first, then the rest, nothing twice
            assert len(late[0][1].events) > 2  # the catch-up held more than the setup
            assert late[-1][1].HasField("match_over")

    run(scenario())


def test_the_spectator_delay_is_the_organisers_and_a_spectator_cannot_shorten_it() -> None:
    async def scenario() -> None:
        async with running_server(settings=ServerSettings(min_watch_delay_ms=300)) as referee:
            # The match asks for no delay, the server's minimum holds; the spectator asks for
            # none either (it could only add to it).
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=3)
            match, tickets = referee.create_match(settings)
            watching = asyncio.Event()  # the setup has arrived: the spectator is in
            watcher = asyncio.create_task(
                _watch_all(referee.address, match.id, delay_ms=0, watching=watching)
            )
            await watching.wait()
            started = time.monotonic()
            await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(tickets))
            )
            ended = time.monotonic()
            arrivals = await watcher
            # Only the setup arrives at once; every decision comes 300 ms after it was made.
            assert match.settings.watch_delay_ms == 300
            moves = [t for t, u in arrivals[1:] if u.events]
            assert moves and min(moves) - started >= 0.28
            assert arrivals[-1][1].HasField("match_over") and arrivals[-1][0] - ended >= 0.25

    run(scenario())


def test_the_server_minimum_spectator_delay_applies_to_created_matches() -> None:
    async def scenario() -> None:
        async with (
            running_server(settings=ServerSettings(min_watch_delay_ms=700)) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            low = await stub.CreateMatch(
                pb.CreateMatchRequest(game="rumble-nation", players=2, watch_delay_ms=100)
            )
            high = await stub.CreateMatch(
                pb.CreateMatchRequest(game="rumble-nation", players=2, watch_delay_ms=2000)
            )
            for created, expected in ((low, 700), (high, 2000)):
                summary = (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).match
                assert summary.watch_delay_ms == expected
            await referee.shutdown()

    run(scenario())
