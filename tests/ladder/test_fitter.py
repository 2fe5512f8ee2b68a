"""The rating fits in their worker process: in order, coalesced, never an older table over a
newer one, a failure logged and survived, a worker that dies replaced."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Iterator

import pytest
import structlog

from tournament.ladder_service.fitter import Entry, FitWorker, PoolLog, Refitter
from tournament.ladder_service.ratings import PoolRatings, Rating


@pytest.fixture
def worker() -> Iterator[FitWorker]:
    made = FitWorker()
    yield made
    made.close()


class Tables:
    """What ``Refitter.apply`` was given, in order."""

    def __init__(self) -> None:
        self.covered: list[int] = []
        self.tables: list[list[Rating]] = []
        self.moved: list[set[str]] = []

    def __call__(self, covered: int, table: list[Rating], moved: set[str]) -> None:
        self.covered.append(covered)
        self.tables.append(table)
        self.moved.append(moved)


def results(log: PoolLog, count: int, seed: int) -> None:
    rng = random.Random(seed)
    bots = [f"bot-{i}" for i in range(12)]
    for _ in range(count):
        log.add_ranking(rng.sample(bots, log.players))


def test_a_burst_of_results_is_fitted_in_order_and_coalesced(worker: FitWorker) -> None:
    log = PoolLog(2)
    tables = Tables()
    refitter = Refitter("pool", log, worker, tables)

    async def burst() -> None:
        waits = []
        for start in range(0, 300, 10):  # results keep coming while fits run
            results(log, 10, start)
            waits.append(asyncio.create_task(refitter.refit()))
            await asyncio.sleep(0)
        await asyncio.gather(*waits)

    asyncio.run(burst())
    assert tables.covered == sorted(set(tables.covered))  # only ever newer tables
    assert tables.covered[-1] == len(log.entries)
    assert len(tables.covered) < 30  # fewer fits than requests
    expected = PoolRatings(2)
    for entry in log.entries:
        if entry.kind == "ranking":
            expected.add(entry.ranking, "")
    assert tables.tables[-1] == expected.ratings()  # the same as one fit of everything
    assert set().union(*tables.moved) == set(log.played)


def test_a_failing_fit_is_logged_once_and_the_waiters_go_on(worker: FitWorker) -> None:
    log = PoolLog(1)  # a solo pool takes scores; a ranking there cannot be fitted
    tables = Tables()
    refitter = Refitter("solo", log, worker, tables)
    log.add_score("alone", 3.0)

    async def good_then_bad() -> None:
        await refitter.refit()
        log.entries.append(Entry("ranking", ranking=("alone",)))
        await asyncio.wait_for(refitter.refit(), 60)  # returns: it is not stuck

    with structlog.testing.capture_logs() as logged:
        asyncio.run(good_then_bad())
    failures = [e for e in logged if e["event"] == "rating refit failed"]
    assert len(failures) == 1 and "ValueError" in failures[0]["error"]
    assert failures[0]["pool"] == "solo"
    assert tables.covered == [2] and refitter.failures == 1  # the good table stays


def test_a_worker_that_dies_is_replaced_and_sent_everything_again(worker: FitWorker) -> None:
    log = PoolLog(2)
    tables = Tables()
    refitter = Refitter("pool", log, worker, tables)

    async def fit_kill_fit() -> int:
        results(log, 50, 1)
        await refitter.refit()
        pid = await asyncio.get_running_loop().run_in_executor(worker._executor(), os.getpid)
        os.kill(pid, signal.SIGKILL)
        results(log, 50, 2)
        await refitter.refit()
        return pid

    dead = asyncio.run(fit_kill_fit())
    assert dead != os.getpid() and tables.covered[-1] == len(log.entries)
    assert refitter.failures == 0
    expected = PoolRatings(2)
    for entry in log.entries:
        if entry.kind == "ranking":
            expected.add(entry.ranking, "")
    assert tables.tables[-1] == expected.ratings()
