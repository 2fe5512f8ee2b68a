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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GameConfig
from games.local import play_local
from games.policies import RandomPolicy
from games.rng import below
from games.rumble_nation import GAME

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


def measure(loop, config: GameConfig, seconds: float, repeats: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Best games/s and decisions/s over ``repeats`` windows of about ``seconds`` each."""
    batch = 200
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(
        f"# {time.strftime('%Y-%m-%d')} Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, pinned to one; best of {args.repeats} x {args.seconds}s (CPU time)"
    )
    print(f"{'configuration':<16}{'loop':<10}{'games/s':>10}{'decisions/s':>14}")
    bare_4p = 0.0
    for players, variant in (
        (4, "base"),
        (2, "base"),
        (3, "base"),
        (4, "advanced"),
        (2, "advanced"),
    ):
        config = GameConfig(players, variant)
        for name, loop in (("engine", bare_loop), ("policy", policy_loop)):
            games, decisions = measure(loop, config, args.seconds, args.repeats)
            if (players, variant, name) == (4, "base", "engine"):
                bare_4p = games
            print(f"{players}p {variant:<13}{name:<10}{games:>10.0f}{decisions:>14.0f}")
    verdict = "meets" if bare_4p >= TARGET_4P_BASE else "is below"
    print(
        f"4-player base, engine loop: {bare_4p:.0f} games/s {verdict} the target of {TARGET_4P_BASE:.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
