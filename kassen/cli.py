"""The ``kassen`` command line. Bad arguments give one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import NoReturn

from games import GameConfig, InvalidConfig, UnknownGame, get_game
from games.local import play_local
from games.policies import UnknownPolicy, make_policy

USAGE_ERROR = 2


class UsageError(Exception):
    """A bad argument: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kassen", description="Kassen: board-game bot competitions over gRPC.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    play = sub.add_parser("play", help="play one game in-process and print its log")
    play.add_argument("game", help="game name, e.g. rumble-nation")
    play.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    play.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    play.add_argument("--advanced", action="store_true", help="advanced rules (variant 'advanced')")
    play.add_argument("--variant", default=None, help="variant name (overrides --advanced)")
    play.add_argument(
        "--bots", default=None, help="comma-separated built-in bots per seat (default: all random)"
    )
    play.add_argument("--quiet", action="store_true", help="print only the result")
    return parser


def _play(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    variant = args.variant or ("advanced" if args.advanced else "base")
    config = GameConfig(players=args.players, variant=variant)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    names = args.bots.split(",") if args.bots else ["random"] * args.players
    names = [name.strip() for name in names]
    if len(names) != args.players:
        raise UsageError(f"--bots names {len(names)} bots for {args.players} players")
    try:
        policies = [
            make_policy(name, game.name, seed * 131 + seat) for seat, name in enumerate(names)
        ]
        game.new(config, seed)  # validates the configuration before anything is printed
    except (UnknownPolicy, InvalidConfig) as exc:
        raise UsageError(str(exc)) from None

    def show(events: Sequence[object]) -> None:
        if not args.quiet:
            for event in events:
                print(game.describe(event))  # type: ignore[arg-type]

    print(f"{game.title}, {args.players} players, {variant} rules, seed {seed}")
    print("Seats: " + ", ".join(f"Player {i + 1} = {name}" for i, name in enumerate(names)))
    state = play_local(game, config, seed, policies, on_events=show)
    outcome = state.outcome()
    if outcome is None:
        print("The game did not finish.")
        return 1
    if args.quiet:
        for rank, seat in enumerate(outcome.ranking, 1):
            print(f"{rank}. Player {seat + 1} ({names[seat]}) {outcome.scores[seat]}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command == "play":
            return _play(args)
    except UsageError as exc:
        print(f"kassen: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        sys.stderr.close()
        return 0
    return USAGE_ERROR
