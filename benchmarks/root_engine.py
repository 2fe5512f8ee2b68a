"""Random Root games per second, in-process, on one core, for two, three and four players.

    python benchmarks/root_engine.py [--seconds 3] [--repeats 5] [--profile]

Times the bare engine contract (``pending`` / ``apply`` with a uniformly random option, what a
search bot's playout does) for two-player one-game and two-game contests on both maps and for
three-player games (Marquise, Eyrie, Woodland Alliance; once the Alliance is in the engine, both
maps; target: 30,000 decisions/s on Autumn as for two players) and four-player games (all four
factions; once the Vagabond is in the engine, both maps, else skipped with the reason printed;
target: 30,000 decisions/s), and reports games/s
and decisions/s (best of ``--repeats`` CPU-time windows: a shared machine only adds noise).
A random game that wanders is cut at ``MAX_DECISIONS`` (the referee's adjudication limit does
the same over the wire); how many were cut is reported. ``--profile`` prints a cProfile top 25.
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
from games.rng import below
from games.root import GAME
from games.root.lineup import unavailable

BENCHMARK = "root_engine (Root)"
TARGET_DECISIONS_PER_SECOND = 30_000.0
MAX_DECISIONS = 20_000


def bare_loop(config: GameConfig, seeds: range) -> tuple[int, int]:
    """Decisions taken and games cut at the limit, over ``seeds``."""
    decisions = cut = 0
    for seed in seeds:
        state = GAME.new(config, seed)
        rng = random.Random(seed)
        pending = state.pending()
        taken = 0
        while pending and taken < MAX_DECISIONS:
            decision = pending[0]
            state.apply(decision.seat, below(rng, len(decision.options)))
            taken += 1
            pending = state.pending()
        decisions += taken
        cut += bool(pending)
    return decisions, cut


def measure(
    config: GameConfig, seconds: float, repeats: int, batch: int = 20
) -> tuple[float, float, float, int, int]:
    """Best games/s and decisions/s, mean decisions per game, games played, games cut."""
    best_games = best_decisions = 0.0
    next_seed = total_games = total_decisions = total_cut = 0
    for _ in range(repeats):
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            taken, cut = bare_loop(config, range(next_seed, next_seed + batch))
            decisions += taken
            total_cut += cut
            next_seed += batch
            games += batch
        elapsed = time.process_time() - start
        best_games = max(best_games, games / elapsed)
        best_decisions = max(best_decisions, decisions / elapsed)
        total_games += games
        total_decisions += decisions
    return best_games, best_decisions, total_decisions / total_games, total_games, total_cut


#: (players, map, games in the contest).
CONFIGS = (
    (2, "autumn", 1),
    (2, "winter", 1),
    (2, "autumn", 2),
    (3, "autumn", 1),
    (3, "winter", 1),
    (4, "autumn", 1),
    (4, "winter", 1),
)


def run(seconds: float, repeats: int, batch: int = 20) -> list[Figure]:
    """The table of ``main`` (pinned to one core for the duration); the key figures."""
    print(
        f"{'configuration':<22}{'games/s':>9}{'decisions/s':>13}{'decisions/game':>16}"
        f"{'games':>7}{'cut':>5}"
    )
    rates: dict[tuple[int, str, int], float] = {}
    with one_core():
        for players, board, games in CONFIGS:
            if unavailable(players) is not None:
                print(f"{players} players, {board}: skipped ({unavailable(players)})")
                continue
            options = {"games": games} if players == 2 else {}
            config = GameConfig(players, board, options)
            rate, decisions, per_game, played, cut = measure(config, seconds, repeats, batch)
            rates[players, board, games] = decisions
            label = f"{board}, {games} game{'s' if games > 1 else ''}"
            if players != 2:
                label = f"{board}, {players} players"
            print(f"{label:<22}{rate:>9.1f}{decisions:>13.0f}{per_game:>16.0f}{played:>7}{cut:>5}")
    figures = []
    for players, board, label in (
        (2, "autumn", "one game"),
        (3, "autumn", "3 players"),
        (4, "autumn", "4 players"),
    ):
        found = rates.get((players, board, 1))
        if found is None:
            continue
        verdict = "meets" if found >= TARGET_DECISIONS_PER_SECOND else "is below"
        print(
            f"{board}, {label}: {found:.0f} decisions/s {verdict} the target of "
            f"{TARGET_DECISIONS_PER_SECOND:.0f}"
        )
        figures.append(
            Figure(
                BENCHMARK,
                f"{board.title()}, {label}",
                found,
                "decisions/s",
                target=TARGET_DECISIONS_PER_SECOND,
            )
        )
    figures.insert(1, Figure(BENCHMARK, "Winter, one game", rates[2, "winter", 1], "decisions/s"))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile 50 one-game contests")
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        config = GameConfig(2, "autumn", {"games": 1})
        cProfile.runctx("bare_loop(config, range(50))", globals(), locals(), "/tmp/root.prof")
        pstats.Stats("/tmp/root.prof").sort_stats("tottime").print_stats(25)
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
