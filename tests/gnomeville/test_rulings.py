"""Every Gnomeville ruling (games/gnomeville/rulings.py) is named by a test and listed in the
docs; and the two rulings no other test file needs: the grid (G6) and unlimited tokens (G14)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from games.contract import GameConfig
from games.gnomeville import GAME
from games.gnomeville.content import SIZE, SPACES, default_pack
from games.gnomeville.rulings import RULINGS, ruling
from tests.gnomeville.helpers import sp, town
from tests.gnomeville.late_phases import add_card, attack, table

_ID = re.compile(r"(?<![a-z0-9])(g\d+)(?![0-9])")
DOC = Path(__file__).parents[2] / "docs" / "rulings" / "gnomeville.md"


def _rulings_named_by_tests() -> set[str]:
    """Ruling ids a test names: in its name or docstring (``test_g8_...``), or quoted by the
    test itself (``ruling("G21")``, which also checks the ruling still says what it tests)."""
    named: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = (node.name + " " + (ast.get_docstring(node) or "")).lower()
                named.update(m.upper() for m in _ID.findall(text))
                for call in ast.walk(node):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "ruling"
                        and call.args
                        and isinstance(call.args[0], ast.Constant)
                    ):
                        named.add(str(call.args[0].value))
    return named


def test_every_ruling_is_named_by_a_test() -> None:
    missing = sorted(set(RULINGS) - _rulings_named_by_tests(), key=lambda r: int(r[1:]))
    assert not missing, f"rulings without a test: {missing}"


def test_rulings_doc_matches_code() -> None:
    doc = DOC.read_text()
    for ruling_id, text in RULINGS.items():
        assert f"| {ruling_id} | {text} |" in doc, f"{ruling_id} differs in {DOC.name}"
    listed = set(re.findall(r"^\| (G\d+) \|", doc, re.MULTILINE))
    assert listed == set(RULINGS), (
        f"the doc lists rulings the code does not: {listed - set(RULINGS)}"
    )


def test_g6_every_town_is_a_five_by_five_grid_starting_on_the_centre() -> None:
    assert "5 x 5" in ruling("G6")
    assert SIZE * SIZE == SPACES == 25
    for number in range(1, 6):
        state = GAME.new(GameConfig(1, "standard", {"towns": str(number)}), number)
        t = state.towns[0]
        assert len(t.tiles) == len(t.boulders) == 25
        assert t.layout.centre == sp("c3")
        assert [at for at in t.gnome_at if at >= 0] == [sp("c3")]


def test_g14_boulders_and_mushrooms_have_no_supply_limit() -> None:
    """44 boulder tokens and 36 mushrooms are in the box, but neither ever runs out: a card
    drops its boulders on a town already holding many, and mushrooms are only counted."""
    assert "unlimited" in ruling("G14")
    g = table(players=2)
    t = town(g)
    everywhere = [f"{c}{r}" for c in "abcde" for r in range(1, 6) if f"{c}{r}" != "c3"]
    for seat in range(2):
        for name in everywhere[:23]:
            g.towns[seat].boulders[sp(name)] = True
    t.mushrooms = 500
    attack(g, add_card(g, boulders=(everywhere[23],)))
    assert sum(t.boulders) == 24  # the 48th boulder on the table still falls
    assert t.mushrooms == 500
    assert not hasattr(default_pack().components, "boulders")


def test_g1_the_two_upgrade_lines() -> None:
    """A market group may become a house or a workshop (the seed's example takes a workshop);
    from tier 2 each building follows its line, both lines end at the monument, which never
    upgrades; an empty supply gives the tile two tiers up."""
    from games.gnomeville.buildings import Tile, upgrade_choices

    assert "market > house > tavern" in ruling("G1")
    assert upgrade_choices(Tile.MARKET) == (
        (Tile.HOUSE, Tile.TAVERN),
        (Tile.WORKSHOP, Tile.ARMORY),
    )
    assert upgrade_choices(Tile.HOUSE) == ((Tile.TAVERN, Tile.ACADEMY),)
    assert upgrade_choices(Tile.TAVERN) == ((Tile.ACADEMY, Tile.MONUMENT),)
    assert upgrade_choices(Tile.WORKSHOP) == ((Tile.ARMORY, Tile.BALLISTA),)
    assert upgrade_choices(Tile.ARMORY) == ((Tile.BALLISTA, Tile.MONUMENT),)
    assert upgrade_choices(Tile.ACADEMY) == ((Tile.MONUMENT, None),)
    assert upgrade_choices(Tile.BALLISTA) == ((Tile.MONUMENT, None),)
    assert upgrade_choices(Tile.MONUMENT) == ()


def test_g13_towerville_marks_limit_building_tiles_only() -> None:
    """A gnome walks onto a 4+ space (and gains its mushroom), a boulder falls on it: the mark
    limits only which building tiles may be placed there."""
    from tests.gnomeville.helpers import bag, choose, clear, keys, new_state, put_gnome, start_move

    assert "building tiles only" in ruling("G13")
    g = new_state(1, towns="5")
    t = clear(town(g))
    high = next(space for space, need in t.layout.heights.items() if need >= 4)
    assert high == sp("e5")
    put_gnome(t, 0, "e4")
    bag(t, market=1)  # the build phase goes on after the move (a draw is asked next)
    mushrooms = t.mushrooms
    start_move(g, 1)
    assert "move:0:S" in keys(g)
    choose(g, "move:0:S")
    assert t.gnome_at[0] == high and t.mushrooms == mushrooms + 1
    g2 = table()
    t2 = town(g2)
    attack(g2, add_card(g2, boulders=("e5",)), seat=0)
    assert t2.boulders[sp("e5")]
