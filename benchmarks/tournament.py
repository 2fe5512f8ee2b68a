"""Tournament throughput and rating-fit speed.

    python benchmarks/tournament.py [--matches 10000] [--concurrency 2] [--skip-fit]
                                    [--ray auto|local|ADDRESS]

(a) a round-robin of built-in bots (random and greedy, 2 players, Rumble Nation base) of about
``--matches`` matches through the real runner and storage (a temporary SQLite file, no replay
files): wall time and matches/s. Target: 10,000 matches in at most 60 s on 2 cores.
With ``--ray``, the same round-robin runs a second time as Ray tasks on that cluster (joined
before the clock starts; the join time is printed apart), and the ratio of the two rates is
printed. Target: Ray / local pool >= 0.8 (tournament/ray_pool.py batches to amortise Ray's
per-task cost).
(b) the joint Elo fit for 1,000 bots and 1,000,000 pairwise games (see benchmarks/ratings.py).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.yardstick import Figure
from tournament import storage
from tournament.config import BotEntry, TournamentConfig, validate
from tournament.runner import TournamentRunner, schedule_rows
from tournament.schedule import round_robin

BENCHMARK = "tournament"
TARGET_MATCHES = 10_000
TARGET_S = 60.0


def run_round_robin(
    matches: int, concurrency: int, ray_address: str | None = None
) -> tuple[int, float]:
    bots = (
        BotEntry("random", "builtin", "random"),
        BotEntry("greedy", "builtin", "greedy"),
        BotEntry("random-2", "builtin", "random"),
        BotEntry("random-3", "builtin", "random"),
    )
    pairs = math.comb(len(bots), 2)
    games = max(2, math.ceil(matches / pairs))
    with tempfile.TemporaryDirectory() as folder:
        config = TournamentConfig(
            name="bench",
            bots=bots,
            players=2,
            games_per_group=games,
            seed=1,
            concurrency=concurrency,
            database=f"sqlite:///{folder}/bench.sqlite",
            output=folder,
            replays=False,
        )
        validate(config)
        engine = storage.connect(config.database)
        scheduled = round_robin([b.name for b in bots], 2, games, 1)
        storage.create_tournament(
            engine,
            "bench",
            name="bench",
            game=config.game,
            variant=config.variant,
            players=2,
            format="round-robin",
            base_seed=1,
            config=config.to_dict(),
            bot_rows=[(b.name, b.spec, b.version_hash()) for b in bots],
            scheduled=schedule_rows(scheduled),
        )
        started = time.perf_counter()
        TournamentRunner(engine, "bench", config, ray_address=ray_address).run()
        elapsed = time.perf_counter() - started
        done = sum(1 for m in storage.load_matches(engine, "bench") if m.status == "done")
    return done, elapsed


def run(
    matches: int = 10_000,
    concurrency: int = 2,
    fit: bool = True,
    fit_options: dict[str, Any] | None = None,
) -> list[Figure]:
    """What ``main`` prints after its header; the key figures: (a) in matches/s, (b)."""
    done, elapsed = run_round_robin(matches, concurrency)
    verdict = "meets" if elapsed <= TARGET_S or done < 10_000 else "misses"
    print(
        f"(a) round-robin of built-in bots: {done} matches in {elapsed:.1f} s = {done / elapsed:.0f} matches/s "
        f"with {concurrency} worker processes ({verdict} the target of 10,000 in {TARGET_S:.0f} s"
        f"{'' if done >= 10_000 else ', scaled: ' + f'{10_000 / (done / elapsed):.0f} s for 10,000'})"
    )
    figures = [
        Figure(
            BENCHMARK,
            f"(a) round-robin, {done:,} matches, {concurrency} workers",
            done / elapsed,
            "matches/s",
            target=TARGET_MATCHES / TARGET_S,
        )
    ]
    if fit:
        from benchmarks import ratings

        figures += ratings.run(**(fit_options or {}))
    return figures


def run_ray_ratio(matches: int, concurrency: int, address: str) -> float:
    """The round-robin on the local pool and then on Ray, in one run; returns Ray / pool."""
    from tournament import ray_pool

    began = time.perf_counter()
    ray = ray_pool.connect(address)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(
        f"(c) joined the Ray cluster {address!r} ({cpus} CPUs) in {time.perf_counter() - began:.1f} s"
    )
    done_pool, pool_s = run_round_robin(matches, concurrency)
    done_ray, ray_s = run_round_robin(matches, concurrency, ray_address=address)
    ratio = (done_ray / ray_s) / (done_pool / pool_s)
    verdict = "meets" if ratio >= 0.8 else "misses"
    print(
        f"(c) the same round-robin: local pool {done_pool} matches in {pool_s:.1f} s "
        f"({done_pool / pool_s:.0f}/s), Ray {done_ray} in {ray_s:.1f} s ({done_ray / ray_s:.0f}/s): "
        f"ratio {ratio:.2f} ({verdict} the target 0.8)"
    )
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--skip-fit", action="store_true")
    parser.add_argument("--ray", default=None, help="also run it on this Ray cluster: the ratio")
    args = parser.parse_args(argv)
    if args.ray:
        run_ray_ratio(args.matches, args.concurrency, args.ray)
        return 0
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()}, {os.cpu_count()} cores"
    )
    with yardstick.around() as reading:
        figures = run(args.matches, args.concurrency, fit=not args.skip_fit)
    yardstick.report(figures, reading)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
