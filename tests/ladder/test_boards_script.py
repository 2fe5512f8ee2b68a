"""boards.js, the board drawings shared by the replay viewer and the play page, in a real
browser (Debian's chromium driven by Playwright) under the ladder's real Content-Security-Policy.

The views and options are made by the real engines: a game of each (Rumble Nation advanced with
four players, Root on the autumn map with four and on the winter map with two, Gnomeville with
three) is played with random choices, and at some of its decisions the deciding seat's own
observation, the public one and the decision's options are put on the wire
(``kassen.wire``) and turned into JSON as the web page does. The page draws each view with no
console error; every area, clearing and own town space is a ``<g data-place>``; ``placesOf``
names, for each option, exactly the places the engine's option value names, each drawn once;
a Root hand is in the own panel with ``own`` and nowhere without; ``markPlaces`` calls back
with the place clicked or chosen with the keyboard, and a new marking replaces the old one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message
from playwright.sync_api import Browser, Page, Route, ViewportSize

from games import GameConfig, get_game
from games.contract import Option
from games.gnomeville.steps import Act
from games.root.cards import STANDARD_DECK
from games.rumble_nation.board import AREAS
from kassen import wire
from tests.ladder.chromium import artifacts_folder, launched, skip_module_without_chromium
from tournament.ladder_service.web.app import SECURITY_HEADERS
from tournament.ladder_service.web.boards import board_for

pytestmark = pytest.mark.system

skip_module_without_chromium()

STATIC = Path(__file__).resolve().parents[2] / "tournament/ladder_service/web/static"
#: Served by the test itself (page.route): a loopback address, which the browser trusts as the
#: ladder's own (its Cross-Origin-Opener-Policy header is ignored elsewhere, with an error).
ORIGIN = "http://127.0.0.1:9"
PHONE: ViewportSize = {"width": 390, "height": 844}
NAMES = ("Ann", "Ben", "Cho", "Dai")

#: The page: the ladder's stylesheet, boards.js and the board and panel as match.html has them.
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>boards.js</title><link rel="stylesheet" href="/static/site.css">
<script src="/static/boards.js" defer></script>%s</head>
<body><main><div class="stage"><div id="board" class="board"></div>
<div class="side"><div id="panel" class="panel"></div></div></div></main></body></html>"""
#: An inline script: the CSP must keep it from running.
INLINE = "<script>document.documentElement.dataset.inline = 'ran';</script>"


# ---------------------------------------------------------------------- views from the engines


@dataclass(frozen=True, slots=True)
class Sample:
    """One decision of a real game, as the play page would get it."""

    label: str
    meta: dict[str, Any]
    seat: int
    kind: str
    view: dict[str, Any]  # the deciding seat's own observation
    public: dict[str, Any]  # the spectators' observation at the same moment
    options: list[dict[str, Any]]
    #: For each option, the places its engine value names (the test's own reading).
    places: list[list[str]]

    def js(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "seat": self.seat,
            "view": self.view,
            "public": self.public,
            "options": self.options,
        }


def as_json(message: Message) -> dict[str, Any]:
    return MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def observation(game: str, view: Any) -> dict[str, Any]:
    message = wire.observation_to_proto(game, view)
    return as_json(getattr(message, str(message.WhichOneof("game"))))


def engine_places(game: str, view: Any, option: Option) -> list[str]:
    """The places an option names, read from its engine value and the engine's view."""
    value = option.value
    if game == "rumble-nation":
        if value[0] == "place":
            return [f"area:{a.id}" for a in view.areas if a.castle == value[1]]
        if value[0] in ("area", "move_soldier", "move_daimyo"):
            return [f"area:{AREAS[value[1]].id}"]
    if game == "root" and value[0] in ("clearing", "move", "slip"):
        target = value[1]
        return [f"clearing:{target}"] if isinstance(target, int) else []  # slip: or a forest
    if game == "gnomeville" and (space := Act(*value).space) >= 0:
        return [f"space:{space}"]
    return []


def play(
    game: str, variant: str, players: int, seed: int, decisions: int, every: int
) -> list[Sample]:
    """A game played with random choices (at most ``decisions`` of them); a sample every
    ``every`` decisions and at the first few decisions whose options name places."""
    engine = get_game(game)
    state = engine.new(GameConfig(players, variant), seed)
    rng = random.Random(seed)
    meta = {
        "game": game,
        "variant": variant,
        "board": board_for(game, variant),
        "seats": [{"seat": s, "name": NAMES[s]} for s in range(players)],
    }
    samples: list[Sample] = []
    placed = 0
    for step in range(decisions):
        pending = state.pending()
        if not pending:
            break
        decision = rng.choice(pending)
        mine = state.observe(decision.seat)
        places = [engine_places(game, mine, o) for o in decision.options]
        naming = any(places)
        if step % every == 0 or (naming and placed < 4):
            placed += naming
            samples.append(
                Sample(
                    label=f"{game} {variant} {players}p decision {step} ({decision.kind})",
                    meta=meta,
                    seat=decision.seat,
                    kind=decision.kind,
                    view=observation(game, mine),
                    public=observation(game, state.observe(None)),
                    options=[as_json(o) for o in wire.options_to_proto(game, decision)],
                    places=places,
                )
            )
        state.apply(decision.seat, rng.randrange(len(decision.options)))
    return samples


#: Each game: its engine, variant, players, seed, decisions played at most and sampled every.
GAMES = {
    "rumble-nation": ("rumble-nation", "advanced", 4, 11, 1000, 6),
    "root-autumn": ("root", "autumn", 4, 12, 1000, 40),
    "root-winter": ("root", "winter", 2, 13, 1000, 40),
    "gnomeville": ("gnomeville", "standard", 3, 14, 1000, 6),
}


@pytest.fixture(scope="module")
def samples() -> dict[str, list[Sample]]:
    return {name: play(*args) for name, args in GAMES.items()}


# ---------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


def serve(route: Route) -> None:
    """The test's site: the page (with an inline script at /inline) and the static files, each
    with the ladder's security headers."""
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    headers = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
    if path in ("/", "/inline"):
        body = (PAGE % (INLINE if path == "/inline" else "")).encode()
        route.fulfill(status=200, body=body, headers={**headers, "content-type": "text/html"})
    elif path.startswith("/static/") and (STATIC / path.removeprefix("/static/")).is_file():
        kind = "text/css" if path.endswith(".css") else "text/javascript"
        body = (STATIC / path.removeprefix("/static/")).read_bytes()
        route.fulfill(status=200, body=body, headers={**headers, "content-type": kind})
    else:
        route.fulfill(status=404, body=b"", headers=headers)


class Tab:
    """A phone-sized tab on the test page that records console errors and page errors."""

    def __init__(self, browser: Browser, path: str = "/") -> None:
        self.context = browser.new_context(viewport=PHONE)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route(f"{ORIGIN}/**", serve)
        self.page.goto(ORIGIN + path)
        self.page.wait_for_load_state("load")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    found = Tab(browser)
    yield found
    found.close()
    assert found.errors == [], found.errors


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_folder(tmp_path_factory, "boards-screenshots", "boards.js")


def test_the_test_page_is_under_the_ladders_content_security_policy(browser: Browser) -> None:
    """An inline script does not run on the test page (so boards.js, which does, needs no
    more than the ladder's pages allow)."""
    found = Tab(browser, "/inline")
    try:
        assert found.page.evaluate("document.documentElement.dataset.inline") is None
        assert found.page.evaluate("typeof window.KassenBoards.draw") == "function"
        assert any("Content Security Policy" in e for e in found.errors), found.errors
    finally:
        found.close()


# ---------------------------------------------------------------------- drawing every sample

#: Draws one sample three ways (the own view with `own`, the own view without, the public
#: view) and reports what each drew and what placesOf and optionGroup say of its options.
DRAW = """(s) => {
  const board = document.getElementById('board');
  const panel = document.getElementById('panel');
  const places = () => [...board.querySelectorAll('[data-place]')].map(
    (e) => [e.tagName, e.getAttribute('data-place'), e.getAttribute('data-label') || '']);
  const report = {};
  KassenBoards.draw(s.meta, s.view, {board, panel, own: s.seat});
  report.places = places();
  report.spaces = board.querySelectorAll('[data-space]').length;
  report.ownPanels = panel.querySelectorAll('.own-view').length;
  report.hand = [...panel.querySelectorAll('.own-view .hand .card')].map(
    (e) => [e.dataset.card, e.textContent]);
  const own = panel.querySelector('.own-view');
  report.ownText = own ? own.innerText : '';
  report.facts = Object.fromEntries([...panel.querySelectorAll('.own-view .fact')].map(
    (e) => [e.querySelector('.label').textContent, e.querySelector('.value').textContent]));
  const first = board.querySelector('.town');
  report.firstTown = first ? [first.className, first.querySelector('svg').getAttribute('aria-label')] : null;
  report.width = document.documentElement.scrollWidth;
  report.placesOf = s.options.map((o) => KassenBoards.placesOf(s.meta, s.view, o));
  report.drawn = report.placesOf.map((ids) => ids.map(
    (id) => board.querySelectorAll(`g[data-place="${id}"]`).length));
  report.groups = s.options.map((o) => KassenBoards.optionGroup(s.meta.game, o));
  report.plain = [];
  for (const view of [s.view, s.public]) {
    KassenBoards.draw(s.meta, view, {board, panel});
    report.plain.push({
      places: places().map((p) => p[1]),
      ownPanels: panel.querySelectorAll('.own-view').length,
      cards: panel.querySelectorAll('.card, .hand').length,
      text: panel.innerText,
    });
  }
  return report;
}"""


def expected_places(sample: Sample) -> list[str]:
    """Every place of the board drawn for the sample's own seat, in drawing order."""
    game = sample.meta["game"]
    if game == "rumble-nation":
        return [f"area:{a['id']}" for a in sample.view["areas"]]
    if game == "root":
        return [f"clearing:{c['id']}" for c in sample.view["clearings"]]
    return [f"space:{i}" for i in range(25)]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_sample_is_drawn_with_its_places_and_its_options_name_them(
    tab: Tab, samples: dict[str, list[Sample]], name: str
) -> None:
    found = samples[name]
    assert len(found) >= 8, [s.label for s in found]
    naming = 0
    for sample in found:
        report = tab.page.evaluate(DRAW, sample.js())
        places = expected_places(sample)
        assert [p[1] for p in report["places"]] == places, sample.label
        assert {p[0] for p in report["places"]} == {"g"}, sample.label
        assert all(p[2] for p in report["places"]), sample.label  # a name for aria-label
        assert report["placesOf"] == sample.places, sample.label
        assert all(n == 1 for counts in report["drawn"] for n in counts), sample.label
        naming += any(sample.places)
        assert all(isinstance(g, str) and g for g in report["groups"]), sample.label
        assert report["ownPanels"] == 1, sample.label
        assert report["width"] <= PHONE["width"], f"{sample.label}: {report['width']} px wide"
        # Without `own`, whatever the view holds: no own panel and no place of a town.
        public_places = [] if sample.meta["game"] == "gnomeville" else places
        for plain in report["plain"]:
            assert plain["ownPanels"] == 0 and plain["cards"] == 0, sample.label
            assert "Your" not in plain["text"], sample.label
            assert plain["places"] == public_places, sample.label
        if sample.meta["game"] == "gnomeville":
            players = len(sample.meta["seats"])
            assert report["spaces"] == 25 * players  # every town drawn, one of them pickable
            name_of = NAMES[sample.seat]
            assert report["firstTown"] == ["town own", f"town of {name_of}"], sample.label
            mine = next(t for t in sample.view["towns"] if t["seat"] == sample.seat)
            assert str(mine["mushrooms"]) == report["facts"]["Your mushrooms"]
            assert "Your bag" in report["facts"] and "Your pile" in report["facts"]
            if "drawn" in sample.view:
                assert report["facts"]["Your drawn tile"] == sample.view["drawn"][5:].lower()
        if sample.meta["game"] == "rumble-nation" and sample.view["phase"] != "draft":
            card = sample.view["seats"][sample.seat]["daimyo_card"]
            assert card, sample.label  # the advanced game: each seat drafted one
            assert card.replace("_", " ") in report["facts"]["Your daimyo card"].lower()
    assert naming >= 3, f"{name}: too few options named places to check placesOf"


@pytest.mark.parametrize("name", ["root-autumn", "root-winter"])
def test_a_root_hand_is_shown_to_its_own_seat_only(
    tab: Tab, samples: dict[str, list[Sample]], name: str
) -> None:
    names = {c.id: c.name for c in STANDARD_DECK}
    shown = 0
    for sample in samples[name]:
        report = tab.page.evaluate(DRAW, sample.js())
        hand = next(p for p in sample.view["players"] if p["seat"] == sample.seat)["hand"]
        assert [card for card, _ in report["hand"]] == hand, sample.label
        assert f"Your hand ({len(hand)})" in report["ownText"], sample.label
        for card, text in report["hand"]:
            # the engine's name, without its punctuation; the suit when the id names one
            assert letters(text.split(" (")[0]) == letters(names[card]), (card, text)
        shown += len(hand)
        for plain in report["plain"]:
            assert "Your hand" not in plain["text"] and plain["cards"] == 0, sample.label
    assert shown >= 5


def letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def test_card_names_are_readable(tab: Tab) -> None:
    ids = [c.id for c in STANDARD_DECK]
    names = tab.page.evaluate("(ids) => ids.map(KassenBoards.cardName)", ids)
    for card, name in zip(STANDARD_DECK, names, strict=True):
        base, _, suit = name.partition(" (")
        assert letters(base) == letters(card.name), (card.id, name)
        assert suit in ("", f"{card.suit})"), (card.id, name)
        assert not re.search(r"\d", name), (card.id, name)
    assert names[ids.index("ambush_bird_1")] == "Ambush (bird)"


# ---------------------------------------------------------------------- picking places

MARK = """([s, ids]) => {
  const board = document.getElementById('board');
  KassenBoards.draw(s.meta, s.view, {board, panel: document.getElementById('panel'), own: s.seat});
  window.picked = [];
  KassenBoards.markPlaces(board, ids, (id) => window.picked.push(id));
  return [...board.querySelectorAll('.pickable')].map((e) => ({
    place: e.getAttribute('data-place'), tabindex: e.getAttribute('tabindex'),
    role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
  }));
}"""


def pickable_sample(samples: list[Sample]) -> tuple[Sample, list[str]]:
    """The first sample whose options name at least two places, and those places."""
    for sample in samples:
        ids = sorted({p for places in sample.places for p in places})
        if len(ids) >= 2:
            return sample, ids
    raise AssertionError("no decision named two places")


@pytest.mark.parametrize("name", list(GAMES))
def test_mark_places_calls_back_on_click_and_keys_and_a_new_marking_replaces_the_old(
    tab: Tab, samples: dict[str, list[Sample]], name: str, artifacts: Path
) -> None:
    page = tab.page
    sample, ids = pickable_sample(samples[name])
    marked = page.evaluate(MARK, [sample.js(), ids])
    page.screenshot(path=str(artifacts / f"{name}-marked-phone.png"), full_page=True)
    assert sorted(m["place"] for m in marked) == ids
    assert all(m["tabindex"] == "0" and m["role"] == "button" and m["label"] for m in marked)
    place = page.locator(f'#board g[data-place="{ids[0]}"]')
    place.click()
    assert page.evaluate("window.picked") == [ids[0]]
    others = page.locator("#board g[data-place]:not(.pickable)")
    if others.count():  # a place no option names: a click on it picks nothing
        others.first.click(force=True)
        assert page.evaluate("window.picked") == [ids[0]]
    page.locator(f'#board g[data-place="{ids[1]}"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.keyboard.press("a")
    assert page.evaluate("window.picked") == [ids[0], ids[1], ids[1]]
    # Tab from the page's start (a click on its corner, before the board) reaches the first
    # place marked.
    page.mouse.click(1, 1)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-place')") in ids

    # A new marking: the old callback and places are gone, the new callback is called once.
    page.evaluate(
        """(ids) => {
          window.second = [];
          KassenBoards.markPlaces(document.getElementById('board'), ids,
                                  (id) => window.second.push(id));
        }""",
        ids[1:],
    )
    assert page.locator("#board .pickable").count() == len(ids) - 1
    assert page.locator(f'#board g[data-place="{ids[0]}"]').get_attribute("tabindex") is None
    place.click(force=True)
    page.locator(f'#board g[data-place="{ids[1]}"]').click()
    assert page.evaluate("[window.picked.length, window.second]") == [3, [ids[1]]]

    page.evaluate("(id) => KassenBoards.select(document.getElementById('board'), id)", ids[1])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(artifacts / f"{name}-selected-wide.png"), full_page=True)
    assert page.locator("#board .selected").count() == 1
    assert page.locator(f'#board g.selected[data-place="{ids[1]}"]').count() == 1
    page.evaluate("KassenBoards.markPlaces(document.getElementById('board'), [], null)")
    assert page.locator("#board .pickable, #board [tabindex]").count() == 0


def test_option_groups_name_each_kind(tab: Tab, samples: dict[str, list[Sample]]) -> None:
    """Options of one kind share a group, whatever their arguments; the typed detail decides,
    and without one the key's part before ':'."""
    seen: dict[tuple[str, str], set[str]] = {}
    for name in GAMES:
        for sample in samples[name]:
            game = sample.meta["game"]
            groups = tab.page.evaluate(
                "([game, options]) => options.map((o) => KassenBoards.optionGroup(game, o))",
                [game, sample.options],
            )
            for option, group in zip(sample.options, groups, strict=True):
                detail = option[game.replace("-", "_")]
                kind = detail.get("action") or detail.get("verb")
                seen.setdefault((game, kind), set()).add(group)
    assert all(len(groups) == 1 for groups in seen.values()), seen
    assert seen[("rumble-nation", "place")] == {"Place soldiers"}
    assert seen[("root", "clearing")] == {"Clearings"}
    assert seen[("gnomeville", "place")] == {"Place the tile"}
    fallback = tab.page.evaluate(
        "KassenBoards.optionGroup('chess', {key: 'castle:kingside', label: 'O-O'})"
    )
    assert fallback == "castle"
