"""The ladder's web page in a real browser: Debian's chromium driven by Playwright.

A ladder with its page runs in the test (connected SDK bots play house bots); the browser
sorts the ladder table, draws a bot's rating chart, steps the replay viewer through whole
games (Rumble Nation with the arrow keys, Root and Gnomeville through the viewer's own step
function) and follows a running match live, with no console error. Screenshots of every page at two window sizes are written to
$KASSEN_TEST_ARTIFACTS (default: a temporary folder; the path is printed).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright
from playwright.sync_api import Page as Tab

from tests.ladder.test_web_pages import (
    GNOMES,
    ROOT,
    RUMBLE,
    Ladder,
    author_name,
    finished,
    play_slowly,
    settled,
    start_ladder,
)

CHROMIUM = "/usr/bin/chromium"
SIZES = {"wide": (1280, 800), "phone": (390, 844)}

if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ladder]:
    database = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'ladder.sqlite'}"
    running = start_ladder(database, {RUMBLE: 2, ROOT: 1, GNOMES: 1})
    try:
        yield running.ladder
    finally:
        running.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("KASSEN_TEST_ARTIFACTS") or tmp_path_factory.mktemp("artifacts"))
    folder = folder / "web-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of the ladder's web page: {folder}")
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        found = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield found
        found.close()


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
        for size, (width, height) in SIZES.items():
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.wait_for_timeout(50)
            self.page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
        self.page.set_viewport_size({"width": 1280, "height": 800})

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


@pytest.fixture
def tab(browser: Browser, ladder: Ladder) -> Iterator[Window]:
    page = Window(browser, ladder)
    yield page
    page.close()


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
    assert page.locator("#events li").count() >= 1
    tab.screenshots(artifacts, "match-rumble-nation-end")
    page.keyboard.press("ArrowLeft")
    expect(viewer).to_have_attribute("data-shown", str(row.decisions - 1))
    page.locator("#first").click()
    expect(viewer).to_have_attribute("data-shown", "0")
    page.locator("#last").click()
    expect(viewer).to_have_attribute("data-shown", str(row.decisions))


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
