"""``kassen ladder serve`` (a continuous ladder) and ``kassen ladder register`` (a bot on it).

Parsers only at import time (``kassen --help`` stays quick); the service is imported when the
command runs. ``kassen ladder show`` (a tournament's ladder) is in tournament.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from kassen.commands import ladder_challenge, ladder_submit
from kassen.commands.credentials import add_token_flag, admin_token
from kassen.commands.monitoring import add_load_report_flag, load_report_s
from kassen.commands.watcher_flags import add_watcher_flags, watcher_limits
from kassen.errors import UsageError, WriteFailed
from kassen.files import new_private_file

DEFAULT_LADDER_DATABASE = "sqlite:///runs/ladder.sqlite"
DEFAULT_GRPC = "127.0.0.1:50061"
DEFAULT_WEB = "127.0.0.1:8080"


def add_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = actions.add_parser(
        "serve",
        help="run a continuous ladder: bots register and connect, house bots always play",
        description="Run the ladder service: matchmaking, ratings, the web page and a referee "
        "in one process; with --referees, the matches are played by other referee processes "
        "(kassen serve, Ray actors). Bots register (kassen ladder register), connect with their token "
        "(kassen bot ladder) and are given matches, or are uploaded (kassen ladder submit) and "
        "run by the ladder in a sandbox when ladder.toml turns submissions on; house bots are "
        "always available. "
        "Stop it with Ctrl-C: running matches end ABORTED and are recorded as voided; a restart "
        "carries on from the database. docs/ladder.md explains tokens, admin calls, "
        "PostgreSQL and backups.",
    )
    serve.add_argument(
        "--address", default=DEFAULT_GRPC, help=f"gRPC host:port (default {DEFAULT_GRPC})"
    )
    serve.add_argument(
        "--web",
        default=DEFAULT_WEB,
        help=f"web page host:port, or 'none' (default {DEFAULT_WEB})",
    )
    serve.add_argument(
        "--db",
        default=DEFAULT_LADDER_DATABASE,
        help=f"a SQLite file or a database URL, e.g. postgresql://... (default {DEFAULT_LADDER_DATABASE})",
    )
    serve.add_argument(
        "--config",
        type=Path,
        default=None,
        help="ladder.toml: pools, house bots, clocks (default: every game, three house bots each)",
    )
    add_token_flag(serve, "file holding the organiser token (admin calls; needed beyond loopback)")
    serve.add_argument(
        "--referees",
        action="append",
        default=[],
        metavar="SPEC",
        help="where matches are played instead of this process: kassen serve addresses"
        " (host:port) and/or ray:CLUSTER (ray:auto, ray:local, or an address) for referee actors"
        " on Ray; comma-separated or repeated (replaces ladder.toml's [referees] lists)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="least level of the JSON log lines on stderr (default info)",
    )
    add_watcher_flags(serve)
    add_load_report_flag(serve)
    serve.set_defaults(run=run_serve)

    register = actions.add_parser(
        "register", help="register a bot on a running ladder and save its token"
    )
    register.add_argument("name", help="3-32 letters, digits, '.', '_' or '-'")
    register.add_argument("--game", required=True, help="e.g. rumble-nation")
    register.add_argument("--variant", default="", help="default: the game's first variant")
    register.add_argument(
        "--players", default="", help="player counts it plays, e.g. 2,4 (default: all)"
    )
    register.add_argument("--owner", default=os.environ.get("USER", ""), help="who runs it")
    register.add_argument("--description", default="", help="a line about the bot")
    register.add_argument(
        "--accepts-challenges",
        action="store_true",
        help="others may challenge it to unrated matches (kassen ladder challenges on|off)",
    )
    register.add_argument(
        "--address",
        default=DEFAULT_GRPC,
        help=f"the ladder's gRPC address (default {DEFAULT_GRPC})",
    )
    register.add_argument(
        "--token-file", required=True, type=Path, help="where to save the bot's token (mode 600)"
    )
    register.set_defaults(run=run_register)
    ladder_submit.add_actions(actions)
    ladder_challenge.add_actions(actions)


def run_serve(args: argparse.Namespace) -> int:
    # Rating refits solve dense systems in numpy: one BLAS thread each. Several threads per
    # solve fight the event loop for the cores and make a refit slower, not faster (200 bots:
    # 43 ms with one thread, 140-250 ms with the default on a busy 2-core machine).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import asyncio

    from kassen.commands.ladder_serve import serve
    from server.auth import is_loopback
    from server.settings import ServerSettings
    from tournament.ladder_service.config import (
        LadderConfigError,
        default_settings,
        load_settings,
    )

    for flag, value in (("--address", args.address), ("--web", args.web)):
        if value != "none" and ":" not in value:
            raise UsageError(f"{flag} must be host:port, not {value!r}")
    from tournament.ladder_service.referees import RefereesError, parse_referees

    try:
        settings = load_settings(args.config) if args.config else default_settings()
        if args.referees:
            referees = parse_referees(args.referees, settings.referees)
            settings = dataclasses.replace(settings, referees=referees)
    except (LadderConfigError, RefereesError) as exc:
        raise UsageError(str(exc)) from None
    token = admin_token(args.admin_token_file)
    host = args.address.rsplit(":", 1)[0]
    if token is None and not is_loopback(host):
        # Checked before the database is opened: nothing is created for a ladder that
        # cannot start.
        raise UsageError(
            f"{args.address} is not a loopback address: without an organiser token anyone "
            "who can reach it could list, pause and revoke bots and create matches; give "
            "--admin-token-file FILE (or set KASSEN_ADMIN_TOKEN)"
        )
    server_settings = ServerSettings(
        admin_token=token, load_report_s=load_report_s(args), **watcher_limits(args)
    )
    asyncio.run(serve(args, settings, server_settings))
    return 0


def run_register(args: argparse.Namespace) -> int:
    import grpc

    from kassen.v1 import ladder_pb2 as lpb
    from kassen.v1 import ladder_pb2_grpc as lrpc

    if args.token_file.exists():
        raise UsageError(f"--token-file {args.token_file} exists: choose another file")
    folder = args.token_file.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UsageError(f"--token-file {args.token_file}: cannot write in {folder}")
    try:
        counts = [int(n) for n in args.players.split(",") if n.strip()]
    except ValueError:
        raise UsageError(f"--players must be numbers like 2,4, not {args.players!r}") from None
    request = lpb.RegisterBotRequest(
        name=args.name,
        owner=args.owner,
        game=args.game,
        variant=args.variant,
        player_counts=counts,
        description=args.description,
        accepts_challenges=args.accepts_challenges,
    )
    # The room for the token is taken on the disk before the ladder issues it (it is shown
    # once): a full disk refuses the registration here, not after it.
    with new_private_file(args.token_file) as token_file:
        with grpc.insecure_channel(args.address) as channel:
            try:
                answer = lrpc.LadderStub(channel).RegisterBot(request, timeout=30)
            except grpc.RpcError as exc:
                code = exc.code().name if hasattr(exc, "code") else "ERROR"
                details = exc.details() if hasattr(exc, "details") else str(exc)
                print(
                    f"kassen: ladder refused the registration ({code}): {details}",
                    file=sys.stderr,
                )
                return 1
        try:
            token_file.fill(answer.token + "\n")
        except WriteFailed as exc:
            raise WriteFailed(
                exc.path,
                f"{exc.reason}; {args.name} is registered as bot {answer.bot_id} but its token, "
                "shown only once, is lost: register the bot under another name",
            ) from None
    print(f"registered {args.name} as bot {answer.bot_id}; token saved in {args.token_file}")
    return 0
