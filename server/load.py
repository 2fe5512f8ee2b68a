"""How responsive the referee's event loop is: its lag, and the server time of each decision.

Everything a referee does for a match runs on one event loop, so anything that holds the loop
(a slow handler, a synchronous database call, a thread holding the GIL) delays every
decision of every match. Two figures tell whether that happens:

- **loop lag**: a sleeper asks to be woken every ``SAMPLE_S``; how late it wakes is how long
  the loop was held by something else just then;
- **decision server time**: the referee's own work per decision (building a request,
  applying an answer), recorded by ``server.match`` into ``DECISION_TIMES``.

``LoadMonitor`` logs both every ``report_s`` seconds as one ``referee_load`` line (p50, p99
and max, and the longest garbage collection of each generation, a common cause of a stall)
and warns at once (``loop_stalled``) when the loop was held longer than ``STALL_WARN_S``.
The figures are kept in fixed-size histograms, so memory never grows.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import time
from collections.abc import AsyncIterator

import structlog

log = structlog.get_logger("kassen.load")

#: How often the lag sampler asks to be woken.
SAMPLE_S = 0.01
#: A single stall at least this long is logged at once (at most every ``STALL_WARN_EVERY_S``).
STALL_WARN_S = 0.1
STALL_WARN_EVERY_S = 10.0
#: Buckets per doubling: a reported percentile is the top of its bucket, at most 19% high.
BUCKETS_PER_OCTAVE = 4
#: Values from 1 µs to about 2^30 µs (18 minutes) have a bucket of their own.
OCTAVES = 30


class Histogram:
    """Counts of microsecond values in logarithmic buckets, and the largest value."""

    def __init__(self) -> None:
        self.counts = [0] * (BUCKETS_PER_OCTAVE * OCTAVES + 1)
        self.total = 0
        self.largest = 0

    def record(self, us: int) -> None:
        index = 0 if us <= 1 else int(math.log2(us) * BUCKETS_PER_OCTAVE) + 1
        self.counts[min(index, len(self.counts) - 1)] += 1
        self.total += 1
        self.largest = max(self.largest, us)

    def percentile(self, fraction: float) -> int:
        """The top of the bucket holding the ``fraction`` quantile (0 with no values)."""
        if not self.total:
            return 0
        rank = fraction * self.total
        seen = 0
        for index, count in enumerate(self.counts):
            seen += count
            if seen >= rank and count:
                top = 1 if index == 0 else int(2 ** (index / BUCKETS_PER_OCTAVE))
                return min(top, self.largest)
        return self.largest

    def take(self) -> Histogram:
        """A copy with what was recorded so far; this one starts again empty."""
        copy = Histogram()
        copy.counts, copy.total, copy.largest = self.counts, self.total, self.largest
        self.counts = [0] * len(copy.counts)
        self.total = self.largest = 0
        return copy


#: Every decision's server time in this process, in µs (``server.match`` records into it).
DECISION_TIMES = Histogram()


class GcPauses:
    """The longest garbage collection of each generation since the last report (a full
    collection of a large heap is a pause of the whole loop)."""

    def __init__(self) -> None:
        self.longest = [0.0, 0.0, 0.0]
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            generation = info.get("generation", 2)
            took = time.perf_counter() - self._began
            self.longest[generation] = max(self.longest[generation], took)

    def take(self) -> list[float]:
        found, self.longest = self.longest, [0.0, 0.0, 0.0]
        return found


class LoadMonitor:
    """Samples the loop's lag; every ``report_s`` logs it with the decisions' server time."""

    def __init__(self, report_s: float) -> None:
        self.report_s = report_s
        self.lag = Histogram()
        self.gc = GcPauses()
        self._last_warning = -math.inf

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        next_report = loop.time() + self.report_s
        DECISION_TIMES.take()  # what happened before this monitor started is not its window
        gc.callbacks.append(self.gc)
        try:
            await self._sample(loop, next_report)
        finally:
            gc.callbacks.remove(self.gc)

    async def _sample(self, loop: asyncio.AbstractEventLoop, next_report: float) -> None:
        while True:
            asked = loop.time()
            await asyncio.sleep(SAMPLE_S)
            now = loop.time()
            lag_s = max(0.0, now - asked - SAMPLE_S)
            self.lag.record(int(lag_s * 1e6))
            if lag_s >= STALL_WARN_S and now - self._last_warning >= STALL_WARN_EVERY_S:
                self._last_warning = now
                log.warning("loop_stalled", stalled_ms=round(lag_s * 1000, 1))
            if now >= next_report:
                next_report = now + self.report_s
                self.report()

    def report(self) -> None:
        lag, decisions = self.lag.take(), DECISION_TIMES.take()
        gc_ms = [round(s * 1000, 1) for s in self.gc.take()]
        log.info(
            "referee_load",
            window_s=self.report_s,
            lag_p50_ms=lag.percentile(0.5) / 1000,
            lag_p99_ms=lag.percentile(0.99) / 1000,
            lag_max_ms=lag.largest / 1000,
            decisions=decisions.total,
            decision_p50_us=decisions.percentile(0.5),
            decision_p99_us=decisions.percentile(0.99),
            decision_max_us=decisions.largest,
            gc_longest_ms=gc_ms,
        )


@contextlib.asynccontextmanager
async def monitoring(report_s: float) -> AsyncIterator[LoadMonitor | None]:
    """A ``LoadMonitor`` on this loop while the block runs (none for ``report_s`` 0)."""
    if report_s <= 0:
        yield None
        return
    monitor = LoadMonitor(report_s)
    task = asyncio.get_running_loop().create_task(monitor.run())
    try:
        yield monitor
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
