"""What the tests of people's games share: a ladder with its page whose pools cover every game
a person may be tested in, a reader of the seat's event stream, and the check that a seat's
page was sent exactly what the seat may see (re-simulated from the stored replay)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import httpx
from google.protobuf.json_format import MessageToDict

from games import GameConfig, get_game
from kassen import wire
from server.settings import TimeControl
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.challenges import ChallengeSettings
from tournament.ladder_service.service import HouseBot, LadderService, LadderSettings, PoolKey
from tournament.ladder_service.web.process import WebPage, running_web
from tournament.storage import connect

RUMBLE_2 = PoolKey("rumble-nation", "advanced", 2)
RUMBLE_4 = PoolKey("rumble-nation", "advanced", 4)
ROOT_2 = PoolKey("root", "autumn", 2)
ROOT_3 = PoolKey("root", "winter", 3)
ROOT_4 = PoolKey("root", "autumn", 4)
ROOT_4_WINTER = PoolKey("root", "winter", 4)
GNOMES_SOLO = PoolKey("gnomeville", "standard", 1)
GNOMES_3 = PoolKey("gnomeville", "standard", 3)
POOLS = (RUMBLE_2, RUMBLE_4, ROOT_2, ROOT_3, ROOT_4, ROOT_4_WINTER, GNOMES_SOLO, GNOMES_3)


def house_bots() -> tuple[HouseBot, ...]:
    """A greedy house bot per game and variant (quick games: a random Root bot plays long)."""
    made: dict[tuple[str, str], list[int]] = {}
    for key in POOLS:
        made.setdefault((key.game, key.variant), []).append(key.players)
    return tuple(
        HouseBot(f"house-{game[:6]}-{variant[:6]}", "greedy", game, variant, tuple(counts))
        for (game, variant), counts in made.items()
    )


def settings(challenges: ChallengeSettings | None = None) -> LadderSettings:
    return LadderSettings(
        pools=POOLS,
        house_bots=house_bots(),
        time_control=TimeControl(decision_ms=10_000, bank_ms=30_000),
        tick_s=0.05,
        challenges=challenges or ChallengeSettings(per_client_at_once=20, per_client_per_hour=500),
    )


@dataclass
class PeopleLadder:
    """A running ladder and its page, in a thread with its own asyncio loop."""

    service: LadderService
    page: WebPage
    loop: asyncio.AbstractEventLoop
    stop: threading.Event
    thread: threading.Thread

    @property
    def url(self) -> str:
        return f"http://{self.page.address}"

    def call(self, body: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(body, self.loop).result(timeout)

    def house(self, key: PoolKey) -> str:
        (found,) = [
            bot_id
            for bot_id, h in self.service.house.items()
            if (h.game, h.variant) == (key.game, key.variant) and key.players in h.player_counts
        ]
        return found

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)


def start_people_ladder(database: str, ladder_settings: LadderSettings) -> PeopleLadder:
    ready: Future[PeopleLadder] = Future()
    stop = threading.Event()

    async def main() -> None:
        engine = connect(database)
        async with (
            running_ladder(engine, ladder_settings) as service,
            running_web(
                "127.0.0.1:0",
                database,
                service.private_address,
                relay_token=service.referee.settings.relay_token,
            ) as page,
        ):
            ready.set_result(PeopleLadder(service, page, asyncio.get_running_loop(), stop, thread))
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    return ready.result(120)


def events_of(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """The Server-Sent Events of a streamed response, as (event, data)."""
    kind, data = "message", ""
    for line in response.iter_lines():
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif not line and data:
            yield kind, json.loads(data)
            kind, data = "message", ""


def own_views(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """What the seat saw at each of its decisions, in order, re-simulated from the replay."""
    game = get_game(record["game"])
    state = game.new(GameConfig(record["players"], record["variant"]), record["seed"])
    views = []
    for who, index in record["decisions"]:
        if who == seat:
            message = wire.observation_to_proto(record["game"], state.observe(seat))
            inner = message.WhichOneof("game")
            assert inner is not None
            views.append(
                MessageToDict(
                    getattr(message, inner),
                    always_print_fields_with_no_presence=True,
                    preserving_proto_field_name=True,
                )
            )
        state.apply(who, index)
    return views


def hidden_texts(record: dict[str, Any], seat: int) -> set[str]:
    """The texts of every event only another seat was told (a card it drew, ...), minus any
    text that was also told in public or to ``seat`` (the same words said twice)."""
    game = get_game(record["game"])
    state = game.new(GameConfig(record["players"], record["variant"]), record["seed"])
    private: set[str] = set()
    shown: set[str] = set()
    events = list(getattr(state, "setup_events", ()))
    for who, index in record["decisions"]:
        events.extend(state.apply(who, index))
    for event in events:
        text = game.describe(event)
        if event.private_to is None or event.private_to == seat:
            shown.add(text)
        else:
            private.add(text)
    return private - shown


def ended_row(ladder: PeopleLadder, match_id: str) -> registry.MatchRow:
    """The match's stored row once it has ended (within 10 s)."""
    for _ in range(200):
        row = registry.match_row(ladder.service.engine, match_id)
        if row is not None and row.status != "running":
            return row
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} is still running")


def replay_of(ladder: PeopleLadder, match_id: str) -> dict[str, Any]:
    text = registry.replay_of(ladder.service.engine, match_id)
    assert text is not None, f"no replay stored for {match_id}"
    found: dict[str, Any] = json.loads(text)
    return found


def secrets_of(record: dict[str, Any]) -> list[str]:
    """The seed and salt as they could appear in a message (decimal, hex)."""
    seed = int(record["seed"])
    found = [str(seed), f"{seed:x}", f"{seed:016x}"]
    if record.get("salt"):
        found.append(str(record["salt"]))
    return found
