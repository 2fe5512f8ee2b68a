"""The ladder's database calls, off its event loop, one at a time and in order.

The loop that runs the ladder also runs every match's referee, so it must never wait for the
database: a commit that waits for the disk (or for PostgreSQL across a network) would stall
every decision of every match. Each call runs in one dedicated thread instead (sqlite3 and
psycopg release the GIL while they wait), in the order the loop asked for it: a match is
always written ``running`` before it is written ``done``, and a registration before the
bot's first match.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class DatabaseWriter:
    """``await writer.call(fn, *args)`` runs ``fn`` in the writer's thread, after every call
    made before it (from the loop's thread)."""

    def __init__(self) -> None:
        self._thread = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="kassen-ladder-db"
        )

    def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> asyncio.Future[T]:
        """Queued now (not when awaited), so calls run in the order they were made."""
        return asyncio.wrap_future(self._thread.submit(functools.partial(fn, *args, **kwargs)))

    def close(self) -> None:
        """Finish what was asked, then stop the thread."""
        self._thread.shutdown(wait=True)
