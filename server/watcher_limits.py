"""How many spectators a referee process serves: per match, per caller and in all.

Every ``Watch`` stream holds a gRPC stream and costs the event loop one message per
publication of its match (server/public_record.py); without limits, one client opening
streams in a loop takes the memory of the process and the time of every match on it. The
caller is the client's host (forwarded by ``kassen serve --workers``); a trusted relay (the
ladder's web page, presenting ``ServerSettings.relay_token``) is counted per match and per
process only, since it fans one stream out to many viewers itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from server.settings import ServerSettings


class TooManyWatchers(RuntimeError):
    """A new spectator would go beyond a limit (the message names it and its flag)."""


class WatcherLimits:
    """The spectators of one referee process, counted per match and per caller."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.total = 0
        self.by_match: dict[str, int] = {}
        self.by_caller: dict[str, int] = {}

    def admit(self, match_id: str, caller: str | None) -> None:
        """Count a new spectator of ``match_id`` from ``caller`` (None: a trusted relay), or
        raise ``TooManyWatchers`` naming the limit it would exceed."""
        limits = self.settings
        checks = [
            (
                self.by_match.get(match_id, 0),
                limits.max_watchers_per_match,
                "--max-watchers-per-match",
                f"spectators watch match {match_id}",
            ),
        ]
        if caller is not None:
            checks.append(
                (
                    self.by_caller.get(caller, 0),
                    limits.max_watchers_per_caller,
                    "--max-watchers-per-caller",
                    f"spectators of {caller} are watching",
                )
            )
        checks.append(
            (
                self.total,
                limits.max_watchers,
                "--max-watchers",
                "spectators are watching on this referee process",
            )
        )
        for count, limit, flag, what in checks:
            if count >= limit:
                raise TooManyWatchers(
                    f"{count} {what}, the limit of this referee (kassen serve {flag} {limit})"
                )
        self.total += 1
        self.by_match[match_id] = self.by_match.get(match_id, 0) + 1
        if caller is not None:
            self.by_caller[caller] = self.by_caller.get(caller, 0) + 1

    def release(self, match_id: str, caller: str | None) -> None:
        """A spectator admitted with the same arguments has gone."""
        self.total -= 1
        _decrement(self.by_match, match_id)
        if caller is not None:
            _decrement(self.by_caller, caller)

    @contextlib.contextmanager
    def watching(self, match_id: str, caller: str | None) -> Iterator[None]:
        """Admitted for the block (``TooManyWatchers`` before it starts)."""
        self.admit(match_id, caller)
        try:
            yield
        finally:
            self.release(match_id, caller)


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
