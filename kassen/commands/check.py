"""``kassen bot check -- COMMAND ...``: the conformance kit for bot authors (server/conformance.py).

One line per check. The bot's error (what the referee recorded: a crash and its stderr, a
timeout, ...) is shown in full the first time; a later check failing with the same error says
so in a word, so one broken start does not fill the screen with the same message.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from kassen.errors import UsageError

if TYPE_CHECKING:
    from server.conformance import Check

#: The groups of checks (server.conformance.GROUPS, which imports the referee).
GROUPS = ("games", "kinds", "probe", "deadline")


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = actions.add_parser(
        "check",
        help="run a bot program through the conformance battery",
        description="Launch the bot program as a referee would (KASSEN_ADDRESS in its"
        " environment, its ticket in the file named by KASSEN_TICKET_FILE) through whole"
        " games, every kind of decision, a stale request, a dropped stream, a tight deadline"
        " and a clean exit. Exit code 1 if any check fails.",
    )
    check.add_argument(
        "--game", default="rumble-nation", help="the game to check (default rumble-nation)"
    )
    check.add_argument(
        "--decision-ms",
        type=int,
        default=2000,
        metavar="MS",
        help="clock per decision in the ordinary checks (default 2000)",
    )
    check.add_argument(
        "--deadline-ms",
        type=int,
        default=300,
        metavar="MS",
        help="the deadline of the timing check (default 300)",
    )
    check.add_argument(
        "--only",
        default=None,
        metavar="GROUPS",
        help=f"comma-separated groups to run: {', '.join(GROUPS)} (default all)",
    )
    check.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ...",
        help="the bot's command line, after --",
    )
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise UsageError(
            "give the bot's command after --, e.g. kassen bot check -- python mybot.py"
        )
    from server.launch import can_start

    if not can_start(command[0]):
        raise UsageError(f"cannot start {command[0]!r}: no such program")
    only = frozenset(GROUPS)
    if args.only:
        only = frozenset(g.strip() for g in args.only.split(","))
        if not only <= frozenset(GROUPS):
            unknown = ", ".join(sorted(only - frozenset(GROUPS)))
            raise UsageError(
                f"--only: unknown check group(s) {unknown} (choose from {', '.join(GROUPS)})"
            )
    for flag, value in (("--decision-ms", args.decision_ms), ("--deadline-ms", args.deadline_ms)):
        if value <= 0:
            raise UsageError(f"{flag} must be positive, not {value}")

    from games import UnknownGame, get_game

    try:
        game = get_game(args.game).name
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None

    import asyncio

    from server.conformance import Battery, run_battery
    from server.logs import configure

    configure("error", json=False)
    print(f"checking: {' '.join(command)}")
    report = Report()
    battery = asyncio.run(
        run_battery(
            Battery(
                command=command,
                game=game,
                decision_ms=args.decision_ms,
                deadline_ms=args.deadline_ms,
                only=only,
            ),
            on_check=report.show,
        )
    )
    failed = [c for c in battery.checks if not c.passed]
    print(f"{len(battery.checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


class Report:
    """Prints checks as they finish, each bot error in full only the first time."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def line(self, check: Check) -> str:
        parts = [check.detail] if check.detail else []
        if check.error in self.shown:
            parts.append(f"{check.reason}, as above")
        elif check.error:
            parts.append(check.error)
            self.shown.add(check.error)
        text = f"  {'PASS' if check.passed else 'FAIL'}  {check.name}"
        if parts:  # never more than one line per check, whatever a bot wrote on stderr
            text += "  -- " + "; ".join(" ".join(part.split()) for part in parts)
        return text

    def show(self, check: Check) -> None:
        print(self.line(check))
        sys.stdout.flush()
