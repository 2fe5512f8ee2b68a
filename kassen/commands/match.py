"""``kassen match``: one match over real gRPC on an embedded loopback referee."""

from __future__ import annotations

import argparse
import asyncio
import random
import shlex
import shutil
import sys
from pathlib import Path

import grpc

from client_sdk import Bot, play
from client_sdk.loading import BotNotFound, load_bot
from games import GameConfig, InvalidConfig, UnknownGame, get_game
from games.contract import check_config
from kassen.errors import UsageError
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.logs import configure
from server.match import Match
from server.referee import CommandBot
from server.settings import (
    DEFAULT_BANK_MS,
    DEFAULT_DECISION_MS,
    DEFAULT_MAX_DECISIONS,
    FailurePolicy,
    MatchSettings,
    TimeControl,
)

CMD_PREFIX = "cmd:"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    match = sub.add_parser("match", help="play one match over gRPC on an embedded referee")
    match.add_argument("game", help="game name, e.g. rumble-nation")
    match.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="BOT",
        help="one per seat, in order: random, greedy, module:Class, file.py:Class or 'cmd:COMMAND'",
    )
    match.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    match.add_argument(
        "--advanced", action="store_true", help="advanced rules (variant 'advanced')"
    )
    match.add_argument("--variant", default=None, help="variant name (overrides --advanced)")
    match.add_argument("--watch", action="store_true", help="print the game as a spectator sees it")
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
    match.add_argument("--failure-policy", choices=["forfeit", "void"], default="forfeit")
    match.add_argument("--replays", default="runs/replays", help="folder for the replay file")
    match.add_argument(
        "--log-level", default="warning", choices=["debug", "info", "warning", "error"]
    )
    match.set_defaults(run=run)


def _seat(spec: str, seed: int) -> Bot | CommandBot:
    if spec.startswith(CMD_PREFIX):
        command = shlex.split(spec[len(CMD_PREFIX) :])
        if not command:
            raise UsageError("--seat cmd: needs a command")
        if shutil.which(command[0]) is None and not Path(command[0]).is_file():
            raise UsageError(f"cannot start {command[0]!r}: no such program")
        return CommandBot(command=command, name=spec[len(CMD_PREFIX) :])
    try:
        return load_bot(spec, seed)
    except BotNotFound as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        config = GameConfig(
            players=len(args.seat),
            variant=args.variant or ("advanced" if args.advanced else game.variants[0]),
        )
        if not args.seat:
            raise UsageError("name the bots with --seat, once per seat")
        check_config(game, config)
    except (UnknownGame, InvalidConfig) as exc:
        raise UsageError(str(exc)) from None
    if args.max_decisions <= 0:
        raise UsageError("--max-decisions must be positive")
    if args.decision_ms <= 0 or args.bank_ms < 0:
        raise UsageError("--decision-ms must be positive and --bank-ms not negative")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    seats = [_seat(spec, seed * 31 + i) for i, spec in enumerate(args.seat)]
    settings = MatchSettings(
        game=game.name,
        config=config,
        seed=seed,
        time_control=TimeControl(decision_ms=args.decision_ms, bank_ms=args.bank_ms),
        failure_policy=FailurePolicy(args.failure_policy),
        max_decisions=args.max_decisions,
    )
    configure(args.log_level, json=False)
    print(f"{game.title}, {config.players} players, {config.variant} rules, seed {seed}")
    return asyncio.run(_run(settings, seats, args.seat, Path(args.replays), args.watch))


async def _run(
    settings: MatchSettings,
    seats: list[Bot | CommandBot],
    specs: list[str],
    replays: Path,
    watch: bool,
) -> int:
    async with running_server("127.0.0.1:0", replay_dir=replays) as referee:
        commands = {i: s for i, s in enumerate(seats) if isinstance(s, CommandBot)}
        match, tickets = referee.create_match(settings, commands=commands)
        watcher = asyncio.create_task(_watch(referee.address, match.id)) if watch else None
        players = [
            asyncio.create_task(play(bot, referee.address, tickets[i]))
            for i, bot in enumerate(seats)
            if isinstance(bot, Bot)
        ]
        await match.finished.wait()
        await asyncio.gather(*players, return_exceptions=True)
        if watcher is not None:
            await asyncio.wait_for(watcher, 10)
    _print_result(match, specs)
    return 0


async def _watch(address: str, match_id: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        async for update in rpc.RefereeStub(channel).Watch(pb.WatchRequest(match_id=match_id)):
            for event in update.events:
                print(event.text)
            sys.stdout.flush()


def _print_result(match: Match, specs: list[str]) -> None:
    result = match.result
    assert result is not None
    print(f"Result: {result.reason.value} after {match.decisions} decisions")
    for seat in sorted(result.seats, key=lambda r: (r.rank or 99, r.seat)):
        status = "" if not seat.forfeited else f"  [forfeited: {seat.reason.value}: {seat.detail}]"
        think_ms = seat.think_time_us / 1000
        print(
            f"  {seat.rank}. Player {seat.seat + 1} ({specs[seat.seat]}) score {seat.score}, {seat.decisions} decisions, {think_ms:.0f} ms{status}"
        )
    if result.replay_path:
        print(f"Replay: {result.replay_path}")
