"""Random Gnomeville games per second, in-process, on one core (the engine's speed target).

    python benchmarks/gnomeville_engine.py [--seconds 3] [--repeats 5] [--profile]

Times the bare engine contract (``pending`` / ``apply`` with a uniformly random option for
every pending decision, what a search bot's playout does) for 4-, 2- and 1-player games of the
standard variant and a 4-player turn-by-turn game, and 4-player games whose players quit (pass,
stop moving, buy nothing) only 5% of the time, the long games a building playout makes; reports games/s and decisions/s (best of
``--repeats`` CPU-time windows). The target is the one Root meets: 30,000 decisions/s for random
4-player games, so search bots can afford playouts.
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

from benchmarks import yardstick
from benchmarks.yardstick import Figure, one_core
from games import GameConfig
from games.gnomeville import GAME
from games.rng import below

BENCHMARK = "gnomeville_engine (Gnomeville)"
TARGET_DECISIONS_PER_SECOND = 30_000.0


#: Option keys that end a seat's activity early (a pass, stopping a move, buying nothing).
QUITTING = frozenset({"pass", "stop", "done", "none"})


def bare_loop(config: GameConfig, seeds: range, quit_rate: float | None = None) -> int:
    """Decisions taken over ``seeds``: a uniformly random answer for every pending decision,
    or, with ``quit_rate``, one that takes a quitting option only that often (long games, as a
    playout that builds its town plays them)."""
    decisions = 0
    for seed in seeds:
        state = GAME.new(config, seed)
        rng = random.Random(seed)
        pending = state.pending()
        while pending:
            for decision in pending:
                options = decision.options
                index = below(rng, len(options))
                quitting = quit_rate is not None and options[index].key in QUITTING
                if quitting and rng.random() >= (quit_rate or 0.0):
                    others = [i for i, o in enumerate(options) if o.key not in QUITTING]
                    if others:
                        index = others[below(rng, len(others))]
                state.apply(decision.seat, index)
                decisions += 1
            pending = state.pending()
    return decisions


def measure(
    config: GameConfig,
    seconds: float,
    repeats: int,
    batch: int = 10,
    quit_rate: float | None = None,
) -> tuple[float, float, float, int]:
    """Best games/s and decisions/s, mean decisions per game, games played."""
    best_games = best_decisions = 0.0
    next_seed = total_games = total_decisions = 0
    for _ in range(repeats):
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            decisions += bare_loop(config, range(next_seed, next_seed + batch), quit_rate)
            next_seed += batch
            games += batch
        elapsed = time.process_time() - start
        best_games = max(best_games, games / elapsed)
        best_decisions = max(best_decisions, decisions / elapsed)
        total_games += games
        total_decisions += decisions
    return best_games, best_decisions, total_decisions / total_games, total_games


CONFIGS: tuple[tuple[str, GameConfig, float | None], ...] = (
    ("4 players, standard", GameConfig(4, "standard"), None),
    ("2 players, standard", GameConfig(2, "standard"), None),
    ("solo, standard", GameConfig(1, "standard"), None),
    ("4 players, turn-by-turn", GameConfig(4, "turn-by-turn"), None),
    ("4 players, building", GameConfig(4, "standard"), 0.05),
)


def run(seconds: float, repeats: int, batch: int = 10) -> list[Figure]:
    """The table of ``main`` (pinned to one core for the duration); the key figures."""
    print(
        f"{'configuration':<26}{'games/s':>9}{'decisions/s':>13}{'decisions/game':>16}{'games':>7}"
    )
    rates: dict[str, tuple[float, float]] = {}
    with one_core():
        for label, config, quit_rate in CONFIGS:
            rate, decisions, per_game, played = measure(config, seconds, repeats, batch, quit_rate)
            rates[label] = (rate, decisions)
            print(f"{label:<26}{rate:>9.1f}{decisions:>13.0f}{per_game:>16.0f}{played:>7}")
    games_4p, decisions_4p = rates["4 players, standard"]
    verdict = "meets" if decisions_4p >= TARGET_DECISIONS_PER_SECOND else "is below"
    print(
        f"4 players, standard: {decisions_4p:.0f} decisions/s {verdict} the target of "
        f"{TARGET_DECISIONS_PER_SECOND:.0f}"
    )
    return [
        Figure(
            BENCHMARK,
            "4 players, decisions",
            decisions_4p,
            "decisions/s",
            target=TARGET_DECISIONS_PER_SECOND,
        ),
        Figure(BENCHMARK, "4 players, games", games_4p, "games/s"),
        Figure(BENCHMARK, "solo, games", rates["solo, standard"][0], "games/s"),
        Figure(
            BENCHMARK,
            "4 players building, decisions",
            rates["4 players, building"][1],
            "decisions/s",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile 30 4-player games")
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        config = GameConfig(4, "standard")
        cProfile.runctx("bare_loop(config, range(30))", globals(), locals(), "/tmp/gnome.prof")
        pstats.Stats("/tmp/gnome.prof").sort_stats("tottime").print_stats(25)
        return 0
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
