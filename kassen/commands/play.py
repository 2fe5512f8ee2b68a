"""``kassen play``: one game in-process between built-in bots, with a readable log."""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import TYPE_CHECKING

from kassen.commands.game_options import add_option_flags, config_problem, options_from
from kassen.errors import UsageError
from kassen.seeds import add_seed_flag

if TYPE_CHECKING:
    from games import Event


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser("play", help="play one game in-process and print its log")
    play.add_argument("game", help="game name, e.g. rumble-nation")
    play.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of players (default: the most the game allows)",
    )
    add_seed_flag(play, "game seed (default: random)")
    play.add_argument("--advanced", action="store_true", help="advanced rules (variant 'advanced')")
    play.add_argument(
        "--variant",
        default=None,
        help="variant, e.g. advanced, or winter for root (default: the first)",
    )
    play.add_argument(
        "--bots", default=None, help="comma-separated built-in bots per seat (default: all random)"
    )
    add_option_flags(play)
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from games import GameConfig, InvalidConfig, UnknownGame, get_game
    from games.local import play_local
    from games.policies import UnknownPolicy, make_policy

    try:
        game = get_game(args.game)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    variant = args.variant or ("advanced" if args.advanced else game.variants[0])
    if args.players is None:
        args.players = max(game.player_counts)
    config = GameConfig(players=args.players, variant=variant, options=options_from(args))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    names = (
        [name.strip() for name in args.bots.split(",")] if args.bots else ["random"] * args.players
    )
    if len(names) != args.players:
        raise UsageError(f"--bots names {len(names)} bots for {args.players} players")
    try:
        policies = [
            make_policy(name, game.name, seed * 131 + seat) for seat, name in enumerate(names)
        ]
    except UnknownPolicy as exc:
        raise UsageError(str(exc)) from None
    try:
        game.new(config, seed)  # validates the configuration before anything is printed
    except InvalidConfig as exc:
        raise config_problem(exc, args) from None

    # A game may tell a seat of its own move at once and everyone later (Gnomeville's
    # simultaneous phases): the log, which sees all, prints such an event once.
    told: Counter[tuple[str, str]] = Counter()

    def show(events: tuple[Event, ...]) -> None:
        if args.quiet:
            return
        for event in events:
            same = (event.kind, repr(sorted(event.data.items())))
            if event.private_to is not None:
                told[same] += 1
            elif told[same]:
                told[same] -= 1
                continue
            print(game.describe(event))

    from tournament.options import options_note

    who = "1 player (solo)" if args.players == 1 else f"{args.players} players"
    print(f"{game.title}, {who}, {variant} rules, seed {seed}{options_note(config.options)}")
    print("Seats: " + ", ".join(f"Player {i + 1} = {name}" for i, name in enumerate(names)))
    state = play_local(game, config, seed, policies, on_events=show)
    outcome = state.outcome()
    if outcome is None:
        print("The game did not finish.")
        return 1
    if args.players == 1:
        rank = outcome.tiebreak.get("rank")
        title = f", rank {rank}" if rank else (", no rank" if rank is not None else "")
        print(f"Solo: Player 1 ({names[0]}) scored {outcome.scores[0]} points{title}")
    elif args.quiet:
        for rank, seat in enumerate(outcome.ranking, 1):
            print(f"{rank}. Player {seat + 1} ({names[seat]}) {outcome.scores[seat]}")
    return 0
