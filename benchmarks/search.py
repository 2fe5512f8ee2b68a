"""What the ``ismcts`` search bot costs a decision, per game (docs/bots.md, "ISMCTS").

    python benchmarks/search.py [--positions 8] [--games rumble-nation root gnomeville]

Positions are taken from greedy self-play (every seat greedy, fixed seeds): seat 0's decisions
with a choice, spread over the game. At each one a fresh search with the game's defaults
(fixed iterations, so the same work on any machine) decides, without a clock; the table gives
the CPU time a decision takes (mean, median, the longest), the determinizations (iterations)
and paired rollouts (``verify``) it made, the tree's nodes, what one rebuild from the view
(``from_view``) costs, and the peak memory of one decision (``tracemalloc``, on the middle
position). One search given one second (``seconds=1``) says how far the time-bounded bot gets.

The target: with the defaults a decision fits what the tournament's default clock (1,000 ms a
decision) leaves the search, 580 ms with greedy rollouts (Root, Gnomeville) and 780 ms with
random ones (Rumble Nation), so default tournaments stay reproducible from their seed.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.yardstick import Figure, one_core
from games import GameConfig, get_game
from games.contract import Decision
from games.policies.base import DecisionContext
from games.policies.ismcts import IsmctsPolicy
from games.policies.ismcts_games import rebuild_for
from games.policies.ismcts_params import IsmctsParams
from games.policies.registry import make_policy

BENCHMARK = "search (ismcts)"
#: The share of a 1,000 ms clock the search may use (games/policies/ismcts.py).
TARGET_MS = {"rumble-nation": 780.0, "root": 580.0, "gnomeville": 580.0}
SETUPS: dict[str, tuple[str, int]] = {
    "rumble-nation": ("base", 2),
    "root": ("autumn", 2),
    "gnomeville": ("standard", 2),
}


@dataclass
class Position:
    view: Any
    decision: Decision


@dataclass
class Row:
    game: str
    ms: list[float]
    iterations: list[int]
    verified: list[int]
    nodes: list[int]
    rebuild_us: float
    peak_mb: float
    one_second: tuple[int, int]


def positions(game: str, count: int, seed: int = 1) -> list[Position]:
    """Seat 0's decisions with a choice in a greedy self-play game, ``count`` spread evenly."""
    variant, players = SETUPS[game]
    state = get_game(game).new(GameConfig(players, variant), seed)
    bots = [make_policy("greedy", game, seed + s) for s in range(players)]
    found: list[Position] = []
    while not state.is_over:
        decision = state.pending()[0]
        seat = decision.seat
        ctx = DecisionContext(game, seat, decision, functools.partial(state.observe, seat))
        if seat == 0 and len(decision.options) > 1:
            found.append(Position(state.observe(0), decision))
        state.apply(seat, bots[seat].choose(ctx))
    step = max(1, len(found) // count)
    return found[::step][:count]


def decide(
    game: str, position: Position, seed: int, params: IsmctsParams | None = None
) -> dict[str, Any]:
    policy = IsmctsPolicy(game, seed, params)
    ctx = DecisionContext(game, 0, position.decision, lambda: position.view)
    started = time.process_time()
    policy.choose(ctx)
    return {**policy.last, "cpu_ms": (time.process_time() - started) * 1000}


def measure(game: str, count: int, timed_seconds: float = 1.0) -> Row:
    chosen = positions(game, count)
    runs = [decide(game, p, 100 + i) for i, p in enumerate(chosen)]
    rebuild = rebuild_for(game)
    middle = chosen[len(chosen) // 2]
    started = time.process_time()
    for seed in range(50):
        rebuild(middle.view, seed)
    rebuild_us = (time.process_time() - started) / 50 * 1e6
    gc.collect()
    tracemalloc.start()
    decide(game, middle, 7)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    timed = decide(
        game, middle, 8, IsmctsParams(seconds=timed_seconds, iterations=1_000_000, verify=100_000)
    )
    return Row(
        game,
        [r["cpu_ms"] for r in runs],
        [r.get("iterations", 0) for r in runs],
        [r.get("verified", 0) for r in runs],
        [r.get("nodes", 0) for r in runs],
        rebuild_us,
        peak,
        (timed.get("iterations", 0), timed.get("verified", 0)),
    )


def run(
    count: int, games: tuple[str, ...] = tuple(SETUPS), timed_seconds: float = 1.0
) -> list[Figure]:
    print(
        f"{'game (2 players)':<16}{'ms mean':>9}{'median':>8}{'max':>8}{'iterations':>12}"
        f"{'verified':>10}{'nodes':>7}{'rebuild µs':>12}{'peak MB':>9}{'in ' + format(timed_seconds, 'g') + ' s':>14}"
    )
    figures: list[Figure] = []
    with one_core():
        for game in games:
            row = measure(game, count, timed_seconds)
            mean = statistics.fmean(row.ms)
            print(
                f"{game:<16}{mean:>9.0f}{statistics.median(row.ms):>8.0f}{max(row.ms):>8.0f}"
                f"{statistics.fmean(row.iterations):>12.0f}{statistics.fmean(row.verified):>10.0f}"
                f"{statistics.fmean(row.nodes):>7.0f}{row.rebuild_us:>12.0f}{row.peak_mb:>9.1f}"
                f"{row.one_second[0]:>8} + {row.one_second[1]:<4}"
            )
            figures.append(
                Figure(
                    BENCHMARK,
                    f"{game}, defaults, a decision",
                    mean,
                    "ms",
                    kind="time",
                    target=TARGET_MS[game],
                    seconds=1e-3,
                )
            )
    for figure in figures:
        verdict = "meets" if figure.meets(figure.value, figure.target or 0) else "misses"
        print(f"{figure.name}: {figure.value:.0f} ms {verdict} the target of {figure.target:.0f}")
    print(
        f"in {timed_seconds:g} s: iterations + paired rollouts of one search given "
        f"seconds={timed_seconds:g} (the middle position)"
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=8, help="decisions per game")
    parser.add_argument("--games", nargs="+", default=list(SETUPS), choices=list(SETUPS))
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    print(
        f"# {time.strftime('%Y-%m-%d')} Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, pinned to one; {args.positions} positions a game (CPU time)"
    )
    with yardstick.around() as reading:
        figures = run(args.positions, tuple(args.games))
    yardstick.report(figures, reading)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
