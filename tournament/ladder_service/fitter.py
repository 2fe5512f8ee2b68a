"""Rating refits in a process of their own, on a copy of each pool's results.

A pool's table is refitted after its results change. The fit is numpy and Python, and in a
thread of the ladder's process it held the GIL long enough to stall the event loop that runs
every match (100 ms at a time with 100,000 two-player results; ``benchmarks/ladder.py``).
So the fits run in one worker process (at a lower priority, so matches come first), which
keeps its own copy of every pool's results: the loop appends each new result to the pool's
log (``PoolLog``) and a fit sends only what the worker has not seen yet. The worker never
reads what the loop is changing, so a fit cannot see a half-written result.

``Refitter`` runs one pool's fits in order: at most one at a time, each over every result
logged when it began, so a burst of results costs one or two fits, not one each, and a table
is only ever replaced by a fit that saw more results. A fit that fails is logged once with
its cause and leaves the previous table; a worker that dies is started again and sent every
result again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import NamedTuple

import structlog

from tournament.ladder_service.ratings import PoolRatings, Rating
from tournament.ratings import Placing

log = structlog.get_logger("kassen.ladder")


class Entry(NamedTuple):
    """One entry of a pool's log: a bot joined (``bot``), a ranking (best first), or a solo
    score (``bot`` and ``score``)."""

    kind: str
    bot: str = ""
    ranking: tuple[Placing, ...] = ()
    score: float = 0.0


#: How much lower the worker's scheduling priority is than the ladder's.
WORKER_NICENESS = 5
#: The longest pause between two fits of one pool while results keep coming.
PACE_S = 2.0


@dataclass(slots=True)
class PoolLog:
    """What the loop knows of one pool's results, in the order they happened."""

    players: int
    entries: list[Entry] = field(default_factory=list)
    #: Rated matches per bot (matchmaking prefers bots with few games).
    played: dict[str, int] = field(default_factory=dict)
    bots: dict[str, None] = field(default_factory=dict)

    def add_bot(self, bot_id: str) -> None:
        if bot_id not in self.bots:
            self.bots[bot_id] = None
            self.entries.append(Entry("bot", bot_id))

    def add_ranking(self, ranking: Sequence[Placing]) -> None:
        for place in ranking:
            for bot in (place,) if isinstance(place, str) else place:
                self.add_bot(bot)
                self.played[bot] = self.played.get(bot, 0) + 1
        self.entries.append(Entry("ranking", ranking=tuple(ranking)))

    def add_score(self, bot_id: str, score: float) -> None:
        self.add_bot(bot_id)
        self.played[bot_id] = self.played.get(bot_id, 0) + 1
        self.entries.append(Entry("score", bot_id, score=float(score)))

    def bots_in(self, start: int, stop: int) -> set[str]:
        """Bots with a result among ``entries[start:stop]``."""
        found: set[str] = set()
        for entry in self.entries[start:stop]:
            for place in entry.ranking:
                found.update((place,) if isinstance(place, str) else place)
            if entry.kind == "score":
                found.add(entry.bot)
        return found


# ---------------------------------------------------------------------- the worker's side

#: The worker's copy of each pool: its results so far and how many log entries they are.
_POOLS: dict[str, tuple[PoolRatings, int]] = {}


class StaleCopy(RuntimeError):
    """The worker's copy does not end where the loop thinks (a new worker): send it all."""


def _start_worker() -> None:
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def fit_in_worker(
    pool: str, players: int, start: int, entries: Sequence[Entry]
) -> tuple[int, list[Rating]]:
    """Append ``entries`` (the log from ``start`` on) to the worker's copy of ``pool`` and
    fit it; returns how many log entries the table covers, and the table."""
    ratings, seen = _POOLS.get(pool, (PoolRatings(players), 0))
    if start == 0:
        ratings, seen = PoolRatings(players), 0
    if start != seen:
        raise StaleCopy(f"the worker has {seen} entries of {pool}, not {start}")
    try:
        for entry in entries:
            if entry.kind == "bot":
                ratings.add_bot(entry.bot)
            elif entry.kind == "ranking":
                ratings.add(entry.ranking, "")
            else:
                ratings.add_score(entry.bot, entry.score)
    except Exception:
        _POOLS.pop(pool, None)  # half-applied: the next fit starts the copy again
        raise
    seen += len(entries)
    _POOLS[pool] = (ratings, seen)
    return seen, ratings.ratings()


# ---------------------------------------------------------------------- the loop's side


class FitWorker:
    """The one worker process (started on first use, again after it dies)."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        #: Per pool, how many log entries the current worker holds.
        self.sent: dict[str, int] = {}

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the ladder's process runs gRPC threads, which fork would copy
            # in whatever state they are in.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
            )
            self.sent.clear()
        return self._pool

    async def fit(self, label: str, log_: PoolLog) -> tuple[int, list[Rating]]:
        """The pool's table over its whole log as it is now."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            start = self.sent.get(label, 0)
            stop = len(log_.entries)
            entries = log_.entries[start:stop]
            try:
                done = await loop.run_in_executor(
                    self._executor(), fit_in_worker, label, log_.players, start, entries
                )
            except StaleCopy:
                self.sent[label] = 0
                if attempt == 2:
                    raise
                continue
            except BrokenProcessPool:
                self._drop()
                if attempt == 2:
                    raise
                continue
            self.sent[label] = done[0]
            return done
        raise AssertionError("not reached")

    def _drop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.sent.clear()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None


@dataclass(slots=True)
class Refitter:
    """One pool's fits: one at a time, in order, newest results first to be covered."""

    label: str
    log: PoolLog
    worker: FitWorker
    #: Called with (entries the new table covers, the table, bots whose results it adds).
    apply: Callable[[int, list[Rating], set[str]], None]
    covered: int = 0
    failures: int = 0
    fit_s: float = 0.0
    _running: asyncio.Task[None] | None = None
    _done: asyncio.Condition = field(default_factory=asyncio.Condition)
    _attempted: int = 0

    async def refit(self) -> None:
        """Returns once a fit that began after this call has ended (or failed)."""
        wanted = len(self.log.entries)
        if self._running is None or self._running.done():
            self._running = asyncio.get_running_loop().create_task(self._fits())
        async with self._done:
            await self._done.wait_for(lambda: self._attempted >= wanted)

    async def _fits(self) -> None:
        while self._attempted < len(self.log.entries):
            target = len(self.log.entries)
            began = time.perf_counter()
            covered = target
            try:
                covered, table = await self.worker.fit(self.label, self.log)
                self.fit_s = time.perf_counter() - began
                if covered > self.covered:
                    moved = self.log.bots_in(self.covered, covered)
                    self.covered = covered
                    self.apply(covered, table, moved)
            except Exception as exc:  # the previous table stays; the next result tries again
                self.failures += 1
                log.error(
                    "rating refit failed",
                    pool=self.label,
                    results=target,
                    error=f"{type(exc).__name__}: {exc}",
                )
            self._attempted = max(self._attempted, covered)
            async with self._done:
                self._done.notify_all()
            if self._attempted < len(self.log.entries):
                # Results keep coming: pause as long as the fit took (at most PACE_S), so
                # the fit worker takes at most half a core from the matches.
                await asyncio.sleep(min(self.fit_s, PACE_S))
