"""What ``kassen tournament run|resume`` and ``kassen ladder show`` do (the flags are in
``kassen/commands/tournament.py``)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import exc as sa_exc

from kassen.commands.database import (
    FAILURE,
    database_failures,
    open_database,
    reading_database,
)
from kassen.errors import UsageError, WriteFailed, numerical_failures
from tournament import storage
from tournament.config import (
    ConfigError,
    TournamentConfig,
    load_file,
    option_flags,
    parse_bot,
    parse_options,
    validate,
)
from tournament.options import DEFAULT_DATABASE, options_note
from tournament.progress import progress_bar
from tournament.runner import TournamentRunner, schedule_rows
from tournament.schedule import gauntlet, round_robin


def build_config(args: argparse.Namespace) -> TournamentConfig:
    try:
        config = load_file(args.file) if args.file else TournamentConfig()
        bots = tuple(parse_bot(b) for b in args.bot)
        flags = parse_options(option_flags(args.option), Path.cwd(), "--option")
        config = config.with_overrides(
            game=args.game,
            variant="advanced" if args.advanced else args.variant,
            players=args.players,
            format=args.format,
            games_per_group=args.games_per_group,
            rounds=args.rounds,
            candidate=args.candidate,
            seed=args.seed,
            deals=args.deals,
            concurrency=args.concurrency,
            decision_ms=args.decision_ms,
            max_decisions=args.max_decisions,
            bank_ms=args.bank_ms,
            failure_policy=args.failure_policy,
            database=args.database,
            output=args.output,
            name=args.name,
            bots=(config.bots + bots) if bots else None,
            replays=False if args.no_replays else None,
            options={**config.options, **flags} if flags else None,
            ray=args.ray,
        )
        validate(config)
    except ConfigError as exc:  # one line, whatever text of the file it quotes
        raise UsageError(" ".join(str(exc).split())) from None
    return config.with_seed()


#: Databases in these default places may have their folder created.
DEFAULT_PLACES = {DEFAULT_DATABASE, "sqlite:///runs/demo.sqlite"}


def start(config: TournamentConfig) -> tuple[Any, str]:
    """Create the tournament and its schedule in the database; returns (engine, id)."""
    engine = open_database(config.database, create_folder=config.database in DEFAULT_PLACES)
    tournament_id = "t" + secrets.token_hex(4)
    names = [b.name for b in config.bots]
    if config.format == "round-robin":
        scheduled = round_robin(names, config.players, config.games, config.base_seed, config.deals)
    elif config.format == "gauntlet":
        field = [n for n in names if n != config.candidate]
        scheduled = gauntlet(
            config.candidate,
            field,
            config.players,
            config.games,
            config.base_seed,
            config.deals,
        )
    else:
        scheduled = []  # Swiss rounds are paired as the results come in
    with reading_database():  # damage met here: the database given, and nothing is stored
        storage.create_tournament(
            engine,
            tournament_id,
            name=config.name,
            game=config.game,
            variant=config.variant,
            players=config.players,
            format=config.format,
            base_seed=config.base_seed,
            config=config.to_dict(),
            bot_rows=[(b.name, b.spec, b.version_hash()) for b in config.bots],
            scheduled=schedule_rows(scheduled),
        )
    return engine, tournament_id


def _db_flag(database: str) -> str:
    """`` --db URL``, or nothing for the default database."""
    return "" if database == DEFAULT_DATABASE else f" --db {database}"


def resume_command(tournament_id: str, database: str) -> str:
    """The command that resumes a tournament (naming its database unless it is the default)."""
    return f"kassen tournament resume {tournament_id}{_db_flag(database)}"


def stored_note(tournament_id: str, database: str) -> str:
    """What a user can do when the files of a finished run could not be written."""
    show = f"kassen ladder show --tournament {tournament_id}{_db_flag(database)}"
    return (
        f'the results are stored in {database} ("{show}" shows the ladder; '
        f'"{resume_command(tournament_id, database)}" writes the reports once there is room)'
    )


def replays_note(problems: list[str], folder: Path) -> str:
    """How many replay files could not be written, and why (the first reason met)."""
    reason = next((p for p in problems if p), "reason not known")
    files = "replay file" if len(problems) == 1 else "replay files"
    return f"{len(problems)} {files} in {folder} could not be written: {reason}"


def execute(engine: Any, tournament_id: str, config: TournamentConfig, quiet: bool) -> int:
    from server.logs import configure
    from tournament.ray_pool import RayUnavailable
    from tournament.reports import print_ladder, write_reports

    configure("warning", json=False)  # the progress bar and the ladder say what happens

    # The stored schedule is read before the first line is printed: a row that cannot be
    # read is then the only line, a database the command cannot read (exit code 2).
    with reading_database():
        runner = TournamentRunner(engine, tournament_id, config, ray_address=config.ray or None)
    hint = resume_command(tournament_id, config.database)
    seats = "solo" if config.solo else f"{config.players} players"
    print(
        f"tournament {tournament_id}: {config.format}, {len(config.bots)} bots, {config.game} {config.variant} {seats}{options_note(config.options)} (resume with: {hint})",
        file=sys.stderr,
    )
    if not config.secret_seed:
        print(
            f"seed {config.seed} was given: this run is reproducible, so its chance is not secret",
            file=sys.stderr,
        )
    try:
        with progress_bar(quiet) as on_progress:
            runner.on_progress = on_progress
            runner.run()
    except KeyboardInterrupt:
        print(
            f"kassen: interrupted; finished matches are stored. Resume with: {hint}",
            file=sys.stderr,
        )
        return 130
    except RayUnavailable as exc:
        print(f"kassen: {exc}; finished matches are stored. Resume with: {hint}", file=sys.stderr)
        return FAILURE
    except sa_exc.DBAPIError as exc:
        if not storage.is_full(exc):
            raise  # ``database_failures``
        reason = " ".join(str(storage.orig_of(exc)).split())
        print(
            f"kassen: cannot write the database: {reason}; finished matches are stored. "
            f"Resume with: {hint} once there is room",
            file=sys.stderr,
        )
        return FAILURE
    failed = f"cannot compute the ladder of {tournament_id} (its results are stored)"
    stored = stored_note(tournament_id, config.database)
    replays = runner.replay_dir or Path(config.output) / tournament_id / "replays"
    try:
        with numerical_failures(failed):
            folder = write_reports(engine, tournament_id, Path(config.output) / tournament_id)
            print_ladder(engine, tournament_id)
    except WriteFailed as exc:
        lost = (
            f" ({replays_note(runner.replay_problems, replays)})" if runner.replay_problems else ""
        )
        print(f"kassen: {exc}{lost}; {stored}", file=sys.stderr)
        return FAILURE
    print(f"reports: {folder}", file=sys.stderr)
    if runner.replay_problems:
        print(f"kassen: {replays_note(runner.replay_problems, replays)}", file=sys.stderr)
        return FAILURE
    return 0


@database_failures
def run_tournament(args: argparse.Namespace) -> int:
    config = build_config(args)
    engine, tournament_id = start(config)
    return execute(engine, tournament_id, config, args.quiet)


@database_failures
def resume_tournament(args: argparse.Namespace) -> int:
    url = args.db or DEFAULT_DATABASE
    engine = open_database(url, looking_for=args.id)
    with reading_database():
        row = storage.load_tournament(engine, args.id)
    if row is None:
        raise UsageError(f"no tournament {args.id!r} in {url}")
    config = TournamentConfig.from_dict(json.loads(row["config_json"])).with_overrides(
        database=url, ray=args.ray
    )
    try:
        validate(config)
    except ConfigError as exc:
        raise UsageError(f"cannot resume {args.id}: {exc}") from None
    return execute(engine, args.id, config, args.quiet)


@database_failures
def show_ladder(args: argparse.Namespace) -> int:
    from tournament.reports import ladder_csv, ladder_json, print_ladder

    engine = open_database(args.db, looking_for=args.tournament or "")
    # Everything this command does is reading: a database it cannot read is a usage error.
    with reading_database():
        tournament_id = args.tournament or storage.latest_tournament(engine)
        if tournament_id is None or storage.load_tournament(engine, tournament_id) is None:
            raise UsageError(
                f"no tournament {args.tournament or ''} in {args.db}".replace("  ", " ")
            )
        with numerical_failures(f"cannot compute the ladder of {tournament_id}"):
            if args.format == "table":
                print_ladder(engine, tournament_id, ci=args.ci)
            elif args.format == "json":
                print(ladder_json(engine, tournament_id, ci=args.ci))
            else:
                print(ladder_csv(engine, tournament_id, ci=args.ci), end="")
    return 0
