"""At 80 columns the result tables show every bot's name whole.

A new user's ladder at 80 columns read "most-sold…" and "ismcts:sec…". The tables are now
fitted (``tournament.terminal_table``): names and intervals are never wrapped or cut, the
least important columns are left out when the table is too wide (and the caption says which),
and no line is wider than the terminal unless a single name is. Checked on the fitting itself
and through the real CLI in a subprocess with ``COLUMNS=80``: ``kassen tournament run`` (a
ladder, and a solo table with its paired comparisons), ``kassen ladder show`` and ``kassen
demo``'s introduction of its bots.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from kassen.commands.demo import introduction
from tests.conftest import Depth
from tournament.reports import LADDER_COLUMNS
from tournament.terminal_table import Column, draw, fit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "bot.py"
LONG = "ismcts:seconds=1,c=0.5,verify=100"


def rendered(fitted: tuple[Table, int, list[str]], columns: int = 80) -> str:
    table, width, _ = fitted
    out = io.StringIO()
    draw(Console(width=columns, file=out), table, width)
    return out.getvalue()


def ladder_row(name: str) -> tuple[str, ...]:
    return ("1", name, "1723", "1692 .. 1754", "400", "86.8%", "0", "> 99.99%")


def test_long_names_stay_whole_at_80_columns_and_columns_go_instead() -> None:
    rows = [ladder_row(LONG), ladder_row("most-soldiers"), ladder_row("greedy")]
    fitted = fit("a ladder", "its caption", LADDER_COLUMNS, rows, 80)
    text = rendered(fitted)
    assert LONG in text and "most-soldiers" in text
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert fitted[2] and fitted[2][0] == "failures"  # the first to go
    assert "not shown at 80 columns: failures" in " ".join(text.split())
    assert "Elo" in text and "95% interval" in text  # the last to go


def test_a_table_that_fits_keeps_every_column() -> None:
    fitted = fit("a ladder", "its caption", LADDER_COLUMNS, [ladder_row("most-soldiers")], 80)
    assert fitted[2] == []
    assert "failures" in rendered(fitted)
    assert "not shown" not in rendered(fitted)


def test_narrower_still_drops_in_order_and_never_the_name_or_the_elo() -> None:
    fitted = fit("t", "c", LADDER_COLUMNS, [ladder_row(LONG)], 50)
    assert fitted[2] == ["failures", "pair games", "LOS", "score", "95% interval"][: len(fitted[2])]
    text = rendered(fitted, 50)
    assert LONG in text and "1723" in text and "…" not in text


def test_a_name_wider_than_the_terminal_is_printed_whole() -> None:
    name = "a-bot-whose-name-alone-is-wider-than-the-terminal-it-is-shown-on"
    fitted = fit("t", "c", LADDER_COLUMNS, [ladder_row(name)], 40)
    assert fitted[1] > 40  # drawn wider: the terminal wraps the line, nothing is cut
    assert name in rendered(fitted, 40)


def test_a_group_of_columns_is_named_once() -> None:
    columns = (
        Column("bot", "left"),
        Column("mean"),
        *(Column(f"{n}+", drop=1) for n in (80, 70, 60, 50, 40)),
    )
    rows = [(LONG, "58.2", "0", "2", "0", "1", "0")]
    assert fit("t", "c", columns, rows, 50)[2] == ["80+ .. 40+"]


def test_the_demo_says_what_most_soldiers_is() -> None:
    text = introduction(["greedy", "random", "most-soldiers"])
    assert "most-soldiers  the example bot examples/python/bot.py" in text
    assert "places as" in text and "soldiers as the dice allow" in text
    assert max(len(line) for line in text.splitlines()) <= 80


# -- through the real CLI ------------------------------------------------------------------------


def kassen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    env.pop("LINES", None)
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env=env,
        check=False,
    )


def assert_whole(output: str, names: list[str]) -> None:
    for name in names:
        assert name in output, f"{name!r} not shown whole:\n{output}"
    assert "…" not in output, output
    assert max(len(line) for line in output.splitlines()) <= 80, output


def test_tournament_and_ladder_show_print_whole_names_at_80_columns(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite'}"
    names = ["most-soldiers", "random-with-a-long-name", "greedy-but-called-longer"]
    done = kassen(
        "tournament", "run", "--game", "rumble-nation", "--games", "2", "--seed", "5",
        "--quiet", "--db", db,
        "--bot", f"most-soldiers={EXAMPLE}:MostSoldiersBot",
        "--bot", f"{names[1]}=random", "--bot", f"{names[2]}=greedy",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_whole(done.stdout, names)
    shown = kassen("ladder", "show", "--db", db, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert_whole(shown.stdout, names)


def test_a_solo_table_prints_whole_names_at_80_columns(tmp_path: Path) -> None:
    names = ["random-with-a-long-name", "another-random-bot-name"]
    done = kassen(
        "tournament", "run", "--game", "gnomeville", "--players", "1", "--games", "2",
        "--seed", "5", "--quiet", "--db", f"sqlite:///{tmp_path / 's.sqlite'}",
        "--bot", f"{names[0]}=random", "--bot", f"{names[1]}=random",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_whole(done.stdout, names)
    assert "Paired by seed" in done.stdout  # the second table, its verdict naming a bot


def test_the_demo_introduces_its_bots_and_shows_them_whole(tmp_path: Path, depth: Depth) -> None:
    """The whole demo (600 matches, about 10 s on two cores): at the slow depth only."""
    if not depth.slow:
        pytest.skip("the whole demo runs with --slow; its parts are tested above")
    done = kassen("demo", "--quiet", "--db", f"sqlite:///{tmp_path / 'd.sqlite'}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(introduction(["greedy", "random", "most-soldiers"]))
    assert_whole(done.stdout, ["greedy", "random", "most-soldiers"])
