"""What the README and the docs say each game supports is what the game registry holds.

The registry (``games.registry.games()``: each game's ``name``, ``title``, ``variants`` and
``player_counts``) is the truth. The docs state it in fixed places, each read here and compared
exactly:

- the README's "Games" table (columns game, name, players, variants);
- the game paragraphs of docs/protocol.md, "Decision kinds": ``**Title** (`name`, variants
  `a`, `b` and `c`, N–M players``;
- the game headings of docs/engine.md: ``### Title (N–M players``;
- the first paragraph of docs/games/<name>.md: its first "N–M players".

Every other "N–M players" (or "N-M", "N to M") in the README, the docs and the examples'
READMEs is checked against the game it is about (the game of a docs/games or docs/rulings page,
else the last game named before it in its paragraph): it may name part of the range (a rule
for 2–4 players of a game that also has a solo mode), never a count the game lacks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.contract import Game
from games.registry import games

ROOT = Path(__file__).resolve().parent.parent
RANGE = r"(\d+)\s*(?:–|-|to)\s*(\d+)"
PLAYERS = re.compile(RANGE + r"[\s-]+players?\b")


def registered() -> dict[str, Game]:
    return games()


def counts(low: str, high: str) -> tuple[int, ...]:
    return tuple(range(int(low), int(high) + 1))


def paragraphs(text: str) -> list[str]:
    """Blank-line separated blocks, each on one line (table rows stay their own lines)."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        if lines and all(line.lstrip().startswith("|") for line in lines):
            out.extend(lines)
        else:
            out.append(" ".join(line.strip() for line in lines).strip())
    return out


def section(text: str, heading: str) -> str:
    assert heading in text, f"no section {heading!r}"
    return text.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_registry_counts_are_ranges() -> None:
    """The docs write player counts as ranges: each game's counts must be one."""
    for game in registered().values():
        low, high = min(game.player_counts), max(game.player_counts)
        assert game.player_counts == tuple(range(low, high + 1)), game.name


# -- the README's table ------------------------------------------------------------------------


def readme_games() -> dict[str, dict[str, object]]:
    text = section((ROOT / "README.md").read_text(encoding="utf-8"), "\n## Games\n")
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    assert rows, "README: the Games section has no table"
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    assert header[:4] == ["game", "name", "players", "variants"], header
    found: dict[str, dict[str, object]] = {}
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = cells[1].strip("`")
        players = re.fullmatch(RANGE, cells[2]) or re.fullmatch(r"(\d+)()", cells[2])
        assert players, f"README: players {cells[2]!r} of {name} is not N–M"
        low, high = players.group(1), players.group(2) or players.group(1)
        found[name] = {
            "title": cells[0],
            "players": counts(low, high),
            "variants": tuple(re.findall(r"`([^`]+)`", cells[3])),
        }
    return found


def test_the_readme_games_table_is_the_registry() -> None:
    expected = {
        name: {"title": g.title, "players": g.player_counts, "variants": g.variants}
        for name, g in registered().items()
    }
    assert readme_games() == expected


# -- docs/protocol.md, docs/engine.md and each game's page --------------------------------------

PROTOCOL = re.compile(
    r"\*\*(?P<title>[^*]+)\*\* \(`(?P<name>[a-z-]+)`, variants (?P<variants>[^()]*?), "
    + RANGE
    + r" players"
)


def test_the_protocol_states_each_game_as_registered() -> None:
    text = section((ROOT / "docs/protocol.md").read_text(encoding="utf-8"), "\n## Decision kinds\n")
    found = {}
    for paragraph in paragraphs(text):
        match = PROTOCOL.match(paragraph)
        if match:
            found[match["name"]] = {
                "title": match["title"],
                "players": counts(match[4], match[5]),
                "variants": tuple(re.findall(r"`([^`]+)`", match["variants"])),
            }
    expected = {
        name: {"title": g.title, "players": g.player_counts, "variants": g.variants}
        for name, g in registered().items()
    }
    assert found == expected


def test_the_engine_page_states_each_games_players() -> None:
    text = section((ROOT / "docs/engine.md").read_text(encoding="utf-8"), "\n## How each game")
    found = {}
    for title, low, high in re.findall(r"^### ([^(\n]+?) \(" + RANGE + r" players", text, re.M):
        found[title] = counts(low, high)
    assert found == {g.title: g.player_counts for g in registered().values()}


@pytest.mark.parametrize("name", sorted(registered()))
def test_a_games_page_opens_with_its_players(name: str) -> None:
    text = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    opening = next(p for p in paragraphs(text) if p and not p.startswith("#"))
    match = PLAYERS.search(opening)
    assert match, f"docs/games/{name}.md: the first paragraph names no 'N–M players'"
    assert counts(match[1], match[2]) == registered()[name].player_counts, opening


# -- every other claim ------------------------------------------------------------------------


def pages() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "examples").glob("*/README.md")),
    ]


def claims(page: Path) -> list[tuple[str, tuple[int, ...], str]]:
    """(game name, counts, paragraph) for each 'N–M players' about a game on ``page``."""
    titles = {g.title: name for name, g in registered().items()}
    own = page.stem if page.parent.name in ("games", "rulings") else None
    found = []
    for paragraph in paragraphs(page.read_text(encoding="utf-8")):
        for match in PLAYERS.finditer(paragraph):
            before = paragraph[: match.start()]
            named = [
                (m.start(), titles[m.group(0)])
                for m in re.finditer("|".join(map(re.escape, titles)), before)
            ]
            game = max(named)[1] if named else own
            if game is not None:
                found.append((game, counts(match[1], match[2]), paragraph))
    return found


def test_the_scan_finds_claims() -> None:
    everywhere = [c for page in pages() for c in claims(page)]
    assert {game for game, _, _ in everywhere} == set(registered())


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_claims_a_player_count_a_game_lacks(page: Path) -> None:
    for game, stated, paragraph in claims(page):
        lacking = set(stated) - set(registered()[game].player_counts)
        assert not lacking, f"{game}: {lacking} players in {paragraph!r}"
