from __future__ import annotations

import pytest

from tournament.ladder_service.rate_limit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_per_refill_period() -> None:
    clock = Clock()
    limiter = RateLimiter(burst=3, per_second=0.5, clock=clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.retry_after("a") == pytest.approx(2.0)
    clock.now = 2.0
    assert limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")  # another client has its own bucket


def test_the_table_of_clients_is_bounded() -> None:
    limiter = RateLimiter(burst=1, per_second=1.0, max_keys=100, clock=Clock())
    for i in range(10_000):
        limiter.allow(f"client-{i}")
    assert len(limiter._buckets) == 100


def test_nonsense_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="burst >= 1"):
        RateLimiter(burst=0, per_second=1.0)
