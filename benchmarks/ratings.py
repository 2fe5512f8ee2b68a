"""Speed of the joint Bradley–Terry fit: 1,000 bots, 1,000,000 pairwise games.

    python benchmarks/ratings.py [--bots 1000] [--games 1000000] [--repeats 3] [--seed 1]

Synthetic, seeded data: true ratings uniform over ±600 Elo, each pairwise game between two
distinct bots drawn uniformly, its result drawn from the logistic model. Timed separately, best
of ``--repeats`` (wall clock, as a user waits for it):

- aggregation, arrays: ``Tally.from_pairwise`` on the 10⁶ games as index arrays;
- aggregation, rankings: ``Tally.from_matches`` on the same number of pairwise games arriving
  as Python lists, 4-player rankings (⌈10⁶/6⌉ matches, the same bots' pairs 6 at a time);
- fit: ``fit_ladder(tally)``: Newton to convergence, Hessian intervals, the full LOS matrix.

Target: aggregation (arrays) + fit ≤ 1 s. The reference C tool Ordo takes about 5.5 s for the
same size on the benchmark machine.

BLAS threads: the dense solves go through numpy's BLAS. Unless ``OPENBLAS_NUM_THREADS`` (or
``OMP_NUM_THREADS``) is already set, this script sets it to 1 before numpy loads. On the
2-core benchmark machine two BLAS threads made the fit up to a quarter faster in quiet moments
but two to three times slower whenever another process held a core (OpenBLAS threads
spin-wait); one thread gives stable numbers. The header shows the setting used ("unset" if
numpy was loaded first and BLAS picked its own).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
if "numpy" not in sys.modules and not any(v in os.environ for v in _BLAS_THREADS):
    os.environ["OPENBLAS_NUM_THREADS"] = "1"

import numpy as np  # noqa: E402  (after the BLAS thread setting)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick  # noqa: E402
from benchmarks.yardstick import Figure  # noqa: E402
from tournament.ratings import Ladder, Tally, fit_ladder  # noqa: E402

BENCHMARK = "ratings (joint Elo fit)"
TARGET_S = 1.0
ORDO_S = 5.5

T = TypeVar("T")


def best_of(repeats: int, run: Callable[[], T]) -> tuple[float, T]:
    best = math.inf
    result: T | None = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    assert result is not None
    return best, result


def synthetic(bots: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    true = rng.uniform(-600.0, 600.0, bots)
    a = rng.integers(0, bots, games)
    b = (a + rng.integers(1, bots, games)) % bots  # uniform over the other bots
    a_wins = rng.random(games) < 1.0 / (1.0 + 10.0 ** ((true[b] - true[a]) / 400.0))
    return true, np.where(a_wins, a, b), np.where(a_wins, b, a)


def rankings(bots: int, games: int, true: np.ndarray, seed: int) -> list[list[str]]:
    """4-player rankings from the Plackett–Luce model (pairwise marginals are logistic)."""
    rng = np.random.default_rng(seed + 1)
    matches = -(-games // 6)
    seats = rng.integers(0, bots, (matches, 4))
    while True:  # redraw the (few) rows that seat a bot twice
        ordered = np.sort(seats, axis=1)
        clash = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not clash.any():
            break
        seats[clash] = rng.integers(0, bots, (int(clash.sum()), 4))
    times = rng.exponential(1.0, seats.shape) / 10.0 ** (true[seats] / 400.0)
    ranked = np.take_along_axis(seats, np.argsort(times, axis=1), axis=1)
    names = [f"bot{i:04d}" for i in range(bots)]
    return [[names[i] for i in row] for row in ranked.tolist()]


def run(
    bots: int = 1000,
    games: int = 1_000_000,
    repeats: int = 3,
    seed: int = 1,
    rankings_too: bool = True,
) -> list[Figure]:
    """What ``main`` prints (header included); the key figure: aggregation (arrays) + fit."""
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} "
        f"numpy {np.__version__} on {platform.machine()}, {os.cpu_count()} cores, "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}; "
        f"{bots} bots x {games:,} pairwise games, best of {repeats}; "
        f"target aggregation + fit <= {TARGET_S:.0f} s (Ordo: ~{ORDO_S} s)"
    )
    true, first, second = synthetic(bots, games, seed)
    names = [f"bot{i:04d}" for i in range(bots)]
    agg_s, tally = best_of(repeats, lambda: Tally.from_pairwise(names, first, second))
    fit_s, ladder = best_of(repeats, lambda: fit_ladder(tally))
    total = agg_s + fit_s
    verdict = "meets" if total <= TARGET_S else "misses"
    print(f"aggregation (arrays)    {agg_s:7.3f} s")
    print(f"fit + Hessian CI + LOS  {fit_s:7.3f} s")
    print(f"total                   {total:7.3f} s  ({verdict} the target of {TARGET_S:.0f} s)")
    report_accuracy(ladder, true)

    if rankings_too:
        matches = rankings(bots, games, true, seed)
        from_s, by_rank = best_of(repeats, lambda: Tally.from_matches(matches))
        print(
            f"aggregation (rankings)  {from_s:7.3f} s  "
            f"({len(matches):,} 4-player rankings as lists = {by_rank.n_games:,} pairwise games)"
        )
    return [
        Figure(
            BENCHMARK,
            f"aggregation + fit, {bots:,} bots x {games:,} games",
            total,
            "s",
            kind="time",
            target=TARGET_S,
        )
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with yardstick.around() as reading:
        figures = run(args.bots, args.games, args.repeats, args.seed)
    yardstick.report(figures, reading)
    return 0


def report_accuracy(ladder: Ladder, true: np.ndarray) -> None:
    index = {name: i for i, name in enumerate(f"bot{i:04d}" for i in range(true.size))}
    order = np.array([index[e.name] for e in ladder.entries])
    elo = np.array([e.elo for e in ladder.entries])
    centred = true[order] - true.mean() + 1500.0
    low = np.array([e.ci_low for e in ladder.entries])
    high = np.array([e.ci_high for e in ladder.entries])
    covered = float(np.mean((low <= centred) & (centred <= high)))
    print(
        f"check: corr(fit, true) {np.corrcoef(elo, centred)[0, 1]:.4f}, "
        f"mean 95% half-width {np.mean(high - low) / 2:.1f} Elo, coverage of true {covered:.3f}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
