"""The ``kassen`` command line.

Exit codes, the same for every command: 0 done; 1 a failure (a replay that does not verify,
a bot that fails a check, a referee that refuses or cannot be reached, a ladder or an SPRT
that cannot be computed, a file that cannot be written for want of room, a database that
fails while the command works); 2 a usage error (a bad argument, a file, database or
tournament that does not exist or is not what the command reads, a damaged database among
them: fix the command line and run it again); 130 interrupted. A usage error or a failure is
one line on stderr; a missing command lists the commands.

The parsers are built from light modules (no gRPC, SQLAlchemy, numpy or SDK at import time),
so ``kassen --help`` is quick; each command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from kassen.commands import bot, demo, match, play, replay, serve, tournament
from kassen.errors import NumericalError, UsageError, WriteFailed

OK = 0
FAILURE = 1
USAGE_ERROR = 2
INTERRUPTED = 130

COMMANDS = (demo, play, match, serve, bot, replay, tournament)
#: A write refused for want of room: a failure in one line, wherever a command meets it.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


class MissingCommand(UsageError):
    """A command (or a command's action, like ``kassen bot``) was not named: list the choices."""

    def __init__(self, prog: str, choices: list[tuple[str, str]]) -> None:
        super().__init__(f"{prog} needs a command")
        self.prog = prog
        self.choices = choices

    def listing(self) -> str:
        width = max(len(name) for name, _ in self.choices)
        lines = [f"kassen: error: {self.prog} needs a command, one of:"]
        lines += [f"  {name:<{width}}  {what}" for name, what in self.choices]
        lines.append(f"'{self.prog} COMMAND --help' describes a command and its options")
        return "\n".join(lines)


class Parser(argparse.ArgumentParser):
    """Every ``kassen`` parser, subcommands included (``add_subparsers`` makes its subparsers of
    the parent's class): no prefix matching of options (``--player 4`` is an error, not
    ``--players 4``), and errors raised as ``UsageError`` rather than printed."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        commands = self._commands()
        if commands is not None and message == (
            f"the following arguments are required: {argparse._get_action_name(commands)}"
        ):
            helps = {choice.dest: choice.help or "" for choice in commands._get_subactions()}
            raise MissingCommand(
                self.prog, [(name, helps.get(name, "")) for name in commands.choices]
            )
        raise UsageError(message)

    def _commands(self) -> argparse._SubParsersAction[Any] | None:
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return action
        return None


def _wide(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, max_help_position=32)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="kassen",
        description="Kassen: board-game bot competitions over gRPC.",
        epilog="'kassen COMMAND --help' describes a command and its options. "
        "Exit codes: 0 done, 1 failure, 2 usage error, 130 interrupted.",
        formatter_class=_wide,
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", title="commands", parser_class=Parser
    )
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code = int(args.run(args))
        sys.stdout.flush()  # output sent to a file on a full disk fails here, not at exit
        return code
    except MissingCommand as exc:
        print(exc.listing(), file=sys.stderr)
        return USAGE_ERROR
    except UsageError as exc:
        print(f"kassen: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except (NumericalError, WriteFailed) as exc:
        print(f"kassen: {exc}", file=sys.stderr)
        return FAILURE
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        sys.stderr.close()
        return OK
    except OSError as exc:
        if exc.errno not in DISK_FULL:
            raise
        print(f"kassen: cannot write {_where(exc)}: {exc.strerror}", file=sys.stderr)
        _drop_output()
        return FAILURE
    except KeyboardInterrupt:
        return INTERRUPTED


def _where(exc: OSError) -> str:
    """The file a refused write was for, or the command's output (stdout sent to a file)."""
    return str(exc.filename) if exc.filename else "the output"


def _drop_output() -> None:
    """Discard what stdout still holds, so Python's flush at exit does not fail a second time
    with a traceback of its own."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
