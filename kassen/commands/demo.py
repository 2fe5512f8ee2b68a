"""``kassen demo``: a small round-robin of the bundled bots, then the ladder."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser("demo", help="a quick round-robin of the bundled bots, with its ladder")
    demo.add_argument(
        "--db",
        default="sqlite:///runs/demo.sqlite",
        help="a SQLite file or a database URL (default sqlite:///runs/demo.sqlite)",
    )
    demo.add_argument("--quiet", action="store_true", help="no progress bar")
    demo.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from kassen.commands.database import database_failures

    return database_failures(_run)(args)


def _run(args: argparse.Namespace) -> int:
    from kassen.commands.tournament import execute, start
    from tournament.config import BotEntry, TournamentConfig, validate

    # The bundled greedy and random bots, plus the example Python bot played over gRPC.
    example = Path(__file__).resolve().parents[2] / "examples" / "python" / "bot.py"
    bots = [BotEntry("greedy", "builtin", "greedy"), BotEntry("random", "builtin", "random")]
    if example.is_file():
        bots.append(BotEntry("most-soldiers", "python", f"{example}:MostSoldiersBot"))
    config = TournamentConfig(
        name="demo",
        game="rumble-nation",
        variant="base",
        players=2,
        format="round-robin",
        bots=tuple(bots),
        games_per_group=200,
        concurrency=4,
        database=args.db,
        output="runs",
    )
    validate(config)
    config = config.with_seed()  # secret, as in any real tournament
    engine, tournament_id = start(config)
    return execute(engine, tournament_id, config, args.quiet)
