"""``kassen demo``: a small round-robin of the bundled bots, then the ladder."""

from __future__ import annotations

import argparse
from pathlib import Path

#: What each of the demo's bots is, as the demo introduces them (name, lines of at most 62
#: characters, so that the introduction fits 80 columns).
ABOUT: dict[str, tuple[str, ...]] = {
    "greedy": ("built in: takes the option that gains most at once",),
    "random": ("built in: a uniformly random legal option (seeded)",),
    "most-soldiers": (
        "the example bot examples/python/bot.py, playing through the",
        "Python SDK over gRPC as an outside bot does: it places as",
        "many soldiers as the dice allow, else plays at random",
    ),
}


def introduction(names: list[str]) -> str:
    """The lines that say what the demo plays and what each bot is."""
    width = max(len(n) for n in names)
    lines = ["demo: a round-robin of Rumble Nation (base, 2 players) between"]
    for name in names:
        about = ABOUT[name]
        lines.append(f"  {name:<{width}}  {about[0]}")
        lines += [f"  {'':<{width}}  {more}" for more in about[1:]]
    return "\n".join(lines)


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
    # Once the database is open: a usage error (a damaged --db) prints its one line only.
    print(introduction([b.name for b in bots]), flush=True)
    return execute(engine, tournament_id, config, args.quiet)
