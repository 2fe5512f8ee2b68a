"""Result tables for the terminal that never cut a bot's name.

Rich fits a table that is too wide for the terminal by wrapping cells and, when that is not
enough, by cutting them with "…": at 80 columns a ladder showed "most-sold…", which names no
bot. Here every column is as wide as its widest cell (a header may wrap between its words), so
no name, number or interval is wrapped or cut; only a column of prose (``wrap``) wraps, between
words. When the table cannot fit, the least important columns are left out, a group at a time
in the order the caller gives, and the caption says which (``kassen ladder show --format csv``
has them all); before any column, the table's outer border goes. Only when even the essential
columns are wider than the terminal is the table printed wider than it (the terminal then wraps
the lines; no cell is cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

#: Wider than any table: measuring against it gives a table's true minimum width.
UNBOUNDED = 1_000_000


@dataclass(frozen=True, slots=True)
class Column:
    """One column. ``wrap``: prose that may wrap between words (its longest word stays whole);
    any other column is as wide as its widest cell. ``drop``: the columns with the lowest
    number are left out first when the table is too wide; ``None`` keeps the column always."""

    header: str
    justify: Literal["left", "right"] = "right"
    drop: int | None = None
    wrap: bool = False


def _table(
    title: str,
    caption: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    edge: bool,
) -> Table:
    table = Table(title=title, caption=caption, show_edge=edge)
    for index, column in enumerate(columns):
        if column.wrap:
            table.add_column(column.header, justify=column.justify)
            continue
        # A fixed width: rich shrinks only the columns without one, so it never cuts these.
        words = [cell_len(word) for word in column.header.split()]
        width = max([*words, *(cell_len(str(row[index])) for row in rows)])
        table.add_column(column.header, justify=column.justify, width=width)
    for row in rows:
        table.add_row(*row)
    return table


def minimum_width(console: Console, table: Table) -> int:
    """The narrowest the table can be drawn without cutting a cell."""
    return Measurement.get(console, console.options.update_width(UNBOUNDED), table).minimum


def fit(
    title: str,
    caption: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int,
    console: Console | None = None,
) -> tuple[Table, int, list[str]]:
    """The table with as many columns as fit ``width``: (table, width to draw it at, the
    columns left out: a header, or ``first .. last`` for a group). Each row holds one cell per
    column, in order."""
    console = console or Console(width=width)
    kept = list(range(len(columns)))
    dropped: list[str] = []
    steps = sorted({c.drop for c in columns if c.drop is not None})

    def build(note: str, edge: bool = False) -> Table:
        chosen = [columns[i] for i in kept]
        cells = [[row[i] for i in kept] for row in rows]
        return _table(title, caption + note, chosen, cells, edge)

    table = build("", edge=True)
    if minimum_width(console, table) > width:
        table = build("")  # the outer border goes first: two columns of the terminal
    for step in steps:
        if minimum_width(console, table) <= width:
            break
        group = [columns[i].header for i in kept if columns[i].drop == step]
        dropped.append(group[0] if len(group) == 1 else f"{group[0]} .. {group[-1]}")
        kept = [i for i in kept if columns[i].drop != step]
        table = build(
            f"\nnot shown at {width} columns: {', '.join(dropped)} "
            "(`kassen ladder show --format csv` has every column)"
        )
    return table, max(width, minimum_width(console, table)), dropped


def print_fitted(
    title: str, caption: str, columns: Sequence[Column], rows: Sequence[Sequence[str]]
) -> list[str]:
    """Print the table fitted to the terminal (``COLUMNS`` when not a terminal); returns the
    columns left out, as ``fit`` names them."""
    console = Console()
    table, width, dropped = fit(title, caption, columns, rows, console.width, console)
    draw(console, table, width)
    return dropped


def draw(console: Console, table: Table, width: int) -> None:
    """Print ``table`` at ``width``, wider than ``console`` if it must be (rich would cut it
    to the console's width)."""
    if width > console.width:
        console = Console(width=width, file=console.file)
    console.print(table)
