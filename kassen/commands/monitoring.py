"""The ``--load-report-s`` flag of the commands that run a referee (``kassen serve``,
``kassen ladder serve``): how often the loop's lag and the decisions' server time are logged
(``server.load``)."""

from __future__ import annotations

import argparse

from kassen.errors import UsageError

DEFAULT_LOAD_REPORT_S = 60.0
MAX_LOAD_REPORT_S = 86_400.0


def add_load_report_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--load-report-s",
        type=float,
        default=DEFAULT_LOAD_REPORT_S,
        metavar="SECONDS",
        help="log the event loop's lag and the decisions' server time (p50, p99, max) every "
        f"SECONDS as a referee_load line; 0: never (default {DEFAULT_LOAD_REPORT_S:g})",
    )


def load_report_s(args: argparse.Namespace) -> float:
    value = float(args.load_report_s)
    if not (value == 0 or 0.1 <= value <= MAX_LOAD_REPORT_S):
        raise UsageError(
            f"--load-report-s must be 0 or from 0.1 to {MAX_LOAD_REPORT_S:g}, not {value:g}"
        )
    return value
