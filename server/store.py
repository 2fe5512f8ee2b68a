"""Finished matches on disk: what ``GetMatch``, ``GetReplay`` and ``ListMatches`` answer once
the referee's memory has let a match go (it keeps only a few recent ones).

A SQLite file by default, PostgreSQL (or any SQLAlchemy URL) when given one. One row per
match: its public summary and replay record, and the seed and salt only once they are public
(a tournament match's seed stays secret until its seed block is over: ``reveal``).

The database is written from one worker thread, in batches (``Archive``): the referee's event
loop never waits for a disk, and matches that end together cost one transaction.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import structlog
from sqlalchemy.engine import Engine

from kassen.v1 import referee_pb2 as pb

log = structlog.get_logger("kassen.store")

#: Finished matches waiting to be written; beyond this (a database that stopped answering)
#: the oldest are dropped with an error in the log rather than held without end.
MAX_PENDING = 2_000
#: Most matches one ``ListMatches`` returns.
MAX_LIST = 1_000

metadata = sa.MetaData()

finished = sa.Table(
    "referee_matches_v1",
    metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("summary", sa.LargeBinary, nullable=False),
    sa.Column("replay_json", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger),
    sa.Column("salt", sa.String(128)),
    sa.Index("referee_matches_v1_created", "created_at"),
)


class StoreError(RuntimeError):
    """The store cannot be opened (the message names it and why)."""


class StoreUnavailable(RuntimeError):
    """The store did not answer a query (the database is down): the call is UNAVAILABLE."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A finished match as stored: the summary and replay record as anyone may see them while
    the seed is secret; ``seed``/``salt`` are set once public."""

    match_id: str
    created_at: float
    summary: bytes
    replay_json: str
    seed: int | None = None
    salt: str | None = None

    @property
    def revealed(self) -> bool:
        return self.seed is not None

    def summary_proto(self) -> pb.MatchSummary:
        summary = pb.MatchSummary.FromString(self.summary)
        if self.seed is not None and summary.HasField("result"):
            summary.result.seed_reveal.seed = self.seed
            summary.result.seed_reveal.salt = self.salt or ""
        return summary

    def replay_text(self) -> str:
        """The replay record, with seed and salt if they are public."""
        if self.seed is None:
            return self.replay_json
        record: dict[str, Any] = json.loads(self.replay_json)
        record["seed"], record["salt"] = self.seed, self.salt
        return json.dumps(record)


def store_url(spec: str) -> str:
    """A SQLAlchemy URL from ``--store``: a URL as given, otherwise a SQLite file path."""
    if "://" in spec:
        return spec
    return f"sqlite:///{Path(spec).expanduser().resolve()}"


def shown(spec: str) -> str:
    """``--store`` as it may be logged: a URL's password hidden."""
    if "://" not in spec:
        return spec
    try:
        return sa.engine.make_url(spec).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return spec.split("://", 1)[0] + "://..."


class MatchStore:
    """The table of finished matches (blocking calls: ``Archive`` runs them off the loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, spec: str) -> MatchStore:
        """Open (and create if need be) the store named by a path or URL; ``StoreError``
        names it and what went wrong."""
        url = store_url(spec)
        if url.startswith("sqlite:///"):
            path = Path(url.removeprefix("sqlite:///"))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create {path.parent}: {exc.strerror or exc}") from None
        try:
            engine = sa.create_engine(url)
            if engine.dialect.name == "sqlite":
                sa.event.listen(engine, "connect", _sqlite_for_several_writers)
            metadata.create_all(engine)
        except (sa.exc.SQLAlchemyError, ValueError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StoreError(f"cannot open the match store {shown(spec)}: {first}") from None
        return cls(engine)

    def put(self, records: Sequence[StoredMatch]) -> None:
        """Write finished matches (a match written again replaces its row)."""
        rows = [
            {
                "match_id": r.match_id,
                "created_at": r.created_at,
                "summary": r.summary,
                "replay_json": r.replay_json,
                "seed": r.seed,
                "salt": r.salt,
            }
            for r in records
        ]
        with self.engine.begin() as connection:
            ids = [r["match_id"] for r in rows]
            connection.execute(finished.delete().where(finished.c.match_id.in_(ids)))
            connection.execute(finished.insert(), rows)

    def reveal(self, match_id: str, seed: int, salt: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                finished.update()
                .where(finished.c.match_id == match_id)
                .values(seed=seed, salt=salt)
            )

    def get(self, match_id: str) -> StoredMatch | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                finished.select().where(finished.c.match_id == match_id)
            ).first()
        return None if row is None else _stored(row._mapping)

    def newest(self, limit: int) -> list[StoredMatch]:
        """The ``limit`` most recently created matches, newest first (summaries only: their
        replay records are not read)."""
        columns = [c for c in finished.c if c.name != "replay_json"]
        query = (
            sa.select(*columns, sa.literal("").label("replay_json"))
            .order_by(finished.c.created_at.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [_stored(row._mapping) for row in connection.execute(query)]

    def close(self) -> None:
        self.engine.dispose()


def _stored(row: Any) -> StoredMatch:
    return StoredMatch(
        match_id=row["match_id"],
        created_at=row["created_at"],
        summary=bytes(row["summary"]),
        replay_json=row["replay_json"],
        seed=row["seed"],
        salt=row["salt"],
    )


class Archive:
    """The referee's asynchronous face of a ``MatchStore`` (or of none: then nothing is kept
    beyond memory). Matches handed to ``put`` are answered from memory until written."""

    def __init__(self, store: MatchStore | None) -> None:
        self.store = store
        self._pending: dict[str, StoredMatch] = {}
        self._executor = (
            ThreadPoolExecutor(1, thread_name_prefix="kassen-store") if store is not None else None
        )
        self._writer: asyncio.Task[None] | None = None

    def put(self, record: StoredMatch) -> None:
        if self.store is None:
            return
        if len(self._pending) >= MAX_PENDING:
            oldest = next(iter(self._pending))
            del self._pending[oldest]
            log.error("store_behind", dropped=oldest, pending=len(self._pending))
        self._pending[record.match_id] = record
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    def reveal(self, match_id: str, seed: int, salt: str) -> None:
        """The seed of a stored (or pending) match is public now."""
        if self.store is None:
            return
        pending = self._pending.get(match_id)
        if pending is not None:
            self._pending[match_id] = replace(pending, seed=seed, salt=salt)
            return
        self._run(_logged(self.store.reveal), match_id, seed, salt)

    async def get(self, match_id: str) -> StoredMatch | None:
        if self.store is None:
            return None
        pending = self._pending.get(match_id)
        if pending is not None:
            return pending
        try:
            found: StoredMatch | None = await self._run(self.store.get, match_id)
        except Exception as exc:
            raise _unavailable(exc) from None
        return found

    async def newest(self, limit: int) -> list[StoredMatch]:
        if self.store is None:
            return []
        try:
            stored: list[StoredMatch] = await self._run(self.store.newest, limit)
        except Exception as exc:
            raise _unavailable(exc) from None
        found = {r.match_id for r in stored}
        merged = stored + [r for r in self._pending.values() if r.match_id not in found]
        return sorted(merged, key=lambda r: r.created_at, reverse=True)[:limit]

    async def close(self) -> None:
        """Write what is pending, then let go of the database."""
        while self._writer is not None and not self._writer.done():
            await self._writer
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        if self.store is not None:
            self.store.close()

    async def _write(self) -> None:
        while self._pending:
            batch = list(self._pending.values())
            try:
                await self._run(self.store.put if self.store else _nothing, batch)
            except Exception as exc:  # a database error must not stop the referee
                log.error("store_write_failed", matches=len(batch), error=str(exc)[:300])
            for record in batch:
                if self._pending.get(record.match_id) is record:
                    del self._pending[record.match_id]

    def _run(self, function: Any, *args: Any) -> asyncio.Future[Any]:
        return asyncio.get_running_loop().run_in_executor(self._executor, function, *args)


def _nothing(records: Sequence[StoredMatch]) -> None:
    del records


def _unavailable(exc: Exception) -> StoreUnavailable:
    log.error("store_read_failed", error=str(exc)[:300])
    return StoreUnavailable("the match store is not answering; try again later")


def _logged(function: Any) -> Any:
    """``function``, logging instead of raising (its result is not awaited)."""

    def call(*args: Any) -> None:
        try:
            function(*args)
        except Exception as exc:
            log.error("store_write_failed", error=str(exc)[:300])

    return call


#: How long a write waits for another process's (``kassen serve --workers N`` share one file).
SQLITE_BUSY_TIMEOUT_MS = 30_000


def _sqlite_for_several_writers(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers do not block the writer) and a generous busy timeout: the workers of
    ``kassen serve --workers N`` write finished matches to the same file."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()
