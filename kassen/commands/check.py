"""``kassen bot check -- COMMAND ...``: the conformance kit for bot authors."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
from pathlib import Path

from kassen.errors import UsageError
from server.conformance import GROUPS, Battery, Check, run_battery


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = actions.add_parser("check", help="run a bot program through the conformance battery")
    check.add_argument("--game", default="rumble-nation")
    check.add_argument(
        "--decision-ms", type=int, default=2000, help="clock per decision in the ordinary checks"
    )
    check.add_argument(
        "--deadline-ms", type=int, default=300, help="the deadline of the timing check"
    )
    check.add_argument(
        "--only", default=None, help="comma-separated groups: games, kinds, probe, deadline"
    )
    check.add_argument("command", nargs=argparse.REMAINDER, help="-- then the bot's command line")
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise UsageError(
            "give the bot's command after --, e.g. kassen bot check -- python mybot.py"
        )
    if shutil.which(command[0]) is None and not Path(command[0]).is_file():
        raise UsageError(f"cannot start {command[0]!r}: no such program")
    only = GROUPS
    if args.only:
        only = frozenset(g.strip() for g in args.only.split(","))
        if not only <= GROUPS:
            raise UsageError(
                f"unknown check group(s) {', '.join(sorted(only - GROUPS))} (choose from {', '.join(sorted(GROUPS))})"
            )
    from server.logs import configure

    configure("error", json=False)
    print(f"checking: {' '.join(command)}")

    def show(check: Check) -> None:
        mark = "PASS" if check.passed else "FAIL"
        print(f"  {mark}  {check.name}" + (f"  -- {check.detail}" if check.detail else ""))
        sys.stdout.flush()

    battery = asyncio.run(
        run_battery(
            Battery(
                command=command,
                game=args.game,
                decision_ms=args.decision_ms,
                deadline_ms=args.deadline_ms,
                only=only,
            ),
            on_check=show,
        )
    )
    failed = [c for c in battery.checks if not c.passed]
    print(f"{len(battery.checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
