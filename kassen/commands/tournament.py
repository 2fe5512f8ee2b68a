"""``kassen tournament run|resume|sprt`` and ``kassen ladder show``: the flags.

Only the parsers live here, so ``kassen --help`` stays fast; what the commands do is in
``kassen/commands/tournament_run.py``, imported when a command runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kassen.seeds import add_seed_flag
from tournament.options import CI_METHODS, DEALS, DEFAULT_DATABASE, FORMATS

if TYPE_CHECKING:
    from tournament.config import TournamentConfig


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tournament = sub.add_parser("tournament", help="run tournaments")
    actions = tournament.add_subparsers(dest="action", required=True)
    run = actions.add_parser("run", help="run a tournament from a TOML file and/or flags")
    run.add_argument("file", nargs="?", type=Path, help="tournament.toml (flags override it)")
    _settings_flags(run)
    run.set_defaults(run=run_tournament)
    resume = actions.add_parser("resume", help="finish an interrupted tournament")
    resume.add_argument("id", help="tournament id")
    resume.add_argument(
        "--db", default=None, help=f"a SQLite file or a database URL (default {DEFAULT_DATABASE})"
    )
    resume.add_argument("--quiet", action="store_true", help="no progress bar")
    _ray_flag(resume)
    resume.set_defaults(run=resume_tournament)
    from kassen.commands import sprt

    sprt.add_parser(actions)

    ladder = sub.add_parser(
        "ladder", help="show a tournament's ladder, serve a continuous one, register a bot"
    )
    ladder_actions = ladder.add_subparsers(dest="action", required=True)
    show = ladder_actions.add_parser("show", help="print the ladder of a tournament")
    show.add_argument("--tournament", default=None, help="tournament id (default: the latest)")
    show.add_argument(
        "--db",
        default=DEFAULT_DATABASE,
        help=f"a SQLite file or a database URL (default {DEFAULT_DATABASE})",
    )
    show.add_argument(
        "--format", choices=["table", "json", "csv"], default="table", help="output (default table)"
    )
    show.add_argument(
        "--ci",
        choices=CI_METHODS,
        default=None,
        help="how the 95%% intervals are computed (default sandwich: clustered by seed block, Student's t)",
    )
    show.set_defaults(run=show_ladder)
    from kassen.commands import ladder as ladder_service

    ladder_service.add_actions(ladder_actions)


def _ray_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        default=None,
        metavar="auto|local|ADDRESS",
        help="run the matches as tasks on a Ray cluster: auto (the one this machine joined), "
        "local (a private one for this run) or its address (needs pip install 'kassen[ray]'; "
        "default: local processes)",
    )


def _settings_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="game name (default rumble-nation)")
    parser.add_argument(
        "--variant", default=None, help="variant, e.g. advanced or winter (default: the first)"
    )
    parser.add_argument("--advanced", action="store_true", help="variant 'advanced'")
    parser.add_argument(
        "--players", type=int, default=None, help="players per match (default 2; 1: solo)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. towns=1,3 or content=pack.toml (a file; repeat)",
    )
    parser.add_argument(
        "--format", default=None, choices=FORMATS, help="schedule (default round-robin)"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        help="random, greedy, ismcts[:KEY=VALUE,...], NAME=cmd:COMMAND, NAME=module:Class (repeat)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        dest="games_per_group",
        help="games per group, rounded up to whole seed blocks (default: two blocks, at least 4)",
    )
    parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds")
    parser.add_argument("--candidate", default=None, help="the gauntlet's candidate bot")
    add_seed_flag(
        parser, "base seed (default: drawn secretly; a given seed makes the run reproducible)"
    )
    parser.add_argument(
        "--deals",
        choices=DEALS,
        default=None,
        help="duplicate: one seed per block in every seating (default); fresh: a seed per match",
    )
    parser.add_argument("--concurrency", type=int, default=None, help="matches at once (default 2)")
    _ray_flag(parser)
    parser.add_argument(
        "--decision-ms", type=int, default=None, help="free time per decision (default 1000)"
    )
    parser.add_argument(
        "--bank-ms", type=int, default=None, help="time bank per seat (default 10000)"
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=None,
        help="adjudicate a match after this many decisions (default 10000)",
    )
    parser.add_argument(
        "--failure-policy",
        default=None,
        choices=["forfeit", "void"],
        help="a failed seat forfeits (default) or voids the match",
    )
    parser.add_argument(
        "--db",
        default=None,
        dest="database",
        help=f"a SQLite file or a database URL (default {DEFAULT_DATABASE})",
    )
    parser.add_argument(
        "--output", default=None, help="folder for reports and replays (default runs)"
    )
    parser.add_argument("--no-replays", action="store_true", help="do not write replay files")
    parser.add_argument("--name", default=None, help="the tournament's name (default tournament)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_tournament(args: argparse.Namespace) -> int:
    from kassen.commands.tournament_run import run_tournament as run

    return run(args)


def resume_tournament(args: argparse.Namespace) -> int:
    from kassen.commands.tournament_run import resume_tournament as resume

    return resume(args)


def show_ladder(args: argparse.Namespace) -> int:
    from kassen.commands.tournament_run import show_ladder as show

    return show(args)


def start(config: TournamentConfig) -> tuple[Any, str]:
    """Create the tournament and its schedule in the database; returns (engine, id)."""
    from kassen.commands.tournament_run import start as create

    return create(config)


def execute(engine: Any, tournament_id: str, config: TournamentConfig, quiet: bool) -> int:
    """Play what is not done, then print the ladder and write the reports."""
    from kassen.commands.tournament_run import execute as play

    return play(engine, tournament_id, config, quiet)
