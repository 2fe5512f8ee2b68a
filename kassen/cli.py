"""The ``kassen`` command line. Bad arguments give one line on stderr and exit code 2; a
numerical failure on the results (a ladder or an SPRT that cannot be computed) one line and
exit code 1."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from kassen.commands import bot, demo, match, play, replay, serve, tournament
from kassen.errors import NumericalError, UsageError

USAGE_ERROR = 2
NUMERICAL_ERROR = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kassen", description="Kassen: board-game bot competitions over gRPC.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in (demo, play, match, serve, bot, replay, tournament):
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        return int(args.run(args))
    except UsageError as exc:
        print(f"kassen: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except NumericalError as exc:
        print(f"kassen: {exc}", file=sys.stderr)
        return NUMERICAL_ERROR
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
