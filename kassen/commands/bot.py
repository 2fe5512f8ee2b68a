"""``kassen bot run BOT``: play the seat in KASSEN_ADDRESS / KASSEN_TICKET with a bot
(over TLS when ``--tls-ca`` or KASSEN_TLS_CA names the CA of the referee's certificate).
``kassen bot check`` is kassen/commands/check.py."""

from __future__ import annotations

import argparse
import os
import sys

from kassen.commands import check
from kassen.commands.credentials import add_ca_flag, tls_ca
from kassen.errors import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bot = sub.add_parser("bot", help="run a bot on a referee's seat, or check a bot program")
    actions = bot.add_subparsers(dest="action", required=True)
    run_parser = actions.add_parser("run", help="play one seat with a bot")
    run_parser.add_argument("bot", help="random, greedy, module:Class or file.py:Class")
    run_parser.add_argument(
        "--address", default=None, help="referee host:port (default $KASSEN_ADDRESS)"
    )
    run_parser.add_argument("--ticket", default=None, help="seat ticket (default $KASSEN_TICKET)")
    run_parser.add_argument("--seed", type=int, default=None, help="seed of a bundled bot")
    add_ca_flag(run_parser, "PEM CA of the referee's TLS certificate; none: plaintext")
    run_parser.set_defaults(run=run)
    check.add_parser(actions)


def run(args: argparse.Namespace) -> int:
    from client_sdk import BotError, run_bot
    from client_sdk.loading import BotNotFound, load_bot

    address = args.address or os.environ.get("KASSEN_ADDRESS", "")
    ticket = args.ticket or os.environ.get("KASSEN_TICKET", "")
    if not address or not ticket:
        raise UsageError("no referee address or seat ticket (set KASSEN_ADDRESS and KASSEN_TICKET)")
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
