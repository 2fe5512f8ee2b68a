"""The spectator limits of the commands that run a referee (``kassen serve``, ``kassen ladder
serve``): ``--max-watchers``, ``--max-watchers-per-match``, ``--max-watchers-per-caller``.
The ladder's web page applies the same numbers to the viewers of its live view."""

from __future__ import annotations

import argparse
from typing import TypedDict

from kassen.errors import UsageError
from server.settings import (  # constants only
    DEFAULT_MAX_WATCHERS,
    DEFAULT_MAX_WATCHERS_PER_CALLER,
    DEFAULT_MAX_WATCHERS_PER_MATCH,
    WATCHERS_RANGE,
)

FLAGS = (
    (
        "--max-watchers",
        DEFAULT_MAX_WATCHERS,
        "spectators (Watch streams) at once in each referee process",
    ),
    ("--max-watchers-per-match", DEFAULT_MAX_WATCHERS_PER_MATCH, "spectators of one match at once"),
    (
        "--max-watchers-per-caller",
        DEFAULT_MAX_WATCHERS_PER_CALLER,
        "spectators at once from one client host (a relay with the relay token is not counted)",
    ),
)


def add_watcher_flags(parser: argparse.ArgumentParser) -> None:
    for flag, default, what in FLAGS:
        parser.add_argument(flag, type=int, default=default, help=f"{what} (default {default})")


class WatcherLimits(TypedDict):
    """The three limits as ``ServerSettings`` fields."""

    max_watchers: int
    max_watchers_per_match: int
    max_watchers_per_caller: int


def watcher_limits(args: argparse.Namespace) -> WatcherLimits:
    """The three limits given; one line naming a flag out of bounds."""
    low, high = WATCHERS_RANGE
    for flag, _default, _what in FLAGS:
        value = int(getattr(args, flag.removeprefix("--").replace("-", "_")))
        if not low <= value <= high:
            raise UsageError(f"{flag} must be between {low} and {high}, not {value}")
    return WatcherLimits(
        max_watchers=args.max_watchers,
        max_watchers_per_match=args.max_watchers_per_match,
        max_watchers_per_caller=args.max_watchers_per_caller,
    )
