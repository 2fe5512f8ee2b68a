"""Random games per second of the Rumble Nation engine, in-process, on one core.

    python benchmarks/engine.py [--seconds 3] [--repeats 5]

Two loops are timed for each configuration: the bare engine contract (``pending`` /
``apply`` with a uniformly random index, what a search bot's playout does) and the same games
through ``play_local`` with the built-in ``random`` policy (what ``kassen play`` does). The
best of ``--repeats`` windows is reported, since a shared machine only ever adds noise.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import yardstick
from benchmarks.yardstick import Figure, one_core
from games import GameConfig
from games.local import play_local
from games.policies import RandomPolicy
from games.rng import below
from games.rumble_nation import GAME

BENCHMARK = "engine (Rumble Nation)"
TARGET_4P_BASE = 2000.0


def bare_loop(config: GameConfig, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        state = GAME.new(config, seed)
        rng = random.Random(seed)
        pending = state.pending()
        while pending:
            decision = pending[0]
            state.apply(decision.seat, below(rng, len(decision.options)))
            decisions += 1
            pending = state.pending()
    return decisions


def policy_loop(config: GameConfig, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        policies = [RandomPolicy(seed * 8 + p) for p in range(config.players)]
        decisions += len(play_local(GAME, config, seed, policies).history)
    return decisions


def measure(
    loop: Callable[[GameConfig, range], int],
    config: GameConfig,
    seconds: float,
    repeats: int,
    batch: int = 200,
) -> tuple[float, float]:
    """Best games/s and decisions/s over ``repeats`` windows of about ``seconds`` each."""
    best_games = best_decisions = 0.0
    next_seed = 0
    for _ in range(repeats):
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            decisions += loop(config, range(next_seed, next_seed + batch))
            next_seed += batch
            games += batch
        elapsed = time.process_time() - start
        best_games = max(best_games, games / elapsed)
        best_decisions = max(best_decisions, decisions / elapsed)
    return best_games, best_decisions


CONFIGS = ((4, "base"), (2, "base"), (3, "base"), (4, "advanced"), (2, "advanced"))


def run(seconds: float, repeats: int, batch: int = 200) -> list[Figure]:
    """The table of ``main`` (pinned to one core for the duration); the key figures."""
    print(f"{'configuration':<16}{'loop':<10}{'games/s':>10}{'decisions/s':>14}")
    rates: dict[str, float] = {}
    with one_core():
        for players, variant in CONFIGS:
            config = GameConfig(players, variant)
            for name, loop in (("engine", bare_loop), ("policy", policy_loop)):
                games, decisions = measure(loop, config, seconds, repeats, batch)
                if (players, variant) == (4, "base"):
                    rates[name] = games
                print(f"{players}p {variant:<13}{name:<10}{games:>10.0f}{decisions:>14.0f}")
    bare_4p = rates["engine"]
    verdict = "meets" if bare_4p >= TARGET_4P_BASE else "is below"
    print(
        f"4-player base, engine loop: {bare_4p:.0f} games/s {verdict} the target of {TARGET_4P_BASE:.0f}"
    )
    return [
        Figure(BENCHMARK, "4p base, engine loop", bare_4p, "games/s", target=TARGET_4P_BASE),
        Figure(BENCHMARK, "4p base, policy loop", rates["policy"], "games/s"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print(
        f"# {time.strftime('%Y-%m-%d')} Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, pinned to one; best of {args.repeats} x {args.seconds}s (CPU time)"
    )
    with yardstick.around() as reading:
        figures = run(args.seconds, args.repeats)
    yardstick.report(figures, reading)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
