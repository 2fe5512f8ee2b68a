"""Every benchmark in one run, each between two yardstick readings, and one table of key figures.

    python benchmarks/all.py [--full] [--only engine root_engine ...] [--markdown]

Runs, in order: engine (Rumble Nation), root_engine, gnomeville_engine, referee, tournament (a), ratings (the
tournament benchmark's (b)), load (concurrent matches against one ``kassen serve``, 100 in
the short profile, 500 in full) and search (what an ``ismcts`` decision costs in each game). The yardstick is measured at the start and after each benchmark,
so each benchmark sits between two readings (the reading after one is the reading before the
next) and is compared with the better of the two, as each script does on its own.

By default the windows are short (about 2 minutes on 2 cores); ``--full`` uses each script's
own defaults (about 4.5 minutes, more on a loaded host: the engines' windows count CPU time).
Short windows give noisier figures (the engine benchmarks keep the best of fewer windows); the
tournament plays its full 10,000 matches either way. The load average after each benchmark is
printed: the wall-clock benchmarks (referee, tournament) suffer from other work on the host,
which the yardstick (one core, CPU time) does not see. The exit status is 0 whenever every
benchmark ran, met or not (this is a report); 1 if one raised.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# ratings first: it sets the BLAS thread count before anything loads numpy.
from benchmarks import ratings  # noqa: I001
from benchmarks import engine, gnomeville_engine, referee, root_engine, search, tournament
from benchmarks import yardstick
from benchmarks import load as concurrent_load
from benchmarks.yardstick import Figure, Reading, met, number


@dataclass(frozen=True, slots=True)
class Profile:
    """How long each benchmark measures: keyword arguments for its ``run``."""

    yardstick_seconds: float
    yardstick_repeats: int
    engine: dict[str, Any] = field(default_factory=dict)
    root_engine: dict[str, Any] = field(default_factory=dict)
    gnomeville_engine: dict[str, Any] = field(default_factory=dict)
    referee: dict[str, Any] = field(default_factory=dict)
    tournament: dict[str, Any] = field(default_factory=dict)
    ratings: dict[str, Any] = field(default_factory=dict)
    load: dict[str, Any] = field(default_factory=dict)
    search: dict[str, Any] = field(default_factory=dict)


#: The scripts' own defaults.
FULL = Profile(
    yardstick_seconds=1.5,
    yardstick_repeats=10,
    engine={"seconds": 3.0, "repeats": 5},
    root_engine={"seconds": 3.0, "repeats": 5},
    gnomeville_engine={"seconds": 3.0, "repeats": 5},
    referee={"seconds": 5.0, "warmup": 1.0, "streams": 16},
    tournament={"matches": 10_000, "concurrency": 2},
    ratings={"repeats": 3},
    load={"matches": 500, "workers": 3},
    search={"count": 8},
)
#: About two minutes in all on 2 cores (118 s on 2026-11-30 with Gnomeville).
SHORT = Profile(
    yardstick_seconds=1.5,
    yardstick_repeats=10,
    engine={"seconds": 1.0, "repeats": 3},
    root_engine={"seconds": 2.0, "repeats": 3},
    gnomeville_engine={"seconds": 2.0, "repeats": 3},
    referee={"seconds": 3.0, "warmup": 1.0, "streams": 16},
    tournament={"matches": 10_000, "concurrency": 2},
    ratings={"repeats": 2, "rankings_too": False},
    load={"matches": 100, "workers": 2},
    search={"count": 3},
)

NAMES = (
    "engine",
    "root_engine",
    "gnomeville_engine",
    "referee",
    "tournament",
    "ratings",
    "load",
    "search",
)


def steps(profile: Profile) -> dict[str, Callable[[], list[Figure]]]:
    return {
        "engine": lambda: engine.run(**profile.engine),
        "root_engine": lambda: root_engine.run(**profile.root_engine),
        "gnomeville_engine": lambda: gnomeville_engine.run(**profile.gnomeville_engine),
        "referee": lambda: referee.run(**profile.referee),
        "tournament": lambda: tournament.run(**profile.tournament, fit=False),
        "ratings": lambda: ratings.run(**profile.ratings),
        "load": lambda: concurrent_load.run(**profile.load),
        "search": lambda: search.run(**profile.search),
    }


@dataclass(slots=True)
class Result:
    name: str
    reading: Reading
    figures: list[Figure]
    seconds: float
    load: float
    error: str | None = None


def run_all(profile: Profile, only: tuple[str, ...] = NAMES) -> list[Result]:
    """Run the chosen benchmarks in order, the yardstick between each two."""
    todo = steps(profile)

    def measure() -> float:
        with yardstick.one_core():
            return yardstick.measure(profile.yardstick_seconds, profile.yardstick_repeats)

    results: list[Result] = []
    before = measure()
    print(f"# yardstick at the start: {before:,.0f} playouts/s", flush=True)
    for name in only:
        print(f"\n## {name}", flush=True)
        started = time.perf_counter()
        error = None
        figures: list[Figure] = []
        try:
            figures = todo[name]()
        except Exception:
            error = traceback.format_exc()
            print(error, file=sys.stderr, flush=True)
        elapsed = time.perf_counter() - started
        reading = Reading(before, measure())
        print(f"# {reading.describe()}", flush=True)
        load_1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        results.append(Result(name, reading, figures, elapsed, load_1, error))
        before = reading.after
    return results


def rows(results: list[Result]) -> list[list[str]]:
    """The table: a header, then one row per key figure (or per failed benchmark)."""
    table = [
        [
            "benchmark",
            "figure",
            "value",
            "unit",
            "x yardstick",
            "target",
            "target x yardstick",
            "met (abs / ratio)",
        ]
    ]
    for result in results:
        if result.error is not None:
            error = result.error.strip().splitlines()[-1]
            table.append([result.name, f"ERROR: {error}", "", "", "", "", "", ""])
            continue
        y = result.reading.value
        for figure in result.figures:
            ratio = figure.ratio(y)
            target_ratio = figure.target_ratio()
            sign = "<= " if figure.kind == "time" else ">= "
            absolute, relative = figure.verdicts(y)
            table.append(
                [
                    figure.benchmark,
                    figure.name,
                    number(figure.value),
                    figure.unit,
                    "-" if ratio is None else number(ratio),
                    "-" if figure.target is None else sign + number(figure.target),
                    "-" if target_ratio is None else sign + number(target_ratio),
                    "-"
                    if figure.target is None
                    else met(absolute)
                    if figure.kind == "ratio"
                    else f"{met(absolute)} / {met(relative)}",
                ]
            )
    return table


def format_table(table: list[list[str]], markdown: bool = False) -> str:
    numeric = {2, 4, 5, 6}
    if markdown:
        lines = ["| " + " | ".join(table[0]) + " |"]
        lines.append(
            "|" + "|".join("---:" if i in numeric else "---" for i in range(len(table[0]))) + "|"
        )
        lines += ["| " + " | ".join(row) + " |" for row in table[1:]]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(
            cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in table
    )


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> str:
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--full", action="store_true", help="each script's full default lengths")
    parser.add_argument("--only", nargs="+", choices=NAMES, help="run only these benchmarks")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = parser.parse_args(argv)
    profile = FULL if args.full else SHORT
    only = tuple(n for n in NAMES if args.only is None or n in args.only)
    started = time.perf_counter()
    header = (
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores ({cpu_model()}), "
        f"Python {platform.python_version()}, {'full' if args.full else 'short'} windows; "
        f"load average (1, 5, 15 min) at the start: {load()}"
    )
    print(f"# {header}", flush=True)
    results = run_all(profile, only)
    elapsed = time.perf_counter() - started
    print(f"\n# {header}")
    print(
        "# yardstick (playouts/s) before / after each, its time, the 1-min load at its end: "
        + "; ".join(
            f"{r.name} {r.reading.before:,.0f} / {r.reading.after:,.0f}, "
            f"{r.seconds:.0f} s, load {r.load:.1f}"
            for r in results
        )
    )
    print(
        f"# ratio targets = absolute targets at a yardstick of "
        f"{yardstick.REFERENCE_PLAYOUTS_S:,.0f} playouts/s (docs/performance.md)"
    )
    print(format_table(rows(results), args.markdown))
    print(f"# load average at the end: {load()}; all.py took {elapsed:.0f} s")
    return 1 if any(r.error is not None for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
