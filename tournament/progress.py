"""A progress bar for tournament runs: matches done, rate and time left (rich, on stderr)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tournament.runner import Progress as RunProgress


@contextlib.contextmanager
def progress_bar(quiet: bool = False) -> Iterator[Callable[[RunProgress], None]]:
    if quiet:
        yield lambda _progress: None
        return
    bar = Progress(
        TextColumn("[bold]matches"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=False,
    )
    task = bar.add_task("matches", total=None, rate="")
    start_done: list[int] = []

    def update(progress: RunProgress) -> None:
        if not start_done:
            start_done.append(progress.done)
        elapsed = bar.tasks[0].elapsed or 0.0
        rate = (progress.done - start_done[0]) / elapsed if elapsed > 0.5 else 0.0
        bar.update(
            task,
            total=progress.total,
            completed=progress.done,
            rate=f"{rate:,.1f}/s" if rate else "",
        )

    with bar:
        yield update
