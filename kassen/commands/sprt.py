"""``kassen tournament sprt``: is the candidate better than the baseline?

Plays seed blocks (one seed in every rotation of the seating) and scores each block as one
observation, as ``tournament.ratings.sprt`` explains.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kassen.errors import UsageError, numerical_failures
from kassen.seeds import add_seed_flag

if TYPE_CHECKING:
    from tournament.ratings import Sprt

#: How many points of the LLR trajectory the summary prints.
TRAJECTORY_POINTS = 20


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sprt = actions.add_parser("sprt", help="play candidate vs baseline until an SPRT decides")
    sprt.add_argument(
        "--candidate",
        required=True,
        help="bot: random, greedy, ismcts[:KEY=VALUE,...], NAME=cmd:..., NAME=module:Class",
    )
    sprt.add_argument("--baseline", required=True, help="bot, as for --candidate")
    sprt.add_argument(
        "--field", action="append", default=[], help="bots for the other seats (3-4 players)"
    )
    sprt.add_argument("--game", default="rumble-nation", help="game name (default rumble-nation)")
    sprt.add_argument("--variant", default="", help="variant (default: the game's first)")
    sprt.add_argument("--players", type=int, default=2, help="players per match (default 2)")
    sprt.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. towns=1,3 or content=pack.toml (a file; repeat)",
    )
    sprt.add_argument(
        "--elo0", type=float, default=0.0, help="H0: the candidate is elo0 better (default 0)"
    )
    sprt.add_argument(
        "--elo1", type=float, default=10.0, help="H1: the candidate is elo1 better (default 10)"
    )
    sprt.add_argument(
        "--alpha", type=float, default=0.05, help="false positive rate (default 0.05)"
    )
    sprt.add_argument("--beta", type=float, default=0.05, help="false negative rate (default 0.05)")
    sprt.add_argument(
        "--max-games", type=int, default=20_000, help="stop undecided after this many games"
    )
    add_seed_flag(
        sprt, "base seed (default: drawn secretly; a given seed makes the run reproducible)"
    )
    sprt.add_argument("--concurrency", type=int, default=2, help="matches at once (default 2)")
    sprt.add_argument(
        "--decision-ms",
        type=int,
        default=1000,
        help="free time per decision (default 1000; a search bot plans on it)",
    )
    sprt.add_argument(
        "--bank-ms", type=int, default=10_000, help="time bank per seat (default 10000)"
    )
    sprt.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from tournament.config import (
        ConfigError,
        TournamentConfig,
        option_flags,
        parse_bot,
        parse_options,
        validate,
    )
    from tournament.ratings import Sprt
    from tournament.sprt_run import run_sprt

    if args.players == 1:
        raise UsageError(
            "the SPRT needs an opponent to finish above, and a solo game (--players 1) has "
            "none: compare solo bots with kassen tournament run --players 1 (scores paired by seed)"
        )
    try:
        candidate, baseline = parse_bot(args.candidate), parse_bot(args.baseline)
        field = tuple(parse_bot(f) for f in args.field)
        if candidate.name == baseline.name:
            raise ConfigError("candidate and baseline need different names (use NAME=...)")
        config = TournamentConfig(
            game=args.game,
            variant=args.variant,
            players=args.players,
            bots=(candidate, baseline, *field),
            seed=args.seed,
            concurrency=args.concurrency,
            decision_ms=args.decision_ms,
            bank_ms=args.bank_ms,
            options=parse_options(option_flags(args.option), Path.cwd(), "--option"),
        )
        if len(field) < args.players - 2:
            raise ConfigError(
                f"{args.players}-player games need at least {args.players - 2} --field bots"
            )
        validate(config)
        config = config.with_seed()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    try:
        test = Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as exc:  # elo0, elo1, alpha or beta out of range: the test says which
        raise UsageError(str(exc)) from None
    from server.logs import configure

    configure("warning", json=False)
    print(
        f"SPRT {candidate.name} vs {baseline.name}: H0 elo <= {args.elo0:g}, H1 elo >= {args.elo1:g}, "
        f"alpha {args.alpha:g}, beta {args.beta:g}; bounds [{test.lower:.3f}, {test.upper:.3f}]; "
        f"scored per seed block of {args.players} games"
    )
    if not config.secret_seed:
        print(
            f"seed {config.seed} was given: this run is reproducible, so its chance is not secret"
        )

    def report(t: Sprt) -> None:
        if t.blocks % 20 == 0:
            print(f"  blocks {t.blocks:6d}  games {t.games:6d}  LLR {t.llr:+.3f}", file=sys.stderr)

    try:
        with numerical_failures("SPRT failed"):
            asyncio.run(
                run_sprt(
                    config, candidate.name, baseline.name, test, args.max_games, on_result=report
                )
            )
    except KeyboardInterrupt:
        print("kassen: interrupted", file=sys.stderr)
        return 130
    verdict = {"H1": "accepted H1: the candidate is better", "H0": "accepted H0: not better"}.get(
        test.verdict or "", "no decision within --max-games"
    )
    print(f"blocks {test.blocks}, games {test.games}, LLR {test.llr:+.3f}: {verdict}")
    print("LLR trajectory: " + " ".join(f"{v:+.2f}" for v in sampled(test.trajectory)))
    return 0


def sampled(values: Sequence[float], points: int = TRAJECTORY_POINTS) -> list[float]:
    """About ``points`` evenly spaced values, always ending with the last one (the LLR the
    verdict quotes)."""
    if not values:
        return []
    step = max(1, -(-len(values) // points))
    picked = list(values[::step])
    if (len(values) - 1) % step:
        picked.append(values[-1])
    return picked
