"""Per-client rate limits: a token bucket per key, with a bounded number of keys.

Used for registrations (a client cannot mint thousands of bots) and Seek reconnects. Keys are
client hosts; the table forgets the least recently seen keys beyond ``max_keys``, so a flood
of distinct addresses costs bounded memory (and each forgotten key only gets a fresh burst).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimiter:
    def __init__(
        self,
        burst: int,
        per_second: float,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if burst < 1 or per_second <= 0:
            raise ValueError("a rate limit needs burst >= 1 and a positive rate")
        self.burst = burst
        self.per_second = per_second
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Take one token from ``key``'s bucket; False when it is empty."""
        now = self._clock()
        tokens, last = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` has a token again (0 if it has one now)."""
        tokens, _ = self._buckets.get(key, (float(self.burst), 0.0))
        return max(0.0, (1.0 - tokens) / self.per_second)
