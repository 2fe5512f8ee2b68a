"""Storage: schema, schedule kept in the database, results stored atomically, errors named."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from tournament import storage


def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'k.sqlite'}"


def seat(i: int, bot: str, rank: int) -> storage.SeatRecord:
    return storage.SeatRecord(i, bot, rank, 10 * (3 - rank), False, "completed", "", 1000)


def test_schedule_and_results_round_trip(tmp_path: Path) -> None:
    engine = storage.connect(url(tmp_path))
    storage.create_tournament(
        engine,
        "t1",
        name="n",
        game="rumble-nation",
        variant="base",
        players=2,
        format="round-robin",
        base_seed=5,
        config={"x": 1},
        bot_rows=[("a", "random", "h1"), ("b", "greedy", "h2")],
        scheduled=[(0, 0, 11, ("a", "b")), (1, 0, 11, ("b", "a"))],
    )
    loaded = storage.load_matches(engine, "t1")
    assert [(m.idx, m.seed, m.seats, m.status) for m in loaded] == [
        (0, 11, ("a", "b"), "pending"),
        (1, 11, ("b", "a"), "pending"),
    ]
    done = storage.MatchRecord(0, 0, 11, ("a", "b"), "done", "completed", 40, 3.5, None)
    storage.record_results(engine, "t1", [(done, [seat(0, "a", 2), seat(1, "b", 1)])])
    first, second = storage.load_matches(engine, "t1")
    assert first.status == "done" and first.reason == "completed" and first.ranking == ["b", "a"]
    assert second.status == "pending" and second.results == ()
    # Recording the same match again (a rerun after a crash) replaces, never duplicates.
    storage.record_results(engine, "t1", [(done, [seat(0, "a", 1), seat(1, "b", 2)])])
    assert storage.load_matches(engine, "t1")[0].ranking == ["a", "b"]
    assert storage.load_bots(engine, "t1") == [("a", "random", "h1"), ("b", "greedy", "h2")]
    assert storage.latest_tournament(engine) == "t1"
    storage.set_status(engine, "t1", "finished")
    row = storage.load_tournament(engine, "t1")
    assert row is not None and row["status"] == "finished" and row["finished_at"]


def test_reopening_keeps_everything_and_newer_schemas_are_refused(tmp_path: Path) -> None:
    engine = storage.connect(url(tmp_path))
    storage.create_tournament(
        engine,
        "t2",
        name="n",
        game="g",
        variant="v",
        players=2,
        format="swiss",
        base_seed=1,
        config={},
        bot_rows=[("a", "random", "h")],
    )
    again = storage.connect(url(tmp_path))
    assert storage.load_tournament(again, "t2") is not None
    with again.begin() as conn:
        conn.execute(sa.update(storage.schema_version).values(version=storage.SCHEMA_VERSION + 1))
    with pytest.raises(storage.StorageError, match="schema"):
        storage.connect(url(tmp_path))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("nosuchdb://x", "cannot use database URL"),
        ("postgresql+psycopg://nobody@127.0.0.1:1/none", "cannot open database"),
        ("sqlite:////nonexistent-dir/x/y.sqlite", "cannot open database"),
    ],
)
def test_unusable_database_urls_are_named(bad: str, message: str) -> None:
    with pytest.raises(storage.StorageError, match=message):
        storage.connect(bad)
