"""The ladder's web page in a real browser: Debian's chromium driven by Playwright.

A ladder with its page runs in the test (connected SDK bots play house bots; by default the
Root contest is played on the ladder's referee by in-process random seats from a seed that
makes it short, with ``--slow`` by a connected bot from a secret seed); the browser
sorts the ladder table, draws a bot's rating chart, steps the replay viewer through whole
games (Rumble Nation with the arrow keys, Root and Gnomeville through the viewer's own step
function), answers End and Home while a long replay is still loading, ends a Root contest on
its result, and follows a running match live, with no console error. No page is wider than a
390-pixel phone. Screenshots of every page at two window sizes are written to
$KASSEN_TEST_ARTIFACTS (default: a temporary folder; the path is printed).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect
from playwright.sync_api import Page as Tab

from tests.conftest import Depth
from tests.ladder.chromium import artifacts_folder, launched, skip_module_without_chromium
from tests.ladder.test_web_pages import (
    GNOMES,
    ROOT,
    ROOT_SEED,
    RUMBLE,
    Ladder,
    author_name,
    finished,
    play_slowly,
    root_contest,
    settled,
    start_ladder,
)

pytestmark = pytest.mark.system

SIZES = {"wide": (1280, 800), "phone": (390, 844)}

skip_module_without_chromium()


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory, depth: Depth) -> Iterator[Ladder]:
    database = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'ladder.sqlite'}"
    played = {RUMBLE: 2, GNOMES: 1} | ({ROOT: 1} if depth.slow else {})
    running = start_ladder(database, played)
    try:
        if not depth.slow:
            running.ladder.call(root_contest(running.ladder, ROOT_SEED))
        yield running.ladder
    finally:
        running.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_folder(tmp_path_factory, "web-screenshots", "the ladder's web page")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


class Window:
    """A browser tab that records console errors and uncaught exceptions."""

    def __init__(self, browser: Browser, ladder: Ladder) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.base = ladder.url
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str) -> Tab:
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, path
        return self.page

    def screenshots(self, folder: Path, name: str) -> None:
        """A picture at each size; no page is wider than the window (on a phone it would
        scroll sideways)."""
        for size, (width, height) in SIZES.items():
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.wait_for_timeout(50)
            self.page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
            assert self.width() <= width, f"{name} is {self.width()} px wide at {width} px"
        self.page.set_viewport_size({"width": 1280, "height": 800})

    def width(self) -> int:
        found: int = self.page.evaluate("document.documentElement.scrollWidth")
        return found

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


@pytest.fixture
def tab(browser: Browser, ladder: Ladder) -> Iterator[Window]:
    page = Window(browser, ladder)
    yield page
    page.close()


def frame(ladder: Ladder, match_id: str, n: int) -> dict[str, Any]:
    """Frame ``n`` of a replay, as the viewer gets it."""
    body = httpx.get(f"{ladder.url}/api/matches/{match_id}/frames?start={n}&count=1", timeout=60)
    found: dict[str, Any] = body.json()["frames"][0]
    return found


def column(page: Tab, index: int) -> list[str]:
    cells = page.locator(f"#ladder tbody tr td:nth-child({index})")
    return [text.strip() for text in cells.all_inner_texts()]


def test_the_ladder_table_sorts(tab: Window, artifacts: Path) -> None:
    page = tab.open("/")
    assert page.locator("ul.pools a").count() >= 3
    tab.screenshots(artifacts, "index")
    page = tab.open("/ladder/rumble-nation/base/2")
    ranks = [int(r) for r in column(page, 1)]
    assert ranks == sorted(ranks) and len(ranks) >= 3
    names = [n.split()[0] for n in column(page, 2)]
    assert author_name(RUMBLE) in names
    page.locator("#ladder th", has_text="Bot").click()
    assert [n.split()[0] for n in column(page, 2)] == sorted(names, key=str.lower)
    assert page.locator("#ladder th", has_text="Bot").get_attribute("aria-sort") == "ascending"
    page.locator("#ladder th", has_text="Bot").click()
    assert [n.split()[0] for n in column(page, 2)] == sorted(names, key=str.lower, reverse=True)
    page.locator("#ladder th", has_text="Games").click()
    games = [int(g) for g in column(page, 6)]
    assert games == sorted(games)
    page.locator("#ladder th", has_text="Rank").click()  # back to rank order for the picture
    tab.screenshots(artifacts, "ladder")


def test_a_bot_page_draws_its_rating_chart(tab: Window, ladder: Ladder, artifacts: Path) -> None:
    page = tab.open(f"/bots/{ladder.ids[RUMBLE]}")
    page.locator("#chart svg polyline").wait_for()
    assert page.locator("#chart svg circle").count() == 2  # one point per rated match
    assert "<script>" in page.locator(".description").inner_text()  # shown as text
    tab.screenshots(artifacts, "bot")


def test_the_replay_viewer_steps_through_a_rumble_nation_game_with_the_keys(
    tab: Window, ladder: Ladder, artifacts: Path
) -> None:
    row = finished(ladder, RUMBLE)
    page = tab.open(f"/matches/{row.id}")
    viewer = page.locator("#viewer")
    expect(viewer).to_have_attribute("data-shown", "0")
    assert page.locator("#board svg g[data-area]").count() == 11
    tab.screenshots(artifacts, "match-rumble-nation-start")
    for n in range(1, row.decisions + 1):
        page.keyboard.press("ArrowRight")
        expect(viewer).to_have_attribute("data-shown", str(n))
    expect(page.locator("#step")).to_contain_text(f"Decision {row.decisions} / {row.decisions}")
    page.keyboard.press("ArrowRight")  # already at the end: stays
    expect(viewer).to_have_attribute("data-shown", str(row.decisions))
    # the war phase: a dozen events and more, the last one the final scores on three lines
    events = frame(ladder, row.id, row.decisions)["events"]
    assert len(events) >= 12 and "\n" in events[-1]
    the_events_are_numbered_in_view_and_keep_their_lines(page, events)
    tab.screenshots(artifacts, "match-rumble-nation-end")
    page.keyboard.press("ArrowLeft")
    expect(viewer).to_have_attribute("data-shown", str(row.decisions - 1))
    page.locator("#first").click()
    expect(viewer).to_have_attribute("data-shown", "0")
    page.locator("#last").click()
    expect(viewer).to_have_attribute("data-shown", str(row.decisions))


#: Each event of the list as drawn, scrolled into view in turn: its number's text and box, the
#: list's visible box, and the event's text as shown, its height and line height.
EVENTS_DRAWN = """() => {
  const list = document.getElementById('events');
  return [...list.querySelectorAll('li')].map((item) => {
    item.scrollIntoView({block: 'nearest'});
    const number = item.querySelector('.n');
    const box = number ? number.getBoundingClientRect() : null;
    const inside = list.getBoundingClientRect();
    const body = item.querySelector('.text') || item;
    return {
      number: number ? number.textContent : null,
      box: box && [box.left, box.right, box.top, box.bottom],
      inside: [inside.left, inside.right, inside.top, inside.bottom],
      cut: number ? number.scrollWidth > number.clientWidth : null,
      text: body.innerText,
      height: body.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(body).lineHeight),
    };
  });
}"""


def the_events_are_numbered_in_view_and_keep_their_lines(page: Tab, events: list[str]) -> None:
    """Every event's number ("10.", "11.", ...) is text inside the list's visible box, not cut
    by its edge; an event of several lines is shown on as many."""
    drawn = page.evaluate(EVENTS_DRAWN)
    assert len(drawn) == len(events)
    for i, (item, text) in enumerate(zip(drawn, events, strict=True), 1):
        assert item["number"] == f"{i}.", f"event {i} has no number to read: {item}"
        left, right, top, bottom = item["box"]
        inside_left, inside_right, inside_top, inside_bottom = item["inside"]
        assert inside_left < left and right < inside_right, f"number {i} is cut: {item}"
        assert inside_top <= top and bottom <= inside_bottom, f"number {i} is hidden: {item}"
        assert not item["cut"], f"number {i} is cut: {item}"
        lines = text.count("\n") + 1
        if lines > 1:
            assert item["text"].count("\n") >= lines - 1, item
            assert item["height"] >= lines * item["line"] * 0.95, item


STEP_THROUGH = """async () => {
  const drawn = [];
  while (window.kassenViewer.index < window.kassenViewer.total - 1) {
    await window.kassenViewer.step(1);
    drawn.push(Number(document.getElementById('viewer').dataset.shown));
  }
  return drawn;
}"""


@pytest.mark.parametrize(
    ("key", "pieces", "count"),
    [(ROOT, "#board svg g[data-clearing]", 12), (GNOMES, "#board svg g[data-space]", 50)],
    ids=["root", "gnomeville"],
)
def test_the_replay_viewer_steps_through_a_whole_game(
    tab: Window, ladder: Ladder, artifacts: Path, key: object, pieces: str, count: int
) -> None:
    row = finished(ladder, key)  # type: ignore[arg-type]
    page = tab.open(f"/matches/{row.id}")
    expect(page.locator("#viewer")).to_have_attribute("data-shown", "0")
    tab.screenshots(artifacts, f"match-{row.game}-start")
    drawn = page.evaluate(STEP_THROUGH)
    assert drawn == list(range(1, row.decisions + 1))
    assert page.locator(pieces).count() == count
    page.locator("#back").click()
    expect(page.locator("#viewer")).to_have_attribute("data-shown", str(row.decisions - 1))
    tab.screenshots(artifacts, f"match-{row.game}-end")


def test_end_and_home_work_while_a_root_replay_loads_and_it_ends_on_the_contest_result(
    tab: Window, ladder: Ladder, artifacts: Path
) -> None:
    """Every chunk of frames is held back until the test lets it through, as if the server
    were slow to make them. End pressed before anything is drawn is made once the first frame
    is: the last frame loaded so far at once, then each chunk's as it comes, to the end; Home
    goes back at once (and frames End asked for, when they come, do not take the viewer away).
    The last frame shows the contest's result as the referee ranked it, and each game's winner
    as that game's; a seat is drawn in the colour of the faction it plays on the board, which
    the two games swap."""
    row = finished(ladder, ROOT)
    last = row.decisions
    assert last > 300  # a contest of two games: several chunks of frames
    held: list[Route] = []

    def let_through() -> None:
        """Let the oldest held request through and wait for its answer (route handlers run
        while the page is asked something, so wait in the page)."""
        while not held:
            page.wait_for_timeout(20)
        route = held.pop(0)
        with page.expect_response(route.request.url, timeout=60_000):
            route.continue_()

    page = tab.page
    page.route("**/api/matches/*/frames?*", lambda route: held.append(route))
    page = tab.open(f"/matches/{row.id}")
    viewer = page.locator("#viewer")
    page.keyboard.press("End")  # nothing is drawn yet
    let_through()  # the first chunk
    expect(viewer).to_have_attribute("data-shown", "99", timeout=5_000)
    expect(page.locator("#step")).to_contain_text(f"loading to {last}")
    page.keyboard.press("Home")
    expect(viewer).to_have_attribute("data-shown", "0", timeout=3_000)
    let_through()  # the frames End asked for arrive after Home: the viewer stays
    page.wait_for_timeout(200)
    expect(viewer).to_have_attribute("data-shown", "0")
    page.keyboard.press("End")
    followed: list[int] = []
    deadline = time.monotonic() + 60
    while (shown := int(viewer.get_attribute("data-shown") or 0)) != last:
        assert time.monotonic() < deadline, followed
        if not followed or followed[-1] != shown:
            followed.append(shown)
        if held:
            held.pop(0).continue_()
        page.wait_for_timeout(20)
    page.unroute("**/api/matches/*/frames?*")
    # each chunk's last frame as it came (loaded so far: the first two chunks)
    assert followed[0] == 199 and followed == sorted(followed) and len(followed) >= 3, followed
    assert all(n % 100 == 99 for n in followed), followed
    expect(page.locator("#step")).to_have_text(re.compile(rf"^Decision {last} / {last} "))

    facts = dict(
        zip(
            page.locator("#panel .fact .label").all_inner_texts(),
            page.locator("#panel .fact .value").all_inner_texts(),
            strict=True,
        )
    )
    seats = sorted(
        httpx.get(f"{ladder.url}/api/matches/{row.id}", timeout=60).json()["seats"],
        key=lambda s: (s["rank"], s["seat"]),
    )
    assert [line.split(" (")[0] for line in facts["Contest result"].splitlines()] == [
        f"{s['rank']}. {s['name']}" for s in seats
    ]
    names = {s["seat"]: s["name"] for s in seats}
    end = frame(ladder, row.id, last)["view"]
    assert "Winners" not in facts
    for game, won in enumerate(end["winners"], 1):
        assert facts[f"Game {game} won by"].startswith(names[won["seat"]])
    tab.screenshots(artifacts, "match-root-result")

    start = frame(ladder, row.id, 0)["view"]
    factions = {p["seat"]: p["faction"] for p in end["players"]}
    assert factions != {p["seat"]: p["faction"] for p in start["players"]}  # swapped
    for view in (end, start):
        if view is start:
            page.keyboard.press("Home")
            expect(viewer).to_have_attribute("data-shown", "0")
        for player in view["players"]:
            swatch = page.locator(f"tr.seat-{player['seat']} .swatch")
            assert colour(swatch) == faction_colour(page, player["faction"]), player


def colour(swatch: Any) -> str:
    found: str = swatch.evaluate("e => getComputedStyle(e).backgroundColor")
    return found


def faction_colour(page: Tab, faction: str) -> str:
    """The fill of the faction's pieces on the board (a piece drawn for the asking if it has
    none there)."""
    found: str = page.evaluate(
        """(faction) => {
          const svg = document.querySelector('#board svg');
          const piece = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
          piece.setAttribute('class', `warriors f-${faction}`);
          const drawn = svg.querySelector(`.warriors.f-${faction}`) || svg.appendChild(piece);
          const fill = getComputedStyle(drawn).fill;
          piece.remove();
          return fill;
        }""",
        faction,
    )
    return found


#: A name a browser cannot break (3-32 letters, digits, '.', '_' or '-' are allowed).
LONG_NAME = "Averylongbotnamewithoutanybreaks"


def test_pages_fit_a_phone(tab: Window, ladder: Ladder, artifacts: Path) -> None:
    """At 390 pixels the latest matches fit the page's width without a scroll bar of their
    own, and a bot whose name cannot be broken does not widen its page."""
    bot, _ = ladder.call(
        ladder.service.register(
            name=LONG_NAME,
            owner="",
            game=GNOMES.game,
            variant=GNOMES.variant,
            pools=[GNOMES],
            description="",
        )
    )
    page = tab.page
    page.set_viewport_size({"width": 390, "height": 844})
    tab.open("/")
    table = page.locator("table.matches")
    assert table.locator("tbody tr").count() >= 4
    assert tab.width() <= 390
    wide, room = table.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert wide <= room, f"the latest matches are {wide} px wide in {room} px"
    tab.open(f"/bots/{bot.id}")
    assert tab.width() <= 390
    tab.screenshots(artifacts, "bot-new")


def test_a_running_match_updates_in_the_page(tab: Window, ladder: Ladder, artifacts: Path) -> None:
    playing, match_id = play_slowly(ladder)
    try:
        page = tab.open(f"/matches/{match_id}")
        viewer = page.locator("#viewer")
        expect(viewer).to_have_attribute("data-mode", "live")
        # the page has a strict CSP (no eval): wait through attributes, not a JS predicate
        expect(viewer).to_have_attribute("data-shown", re.compile(r"^([3-9]|[1-9][0-9]+)$"))
        assert page.locator("#board svg g[data-area]").count() == 11
        tab.screenshots(artifacts, "match-live")
        expect(viewer).to_have_attribute("data-over", "1", timeout=60_000)
        expect(page.locator("#step")).to_contain_text("Finished")
    finally:
        playing.result(120)
    ladder.call(settled(ladder.service))
    page.reload()
    expect(page.locator("#viewer")).to_have_attribute("data-mode", "replay")
