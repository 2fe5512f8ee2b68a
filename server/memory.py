"""Handing freed memory back to the operating system once spectators have left.

gRPC reads and writes streams on threads of its own, and glibc gives each such thread an
arena of its own; when many streams end, their memory is freed in those arenas but kept
there for reuse, so the referee's resident size stays near its peak although nothing holds
that memory any more (1,000 spectators leaving left about 15 MB in them; docs/performance.md,
"Spectators"). ``malloc_trim(0)`` returns the free pages of every arena. It runs once, a
second after the last of a burst of spectators left (gRPC frees a stream's memory only after
its handler has returned), never per message, and not at all where the C library is not
glibc.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import time
from collections.abc import Callable

#: How long after the last request a trim runs (requests in the meantime postpone it), and
#: the longest a steady trickle of requests can postpone it.
TRIM_DELAY_S = 1.0
TRIM_LATEST_S = 10.0


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018  (glibc only: AttributeError elsewhere)
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    result: Callable[[int], int] = trim
    return result


_TRIM = _malloc_trim()


class _Trimmer:
    """One pending trim at a time, run ``TRIM_DELAY_S`` after the last request."""

    def __init__(self) -> None:
        self.timer: asyncio.TimerHandle | None = None
        self.due = 0.0
        self.first = 0.0
        self.trims = 0

    def request(self) -> None:
        now = time.monotonic()
        self.due = now + TRIM_DELAY_S
        if self.timer is None:
            self.first = now
            self.timer = asyncio.get_running_loop().call_later(TRIM_DELAY_S, self.run)

    def run(self) -> None:
        now = time.monotonic()
        if now < self.due and now - self.first < TRIM_LATEST_S:
            self.timer = asyncio.get_running_loop().call_later(self.due - now, self.run)
            return
        self.timer = None
        if _TRIM is not None:
            _TRIM(0)
            self.trims += 1


_trimmer = _Trimmer()


def return_freed_memory_soon() -> None:
    """Ask for a trim: it runs once the requests stop for ``TRIM_DELAY_S`` (glibc only)."""
    if _TRIM is not None:
        _trimmer.request()
