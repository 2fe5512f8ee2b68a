"""The ladder's records of submitted bots: each uploaded version, its state and logs, and the
stderr tails of its matches (its author's alone to read).

A version moves ``building`` → ``validating`` → ``ready``, or stops at ``build_failed`` /
``validation_failed``; one the ladder stopped meanwhile is ``stopped`` and is picked up at
the next start. A ready version older than the newest ``KEPT_READY`` (and not pinned) is
``retired``: its folder is deleted, its record and logs stay. The playing version is the pinned one if an organiser pinned one, else the
newest ``ready`` one. In the ladder's database beside ``registry``'s tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from tournament.ladder_service.registry import RegistryError, metadata

STATES = (
    "building",
    "build_failed",
    "validating",
    "validation_failed",
    "ready",
    "stopped",
    "retired",
)
UNFINISHED = ("building", "validating", "stopped")
MAX_NOTE_CHARS = 200
#: Stderr tails kept per bot (the oldest go first).
KEPT_TAILS = 50
MAX_TAIL_CHARS = 16_384

ladder_versions = sa.Table(
    "ladder_versions",
    metadata,
    sa.Column("bot_id", sa.String(32), sa.ForeignKey("ladder_bots.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("state", sa.String(24), nullable=False),
    sa.Column("summary", sa.String(500), nullable=False),
    sa.Column("runtime", sa.String(16), nullable=False),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("size", sa.BigInteger, nullable=False),
    sa.Column("note", sa.String(MAX_NOTE_CHARS), nullable=False),
    #: The unpacked (and built) folder's name in the submissions area.
    sa.Column("folder", sa.String(128), nullable=False),
    sa.Column("pinned", sa.Boolean, nullable=False),
    sa.Column("build_log", sa.Text, nullable=False),
    sa.Column("validation_log", sa.Text, nullable=False),
    sa.Column("submitted_at", sa.Float, nullable=False),
)

ladder_bot_logs = sa.Table(
    "ladder_bot_logs",
    metadata,
    sa.Column("bot_id", sa.String(32), sa.ForeignKey("ladder_bots.id"), primary_key=True),
    sa.Column("match_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("stderr", sa.Text, nullable=False),
    sa.Index("ladder_bot_logs_at", "bot_id", "at"),
)


@dataclass(frozen=True, slots=True)
class Version:
    bot_id: str
    number: int
    state: str
    summary: str
    runtime: str
    sha256: str
    size: int
    note: str
    folder: str
    pinned: bool
    submitted_at: float


def _version(row: sa.Row[tuple[object, ...]]) -> Version:
    m = row._mapping
    return Version(
        bot_id=m["bot_id"],
        number=m["number"],
        state=m["state"],
        summary=m["summary"],
        runtime=m["runtime"],
        sha256=m["sha256"],
        size=m["size"],
        note=m["note"],
        folder=m["folder"],
        pinned=bool(m["pinned"]),
        submitted_at=m["submitted_at"],
    )


_COLUMNS = [c for c in ladder_versions.c if c.name not in ("build_log", "validation_log")]


def add_version(
    engine: Engine, bot_id: str, runtime: str, sha256: str, size: int, note: str, folder: str
) -> Version:
    """The bot's next version, ``building``."""
    if len(note) > MAX_NOTE_CHARS:
        raise RegistryError(f"note: at most {MAX_NOTE_CHARS} characters")
    with engine.begin() as conn:
        last = conn.execute(
            sa.select(sa.func.max(ladder_versions.c.number)).where(
                ladder_versions.c.bot_id == bot_id
            )
        ).scalar()
        values = {
            "bot_id": bot_id,
            "number": (last or 0) + 1,
            "state": "building",
            "summary": "waiting to be built",
            "runtime": runtime,
            "sha256": sha256,
            "size": size,
            "note": note,
            "folder": folder,
            "pinned": False,
            "build_log": "",
            "validation_log": "",
            "submitted_at": time.time(),
        }
        conn.execute(ladder_versions.insert().values(**values))
    return _one(engine, bot_id, values["number"])  # type: ignore[arg-type]


def set_state(
    engine: Engine,
    bot_id: str,
    number: int,
    state: str,
    summary: str,
    build_log: str | None = None,
    validation_log: str | None = None,
) -> Version:
    assert state in STATES
    values: dict[str, object] = {"state": state, "summary": summary[:500]}
    if build_log is not None:
        values["build_log"] = build_log
    if validation_log is not None:
        values["validation_log"] = validation_log
    with engine.begin() as conn:
        conn.execute(
            ladder_versions.update()
            .where(ladder_versions.c.bot_id == bot_id, ladder_versions.c.number == number)
            .values(**values)
        )
    return _one(engine, bot_id, number)


def _one(engine: Engine, bot_id: str, number: int) -> Version:
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(*_COLUMNS).where(
                ladder_versions.c.bot_id == bot_id, ladder_versions.c.number == number
            )
        ).first()
    if row is None:
        raise RegistryError(f"bot {bot_id} has no version {number}")
    return _version(row)


def versions(engine: Engine, bot_id: str | None = None) -> list[Version]:
    """A bot's versions (every bot's with None), newest first."""
    query = sa.select(*_COLUMNS)
    if bot_id is not None:
        query = query.where(ladder_versions.c.bot_id == bot_id)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(ladder_versions.c.number.desc())).all()
    return [_version(row) for row in rows]


def shown(engine: Engine, bot_id: str) -> list[Version]:
    """What a public page needs of a bot's versions, however many it has: the newest, the
    pinned and the newest ready one (each an index range of the key; ``playing`` of them is
    the playing version)."""
    c = ladder_versions.c
    mine = sa.select(*_COLUMNS).where(c.bot_id == bot_id)
    queries = [
        mine.order_by(c.number.desc()).limit(1),
        mine.where(c.pinned.is_(True)).limit(1),
        mine.where(c.state == "ready").order_by(c.number.desc()).limit(1),
    ]
    found: dict[int, Version] = {}
    with engine.connect() as conn:
        for query in queries:
            for row in conn.execute(query):
                version = _version(row)
                found[version.number] = version
    return [found[n] for n in sorted(found, reverse=True)]


def stop_unfinished(engine: Engine) -> list[Version]:
    """Versions a previous run left being built or validated, marked ``stopped``: the
    ladder builds them again."""
    with engine.begin() as conn:
        conn.execute(
            ladder_versions.update()
            .where(ladder_versions.c.state.in_(("building", "validating")))
            .values(state="stopped", summary="the ladder stopped before this version was ready")
        )
    return [v for v in versions(engine) if v.state == "stopped"]


def logs(engine: Engine, bot_id: str, number: int) -> tuple[str, str]:
    """A version's build and validation logs."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(ladder_versions.c.build_log, ladder_versions.c.validation_log).where(
                ladder_versions.c.bot_id == bot_id, ladder_versions.c.number == number
            )
        ).first()
    if row is None:
        raise RegistryError(f"this bot has no version {number}")
    return row[0], row[1]


def pin(engine: Engine, bot_id: str, number: int) -> None:
    """Pin ``number`` (it must have passed validation); 0 unpins."""
    with engine.begin() as conn:
        if number:
            state = conn.execute(
                sa.select(ladder_versions.c.state).where(
                    ladder_versions.c.bot_id == bot_id, ladder_versions.c.number == number
                )
            ).scalar()
            if state is None:
                raise RegistryError(f"version: this bot has no version {number}")
            if state != "ready":
                raise RegistryError(f"version: version {number} is {state}, not ready")
        conn.execute(
            ladder_versions.update().where(ladder_versions.c.bot_id == bot_id).values(pinned=False)
        )
        if number:
            conn.execute(
                ladder_versions.update()
                .where(ladder_versions.c.bot_id == bot_id, ladder_versions.c.number == number)
                .values(pinned=True)
            )


def playing(found: list[Version]) -> Version | None:
    """Of one bot's versions (any order), the one that plays."""
    pinned = [v for v in found if v.pinned and v.state == "ready"]
    if pinned:
        return pinned[0]
    ready = [v for v in found if v.state == "ready"]
    return max(ready, key=lambda v: v.number) if ready else None


def keep_tail(engine: Engine, bot_id: str, match_id: str, number: int, stderr: str) -> None:
    """Keep a match's stderr tail for the bot's author; only the newest ``KEPT_TAILS``
    of a bot stay."""
    with engine.begin() as conn:
        conn.execute(
            ladder_bot_logs.insert().values(
                bot_id=bot_id,
                match_id=match_id,
                version=number,
                at=time.time(),
                stderr=stderr[-MAX_TAIL_CHARS:],
            )
        )
        _drop_old_tails(conn, bot_id)


def _drop_old_tails(conn: Connection, bot_id: str) -> None:
    keep = (
        sa.select(ladder_bot_logs.c.match_id)
        .where(ladder_bot_logs.c.bot_id == bot_id)
        .order_by(ladder_bot_logs.c.at.desc())
        .limit(KEPT_TAILS)
    )
    conn.execute(
        ladder_bot_logs.delete().where(
            ladder_bot_logs.c.bot_id == bot_id,
            ladder_bot_logs.c.match_id.not_in(keep.scalar_subquery()),
        )
    )


def tail(engine: Engine, bot_id: str, match_id: str) -> str:
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(ladder_bot_logs.c.stderr).where(
                ladder_bot_logs.c.bot_id == bot_id, ladder_bot_logs.c.match_id == match_id
            )
        ).scalar()
    if found is None:
        raise RegistryError(f"match_id: no stderr of this bot is kept for match {match_id}")
    return str(found)


def tail_matches(engine: Engine, bot_id: str) -> list[str]:
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(ladder_bot_logs.c.match_id)
            .where(ladder_bot_logs.c.bot_id == bot_id)
            .order_by(ladder_bot_logs.c.at.desc())
        ).all()
    return [row[0] for row in rows]
