"""The same storage on a real PostgreSQL server, started by the test itself."""

from __future__ import annotations

import pytest

from tests.tournament import postgres
from tournament import storage

pytestmark = pytest.mark.skipif(postgres.missing() is not None, reason=str(postgres.missing()))


def test_storage_on_postgresql() -> None:
    with postgres.postgres_server() as url:
        engine = storage.connect(url)
        storage.create_tournament(
            engine,
            "tp",
            name="pg",
            game="rumble-nation",
            variant="base",
            players=2,
            format="round-robin",
            base_seed=1,
            config={},
            bot_rows=[("a", "random", "h"), ("b", "greedy", "h")],
            scheduled=[(0, 0, 2**62, ("a", "b"))],
        )
        record = storage.MatchRecord(0, 0, 2**62, ("a", "b"), "done", "completed", 30, 1.0, None)
        seats = [
            storage.SeatRecord(0, "a", 1, 30, False, "completed", "", 5),
            storage.SeatRecord(1, "b", 2, 20, False, "completed", "", 7),
        ]
        storage.record_results(engine, "tp", [(record, seats)])
        (loaded,) = storage.load_matches(engine, "tp")
        assert loaded.seed == 2**62 and loaded.ranking == ["a", "b"] and loaded.status == "done"
        engine.dispose()
        assert storage.load_tournament(storage.connect(url), "tp") is not None  # reopened, migrated


def test_processes_that_open_a_fresh_database_at_once_do_not_collide() -> None:
    """A driver and a reader (or two ladders' pages) creating the tables at the same moment:
    PostgreSQL's CREATE TABLE races in its catalogue even with IF NOT EXISTS, so the tables
    are created under an advisory lock, one process at a time."""
    import concurrent.futures

    from tournament.ladder_service import registry

    def open_both(url: str) -> None:
        registry.create_tables(storage.connect(url))

    for _ in range(3):  # each round on a fresh database: the race is at creation
        with (
            postgres.postgres_server() as url,
            concurrent.futures.ThreadPoolExecutor(8) as pool,
        ):
            for done in [pool.submit(open_both, url) for _ in range(8)]:
                done.result()  # raised UniqueViolation (pg_type) without the lock
