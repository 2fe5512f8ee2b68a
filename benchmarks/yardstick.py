"""The yardstick: a small, fixed pure-Python workload that says how fast this host runs Python now.

    python benchmarks/yardstick.py [--seconds 1.5] [--repeats 10] [--runs 1]

Random connect-four playouts (7 columns x 6 rows) with fixed seeds, one core. A playout is what
our engines' benchmarks do in miniature: ask a state for its options, pick one uniformly with
``random()``, apply it (list indexing, an attribute-heavy object, a dict of counters, a short
event record), stop at a win or a full board. The same ``BATCH`` playouts (seeds 0..BATCH-1)
are played again and again; their total number of moves is fixed (``BATCH_MOVES``, checked), so
the work is identical on every machine and every run.

Reported: playouts per second of CPU time, the best of ``--repeats`` windows of
``--seconds / --repeats`` each (a shared host only ever slows a window down, so the best window
is the least disturbed one, the same policy as the engine benchmarks). Every benchmark in this
folder measures it in the same run and divides its own figure by it; see docs/performance.md.

Changing the workload changes every ratio ever recorded: don't, or bump ``VERSION`` and
re-derive the ratio targets.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

VERSION = 1
COLUMNS = 7
ROWS = 6
BATCH = 100
#: Total moves of the BATCH playouts with seeds 0..BATCH-1: the workload is unchanged if it holds.
BATCH_MOVES = 2160
#: The yardstick on the reference machine the day the ratio targets were derived
#: (2026-11-30, 2 vCPUs "Intel(R) Xeon(R) Processor", CPython 3.11.7; docs/performance.md).
REFERENCE_PLAYOUTS_S = 20_000.0

#: The four directions a line of four can run in, as (column step, row step).
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(slots=True)
class Move:
    seat: int
    column: int
    row: int


class Board:
    """A connect-four position: a flat list of cells (0 empty, 1 or 2 a seat's disc)."""

    __slots__ = ("cells", "counts", "heights", "history", "to_move", "winner")

    def __init__(self) -> None:
        self.cells = [0] * (COLUMNS * ROWS)
        self.heights = [0] * COLUMNS
        self.to_move = 1
        self.winner = 0
        self.history: list[Move] = []
        self.counts: dict[str, int] = {"moves": 0, "centre": 0, "edge": 0}

    def options(self) -> list[int]:
        if self.winner:
            return []
        return [c for c in range(COLUMNS) if self.heights[c] < ROWS]

    def apply(self, column: int) -> None:
        row = self.heights[column]
        seat = self.to_move
        self.cells[row * COLUMNS + column] = seat
        self.heights[column] = row + 1
        self.history.append(Move(seat, column, row))
        counts = self.counts
        counts["moves"] += 1
        if column == COLUMNS // 2:
            counts["centre"] += 1
        elif column in (0, COLUMNS - 1):
            counts["edge"] += 1
        if self.wins(column, row, seat):
            self.winner = seat
        self.to_move = 3 - seat

    def wins(self, column: int, row: int, seat: int) -> bool:
        cells = self.cells
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < COLUMNS and 0 <= r < ROWS and cells[r * COLUMNS + c] == seat:
                    run += 1
                    c += sign * dc
                    r += sign * dr
            if run >= 4:
                return True
        return False


def playout(seed: int) -> int:
    """One random game from the empty board; the number of moves played."""
    rng = random.Random(seed)
    board = Board()
    options = board.options()
    while options:
        board.apply(options[int(rng.random() * len(options))])
        options = board.options()
    return len(board.history)


def batch() -> int:
    """The fixed unit of work: BATCH playouts, seeds 0..BATCH-1; their total moves."""
    return sum(playout(seed) for seed in range(BATCH))


def measure(
    seconds: float = 1.5, repeats: int = 10, clock: Callable[[], float] = time.process_time
) -> float:
    """Playouts per second: the best of ``repeats`` windows of ``seconds / repeats`` each
    (each window plays the fixed batch at least once)."""
    window = seconds / max(1, repeats)
    best = 0.0
    # The caller's heap (a benchmark's objects) must not tax the yardstick's collections.
    gc.collect()
    gc.freeze()
    try:
        for _ in range(max(1, repeats)):
            best = max(best, _window(window, clock))
    finally:
        gc.unfreeze()
    return best


def _window(window: float, clock: Callable[[], float]) -> float:
    played = 0
    start = clock()
    while True:
        moves = batch()
        if moves != BATCH_MOVES:
            raise RuntimeError(
                f"the yardstick's workload changed ({moves} moves, expected {BATCH_MOVES})"
            )
        played += BATCH
        elapsed = clock() - start
        if elapsed >= window:
            return played / elapsed


@dataclass(slots=True)
class Reading:
    """The yardstick measured before and after a benchmark's own measurement."""

    before: float
    after: float = 0.0

    @property
    def value(self) -> float:
        """The better of the two: the benchmarks report their best window, and so does this."""
        return max(self.before, self.after)

    @property
    def drift(self) -> float:
        """How much the host's speed moved during the run (0.1 = the two differ by 10%)."""
        low, high = sorted((self.before, self.after))
        return high / low - 1.0 if low > 0 else 0.0

    def describe(self) -> str:
        text = (
            f"yardstick {self.value:,.0f} playouts/s (before {self.before:,.0f}, "
            f"after {self.after:,.0f}, the better is used)"
        )
        if self.drift > 0.15:
            text += f"; the host's speed moved {self.drift:.0%} during the run: ratios are rough"
        return text


@contextlib.contextmanager
def around(seconds: float = 1.5, repeats: int = 10) -> Iterator[Reading]:
    """Measure the yardstick before and after the block: ``with around() as reading: ...``;
    ``reading.value`` is set when the block has ended."""
    with one_core():
        reading = Reading(measure(seconds, repeats))
    print(f"# yardstick before: {reading.before:,.0f} playouts/s", flush=True)
    yield reading
    with one_core():
        reading.after = measure(seconds, repeats)


@contextlib.contextmanager
def one_core() -> Iterator[None]:
    """Pin this process to its first allowed core for the block, then restore the affinity."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


Kind = Literal["rate", "time", "ratio"]


@dataclass(slots=True)
class Figure:
    """One key figure of a benchmark, with its target, as the table of benchmarks/all.py shows it.

    ``kind`` says how it compares with the yardstick Y (playouts/s):

    - "rate" (higher is better, per second): ratio = figure / Y, "games per yardstick playout";
    - "time" (lower is better; ``seconds`` = seconds per unit, 1e-6 for µs): ratio = time x Y,
      "how many yardstick playouts fit in that time";
    - "ratio" (already a ratio of two measurements of the same run, such as the referee's
      share of raw gRPC): host-independent as it is, no yardstick ratio.

    The ratio target is the absolute target converted with ``REFERENCE_PLAYOUTS_S``, the
    yardstick on the machine and day the targets were restated (docs/performance.md).
    """

    benchmark: str
    name: str
    value: float
    unit: str
    kind: Kind = "rate"
    target: float | None = None
    seconds: float = 1.0

    def ratio(self, yardstick: float) -> float | None:
        if self.kind == "rate":
            return self.value / yardstick
        if self.kind == "time":
            return self.value * self.seconds * yardstick
        return None

    def target_ratio(self) -> float | None:
        if self.target is None or self.kind == "ratio":
            return None
        if self.kind == "rate":
            return self.target / REFERENCE_PLAYOUTS_S
        return self.target * self.seconds * REFERENCE_PLAYOUTS_S

    def meets(self, value: float, target: float) -> bool:
        return value <= target if self.kind == "time" else value >= target

    def verdicts(self, yardstick: float) -> tuple[bool | None, bool | None]:
        """(absolute target met, ratio target met); None where there is no such target."""
        if self.target is None:
            return None, None
        absolute = self.meets(self.value, self.target)
        ratio, target_ratio = self.ratio(yardstick), self.target_ratio()
        if ratio is None or target_ratio is None:  # a "ratio" figure: the same test
            return absolute, absolute
        return absolute, self.meets(ratio, target_ratio)

    def line(self, yardstick: float) -> str:
        """'4p base engine loop: 2,107 games/s = 0.117 x yardstick; target >= 2,000 games/s
        = >= 0.111 x yardstick: met (absolute), met (ratio)'."""
        text = f"{self.name}: {number(self.value)} {self.unit}"
        ratio = self.ratio(yardstick)
        if ratio is not None:
            text += f" = {number(ratio)} x yardstick"
        if self.target is None:
            return text
        sign = "<=" if self.kind == "time" else ">="
        text += f"; target {sign} {number(self.target)} {self.unit}"
        target_ratio = self.target_ratio()
        if target_ratio is not None:
            text += f" = {sign} {number(target_ratio)} x yardstick"
        absolute, relative = self.verdicts(yardstick)
        if self.kind == "ratio":
            return text + f": {met(absolute)}"
        return text + f": {met(absolute)} (absolute), {met(relative)} (ratio)"


def number(value: float) -> str:
    """Thousands separated; three significant figures below 100."""
    if value != value or value in (math.inf, -math.inf):
        return str(value)
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def met(verdict: bool | None) -> str:
    return "-" if verdict is None else "met" if verdict else "NOT met"


def report(figures: list[Figure], reading: Reading) -> None:
    """What every benchmark prints at its end: each key figure against the yardstick."""
    print(f"# {reading.describe()}")
    for figure in figures:
        print(figure.line(reading.value))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="measured time per run")
    parser.add_argument("--repeats", type=int, default=10, help="windows per run (best is kept)")
    parser.add_argument("--runs", type=int, default=1, help="independent runs, for the spread")
    args = parser.parse_args(argv)
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; yardstick v{VERSION}: "
        f"best of {args.repeats} windows in {args.seconds:g} s of CPU time, pinned to one core"
    )
    results = []
    with one_core():
        for _ in range(args.runs):
            results.append(measure(args.seconds, args.repeats))
            print(f"{results[-1]:,.0f} playouts/s", flush=True)
    if len(results) > 1:
        mean = statistics.fmean(results)
        print(
            f"runs {len(results)}: mean {mean:,.0f}, min {min(results):,.0f}, "
            f"max {max(results):,.0f} (spread {(max(results) - min(results)) / mean:.1%} of the "
            f"mean, stdev {statistics.stdev(results) / mean:.1%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
