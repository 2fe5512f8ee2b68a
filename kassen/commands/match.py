"""``kassen match``: one match over real gRPC, on an embedded loopback referee or, with
``--server``, on a running one (kassen/commands/match_remote.py)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.commands.credentials import add_ca_flag, add_token_flag, admin_token, tls_ca
from kassen.commands.game_options import add_option_flags, config_problem, options_from
from kassen.errors import UsageError
from kassen.seeds import add_seed_flag
from server.settings import (  # constants and plain dataclasses; the referee is imported by run
    DEFAULT_BANK_MS,
    DEFAULT_DECISION_MS,
    DEFAULT_MAX_DECISIONS,
    FailurePolicy,
    MatchSettings,
    TimeControl,
)

if TYPE_CHECKING:
    from client_sdk import Bot
    from kassen.commands.match_remote import Remote, Request
    from kassen.commands.match_submissions import LocalSubmission
    from server.bot_box import BoxLimits
    from server.referee import CommandBot

CMD_PREFIX = "cmd:"
#: ``--bot-KEY N`` flags: the limits of every ``cmd:`` seat (server/bot_box.py BoxLimits).
LIMIT_FLAGS = (
    ("memory_mb", "memory it allocates, in MB (default 2048)"),
    ("cpu_s", "CPU seconds (default 3600)"),
    ("open_files", "open file descriptors (default 512)"),
    ("processes", "more tasks than the user runs at launch (default 0: no limit)"),
    ("address_space_mb", "address space in MB, reserved included (default 0: no limit)"),
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    match = sub.add_parser("match", help="play one match over gRPC (embedded or --server)")
    match.add_argument("game", help="game name, e.g. rumble-nation")
    match.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="BOT",
        help="one per seat, in order: random, greedy, module:Class, file.py:Class, 'cmd:COMMAND'"
        " or sub:DIR (a submission folder, built and run in its sandbox)",
    )
    add_seed_flag(match, "game seed (default: secret, drawn by the referee)")
    match.add_argument(
        "--advanced", action="store_true", help="advanced rules (variant 'advanced')"
    )
    match.add_argument("--variant", default=None, help="variant name (overrides --advanced)")
    add_option_flags(match)
    match.add_argument("--watch", action="store_true", help="print the game as a spectator sees it")
    for key, what in LIMIT_FLAGS:
        match.add_argument(
            "--bot-" + key.replace("_", "-"),
            type=int,
            default=None,
            metavar="N",
            help=f"limit of each cmd: bot: {what}; 0: none",
        )
    match.add_argument(
        "--decision-ms", type=int, default=DEFAULT_DECISION_MS, help="free time per decision"
    )
    match.add_argument("--bank-ms", type=int, default=DEFAULT_BANK_MS, help="time bank per seat")
    match.add_argument(
        "--max-decisions",
        type=int,
        default=DEFAULT_MAX_DECISIONS,
        help="adjudicate the match after this many decisions (result reason adjudicated)",
    )
    match.add_argument(
        "--failure-policy",
        choices=["forfeit", "void"],
        default="forfeit",
        help="a failing bot forfeits and the others play on, or the match is void (default forfeit)",
    )
    match.add_argument(
        "--replays", default="runs/replays", help="folder for the replay file (embedded referee)"
    )
    match.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        help="least level of the referee's log lines on stderr (default warning)",
    )
    match.add_argument(
        "--server",
        default=None,
        metavar="ADDRESS",
        help="play on the referee at host:port instead of an embedded one",
    )
    add_token_flag(match, "file holding the organiser token of --server")
    add_ca_flag(match, "PEM CA of the --server's TLS certificate; none: plaintext")
    match.set_defaults(run=run)


def _limits(args: argparse.Namespace) -> BoxLimits:
    """The ``--bot-*`` limits over the defaults; a bad value is a usage error naming its flag."""
    from server.bot_box import DEFAULT_LIMITS

    given = {key: getattr(args, "bot_" + key) for key, _ in LIMIT_FLAGS}
    try:
        return DEFAULT_LIMITS.merged(
            {k: v for k, v in given.items() if v is not None},
            name=lambda key: "--bot-" + key.replace("_", "-"),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _seat(spec: str, seed: int, limits: BoxLimits) -> Bot | CommandBot | LocalSubmission:
    from client_sdk.loading import BotNotFound, load_bot
    from kassen.commands.match_submissions import SUB_PREFIX, submission_seat
    from server.referee import CommandBot

    if spec.startswith(SUB_PREFIX):
        return submission_seat(spec)
    if spec.startswith(CMD_PREFIX):
        command = shlex.split(spec[len(CMD_PREFIX) :])
        if not command:
            raise UsageError("--seat cmd: needs a command")
        from server.launch import can_start

        if not can_start(command[0]):
            raise UsageError(f"cannot start {command[0]!r}: no such program")
        return CommandBot(command=command, name=spec[len(CMD_PREFIX) :], limits=limits)
    try:
        return load_bot(spec, seed)
    except BotNotFound as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    import asyncio
    import secrets

    from games import GameConfig, InvalidConfig, UnknownGame, get_game
    from games.contract import check_config
    from kassen.commands.match_remote import Request, run_remote
    from server.logs import configure

    try:
        game = get_game(args.game)
        config = GameConfig(
            players=len(args.seat),
            variant=args.variant or ("advanced" if args.advanced else game.variants[0]),
            options=options_from(args),
        )
        if not args.seat:
            raise UsageError("name the bots with --seat, once per seat")
        check_config(game, config)
    except (UnknownGame, InvalidConfig) as exc:
        raise UsageError(str(exc)) from None
    try:
        game.new(config, 0)  # the game checks its options before anything starts
    except InvalidConfig as exc:
        raise config_problem(exc, args) from None
    if args.max_decisions <= 0:
        raise UsageError("--max-decisions must be positive")
    if args.decision_ms <= 0 or args.bank_ms < 0:
        raise UsageError("--decision-ms must be positive and --bank-ms not negative")
    if args.server is None and (args.admin_token_file or args.tls_ca):
        raise UsageError("--admin-token-file and --tls-ca go with --server")
    remote = _remote(args.server, args.admin_token_file, args.tls_ca) if args.server else None
    # Bundled bots draw their own seeds: the game seed is secret unless --seed gave it.
    bot_seed = args.seed if args.seed is not None else secrets.randbits(31)
    limits = _limits(args)
    seats = [_seat(spec, bot_seed * 31 + i, limits) for i, spec in enumerate(args.seat)]
    request = Request(
        title=game.title,
        game=game.name,
        config=config,
        seed=args.seed,
        time_control=TimeControl(decision_ms=args.decision_ms, bank_ms=args.bank_ms),
        failure_policy=FailurePolicy(args.failure_policy),
        max_decisions=args.max_decisions,
        watch=args.watch,
    )
    configure(args.log_level, json=False)
    if remote is not None:
        if any(spec.startswith("sub:") for spec in args.seat):
            raise UsageError("sub: seats play on the embedded referee, not with --server")
        return run_remote(remote, request, seats, args.seat)  # type: ignore[arg-type]
    return asyncio.run(_run(request, seats, args.seat, Path(args.replays)))


def _remote(address: str, token_file: str | None, ca_file: str | None) -> Remote:
    from kassen.commands.match_remote import Remote

    if ":" not in address:
        raise UsageError(f"--server must be host:port, not {address!r}")
    ca = tls_ca(ca_file)
    return Remote(
        address=address,
        token=admin_token(token_file),
        tls_ca=ca[0] if ca else None,
        tls_ca_file=str(Path(ca[1]).resolve()) if ca else None,
    )


async def _run(
    request: Request,
    given: list[Bot | CommandBot | LocalSubmission],
    specs: list[str],
    replays: Path,
) -> int:
    import asyncio

    from client_sdk import Bot, open_channel, play
    from kassen.commands.match_output import print_header, print_result, print_watch
    from kassen.commands.match_submissions import sandboxed_seats
    from kassen.replay_files import write_when_decided
    from kassen.v1 import referee_pb2_grpc as rpc
    from server.app import running_server
    from server.chance import draw_seed
    from server.referee import CommandBot

    settings = MatchSettings(
        game=request.game,
        config=request.config,
        seed=request.seed if request.seed is not None else draw_seed(),
        time_control=request.time_control,
        failure_policy=request.failure_policy,
        max_decisions=request.max_decisions,
    )
    async with (
        running_server("127.0.0.1:0") as referee,
        sandboxed_seats(referee, given) as seats,
    ):
        commands = {i: s for i, s in enumerate(seats) if isinstance(s, CommandBot)}
        match, tickets = referee.create_match(settings, commands=commands)
        unwritten = write_when_decided(match, replays)  # whole or not at all, before MatchOver
        setup = match.setup_proto()
        print_header(request.title, request.config, setup, request.seed)
        async with open_channel(referee.address) as channel:
            stub = rpc.RefereeStub(channel)
            watcher = asyncio.create_task(print_watch(stub, match.id)) if request.watch else None
            players = [
                asyncio.create_task(play(bot, referee.address, tickets[i]))
                for i, bot in enumerate(seats)
                if isinstance(bot, Bot)
            ]
            await match.finished.wait()
            await asyncio.gather(*players, return_exceptions=True)
            if watcher is not None:
                await asyncio.wait_for(watcher, 10 + match.settings.watch_delay_ms / 1000)
        summary = match.summary()
    verified = print_result(summary, specs, setup.seed_commitment)
    if unwritten:  # the result above stands; only its replay is missing
        sys.stdout.flush()
        print(
            f"kassen: {unwritten[0]} (the match was played: its result is above)", file=sys.stderr
        )
        return 1
    return 0 if verified else 1
