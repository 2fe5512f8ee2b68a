"""What keeps the ladder's records fast to read however long it runs: rating history bounded
(thinned, newest points kept whole), match lists paged by a cursor and answered from their
indexes, and an older database brought up to date. On SQLite, and on PostgreSQL where it
can be started."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tests.conftest import Depth
from tests.tournament import postgres
from tournament.ladder_service import registry
from tournament.ladder_service.ratings import Rating
from tournament.ladder_service.registry import HISTORY_POINTS, HISTORY_RECENT
from tournament.storage import connect

pytestmark = pytest.mark.system

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """One PostgreSQL server for the module (each test empties the ladder's tables)."""
    if postgres.missing() is not None:
        pytest.skip(str(postgres.missing()))
    with postgres.postgres_server() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        made = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    else:
        made = connect(request.getfixturevalue("postgres_url"))
        registry.metadata.drop_all(made)
    registry.create_tables(made)
    yield made
    made.dispose()


def a_bot(engine: Engine, name: str = "alpha") -> str:
    bot, _ = registry.register_bot(
        engine, name=name, owner="o", game="rumble-nation", variant="base", player_counts=(2,)
    )
    return bot.id


def times_of(engine: Engine, bot_id: str) -> list[float]:
    return [t for t, *_ in registry.rating_history(engine, bot_id, 2, limit=10**6)]


def test_history_stays_bounded_with_its_newest_points_whole(engine: Engine) -> None:
    bot = a_bot(engine)
    written: list[float] = []
    for i in range(2 * HISTORY_POINTS + 300):
        registry.add_ratings(engine, 2, [Rating(bot, 1500.0 + i, 1400.0, 1600.0, i)])
        if i % 97 == 0 or i >= 2 * HISTORY_POINTS:
            assert len(times_of(engine, bot)) <= HISTORY_POINTS
    written = [t for t, rating, *_ in registry.rating_history(engine, bot, 2, limit=10**6)]
    kept = times_of(engine, bot)
    newest = registry.rating_history(engine, bot, 2, limit=HISTORY_RECENT)
    # The newest points are every one of the last ratings written, in order.
    assert [rating for _, rating, *_ in newest] == [
        1500.0 + i
        for i in range(2 * HISTORY_POINTS + 300 - HISTORY_RECENT, 2 * HISTORY_POINTS + 300)
    ]
    first = registry.rating_history(engine, bot, 2, limit=10**6)[0]
    assert first[1] == 1500.0  # the very first point survives every thinning
    assert HISTORY_POINTS // 2 < len(kept) <= HISTORY_POINTS  # thinned, not emptied
    assert registry.rating_history(engine, bot, 2, limit=10)[-1][0] == written[-1]


@pytest.mark.parametrize("step", [97, 400])
def test_thinning_in_steps_keeps_what_one_statement_keeps(
    engine: Engine, step: int, depth: Depth
) -> None:
    """The start-up thinning of an old database (in short steps, between the matches' own
    writes) and the thinning after each new point (one statement) follow one rule."""
    if engine.dialect.name == "postgresql" and step < 400 and not depth.slow:
        # A step of a table without fresh statistics takes PostgreSQL 0.2-1 s: 53 of them.
        pytest.skip("runs with --slow: the short steps on PostgreSQL (SQLite runs them here)")
    one, steps = a_bot(engine, "one-go"), a_bot(engine, "in-steps")
    rows = [
        {"players": 2, "at": float(i), "rating": 1500.0, "low": 0.0, "high": 0.0, "games": 0}
        for i in range(5 * HISTORY_POINTS + 17)
    ]
    with engine.begin() as conn:
        for bot in (one, steps):
            conn.execute(registry.ladder_ratings.insert(), [{**r, "bot_id": bot} for r in rows])
    assert sorted(registry.series_over_bound(engine)) == sorted([(one, 2), (steps, 2)])
    with engine.begin() as conn:
        dropped = registry.thin_history(conn, one, 2)
    plan = registry.plan_thinning(engine, steps, 2, step)
    assert plan is not None and plan.stride == 7  # ceil(4,767 older points / 750 places)
    stepped = sum(registry.thin_step(engine, plan, i) for i in range(len(plan.starts)))
    kept = times_of(engine, one)
    assert times_of(engine, steps) == kept and stepped == dropped
    assert HISTORY_POINTS // 2 < len(kept) <= HISTORY_POINTS
    assert kept[-HISTORY_RECENT:] == [r["at"] for r in rows][-HISTORY_RECENT:]
    assert kept[0] == 0.0 and kept[1] == 7.0  # every seventh, from the oldest
    assert registry.series_over_bound(engine) == []
    assert registry.plan_thinning(engine, one, 2, step) is None


def test_match_lists_page_through_every_match_once(engine: Engine) -> None:
    bots = [a_bot(engine, f"bot-{i}") for i in range(4)]
    rng = random.Random(3)
    started = time.time()
    ids = []
    for i in range(57):
        match_id = f"m{i:03d}"
        registry.start_match(engine, match_id, "rumble-nation", "base", rng.sample(bots, 2))
        ids.append(match_id)
        if i % 5 == 0:  # some start at the very same time: the cursor must still move on
            with engine.begin() as conn:
                for table in (registry.ladder_matches, registry.ladder_seats):
                    column = table.c.id if table is registry.ladder_matches else table.c.match_id
                    conn.execute(
                        table.update().where(column == match_id).values(started_at=started)
                    )
    for bot in (None, bots[0]):
        seen: list[str] = []
        before = None
        while True:
            page = registry.recent_matches(engine, bot, 7, before)
            seen += [row.id for row in page]
            if len(page) < 7:
                break
            before = (page[-1].started_at, page[-1].id)
        wanted = registry.recent_matches(engine, bot, 1000)
        assert seen == [row.id for row in wanted]
        assert len(set(seen)) == len(seen)
        if bot is None:
            assert sorted(seen) == sorted(ids)
        else:
            assert all(any(s.bot_id == bot for s in row.seats) for row in wanted)


def test_the_lists_are_read_from_their_indexes(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    registry.create_tables(engine)
    with engine.connect() as conn:
        plans = {
            "newest": "SELECT id FROM ladder_matches ORDER BY started_at DESC, id DESC LIMIT 20",
            "a bot's": "SELECT match_id FROM ladder_seats WHERE bot_id = 'x' "
            "ORDER BY started_at DESC, match_id DESC LIMIT 20",
        }
        for name, query in plans.items():
            plan = " ".join(
                str(row[-1]) for row in conn.execute(sa.text(f"EXPLAIN QUERY PLAN {query}"))
            )
            assert "USING INDEX" in plan and "SCAN ladder_matches\n" not in plan, (name, plan)


def test_an_older_database_is_brought_up_to_date(tmp_path: Path) -> None:
    """Seats written before they carried their match's start get it; indexes are added."""
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    registry.create_tables(engine)
    bot = a_bot(engine)
    registry.start_match(engine, "old-match", "rumble-nation", "base", [bot, bot])
    with engine.begin() as conn:
        conn.execute(sa.text("DROP INDEX ladder_seats_bot_started"))
        conn.execute(sa.text("DROP INDEX ladder_matches_started"))
        conn.execute(sa.text("ALTER TABLE ladder_seats DROP COLUMN started_at"))
    registry.create_tables(engine)
    names = {i["name"] for i in sa.inspect(engine).get_indexes("ladder_seats")}
    names |= {i["name"] for i in sa.inspect(engine).get_indexes("ladder_matches")}
    assert {"ladder_seats_bot_started", "ladder_matches_started"} <= names
    (row,) = registry.recent_matches(engine, bot, 5)
    assert row.id == "old-match"
    with engine.connect() as conn:
        assert (
            conn.execute(
                sa.select(registry.ladder_seats.c.started_at).where(
                    registry.ladder_seats.c.started_at.is_(None)
                )
            ).first()
            is None
        )
