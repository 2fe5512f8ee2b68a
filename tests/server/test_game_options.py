"""Game options over the wire and in replays: CreateMatch carries them, the game checks them
(INVALID_ARGUMENT naming the problem), MatchSetup and GetMatch show them, replay files and
GetReplay record them, and re-simulation uses them (replays written before options travelled
still verify)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

import games.gnomeville
from client_sdk import RandomBot, play
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.limits import InvalidSetting, checked_options
from server.replay import ReplayError, verify_file, verify_record
from server.settings import MAX_OPTIONS_BYTES, ServerSettings

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


class SetupBot(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.joined: pb.Joined | None = None

    def on_joined(self, joined: pb.Joined) -> None:
        self.joined = joined


def test_options_travel_to_the_match_the_seats_the_replay_and_its_verification(
    tmp_path: Path,
) -> None:
    options = {"turn_by_turn": "1,2", "master_build": "true"}

    async def scenario() -> tuple[pb.CreateMatchResponse, pb.GetMatchResponse, str, list[Any]]:
        async with (
            running_server(replay_dir=tmp_path) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="gnomeville", players=2, seed=9, options=options)
            )
            bots = [SetupBot(0), SetupBot(1)]
            await asyncio.gather(
                *(
                    play(bot, referee.address, t)
                    for bot, t in zip(bots, created.tickets, strict=True)
                )
            )
            match = referee.matches[created.match_id]
            await match.finished.wait()
            summary = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            replay = await stub.GetReplay(pb.GetReplayRequest(match_id=created.match_id))
            return created, summary, replay.replay_json, [b.joined for b in bots]

    created, summary, replay_json, joined = run(scenario())
    assert dict(created.setup.options) == options
    assert dict(summary.match.setup.options) == options
    assert all(j is not None and dict(j.setup.options) == options for j in joined)
    record = json.loads(replay_json)
    assert record["options"] == options
    assert verify_record(record).digest == record["digest"]
    path = Path(summary.match.result.replay_path)
    on_disk = json.loads(path.read_text())
    assert on_disk["options"] == options
    assert verify_file(path).digest == on_disk["digest"]
    # Re-simulation uses the options: without them the game is another one.
    with pytest.raises(ReplayError):
        verify_record({**record, "options": {}})
    with pytest.raises(ReplayError, match="options must map names to texts"):
        verify_record({**record, "options": ["turn_by_turn"]})
    with pytest.raises(ReplayError, match="cannot be set up"):
        verify_record({**record, "options": {"nope": "1"}})


def test_a_replay_without_options_still_verifies(tmp_path: Path) -> None:
    async def scenario() -> str:
        async with (
            running_server(replay_dir=tmp_path) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="rumble-nation", players=2, seed=3)
            )
            assert dict(created.setup.options) == {}
            await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(created.tickets))
            )
            match = referee.matches[created.match_id]
            await match.finished.wait()
            assert match.result is not None
            return match.result.replay_path

    record = json.loads(Path(run(scenario())).read_text())
    assert record.pop("options") == {}
    assert verify_record(record).digest == record["digest"]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"nope": "1"}, "nope"),
        ({"turn_by_turn": "9"}, "no round 9"),
        ({"content": "garbage"}, "content: not valid TOML"),
        ({"content": "x = 1"}, 'unknown section "x"'),
    ],
)
def test_options_the_game_refuses_are_invalid_argument_naming_the_problem(
    options: dict[str, str], named: str
) -> None:
    async def scenario() -> grpc.aio.AioRpcError:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.CreateMatch(
                    pb.CreateMatchRequest(game="gnomeville", players=2, options=options)
                )
            assert not referee.matches
            return caught.value

    error = run(scenario())
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert named in (error.details() or "")


def test_a_content_pack_travels_as_an_option() -> None:
    pack = (Path(games.gnomeville.__file__).parent / "content" / "standard.toml").read_text()

    async def scenario() -> pb.CreateMatchResponse:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created: pb.CreateMatchResponse = await stub.CreateMatch(
                pb.CreateMatchRequest(game="gnomeville", players=3, options={"content": pack})
            )
            match = referee.matches[created.match_id]
            assert match.settings.config.options == {"content": pack}
            return created

    assert run(scenario()).setup.options["content"] == pack


def test_options_beyond_their_bounds_are_refused_naming_the_bound() -> None:
    assert checked_options({"a": "1"}) == {"a": "1"}
    with pytest.raises(InvalidSetting, match="above the limit of 64"):
        checked_options({f"k{i}": "" for i in range(65)})
    with pytest.raises(InvalidSetting, match="1 to 64 bytes"):
        checked_options({"k" * 65: ""})
    with pytest.raises(InvalidSetting, match="1 to 64 bytes"):
        checked_options({"": "x"})
    with pytest.raises(InvalidSetting, match=f"above the limit of {MAX_OPTIONS_BYTES}"):
        checked_options({"content": "x" * MAX_OPTIONS_BYTES})

    async def scenario() -> grpc.aio.AioRpcError:
        # A referee that accepts large messages still bounds the options.
        settings = ServerSettings(max_message_bytes=1024 * 1024)
        async with (
            running_server(settings=settings) as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.CreateMatch(
                    pb.CreateMatchRequest(
                        game="gnomeville",
                        players=2,
                        options={"content": "x" * MAX_OPTIONS_BYTES},
                    )
                )
            return caught.value

    error = run(scenario())
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "options:" in (error.details() or "")


def test_root_takes_its_games_option_as_text() -> None:
    from games import GameConfig, InvalidConfig, get_game

    root = get_game("root")
    assert root.new(GameConfig(2, "autumn", {"games": "1"}), 1).games == 1  # type: ignore[attr-defined]
    for bad in ("3", "one", True):
        with pytest.raises(InvalidConfig, match="1 or 2 games"):
            root.new(GameConfig(2, "autumn", {"games": bad}), 1)
