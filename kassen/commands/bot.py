"""``kassen bot run BOT``: play the seat given by KASSEN_ADDRESS and the ticket (the file named
by KASSEN_TICKET_FILE, as a launched bot has it, else KASSEN_TICKET) with a bot
(over TLS when ``--tls-ca`` or KASSEN_TLS_CA names the CA of the referee's certificate).
``kassen bot check`` is kassen/commands/check.py."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kassen.commands import check
from kassen.commands.credentials import add_ca_flag, tls_ca
from kassen.errors import UsageError
from kassen.seeds import add_seed_flag


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bot = sub.add_parser("bot", help="run a bot on a referee's seat, or check a bot program")
    actions = bot.add_subparsers(dest="action", required=True)
    run_parser = actions.add_parser("run", help="play one seat with a bot")
    run_parser.add_argument("bot", help="random, greedy, module:Class or file.py:Class")
    run_parser.add_argument(
        "--address", default=None, help="referee host:port (default $KASSEN_ADDRESS)"
    )
    run_parser.add_argument(
        "--ticket",
        default=None,
        help="seat ticket (default: read from the file named by $KASSEN_TICKET_FILE, else "
        "$KASSEN_TICKET; on a command line other processes can read it)",
    )
    add_seed_flag(run_parser, "seed of a bundled bot (default: random)")
    add_ca_flag(run_parser, "PEM CA of the referee's TLS certificate; none: plaintext")
    run_parser.set_defaults(run=run)
    ladder = actions.add_parser(
        "ladder", help="keep a bot on a ladder: seek matches, play them, seek again"
    )
    ladder.add_argument("bot", help="random, greedy, module:Class or file.py:Class")
    ladder.add_argument(
        "--token-file", required=True, help="the file kassen ladder register saved the token in"
    )
    ladder.add_argument(
        "--address",
        default="127.0.0.1:50061",
        help="the ladder's host:port (default 127.0.0.1:50061)",
    )
    ladder.add_argument(
        "--concurrency", type=int, default=1, help="matches at once, 1-16 (default 1)"
    )
    ladder.add_argument(
        "--matches", type=int, default=None, help="stop after this many (default: run until Ctrl-C)"
    )
    add_ca_flag(ladder, "PEM CA of the ladder's TLS certificate; none: plaintext")
    ladder.set_defaults(run=run_ladder)
    check.add_parser(actions)


def run(args: argparse.Namespace) -> int:
    from client_sdk import BotError, run_bot
    from client_sdk.loading import BotNotFound, load_bot
    from client_sdk.ticket import TicketError, seat_ticket

    address = args.address or os.environ.get("KASSEN_ADDRESS", "")
    if not address:
        raise UsageError("no referee address (give --address or set KASSEN_ADDRESS)")
    try:
        ticket = args.ticket or seat_ticket()
    except TicketError as exc:
        raise UsageError(str(exc)) from None
    ca = tls_ca(args.tls_ca)
    try:
        bot = load_bot(args.bot, args.seed)
    except BotNotFound as exc:
        raise UsageError(str(exc)) from None
    try:
        result = run_bot(bot, address, ticket, tls_ca=ca[0] if ca else None)
    except BotError as exc:
        print(f"kassen: bot: {exc}", file=sys.stderr)
        return 1
    mine = [s for s in result.seats if s.bot_name == bot.name]
    rank = f", rank {mine[0].rank}" if len(mine) == 1 else ""
    print(f"match {result.match_id} over{rank}", file=sys.stderr)
    return 0


def run_ladder(args: argparse.Namespace) -> int:
    import asyncio

    from client_sdk import BotError
    from client_sdk.ladder import seek_and_play
    from client_sdk.loading import BotNotFound, load_bot
    from kassen.commands.ladder_output import match_line, retry_line, summary_line

    if not 1 <= args.concurrency <= 16:
        raise UsageError(f"--concurrency must be between 1 and 16, not {args.concurrency}")
    if args.matches is not None and args.matches < 1:
        raise UsageError(f"--matches must be at least 1, not {args.matches}")
    try:
        token = Path(args.token_file).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"--token-file {args.token_file}: {getattr(exc, 'strerror', exc)}"
        ) from None
    if not token:
        raise UsageError(f"--token-file {args.token_file} is empty")
    try:
        load_bot(args.bot, None)  # a bad bot name fails here, before connecting
    except BotNotFound as exc:
        raise UsageError(str(exc)) from None
    ca = tls_ca(args.tls_ca)

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        done = asyncio.run(
            seek_and_play(
                lambda: load_bot(args.bot, None),
                args.address,
                token,
                concurrency=args.concurrency,
                max_matches=args.matches,
                tls_ca=ca[0] if ca else None,
                on_match=lambda played: say(match_line(played)),
                on_retry=lambda retry: say(f"kassen: bot: {retry_line(retry)}"),
            )
        )
    except BotError as exc:
        print(f"kassen: bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    say(summary_line(done))
    return 0
