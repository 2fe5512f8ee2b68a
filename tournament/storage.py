"""Tournament storage through SQLAlchemy Core: a SQLite file by default, PostgreSQL by URL.

One schema, versioned in ``schema_version``; a newer schema than this code knows is refused,
an older one is migrated forward step by step (``MIGRATIONS``). Every match is written as
``pending`` when its tournament (or Swiss round) is scheduled, so the schedule itself lives in
the database; a match becomes ``done`` in the same transaction that stores its seat results.
A tournament stopped at any moment therefore resumes by running what is not ``done``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

SCHEMA_VERSION = 1

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("format", sa.String(32), nullable=False),
    sa.Column("base_seed", sa.BigInteger, nullable=False),
    sa.Column("config_json", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float),
)

bots = sa.Table(
    "bots",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("version_hash", sa.String(64), nullable=False),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats_json", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("reason", sa.String(32)),
    sa.Column("decisions", sa.Integer),
    sa.Column("duration_ms", sa.Float),
    sa.Column("replay_path", sa.Text),
    sa.Column("finished_at", sa.Float),
    sa.Index("matches_status", "tournament_id", "status"),
)

seat_results = sa.Table(
    "seat_results",
    metadata,
    sa.Column("tournament_id", sa.String(32), primary_key=True),
    sa.Column("match_idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("bot", sa.String(200), nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("forfeited", sa.Boolean, nullable=False),
    sa.Column("reason", sa.String(32), nullable=False),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("think_time_us", sa.BigInteger, nullable=False),
    sa.ForeignKeyConstraint(
        ["tournament_id", "match_idx"], ["matches.tournament_id", "matches.idx"]
    ),
)

#: Forward migrations: version -> statements taking the schema from version-1 to version.
MIGRATIONS: dict[int, list[str]] = {}


class StorageError(RuntimeError):
    """The database cannot be reached or is not one of ours."""


class DamagedDatabase(StorageError):
    """The database was reached but what it holds cannot be read: a SQLite file whose pages
    are damaged (or that is not a database at all), a stored row that is not what was written.
    A failure of the run (exit code 1), not of the command line."""


class DatabaseFull(StorageError):
    """The database cannot grow: its disk (or quota) is full. A failure (exit code 1)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"cannot write database {url}: {reason}")
        self.url = url
        self.reason = reason


#: SQLite's SQLITE_FULL and PostgreSQL's disk_full (SQLSTATE 53100).
_SQLITE_FULL = 13
_POSTGRES_DISK_FULL = "53100"


def is_full(exc: BaseException) -> bool:
    """True for a write the database refused for want of room."""
    orig = orig_of(exc)
    return (
        getattr(orig, "sqlite_errorcode", None) == _SQLITE_FULL
        or getattr(orig, "sqlstate", None) == _POSTGRES_DISK_FULL
    )


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (None for a server or an in-memory database)."""
    try:
        parsed = sa.engine.make_url(with_driver(url))
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def is_damage(exc: BaseException) -> bool:
    """True for SQLite's verdict on a file's content ("database disk image is malformed",
    "file is not a database", text that is not UTF-8), as opposed to one on its access
    (locked, unreachable, a folder that does not exist)."""
    import sqlite3

    orig = orig_of(exc)
    if isinstance(orig, UnicodeDecodeError) or "Could not decode to UTF-8" in str(orig):
        return True
    return isinstance(orig, sqlite3.DatabaseError) and not isinstance(
        orig, sqlite3.OperationalError
    )


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    bot: str
    rank: int
    score: int
    forfeited: bool
    reason: str
    detail: str
    think_time_us: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    idx: int
    round: int
    seed: int
    seats: tuple[str, ...]
    status: str
    reason: str | None = None
    decisions: int | None = None
    duration_ms: float | None = None
    replay_path: str | None = None
    results: tuple[SeatRecord, ...] = ()
    #: Not stored: why this match's replay file could not be written, as the runner met it.
    replay_error: str = ""

    @property
    def ranking(self) -> list[str | tuple[str, ...]]:
        """Places best first, each a bot name or a tuple of the bots that share it (a Root
        coalition's winners); empty for a voided match (rank 0: no ranking)."""
        places: dict[int, list[str]] = {}
        for r in sorted((r for r in self.results if r.rank > 0), key=lambda r: r.rank):
            places.setdefault(r.rank, []).append(r.bot)
        return [bots[0] if len(bots) == 1 else tuple(bots) for bots in places.values()]


def with_driver(url: str) -> str:
    """``postgresql://`` (no driver named) means psycopg 3, the driver of the postgres extra,
    not SQLAlchemy's default psycopg2 (which we do not ship). A plain path (no ``://``) is a
    SQLite file, as ``kassen serve --store`` takes it."""
    if "://" not in url and url.strip():
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def _hide_password(url: str) -> str:
    """The URL as it may be printed: a password replaced by ***."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return repr(url)


def exists(url: str) -> bool:
    """False only for a SQLite file that is not there (a server database is assumed to exist:
    connecting says if it does not; a malformed URL is reported by ``connect``)."""
    path = sqlite_file(url)
    return path is None or path.is_file()


def connect(url: str, create_folder: bool = False, create: bool = True) -> Engine:
    """Open (and create or migrate) the database at ``url``; StorageError names the problem.

    ``create_folder``: create the folder of a SQLite file first (for the default location;
    a path the user typed is used as given). ``create=False`` (commands that only read or
    resume): a database without Kassen's tables is refused, not given them.
    """
    url = with_driver(url)
    try:
        engine = sa.create_engine(url, future=True)
    except ModuleNotFoundError as exc:  # a driver that is not installed
        hint = (
            " (PostgreSQL works with psycopg: pip install 'kassen[postgres]' and a "
            "postgresql:// URL)"
            if url.startswith("postgres")
            else ""
        )
        raise StorageError(
            f"cannot use database URL {_hide_password(url)}: its driver {exc.name!r} is not "
            f"installed{hint}"
        ) from None
    except Exception as exc:  # bad URL
        raise StorageError(f"cannot use database URL {_hide_password(url)}: {exc}") from None
    database = engine.url.database
    if create_folder and engine.dialect.name == "sqlite" and database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    if engine.dialect.name == "sqlite":

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if create:  # WAL is stored in the file: set when the tables are made, not on a read
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    try:
        _open(engine, create)
    except BaseException:
        engine.dispose()  # the file closed: SQLite removes the -wal and -shm made on opening
        raise
    return engine


def _open(engine: Engine, create: bool) -> None:
    """Check the database (ours, readable) and create or migrate its tables."""
    try:
        with engine.begin() as conn:
            one_schema_change_at_a_time(conn)
            if not create and not sa.inspect(conn).has_table("schema_version"):
                raise StorageError(
                    f"database {engine.url.render_as_string()} holds no Kassen tournaments"
                )
            _migrate(conn)
            if engine.dialect.name == "sqlite":
                _check_intact(conn)
    except StorageError:
        raise
    except Exception as exc:
        if is_full(exc):
            raise DatabaseFull(engine.url.render_as_string(), _first_line(orig_of(exc))) from None
        if is_damage(exc):
            raise DamagedDatabase(
                f"database {engine.url.render_as_string()} is damaged: {_first_line(orig_of(exc))}"
            ) from None
        raise StorageError(
            f"cannot open database {engine.url.render_as_string()}: {_first_line(exc)}"
        ) from None


def _check_intact(conn: Connection) -> None:
    """SQLite's own check of the file's pages and indexes (``PRAGMA quick_check``: 0.09 s for
    a 200,000-match database), so damage is reported when the database is opened, before a
    command prints or writes anything, rather than half-way through a run."""
    verdict = str(conn.execute(sa.text("PRAGMA quick_check(1)")).scalar())
    if verdict != "ok":
        problem = " ".join(verdict.replace("*** in database main ***", "").split())
        raise DamagedDatabase(
            f"database {conn.engine.url.render_as_string()} is damaged: {problem}"
        )


def orig_of(exc: BaseException) -> BaseException:
    """The driver's own exception inside SQLAlchemy's wrapper (its message has no SQL)."""
    orig = getattr(exc, "orig", None)
    return orig if isinstance(orig, BaseException) else exc


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


#: The PostgreSQL advisory lock under which Kassen creates or migrates its tables.
SCHEMA_LOCK = 0x4B617373656E  # "Kassen"


def one_schema_change_at_a_time(conn: Connection) -> None:
    """On PostgreSQL, wait for any other process creating the tables (until its transaction
    ends): two that run CREATE TABLE at once collide in the catalogue (a unique violation
    on pg_type), even with IF NOT EXISTS. SQLite's write lock already does this."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})


def _migrate(conn: Connection) -> None:
    inspector = sa.inspect(conn)
    if not inspector.has_table("schema_version"):
        metadata.create_all(conn)
        conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
        return
    version = conn.execute(sa.select(schema_version.c.version)).scalar_one()
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"the database has schema {version}; this Kassen knows up to {SCHEMA_VERSION}"
        )
    for step in range(version + 1, SCHEMA_VERSION + 1):
        for statement in MIGRATIONS.get(step, []):
            conn.execute(sa.text(statement))
        conn.execute(schema_version.update().values(version=step))


def create_tournament(
    engine: Engine,
    tournament_id: str,
    *,
    name: str,
    game: str,
    variant: str,
    players: int,
    format: str,
    base_seed: int,
    config: dict[str, Any],
    bot_rows: Sequence[tuple[str, str, str]],
    scheduled: Sequence[tuple[int, int, int, Sequence[str]]] = (),
) -> None:
    """Insert the tournament, its bots (name, spec, version hash) and its schedule at once."""
    with engine.begin() as conn:
        conn.execute(
            tournaments.insert().values(
                id=tournament_id,
                name=name,
                game=game,
                variant=variant,
                players=players,
                format=format,
                base_seed=base_seed,
                config_json=json.dumps(config),
                status="running",
                created_at=time.time(),
            )
        )
        conn.execute(
            bots.insert(),
            [
                {"tournament_id": tournament_id, "name": n, "spec": s, "version_hash": h}
                for n, s, h in bot_rows
            ],
        )
        if scheduled:
            conn.execute(matches.insert(), _match_rows(tournament_id, scheduled))


def _match_rows(
    tournament_id: str, scheduled: Iterable[tuple[int, int, int, Sequence[str]]]
) -> list[dict[str, Any]]:
    return [
        {
            "tournament_id": tournament_id,
            "idx": idx,
            "round": round_,
            "seed": seed,
            "seats_json": json.dumps(list(seats)),
            "status": "pending",
        }
        for idx, round_, seed, seats in scheduled
    ]


def add_matches(
    engine: Engine, tournament_id: str, scheduled: Iterable[tuple[int, int, int, Sequence[str]]]
) -> None:
    """Store scheduled matches (idx, round, seed, seats) as pending."""
    rows = _match_rows(tournament_id, scheduled)
    if rows:
        with engine.begin() as conn:
            conn.execute(matches.insert(), rows)


def record_results(
    engine: Engine, tournament_id: str, finished: Sequence[tuple[MatchRecord, Sequence[SeatRecord]]]
) -> None:
    """Mark matches done with their seat results, all in one transaction."""
    if not finished:
        return
    now = time.time()
    with engine.begin() as conn:
        for match, results in finished:
            conn.execute(
                seat_results.delete().where(
                    (seat_results.c.tournament_id == tournament_id)
                    & (seat_results.c.match_idx == match.idx)
                )
            )
            conn.execute(
                matches.update()
                .where((matches.c.tournament_id == tournament_id) & (matches.c.idx == match.idx))
                .values(
                    status="done",
                    reason=match.reason,
                    decisions=match.decisions,
                    duration_ms=match.duration_ms,
                    replay_path=match.replay_path,
                    finished_at=now,
                )
            )
            conn.execute(
                seat_results.insert(),
                [
                    {
                        "tournament_id": tournament_id,
                        "match_idx": match.idx,
                        "seat": r.seat,
                        "bot": r.bot,
                        "rank": r.rank,
                        "score": r.score,
                        "forfeited": r.forfeited,
                        "reason": r.reason,
                        "detail": r.detail[:2000],
                        "think_time_us": r.think_time_us,
                    }
                    for r in results
                ],
            )


def set_status(engine: Engine, tournament_id: str, status: str) -> None:
    with engine.begin() as conn:
        values: dict[str, Any] = {"status": status}
        if status == "finished":
            values["finished_at"] = time.time()
        conn.execute(tournaments.update().where(tournaments.c.id == tournament_id).values(**values))


def load_tournament(engine: Engine, tournament_id: str) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = (
            conn.execute(sa.select(tournaments).where(tournaments.c.id == tournament_id))
            .mappings()
            .first()
        )
    if row is None:
        return None
    _stored_json(row["config_json"], dict, f"the configuration of tournament {tournament_id}")
    return dict(row)


def _stored_json(text: Any, kind: type, what: str) -> Any:
    """A JSON column as written (an object, a list of names), or ``DamagedDatabase``: bytes
    changed on disk can leave a page SQLite reads but text that is no longer what we wrote."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, kind):
        raise DamagedDatabase(f"the database is damaged: {what} is not readable")
    return value


def latest_tournament(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return conn.execute(
            sa.select(tournaments.c.id).order_by(tournaments.c.created_at.desc()).limit(1)
        ).scalar()


def load_bots(engine: Engine, tournament_id: str) -> list[tuple[str, str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(bots.c.name, bots.c.spec, bots.c.version_hash).where(
                bots.c.tournament_id == tournament_id
            )
        ).all()
    return [(r[0], r[1], r[2]) for r in rows]


def _seats(text: Any, idx: Any) -> tuple[str, ...]:
    seats = _stored_json(text, list, f"the seating of match {idx}")
    if not all(isinstance(name, str) for name in seats):
        raise DamagedDatabase(
            f"the database is damaged: the seating of match {idx} is not readable"
        )
    return tuple(seats)


def load_matches(engine: Engine, tournament_id: str) -> list[MatchRecord]:
    """Every scheduled match, in schedule order, with results for the finished ones."""
    with engine.connect() as conn:
        rows = (
            conn.execute(
                sa.select(matches)
                .where(matches.c.tournament_id == tournament_id)
                .order_by(matches.c.idx)
            )
            .mappings()
            .all()
        )
        result_rows = (
            conn.execute(
                sa.select(seat_results).where(seat_results.c.tournament_id == tournament_id)
            )
            .mappings()
            .all()
        )
    by_match: dict[int, list[SeatRecord]] = {}
    for r in result_rows:
        by_match.setdefault(r["match_idx"], []).append(
            SeatRecord(
                r["seat"],
                r["bot"],
                r["rank"],
                r["score"],
                r["forfeited"],
                r["reason"],
                r["detail"],
                r["think_time_us"],
            )
        )
    return [
        MatchRecord(
            idx=row["idx"],
            round=row["round"],
            seed=row["seed"],
            seats=_seats(row["seats_json"], row["idx"]),
            status=row["status"],
            reason=row["reason"],
            decisions=row["decisions"],
            duration_ms=row["duration_ms"],
            replay_path=row["replay_path"],
            results=tuple(sorted(by_match.get(row["idx"], []), key=lambda s: s.seat)),
        )
        for row in rows
    ]
