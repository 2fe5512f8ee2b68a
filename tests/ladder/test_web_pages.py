"""The ladder's web page over HTTP, against a real ladder whose finished matches were played by
connected SDK bots and house bots (by default the Root contest is played on the ladder's
referee by in-process random seats, from a seed that makes it short; with ``--slow`` by a
connected bot): pages, escaping, errors, headers, replay frames (every decision, equal to a
re-simulation, public information only) and the live view. The page is its own process, as
``kassen ladder serve`` runs it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import re
import signal
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf.json_format import MessageToDict

from client_sdk.bot import AsyncBot, Request
from client_sdk.builtin import GreedyBot, RandomBot
from client_sdk.ladder import seek_and_play
from games import GameConfig, get_game
from games.contract import GameState
from games.policies import make_policy
from kassen import wire
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from server.referee import LocalBot
from server.replay import replay_record as record_of
from server.replay import verify_record
from server.settings import MatchSettings, TimeControl
from server.watcher_limits import WatcherLimits
from tests.conftest import Depth
from tournament.ladder_service import registry
from tournament.ladder_service.app import running_ladder
from tournament.ladder_service.service import HouseBot, LadderService, LadderSettings, PoolKey
from tournament.ladder_service.web.boards import board_for
from tournament.ladder_service.web.live import LiveLimits
from tournament.ladder_service.web.process import WebPage, running_web
from tournament.storage import connect

RUMBLE = PoolKey("rumble-nation", "base", 2)
ADVANCED = PoolKey("rumble-nation", "advanced", 2)
ROOT = PoolKey("root", "autumn", 2)
GNOMES = PoolKey("gnomeville", "standard", 2)
SOLO = PoolKey("gnomeville", "standard", 1)
POOLS = (RUMBLE, ADVANCED, ROOT, GNOMES, SOLO)
SETTINGS = LadderSettings(
    pools=POOLS,
    house_bots=tuple(
        HouseBot(
            f"house-{k.game[:6]}-{k.variant[:3]}-{k.players}",
            "random",
            k.game,
            k.variant,
            (k.players,),
        )
        for k in POOLS
    )
    + (HouseBot("house-greedy", "greedy", "rumble-nation", "base", (2,)),),
    time_control=TimeControl(decision_ms=10_000, bank_ms=30_000),
    tick_s=0.05,
)
#: The live view's limits, small enough to reach in a test.
LIMITS = LiveLimits(per_match=50, per_client=8, total=200)
EVIL = "<script>alert('pwned')</script> & <b>bold</b>"


def author_name(key: PoolKey) -> str:
    return f"{key.game[:8]}-{key.variant[:3]}-{key.players}p"


@dataclass
class Ladder:
    """A running ladder and its web page, in a thread with its own asyncio loop."""

    service: LadderService
    page: WebPage
    loop: asyncio.AbstractEventLoop
    tokens: dict[PoolKey, str] = field(default_factory=dict)
    ids: dict[PoolKey, str] = field(default_factory=dict)

    @property
    def web(self) -> str:
        return self.page.address

    @property
    def url(self) -> str:
        return f"http://{self.web}"

    def call(self, body: Coroutine[Any, Any, Any], timeout: float = 120) -> Any:
        """Run ``body`` on the ladder's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(body, self.loop).result(timeout)


@dataclass
class Running:
    ladder: Ladder
    stop: threading.Event
    thread: threading.Thread

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)


def start_ladder(database: str, matches: dict[PoolKey, int]) -> Running:
    """Start the ladder and its page on free ports, play ``matches`` per pool with one
    connected bot each, and return once every result is recorded."""
    ready: Future[Ladder] = Future()
    stop = threading.Event()

    async def main() -> None:
        engine = connect(database)
        async with running_ladder(engine, SETTINGS) as service, web_of(service) as page:
            ladder = Ladder(service, page, asyncio.get_running_loop())
            try:
                await play(ladder, matches)
            except BaseException as exc:
                ready.set_exception(exc)
                raise
            ready.set_result(ladder)
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    return Running(ready.result(300), stop, thread)


def web_of(service: LadderService) -> contextlib.AbstractAsyncContextManager[WebPage]:
    """The ladder's web page process, on a free port."""
    return running_web(
        "127.0.0.1:0",
        service.engine.url.render_as_string(hide_password=False),
        service.private_address,
        relay_token=service.referee.settings.relay_token,
        limits=LIMITS,
    )


async def play(ladder: Ladder, matches: dict[PoolKey, int]) -> None:
    for key in matches:
        bot, token = await ladder.service.register(
            name=author_name(key),
            owner="ann <ann@example.org>",
            game=key.game,
            variant=key.variant,
            pools=[key],
            description=EVIL,
        )
        ladder.tokens[key], ladder.ids[key] = token, bot.id
    address = ladder.service.referee.address
    await asyncio.gather(
        *(
            seek_and_play(
                lambda key=key: GreedyBot(1) if key == RUMBLE else RandomBot(1),  # type: ignore[misc]
                address,
                ladder.tokens[key],
                max_matches=count,
            )
            for key, count in matches.items()
        )
    )
    await settled(ladder.service)


#: The seed of the Root contest the replay tests read by default (its two random seats play
#: from seeds of their own, ``2 * seed + seat``): 492 decisions, five chunks of frames, where
#: a contest from a secret seed runs 420 to 1,500 (most near 850).
ROOT_SEED = 349


async def root_contest(ladder: Ladder, seed: int) -> None:
    """A Root contest of the pool's author bot against its house bot with ``seed``, played on
    the ladder's own referee by random policies in its process (a contest of known length)
    and recorded as the ladder records the matches it plays: its seats' outcomes and replay."""
    service = ladder.service
    bot, token = await service.register(
        name=author_name(ROOT),
        owner="ann <ann@example.org>",
        game=ROOT.game,
        variant=ROOT.variant,
        pools=[ROOT],
        description=EVIL,
    )
    ladder.tokens[ROOT], ladder.ids[ROOT] = token, bot.id
    (house,) = [
        (bot_id, h.name)
        for bot_id, h in service.house.items()
        if (h.game, h.variant) == (ROOT.game, ROOT.variant) and ROOT.players in h.player_counts
    ]
    seats = [(bot.id, bot.name), house]
    settings = MatchSettings(
        ROOT.game,
        GameConfig(players=ROOT.players, variant=ROOT.variant),
        seed,
        time_control=SETTINGS.time_control,
    )
    local = {
        seat: LocalBot(make_policy("random", ROOT.game, 2 * seed + seat), name)
        for seat, (_, name) in enumerate(seats)
    }
    match, _ = service.referee.create_match(settings, local=local)
    registry.start_match(service.engine, match.id, ROOT.game, ROOT.variant, [b for b, _ in seats])
    await match.finished.wait()
    assert match.result is not None
    registry.finish_match(
        service.engine,
        match.id,
        status="done",
        reason=match.result.reason.name,
        decisions=len(match.state.history),
        seats=[registry.SeatOutcome(seats[s.seat][0], s.rank, s.score) for s in match.result.seats],
        replay_json=json.dumps(record_of(match)),
    )


async def settled(service: LadderService) -> None:
    """Wait until the service has recorded every match that ended, refitted every pool over
    all of them (a fit that began after every result, whether it succeeded or not) and
    written the history points of those fits (its own tasks do)."""
    for _ in range(400):
        if not service.running:
            break
        await asyncio.sleep(0.05)
    await asyncio.gather(*(pool.refitter.refit() for pool in service.pools.values()))
    for _ in range(3):  # the history points' writes are queued by tasks of their own
        await asyncio.sleep(0.05)
        await service.writer.call(lambda: None)


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory, depth: Depth) -> Iterator[Ladder]:
    """The Root contest is played by a connected bot with ``--slow``; by default it is a
    short one from a chosen seed, played on the ladder's referee (``root_contest``)."""
    database = f"sqlite:///{tmp_path_factory.mktemp('web') / 'ladder.sqlite'}"
    played = {RUMBLE: 3, ADVANCED: 1, GNOMES: 1, SOLO: 1} | ({ROOT: 1} if depth.slow else {})
    running = start_ladder(database, played)
    try:
        if not depth.slow:
            running.ladder.call(root_contest(running.ladder, ROOT_SEED))
        yield running.ladder
    finally:
        running.close()


@pytest.fixture
def http(ladder: Ladder) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=ladder.url, timeout=60) as client:
        yield client


def finished(ladder: Ladder, key: PoolKey) -> registry.MatchRow:
    """A finished match of the pool's connected bot."""
    for row in registry.recent_matches(ladder.service.engine, ladder.ids[key]):
        if row.status == "done" and row.players == key.players and row.variant == key.variant:
            return row
    raise AssertionError(f"no finished match in {key.label}")


def all_frames(http: httpx.Client, match_id: str) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while True:
        body = http.get(
            f"/api/matches/{match_id}/frames", params={"start": len(frames), "count": 200}
        )
        assert body.status_code == 200, body.text
        frames.extend(body.json()["frames"])
        if len(frames) >= body.json()["total"]:
            return frames


def replay_record(ladder: Ladder, match_id: str) -> dict[str, Any]:
    text = registry.replay_of(ladder.service.engine, match_id)
    assert text is not None
    record: dict[str, Any] = json.loads(text)
    return record


def resimulated(record: dict[str, Any]) -> Iterator[GameState]:
    """The states of a replay, before the first decision and after each one."""
    game = get_game(record["game"])
    state = game.new(GameConfig(record["players"], record["variant"]), record["seed"])
    yield state
    for seat, index in record["decisions"]:
        state.apply(seat, index)
        yield state


def public(game: str, state: GameState) -> dict[str, Any]:
    message = wire.observation_to_proto(game, state.observe(None))
    inner = message.WhichOneof("game")
    assert inner is not None
    return MessageToDict(
        getattr(message, inner),
        always_print_fields_with_no_presence=True,
        preserving_proto_field_name=True,
    )


# ---------------------------------------------------------------------- pages


def test_pages_render_pools_ladders_bots_and_matches(ladder: Ladder, http: httpx.Client) -> None:
    index = http.get("/")
    assert index.status_code == 200
    for key in POOLS:
        assert f'href="/ladder/{key.game}/{key.variant}/{key.players}"' in index.text
    page = http.get("/ladder/rumble-nation/base/2")
    assert page.status_code == 200
    for name in (author_name(RUMBLE), "house-greedy", "house-rumble-bas-2"):
        assert name in page.text
    played = [
        m
        for m in registry.recent_matches(ladder.service.engine, ladder.ids[RUMBLE])
        if m.status == "done"
    ]
    assert len(played) >= 3  # the live test may have added one
    deadline = time.monotonic() + 30
    while True:  # the last result's refit and the page's copy (once a second) come after it
        rows = http.get("/api/ladder/rumble-nation/base/2").json()["rows"]
        mine = next(r for r in rows if r["bot_id"] == ladder.ids[RUMBLE])
        history = http.get(f"/api/bots/{ladder.ids[RUMBLE]}/history").json()["series"]
        last = history[0]["points"][-1][1] if history and history[0]["points"] else None
        caught_up = last is not None and last == pytest.approx(mine["rating"])
        if (mine["games"] == len(played) and caught_up) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert mine["games"] == len(played) and mine["provisional"] and not mine["online"]
    assert next(r for r in rows if r["name"] == "house-greedy")["house"]
    solo = http.get("/ladder/gnomeville/standard/1")
    assert "Mean score" in solo.text and "Elo" not in solo.text.split("<table")[1]
    bot = http.get(f"/bots/{ladder.ids[RUMBLE]}")
    assert bot.status_code == 200
    assert 'id="chart" class="chart" data-src="/api/bots/' in bot.text
    row = finished(ladder, ROOT)
    assert f'href="/matches/{row.id}"' in http.get(f"/bots/{ladder.ids[ROOT]}").text
    # a point per refit that added to the bot's results: one refit may cover several matches
    assert history[0]["players"] == 2 and 1 <= len(history[0]["points"]) <= len(played)
    assert history[0]["points"][-1][1] == pytest.approx(mine["rating"])
    for key in (RUMBLE, ROOT, GNOMES, SOLO):
        match = http.get(f"/matches/{finished(ladder, key).id}")
        assert match.status_code == 200
        assert 'data-mode="replay"' in match.text and author_name(key) in match.text


def test_text_from_authors_is_escaped(ladder: Ladder, http: httpx.Client) -> None:
    page = http.get(f"/bots/{ladder.ids[RUMBLE]}").text
    assert (
        "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    )
    assert "<script>alert" not in page and "<b>bold" not in page
    assert "ann &lt;ann@example.org&gt;" in page
    assert http.get(f"/api/bots/{ladder.ids[RUMBLE]}").json()["description"] == EVIL


def test_status_shown_but_its_reason_is_private(ladder: Ladder, http: httpx.Client) -> None:
    bot, _ = ladder.call(
        ladder.service.register(
            name="paused-one",
            owner="bob",
            game="rumble-nation",
            variant="base",
            pools=[RUMBLE],
            description="",
        )
    )
    ladder.call(ladder.service.set_status(bot.id, "paused", "secret-reason-1234"))
    page = http.get(f"/bots/{bot.id}")
    assert "paused" in page.text and "secret-reason-1234" not in page.text
    body = http.get(f"/api/bots/{bot.id}")
    assert body.json()["status"] == "paused" and "secret-reason-1234" not in body.text


def test_a_bot_without_games_or_owner_is_shown_as_it_is(ladder: Ladder, http: httpx.Client) -> None:
    """A bot registered without an owner that has played nothing: its page says it is not
    rated for want of games (no rank, no empty Elo) and that no owner was given."""
    bot, _ = ladder.call(
        ladder.service.register(
            name="fresh-one",
            owner="",
            game="rumble-nation",
            variant="base",
            pools=[RUMBLE],
            description="",
        )
    )
    deadline = time.monotonic() + 30
    while not http.get(f"/api/bots/{bot.id}").json()["standings"]:  # the page's copy is ~1 s old
        assert time.monotonic() < deadline, "the new bot never reached the page's standings"
        time.sleep(0.2)
    page = " ".join(http.get(f"/bots/{bot.id}").text.split())
    standing = page.split("<h2>Standing</h2>")[1].split("</ul>")[0]
    assert "not yet rated — no games played" in standing
    assert "rank" not in standing and "Elo" not in standing, standing
    assert re.search(r"<dt>Owner</dt><dd>[^<]*<span[^>]*>not given</span></dd>", page), page
    assert "<dt>Failures</dt><dd>none: no matches played</dd>" in page, page
    rows: list[str] = []
    while not rows:  # each page has its own cached copy, refreshed about once a second
        assert time.monotonic() < deadline, "the new bot never reached the ladder page"
        ladder_page = " ".join(http.get("/ladder/rumble-nation/base/2").text.split())
        rows = [r for r in ladder_page.split("<tr>") if f"/bots/{bot.id}" in r]
        time.sleep(0.2)
    row = rows[0]
    assert 'title="not yet rated">—</span>' in row and "?" not in row, row


def test_unknown_ids_are_404_pages(ladder: Ladder, http: httpx.Client) -> None:
    for url in (
        "/bots/nope",
        "/matches/nope",
        "/ladder/chess/base/2",
        "/ladder/root/autumn/9",
        "/nowhere",
    ):
        page = http.get(url)
        assert page.status_code == 404 and "text/html" in page.headers["content-type"], url
        assert "<h1>404</h1>" in page.text
    assert "no bot nope" in http.get("/bots/nope").text
    for url in (
        "/api/bots/nope",
        "/api/bots/nope/history",
        "/api/matches/nope",
        "/api/matches/nope/frames",
    ):
        body = http.get(url)
        assert body.status_code == 404 and "error" in body.json(), url
    running = http.get(f"/api/matches/{finished(ladder, RUMBLE).id}/live")
    assert running.status_code == 404 and "not being played" in running.json()["error"]


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("start=-1", "start"),
        ("start=abc", "start"),
        ("start=1e3", "start"),
        ("count=0", "count"),
        ("count=100000", "count"),
        ("start=99999", "past the last frame"),
    ],
)
def test_bad_frame_queries_are_400_with_one_line(
    ladder: Ladder, http: httpx.Client, query: str, named: str
) -> None:
    body = http.get(f"/api/matches/{finished(ladder, RUMBLE).id}/frames?{query}")
    assert body.status_code == 400
    error = body.json()["error"]
    assert named in error and "\n" not in error


def test_other_bad_queries_are_400(ladder: Ladder, http: httpx.Client) -> None:
    assert http.get("/api/matches?limit=zero").status_code == 400
    assert http.get("/api/matches?limit=0").status_code == 400
    history = http.get(f"/api/bots/{ladder.ids[RUMBLE]}/history?players=x")
    assert history.status_code == 400 and "players" in history.json()["error"]


def test_every_response_forbids_other_origins(ladder: Ladder, http: httpx.Client) -> None:
    for url in ("/", "/api/pools", "/static/viewer.js", "/nowhere", "/api/matches?limit=x"):
        headers = http.get(url).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"


# ---------------------------------------------------------------------- replay frames


@pytest.mark.parametrize("key", [RUMBLE, ADVANCED, ROOT, GNOMES, SOLO], ids=lambda k: k.label)
def test_frames_are_every_decision_of_a_resimulation(
    ladder: Ladder, http: httpx.Client, key: PoolKey
) -> None:
    row = finished(ladder, key)
    record = replay_record(ladder, row.id)
    verify_record(record)  # the stored replay is sound: what follows compares against it
    frames = all_frames(http, row.id)
    assert len(frames) == len(record["decisions"]) + 1 == row.decisions + 1
    assert [f["n"] for f in frames] == list(range(len(frames)))
    assert frames[0]["seat"] is None
    assert [f["seat"] for f in frames[1:]] == [seat for seat, _ in record["decisions"]]
    game = get_game(key.game)
    for frame, state in zip(frames, resimulated(record), strict=True):
        assert frame["view"] == public(key.game, state), frame["n"]
    assert state.is_over
    assert any(frame["events"] for frame in frames)
    meta = http.get(f"/api/matches/{row.id}").json()
    assert meta["frames"] == len(frames) and meta["replay"] and meta["game"] == game.name


def test_frames_hold_no_hidden_information(ladder: Ladder, http: httpx.Client) -> None:
    """Root hands and Rumble Nation's unrevealed daimyo cards are in the seats' own views
    (so these checks could fail) and never in a frame."""
    row = finished(ladder, ROOT)
    record = replay_record(ladder, row.id)
    hands_seen = 0
    for frame, state in zip(all_frames(http, row.id), resimulated(record), strict=True):
        own = [p.hand for p in state.observe(0).players] + [
            p.hand for p in state.observe(1).players
        ]
        hands_seen += sum(len(hand) for hand in own)
        assert all(player["hand"] == [] for player in frame["view"]["players"])
    assert hands_seen > 0
    row = finished(ladder, ADVANCED)
    record = replay_record(ladder, row.id)
    secret_seen = 0
    for frame, state in zip(all_frames(http, row.id), resimulated(record), strict=True):
        for seat, shown in enumerate(frame["view"]["seats"]):
            mine = state.observe(seat).seats[seat]
            if mine.daimyo_card and not mine.daimyo_revealed:
                secret_seen += 1
                assert shown["daimyo_card"] == ""
        # the public display lists the dealt cards; who took which is never shown
        assert frame["view"]["daimyo_seen"] == [] and "draft:" not in json.dumps(frame)
    assert secret_seen > 0


def test_a_replay_whose_seed_is_secret_is_not_shown(ladder: Ladder, http: httpx.Client) -> None:
    """A stored replay without its seed (not revealed) gives no frames."""
    row = finished(ladder, GNOMES)
    record = replay_record(ladder, row.id)
    hidden = "secret-seed-match"
    engine = ladder.service.engine
    bot, _ = registry.register_bot(
        engine,
        name="hidden-seed",
        owner="cy",
        game="gnomeville",
        variant="standard",
        player_counts=(2,),
    )
    registry.start_match(engine, hidden, "gnomeville", "standard", [bot.id] * 2)
    registry.finish_match(
        engine,
        hidden,
        status="done",
        reason="COMPLETED",
        decisions=len(record["decisions"]),
        seats=[registry.SeatOutcome(bot.id, 1, 0)] * 2,
        replay_json=json.dumps({**record, "seed": None, "salt": None}),
    )
    body = http.get(f"/api/matches/{hidden}/frames")
    assert body.status_code == 404 and "not revealed" in body.json()["error"]
    assert not http.get(f"/api/matches/{hidden}").json()["replay"]
    page = http.get(f"/matches/{hidden}")
    assert page.status_code == 200 and 'id="viewer"' not in page.text


def test_a_damaged_replay_gives_a_one_line_error(ladder: Ladder, http: httpx.Client) -> None:
    """A stored replay that does not re-simulate (an option out of range) is refused, not
    shown up to a wrong position."""
    record = replay_record(ladder, finished(ladder, RUMBLE).id)
    record["decisions"][3][1] = 999
    engine = ladder.service.engine
    bot, _ = registry.register_bot(
        engine, name="damaged", owner="cy", game="rumble-nation", variant="base", player_counts=(2,)
    )
    registry.start_match(engine, "damaged-match", "rumble-nation", "base", [bot.id] * 2)
    registry.finish_match(
        engine,
        "damaged-match",
        status="done",
        reason="COMPLETED",
        decisions=len(record["decisions"]),
        seats=[registry.SeatOutcome(bot.id, 1, 0)] * 2,
        replay_json=json.dumps(record),
    )
    assert http.get("/api/matches/damaged-match/frames?count=3").status_code == 200
    body = http.get("/api/matches/damaged-match/frames?start=0&count=10")
    assert body.status_code == 404 and "does not re-simulate" in body.json()["error"]


# ---------------------------------------------------------------------- live matches


class SlowBot(AsyncBot):
    """Plays randomly, a little slowly, so its match is still running while it is watched."""

    def __init__(self) -> None:
        self.inner = RandomBot(7)

    async def choose_async(self, request: Request) -> int:
        await asyncio.sleep(0.15)
        return self.inner.choose(request)


def play_slowly(ladder: Ladder) -> tuple[Future[Any], str]:
    """The Rumble Nation bot plays one match slowly (a live match to watch): its play, and
    the match's id once it has started."""
    playing = asyncio.run_coroutine_threadsafe(
        seek_and_play(
            SlowBot, ladder.service.referee.address, ladder.tokens[RUMBLE], max_matches=1
        ),
        ladder.loop,
    )
    return playing, ladder.call(first_running(ladder.service))


def test_a_running_match_is_watched_live(ladder: Ladder, http: httpx.Client) -> None:
    playing, match_id = play_slowly(ladder)
    try:
        page = http.get(f"/matches/{match_id}")
        assert 'data-mode="live"' in page.text
        updates: list[tuple[str, dict[str, Any]]] = []
        with http.stream("GET", f"/api/matches/{match_id}/live") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            kind = ""
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    updates.append((kind, json.loads(line[6:])))
        assert updates[-1][0] == "over" and updates[-1][1]["reason"] == "RESULT_REASON_COMPLETED"
        frames = [data for kind, data in updates if kind == "frame"]
        assert len(frames) >= 2 and all(len(f["view"]["areas"]) == 11 for f in frames)
        assert all(seat["daimyo_card"] == "" for f in frames for seat in f["view"]["seats"])
        assert any(f["events"] for f in frames)
    finally:
        playing.result(120)
    ladder.call(settled(ladder.service))
    assert 'data-mode="replay"' in http.get(f"/matches/{match_id}").text


async def first_running(service: LadderService) -> str:
    """A running match of the pool, once the database has it (the page reads it there: its
    start is written by the ladder's writer thread a moment after the match starts)."""
    for _ in range(400):
        for match_id, running in service.running.items():
            if running.pool == RUMBLE and running.hosted is not None:
                for _ in range(400):
                    if await service.writer.call(registry.match_row, service.engine, match_id):
                        return match_id
                    await asyncio.sleep(0.02)
        await asyncio.sleep(0.02)
    raise AssertionError("no match started")


def test_running_web_reports_the_port_it_bound(ladder: Ladder) -> None:
    host, _, port = ladder.web.rpartition(":")
    assert host == "127.0.0.1" and int(port) > 0
    assert httpx.get(f"{ladder.url}/api/pools", timeout=30).status_code == 200


def test_a_live_match_has_one_watcher_however_many_view_it_and_viewers_are_bounded(
    ladder: Ladder,
) -> None:
    """Nine viewers of one live match from one address: the ladder's referee serves one
    watcher (the page's), and the ninth viewer is refused naming the limit and its flag."""
    playing, match_id = play_slowly(ladder)
    try:
        with contextlib.ExitStack() as streams:
            opened = []  # the line iterators: one dropped would close its stream
            for _ in range(LIMITS.per_client):
                client = streams.enter_context(httpx.Client(base_url=ladder.url, timeout=60))
                stream = streams.enter_context(
                    client.stream("GET", f"/api/matches/{match_id}/live")
                )
                assert stream.status_code == 200
                opened.append(stream.iter_lines())
            assert all(next(lines).startswith("event: frame") for lines in opened)
            watchers = ladder.service.referee.watchers
            assert ladder.call(watchers_of(watchers, match_id)) == 1
            assert watchers.by_caller == {}  # the page presents the relay token
            refused = httpx.get(f"{ladder.url}/api/matches/{match_id}/live", timeout=60)
            assert refused.status_code == 429
            error = refused.json()["error"]
            assert "--max-watchers-per-caller" in error and "\n" not in error
    finally:
        playing.result(120)
    ladder.call(settled(ladder.service))


async def watchers_of(watchers: WatcherLimits, match_id: str) -> int:
    for _ in range(100):
        if watchers.by_match.get(match_id):
            break
        await asyncio.sleep(0.05)
    return watchers.by_match.get(match_id, 0)


def test_match_lists_are_pages_with_a_cursor(ladder: Ladder, http: httpx.Client) -> None:
    everything = http.get("/api/matches?limit=200").json()["matches"]
    assert len(everything) >= 6
    seen: list[str] = []
    url = "/api/matches?limit=2"
    while url:
        page = http.get(url).json()
        seen += [m["match_id"] for m in page["matches"]]
        url = f"/api/matches?limit=2&before={page['next']}" if page["next"] else ""
    assert seen == [m["match_id"] for m in everything]
    mine = http.get(f"/api/bots/{ladder.ids[RUMBLE]}/matches?limit=200").json()["matches"]
    assert mine and all(any(s["bot_id"] == ladder.ids[RUMBLE] for s in m["seats"]) for m in mine)
    bad = http.get("/api/matches?before=yesterday")
    assert bad.status_code == 400 and "before" in bad.json()["error"]


def test_standings_over_grpc_are_what_the_page_shows(ladder: Ladder, http: httpx.Client) -> None:
    async def standings() -> lpb.GetStandingsResponse:
        async with grpc.aio.insecure_channel(ladder.service.referee.address) as channel:
            found: lpb.GetStandingsResponse = await lrpc.LadderStub(channel).GetStandings(
                lpb.GetStandingsRequest()
            )
            return found

    deadline = time.monotonic() + 30
    while True:  # the page's copy of the standings is at most a second old
        answer = ladder.call(standings())
        shown = http.get("/api/ladder/rumble-nation/base/2").json()["rows"]
        (pool,) = [
            p
            for p in answer.pools
            if (p.game, p.variant, p.players) == ("rumble-nation", "base", 2)
        ]
        rows = [(r.bot_id, r.games) for r in pool.rows]
        if rows == [(r["bot_id"], r["games"]) for r in shown] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert rows == [(r["bot_id"], r["games"]) for r in shown]
    assert all(r.status in ("active", "paused") for r in pool.rows)
    assert [p.players for p in answer.pools] == [k.players for k in POOLS]


def test_a_web_page_process_that_dies_is_started_again_on_its_port(ladder: Ladder) -> None:
    process = ladder.page.process
    assert process is not None
    os.kill(process.pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{ladder.url}/api/pools", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    else:
        raise AssertionError("the web page did not come back")
    assert ladder.page.restarts == 1 and ladder.page.process is not process


@pytest.mark.parametrize("side", ["autumn", "winter"])
def test_root_layouts_place_every_clearing_apart(side: str) -> None:
    layout = board_for("root", side)
    assert layout is not None
    places = {c["id"]: (c["x"], c["y"]) for c in layout["clearings"]}
    assert sorted(places) == list(range(1, 13))
    assert {a for path in layout["paths"] for a in path} <= set(places)
    assert min_distance(list(places.values())) >= 140  # discs of radius 66 do not touch


def test_the_rumble_nation_layout_places_every_area_apart() -> None:
    layout = board_for("rumble-nation", "base")
    assert layout is not None
    places = {a["id"]: (a["x"], a["y"]) for a in layout["areas"]}
    assert len(places) == 11 and {
        a for link in layout["land"] + layout["sea"] for a in link
    } <= set(places)
    assert min_distance(list(places.values())) >= 120  # discs of radius 54 do not touch


def min_distance(points: list[tuple[int, int]]) -> float:
    return min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
