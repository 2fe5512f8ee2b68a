"""A person plays whole games in a real browser (Debian's chromium via Playwright) against the
ladder's greedy house bots: Rumble Nation (advanced, 2 and 4 players), Root (the 2-player
contest, 3 and 4 players, on both maps) and Gnomeville (solo and 3 players). The script starts
each game from /play and then only clicks what the page shows — a marked place on the board
or an option button, chosen at random — until the result screen, with no console error.

Everything the page received is captured at the browser's network level (every response
body, and every Server-Sent Event through the DevTools protocol) and checked against the
stored replay: each decision's view is exactly the seat's own observation at that moment,
and neither the seed, nor the salt, nor any event private to another seat appears anywhere. Screenshots at desktop and phone sizes are written to
$KASSEN_TEST_ARTIFACTS/play-screenshots (default: a temporary folder; the path is printed),
and no page is wider than the window. A reload in the middle of a game rejoins the seat with
the same decision offered. Last, the Python example bot, connected and accepting
challenges, is challenged from its bot page and the game is shown unrated.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page

from tests.ladder.chromium import artifacts_folder, launched, skip_module_without_chromium
from tests.ladder.people import (
    GNOMES_3,
    GNOMES_SOLO,
    ROOT_2,
    ROOT_3,
    ROOT_4,
    ROOT_4_WINTER,
    RUMBLE_2,
    RUMBLE_4,
    PeopleLadder,
    ended_row,
    hidden_texts,
    own_views,
    replay_of,
    secrets_of,
    settings,
    start_people_ladder,
)
from tournament.ladder_service.service import PoolKey

pytestmark = pytest.mark.system

KASSEN = [sys.executable, "-m", "kassen"]
REPOSITORY = Path(__file__).resolve().parents[2]
SIZES = {"wide": (1280, 800), "phone": (390, 844)}
#: Decisions one game may take the person (a bound: none of these games comes near it).
MAX_DECISIONS = 3000
GAMES = [RUMBLE_2, RUMBLE_4, ROOT_2, ROOT_3, ROOT_4, ROOT_4_WINTER, GNOMES_SOLO, GNOMES_3]

skip_module_without_chromium()


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PeopleLadder]:
    database = f"sqlite:///{tmp_path_factory.mktemp('people-browser') / 'ladder.sqlite'}"
    running = start_people_ladder(database, settings())
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_folder(tmp_path_factory, "play-screenshots", "people's games")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


class Capture:
    """Everything one tab received: response bodies and Server-Sent Events, and its console
    errors."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.bodies: list[str] = []
        self.events: list[tuple[str, str]] = []
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("response", self._response)
        self.cdp: CDPSession = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.on(
            "Network.eventSourceMessageReceived",
            lambda e: self.events.append((e["eventName"], e["data"])),
        )

    def _response(self, response: Any) -> None:
        if "text/event-stream" in (response.headers.get("content-type") or ""):
            return  # its messages come one by one through the DevTools protocol
        with contextlib.suppress(Exception):  # a redirect or an aborted request has no body
            self.bodies.append(response.text())

    def decisions(self) -> list[dict[str, Any]]:
        return [json.loads(data) for name, data in self.events if name == "decision"]

    def text(self) -> str:
        return "\n".join([*self.bodies, *(data for _, data in self.events)])


def screenshots(page: Page, folder: Path, name: str) -> None:
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
        wide: int = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{name} is {wide} px wide at {width} px"
    page.set_viewport_size({"width": 1280, "height": 800})


def state_of(page: Page) -> tuple[str, str]:
    play = page.locator("#play")
    return play.get_attribute("data-state") or "", play.get_attribute("data-request") or ""


def wait_for_turn(page: Page, answered: str, timeout: float = 60) -> str:
    """Until the seat has a new decision (not ``answered``) or the game is over: its state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state, request = state_of(page)
        if state in ("over", "gone", "displaced"):
            return state
        if state == "deciding" and request != answered:
            return state
        time.sleep(0.005)
    raise AssertionError(f"no turn within {timeout} s (state {state_of(page)})")


def play_a_game(page: Page, rng: random.Random, shots: Path, name: str, reload_at: int = -1) -> int:
    """Click through the whole game; returns how many decisions the person made. At
    decision ``reload_at`` the page is reloaded first: the seat is rejoined and the same
    decision offered again."""
    answered = ""
    pictured = False
    for made in range(MAX_DECISIONS):
        state = wait_for_turn(page, answered)
        if state != "deciding":
            assert state == "over", page.locator("#status").inner_text()
            return made
        _, request = state_of(page)
        if made == reload_at:
            offered = page.locator("#choices button.option").all_inner_texts()
            page.reload()
            assert wait_for_turn(page, "") == "deciding"
            assert state_of(page) == ("deciding", request)
            assert page.locator("#choices button.option").all_inner_texts() == offered
        if made == 2:
            screenshots(page, shots, f"{name}-playing")
        places = page.locator("#board [data-place].pickable")
        if places.count() and not pictured:
            pictured = True  # a decision whose places are marked on the board
            page.screenshot(path=str(shots / f"{name}-places-wide.png"), full_page=True)
        if places.count() and rng.random() < 0.4:
            places.nth(rng.randrange(places.count())).click()
            state, still = state_of(page)
            if state == "deciding" and still == request:
                # The place has several options: the page shows only those now.
                shown = page.locator("#choices button.option")
                assert shown.count() >= 2
                for i in range(shown.count()):
                    assert shown.nth(i).get_attribute("data-places") is not None
        if state_of(page) == ("deciding", request):
            buttons = page.locator("#choices button.option")
            assert buttons.count() >= 1
            buttons.nth(rng.randrange(buttons.count())).click()
        answered = request
    raise AssertionError(f"{name}: more than {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("pool", GAMES, ids=lambda k: k.label.replace("/", "-"))
def test_a_person_plays_a_whole_game_in_the_browser(
    browser: Browser, ladder: PeopleLadder, artifacts: Path, pool: PoolKey
) -> None:
    name = pool.label.replace("/", "-")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    capture = Capture(context, page)
    try:
        page.goto(f"{ladder.url}/play?pool={pool.game}/{pool.variant}/{pool.players}")
        page.wait_for_selector("#new-game[data-state=ready]")
        assert page.locator("#pool").input_value() == f"{pool.game}/{pool.variant}/{pool.players}"
        assert page.locator("select.opponent").count() == pool.players - 1
        if pool == RUMBLE_2:
            screenshots(page, artifacts, "new-game")
        page.locator("#start").click()
        page.wait_for_url("**/play/*")
        rng = random.Random(zlib.crc32(name.encode()))
        made = play_a_game(page, rng, artifacts, name, reload_at=3 if pool == RUMBLE_2 else -1)
        assert made >= 1
        result = page.locator("#choices .result-box")
        assert result.locator("li").count() == pool.players
        assert "(you)" in result.inner_text()
        assert "Unrated" in result.inner_text()
        # The board then shows the final position, from the finished match's public replay.
        page.wait_for_selector("#play[data-final='1']", timeout=30_000)
        screenshots(page, artifacts, f"{name}-result")
        seat = int(page.locator("#play").get_attribute("data-seat") or "-1")
        match_link = result.locator("a").get_attribute("href") or ""
        match_id = match_link.rsplit("/", 1)[-1]
        assert capture.errors == [], capture.errors
    finally:
        context.close()

    row = ended_row(ladder, match_id)
    assert row.status == "unrated"
    record = replay_of(ladder, match_id)
    assert row.seats[seat].bot_id == ladder.service.people[pool.game].id
    # Exactly the seat's own view at each of its decisions (a reconnect would send one again).
    views = [d["view"] for d in dedupe(capture.decisions())]
    assert views == own_views(record, seat)
    everything = capture.text()
    for secret in secrets_of(record):
        assert secret not in everything, "the seed or salt reached the page"
    for private in hidden_texts(record, seat):
        assert private not in everything, private


def dedupe(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    found = []
    for decision in decisions:
        if decision["request_id"] not in seen:
            seen.add(decision["request_id"])
            found.append(decision)
    return found


def test_a_challenge_from_the_page_to_a_connected_example_bot(
    browser: Browser, ladder: PeopleLadder, artifacts: Path, tmp_path: Path
) -> None:
    """The Python example, registered to accept challenges and connected with
    ``kassen bot ladder``, is challenged from its bot page, plays the person, and the game is
    shown unrated on the match page and in the bot's list of matches."""
    address = ladder.service.referee.address
    token = tmp_path / "example.token"
    registered = subprocess.run(
        [*KASSEN, "ladder", "register", "example-py", "--game", RUMBLE_2.game]
        + ["--variant", RUMBLE_2.variant, "--players", "2", "--accepts-challenges"]
        + ["--address", address, "--token-file", str(token)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert registered.returncode == 0, registered.stderr
    bot_id = registered.stdout.split(" as bot ")[1].split(";")[0]
    example = subprocess.Popen(
        [*KASSEN, "bot", "ladder", f"{REPOSITORY / 'examples/python/bot.py'}:MostSoldiersBot"]
        + ["--address", address, "--token-file", str(token)],
        stderr=subprocess.DEVNULL,
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    capture = Capture(context, page)
    try:
        bot_page = f"{ladder.url}/bots/{bot_id}"
        for _ in range(200):  # until the page's standings (a second old at most) say online
            page.goto(bot_page)
            if page.locator("a.challenge").count():
                break
            time.sleep(0.1)
        assert "accepted (unrated)" in page.locator("dl.facts").inner_text()
        page.locator("a.challenge").first.click()
        page.wait_for_selector("#new-game[data-state=ready]")
        assert page.locator("select.opponent").input_value() == bot_id
        page.locator("#start").click()
        page.wait_for_url("**/play/*", timeout=60_000)
        assert "example-py" in page.locator("main > p").first.inner_text()
        play_a_game(page, random.Random(5), artifacts, "challenge")
        result = page.locator("#choices .result-box")
        assert "example-py" in result.inner_text()
        match_id = (result.locator("a").get_attribute("href") or "").rsplit("/", 1)[-1]
        assert ended_row(ladder, match_id).status == "unrated"
        page.goto(f"{ladder.url}/matches/{match_id}")
        assert "unrated" in page.locator(".unrated-note").inner_text()
        screenshots(page, artifacts, "challenge-match")
        page.goto(bot_page)
        row = page.locator("table.matches tr", has=page.locator(f"a[href='/matches/{match_id}']"))
        assert "unrated" in row.inner_text()
        screenshots(page, artifacts, "challenge-bot")
        assert capture.errors == [], capture.errors
    finally:
        context.close()
        example.terminate()
        example.wait(30)
