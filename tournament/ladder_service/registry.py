"""The ladder's records: registered bots (token hashes only), matches, seats and rating history.

SQLAlchemy Core, in the same database as tournaments (a SQLite file by default, PostgreSQL by
URL: ``tournament.storage.connect``), in tables of its own prefixed ``ladder_``. A match is
written ``running`` when it starts and ``done`` (or ``voided``, or ``unrated`` for a challenge
or a person's game) with its seats in one transaction when it ends, so a restarted service
knows which matches it lost: they are voided. Only ``done`` matches are rated.

A person's seat is recorded under one bot of its game named ``PERSON_NAME`` (a name no
registration can take), so that every seat of every match has a bot.
"""

from __future__ import annotations

import re
import time
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tournament.ladder_service.ratings import Rating
from tournament.ladder_service.tokens import new_bot_token, token_hash
from tournament.storage import one_schema_change_at_a_time

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{2,31}")
MAX_OWNER_CHARS = 64
MAX_DESCRIPTION_CHARS = 500
STATUSES = ("active", "paused", "revoked")
#: The seat of a person who played in the browser (not a valid bot name: nobody can register it).
PERSON_NAME = "a person"
PERSON_SPEC = "person"

metadata = sa.MetaData()

ladder_bots = sa.Table(
    "ladder_bots",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("owner", sa.String(MAX_OWNER_CHARS), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=False),
    sa.Column("player_counts", sa.String(64), nullable=False),
    sa.Column("description", sa.String(MAX_DESCRIPTION_CHARS), nullable=False),
    sa.Column("token_hash", sa.String(64), unique=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("status_reason", sa.String(500), nullable=False),
    sa.Column("house", sa.Boolean, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("failures_in_row", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    #: Others may challenge it to unrated matches.
    sa.Column("accepts_challenges", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.UniqueConstraint("game", "name", name="ladder_bots_name_per_game"),
)

ladder_matches = sa.Table(
    "ladder_matches",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("reason", sa.String(32)),
    sa.Column("decisions", sa.Integer),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float),
    #: The replay JSON, zlib-compressed (a Root replay is ~50 KB of text, ~8 KB compressed).
    sa.Column("replay", sa.LargeBinary),
    sa.Index("ladder_matches_pool", "game", "variant", "players", "status"),
    #: The newest matches first (the web page's lists): without it, a sort of every match.
    sa.Index("ladder_matches_started", "started_at"),
)

ladder_seats = sa.Table(
    "ladder_seats",
    metadata,
    sa.Column("match_id", sa.String(64), sa.ForeignKey("ladder_matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("bot_id", sa.String(32), sa.ForeignKey("ladder_bots.id"), nullable=False),
    #: 1 = first; 0 while running or when voided.
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    #: The seat's own failure (e.g. TIMEOUT), empty if it played cleanly.
    sa.Column("failure", sa.String(32), nullable=False),
    #: The match's start, copied here so that a bot's newest matches are one index range
    #: (a house bot sits in most matches: joining and sorting them all took seconds).
    sa.Column("started_at", sa.Float),
    sa.Index("ladder_seats_bot", "bot_id"),
    sa.Index("ladder_seats_bot_started", "bot_id", "started_at"),
)

ladder_ratings = sa.Table(
    "ladder_ratings",
    metadata,
    sa.Column("bot_id", sa.String(32), sa.ForeignKey("ladder_bots.id"), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("low", sa.Float, nullable=False),
    sa.Column("high", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)


class RegistryError(ValueError):
    """A request the ladder refuses; the message names the field."""


class NameTaken(RegistryError):
    pass


@dataclass(frozen=True, slots=True)
class BotRecord:
    id: str
    name: str
    owner: str
    game: str
    variant: str
    player_counts: tuple[int, ...]
    description: str
    status: str
    status_reason: str
    house: bool
    spec: str
    failures_in_row: int
    accepts_challenges: bool = False

    @property
    def person(self) -> bool:
        return self.spec == PERSON_SPEC and not self.house and self.name == PERSON_NAME


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    bot_id: str
    rank: int
    score: int
    failure: str = ""


def create_tables(engine: Engine) -> None:
    """Create the ladder's tables, or bring those of an older Kassen up to date: the seats'
    start times (copied from their matches) and every index (``create_all`` makes indexes
    only with a table it creates)."""
    from tournament.ladder_service import versions  # noqa: F401  (its tables are ours too)

    with engine.begin() as conn:
        one_schema_change_at_a_time(conn)
        metadata.create_all(conn, checkfirst=True)
    with engine.begin() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("ladder_seats")}
        if "started_at" not in columns:
            conn.execute(sa.text("ALTER TABLE ladder_seats ADD COLUMN started_at FLOAT"))
        columns = {c["name"] for c in sa.inspect(conn).get_columns("ladder_bots")}
        if "accepts_challenges" not in columns:
            conn.execute(
                sa.text(
                    "ALTER TABLE ladder_bots ADD COLUMN accepts_challenges BOOLEAN "
                    "NOT NULL DEFAULT FALSE"
                )
            )
        m, s = ladder_matches.c, ladder_seats.c
        conn.execute(
            ladder_seats.update()
            .where(s.started_at.is_(None))
            .values(started_at=sa.select(m.started_at).where(m.id == s.match_id).scalar_subquery())
        )
    for table in (ladder_matches, ladder_seats, ladder_ratings):
        for index in table.indexes:
            index.create(engine, checkfirst=True)


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise RegistryError(
            f"name {name[:40]!r} must be 3-32 characters: letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def _text(field: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise RegistryError(f"{field} is {len(value)} characters long; at most {limit}")
    if "\x00" in value:
        raise RegistryError(f"{field} contains a NUL character")
    return value


def _record(row: sa.Row[tuple[object, ...]]) -> BotRecord:
    m = row._mapping
    counts = tuple(int(c) for c in str(m["player_counts"]).split(",") if c)
    return BotRecord(
        id=str(m["id"]),
        name=str(m["name"]),
        owner=str(m["owner"]),
        game=str(m["game"]),
        variant=str(m["variant"]),
        player_counts=counts,
        description=str(m["description"]),
        status=str(m["status"]),
        status_reason=str(m["status_reason"]),
        house=bool(m["house"]),
        spec=str(m["spec"]),
        failures_in_row=int(m["failures_in_row"]),
        accepts_challenges=bool(m["accepts_challenges"]),
    )


def register_bot(
    engine: Engine,
    *,
    name: str,
    owner: str,
    game: str,
    variant: str,
    player_counts: Sequence[int],
    description: str = "",
    house: bool = False,
    spec: str = "",
    accepts_challenges: bool = False,
) -> tuple[BotRecord, str | None]:
    """Add a bot; returns it and its token (None for a house bot: it never connects)."""
    check_name(name)
    return _insert_bot(
        engine,
        name=name,
        owner=owner,
        game=game,
        variant=variant,
        player_counts=player_counts,
        description=description,
        house=house,
        spec=spec,
        accepts_challenges=accepts_challenges,
        token=None if house else new_bot_token(),
    )


def person_bot(engine: Engine, game: str, variant: str) -> BotRecord:
    """The bot under which people's seats of ``game`` are recorded (made on first use)."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(ladder_bots).where(
                (ladder_bots.c.game == game) & (ladder_bots.c.name == PERSON_NAME)
            )
        ).first()
    if row is not None:
        return _record(row)
    made, _ = _insert_bot(
        engine,
        name=PERSON_NAME,
        owner="people",
        game=game,
        variant=variant,
        player_counts=(),
        description="a person playing in the browser",
        house=False,
        spec=PERSON_SPEC,
        accepts_challenges=False,
        token=None,
    )
    return made


def _insert_bot(
    engine: Engine,
    *,
    name: str,
    owner: str,
    game: str,
    variant: str,
    player_counts: Sequence[int],
    description: str,
    house: bool,
    spec: str,
    accepts_challenges: bool,
    token: str | None,
) -> tuple[BotRecord, str | None]:
    row = {
        "id": uuid.uuid4().hex,
        "name": name,
        "owner": _text("owner", owner, MAX_OWNER_CHARS),
        "game": game,
        "variant": variant,
        "player_counts": ",".join(str(c) for c in sorted(set(player_counts))),
        "description": _text("description", description, MAX_DESCRIPTION_CHARS),
        "token_hash": token_hash(token) if token else None,
        "status": "active",
        "status_reason": "",
        "house": house,
        "spec": spec,
        "failures_in_row": 0,
        "created_at": time.time(),
        "accepts_challenges": accepts_challenges,
    }
    with engine.begin() as conn:
        taken = conn.execute(
            sa.select(ladder_bots.c.id).where(
                (ladder_bots.c.game == game) & (ladder_bots.c.name == name)
            )
        ).first()
        if taken is not None:
            raise NameTaken(f"a bot named {name!r} is already registered for {game}")
        conn.execute(ladder_bots.insert().values(**row))
    return bot_by_id(engine, str(row["id"])), token  # type: ignore[return-value]


def bot_by_id(engine: Engine, bot_id: str) -> BotRecord | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(ladder_bots).where(ladder_bots.c.id == bot_id)).first()
    return _record(row) if row is not None else None


def bot_by_token(engine: Engine, token: str) -> BotRecord | None:
    """The bot this token belongs to (any status: the caller decides what a status allows)."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(ladder_bots).where(ladder_bots.c.token_hash == token_hash(token))
        ).first()
    return _record(row) if row is not None else None


def token_hashes(engine: Engine) -> dict[str, str]:
    """Bot id -> the hash of its token, for every bot that has one."""
    b = ladder_bots.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(b.id, b.token_hash).where(b.token_hash.is_not(None)))
        return {str(bot_id): str(hashed) for bot_id, hashed in rows}


def bots_by_id(engine: Engine, ids: Sequence[str]) -> list[BotRecord]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(ladder_bots).where(ladder_bots.c.id.in_(list(ids))))
        return [_record(row) for row in rows]


def rotate_token(engine: Engine, bot_id: str) -> str:
    token = new_bot_token()
    with engine.begin() as conn:
        conn.execute(
            ladder_bots.update()
            .where(ladder_bots.c.id == bot_id)
            .values(token_hash=token_hash(token))
        )
    return token


def list_bots(engine: Engine, game: str | None = None) -> list[BotRecord]:
    query = sa.select(ladder_bots).order_by(ladder_bots.c.game, ladder_bots.c.name)
    if game is not None:
        query = query.where(ladder_bots.c.game == game)
    with engine.connect() as conn:
        return [_record(row) for row in conn.execute(query)]


def set_status(engine: Engine, bot_id: str, status: str, reason: str = "") -> BotRecord:
    if status not in STATUSES:
        raise RegistryError(f"status {status[:20]!r} is not one of {', '.join(STATUSES)}")
    values: dict[str, object] = {
        "status": status,
        "status_reason": _text("reason", reason, 500),
    }
    if status == "active":
        values["failures_in_row"] = 0
    with engine.begin() as conn:
        done = conn.execute(ladder_bots.update().where(ladder_bots.c.id == bot_id).values(values))
    if done.rowcount == 0:
        raise RegistryError(f"no bot {bot_id[:40]!r}")
    return bot_by_id(engine, bot_id)  # type: ignore[return-value]


def set_accepts_challenges(engine: Engine, bot_id: str, accept: bool) -> BotRecord:
    with engine.begin() as conn:
        done = conn.execute(
            ladder_bots.update().where(ladder_bots.c.id == bot_id).values(accepts_challenges=accept)
        )
    if done.rowcount == 0:
        raise RegistryError(f"no bot {bot_id[:40]!r}")
    return bot_by_id(engine, bot_id)  # type: ignore[return-value]


def start_match(
    engine: Engine, match_id: str, game: str, variant: str, seats: Sequence[str]
) -> None:
    now = time.time()
    with engine.begin() as conn:
        conn.execute(
            ladder_matches.insert().values(
                id=match_id,
                game=game,
                variant=variant,
                players=len(seats),
                status="running",
                started_at=now,
            )
        )
        conn.execute(
            ladder_seats.insert(),
            [
                {
                    "match_id": match_id,
                    "seat": i,
                    "bot_id": b,
                    "rank": 0,
                    "score": 0,
                    "failure": "",
                    "started_at": now,
                }
                for i, b in enumerate(seats)
            ],
        )


def finish_match(
    engine: Engine,
    match_id: str,
    *,
    status: str,
    reason: str,
    decisions: int,
    seats: Sequence[SeatOutcome],
    replay_json: str | None,
    pause_after: int = 0,
) -> list[str]:
    """Record the end of a match and each seat's outcome in one transaction.

    A seat that failed (timed out, crashed, broke the protocol) adds one to its bot's failures
    in a row and a clean seat of a match played to its end resets them (a voided match, e.g.
    one whose referee was lost, shows nothing about the bot either way); with ``pause_after``
    > 0 an author's bot reaching that many is paused, with the reason its owner sees. Returns
    the ids of bots paused now.
    """
    paused: list[str] = []
    with engine.begin() as conn:
        conn.execute(
            ladder_matches.update()
            .where(ladder_matches.c.id == match_id)
            .values(
                status=status,
                reason=reason,
                decisions=decisions,
                finished_at=time.time(),
                replay=zlib.compress(replay_json.encode("utf-8")) if replay_json else None,
            )
        )
        for seat, outcome in enumerate(seats):
            conn.execute(
                ladder_seats.update()
                .where((ladder_seats.c.match_id == match_id) & (ladder_seats.c.seat == seat))
                .values(rank=outcome.rank, score=outcome.score, failure=outcome.failure)
            )
            if status == "unrated":
                continue  # a challenge shows nothing about a bot's reliability either way
            if _count_failure(conn, outcome, pause_after, clean_counts=status == "done"):
                paused.append(outcome.bot_id)
    return paused


def _count_failure(
    conn: sa.Connection, outcome: SeatOutcome, pause_after: int, clean_counts: bool
) -> bool:
    bot = ladder_bots.c
    if not outcome.failure:
        if clean_counts:
            conn.execute(
                ladder_bots.update().where(bot.id == outcome.bot_id).values(failures_in_row=0)
            )
        return False
    conn.execute(
        ladder_bots.update()
        .where(bot.id == outcome.bot_id)
        .values(failures_in_row=bot.failures_in_row + 1)
    )
    if pause_after <= 0:
        return False
    pause = conn.execute(
        ladder_bots.update()
        .where(
            (bot.id == outcome.bot_id)
            & (bot.failures_in_row >= pause_after)
            & (bot.status == "active")
            & ~bot.house
        )
        .values(
            status="paused",
            status_reason=f"paused after {pause_after} failed matches in a row (the last: "
            f"{outcome.failure}); reinstate it once it is fixed",
        )
    )
    return bool(pause.rowcount)


def void_running(engine: Engine) -> int:
    """Matches left ``running`` by a service that stopped: voided (never rated). Returns how
    many."""
    with engine.begin() as conn:
        done = conn.execute(
            ladder_matches.update()
            .where(ladder_matches.c.status == "running")
            .values(status="voided", reason="SERVICE_STOPPED", finished_at=time.time())
        )
    return int(done.rowcount)


def replay_of(engine: Engine, match_id: str) -> str | None:
    with engine.connect() as conn:
        blob = conn.execute(
            sa.select(ladder_matches.c.replay).where(ladder_matches.c.id == match_id)
        ).scalar()
    return zlib.decompress(blob).decode("utf-8") if blob else None


def results(
    engine: Engine, game: str, variant: str, players: int
) -> list[tuple[str, list[SeatOutcome]]]:
    """Every rated match of a pool, oldest first, with its seats in seat order."""
    m, s = ladder_matches.c, ladder_seats.c
    query = (
        sa.select(m.id, s.seat, s.bot_id, s.rank, s.score, s.failure)
        .join(ladder_seats, s.match_id == m.id)
        .where(
            (m.game == game)
            & (m.variant == variant)
            & (m.players == players)
            & (m.status == "done")
        )
        .order_by(m.finished_at, m.id, s.seat)
    )
    found: dict[str, list[SeatOutcome]] = {}
    with engine.connect() as conn:
        for match_id, _seat, bot_id, rank, score, failure in conn.execute(query):
            found.setdefault(match_id, []).append(SeatOutcome(bot_id, rank, score, failure))
    return list(found.items())


def add_ratings(engine: Engine, players: int, ratings: Sequence[Rating]) -> None:
    """A point of each bot's rating history (after a refit that moved it); a series that
    grows past ``HISTORY_POINTS`` is thinned (``thin_history``), so history stays bounded
    however long the ladder runs."""
    if not ratings:
        return
    now = time.time()
    rows = [
        {
            "bot_id": r.bot_id,
            "players": players,
            "at": now,
            "rating": _storable(r.rating),
            "low": _storable(r.low),
            "high": _storable(r.high),
            "games": r.matches,
        }
        for r in ratings
    ]
    with engine.begin() as conn:
        conn.execute(ladder_ratings.insert(), rows)
        for r in ratings:
            if _history_length(conn, r.bot_id, players) > HISTORY_POINTS:
                thin_history(conn, r.bot_id, players)


#: At most this many points of one bot's history in one pool size are kept ...
HISTORY_POINTS = 1000
#: ... the newest this many at full resolution; when a series is over the bound its older
#: points are thinned to an even spacing that fits, so the oldest, thinned again and again,
#: grow sparser (a chart of months stays readable, and the table stays bounded).
HISTORY_RECENT = 250


def thin_history(conn: sa.Connection, bot_id: str | None = None, players: int = 0) -> int:
    """Thin every series over ``HISTORY_POINTS`` (or only the one of ``bot_id`` and
    ``players``) in one statement: its newest ``HISTORY_RECENT`` points stay, and of the
    older ones every k-th counted from the oldest, k as small as fits. Returns how many points
    were dropped."""
    r = ladder_ratings.c
    series = (r.bot_id, r.players)
    ranked_query = sa.select(
        r.bot_id,
        r.players,
        r.at,
        sa.func.row_number().over(partition_by=series, order_by=r.at).label("n"),
        sa.func.count().over(partition_by=series).label("total"),
    )
    if bot_id is not None:
        ranked_query = ranked_query.where((r.bot_id == bot_id) & (r.players == players))
    ranked = ranked_query.subquery()
    older = ranked.c.total - HISTORY_RECENT
    doomed = sa.select(ranked.c.bot_id, ranked.c.players, ranked.c.at).where(
        (ranked.c.total > HISTORY_POINTS)
        & (ranked.c.n <= older)
        & ((ranked.c.n - 1) % _stride(older) != 0)
    )
    done = conn.execute(
        ladder_ratings.delete().where(sa.tuple_(r.bot_id, r.players, r.at).in_(doomed))
    )
    return int(done.rowcount)


def _stride(older: Any) -> Any:
    """Keep every k-th of ``older`` points: k = ceil(older / room), so that they fit."""
    room = HISTORY_POINTS - HISTORY_RECENT
    return (older + room - 1) // room


def _history_length(conn: sa.Connection, bot_id: str, players: int) -> int:
    r = ladder_ratings.c
    return int(
        conn.execute(
            sa.select(sa.func.count()).where((r.bot_id == bot_id) & (r.players == players))
        ).scalar_one()
    )


def series_over_bound(engine: Engine) -> list[tuple[str, int]]:
    """The ``(bot_id, players)`` series with more than ``HISTORY_POINTS`` points (only a
    database written before history was bounded has any)."""
    r = ladder_ratings.c
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(r.bot_id, r.players)
            .group_by(r.bot_id, r.players)
            .having(sa.func.count() > HISTORY_POINTS)
        ).all()
    return [(str(bot_id), int(players)) for bot_id, players in rows]


@dataclass(frozen=True, slots=True)
class Thinning:
    """How to thin one long series in short steps (``thin_step``): every ``stride``-th of its
    points older than ``cutoff`` stays, counted from the oldest; ``starts`` are the times
    where each step begins, ``stride`` times a whole number of points apart, so the steps
    together keep exactly what ``thin_history`` would in one statement."""

    bot_id: str
    players: int
    stride: int
    cutoff: float
    starts: tuple[float, ...]


def plan_thinning(engine: Engine, bot_id: str, players: int, step: int) -> Thinning | None:
    """The plan for one series, steps of about ``step`` points (None if it is within the
    bound). Only a few numbers come back from the database, never the series itself."""
    r = ladder_ratings.c
    mine = (r.bot_id == bot_id) & (r.players == players)
    with engine.connect() as conn:
        total = int(conn.execute(sa.select(sa.func.count()).where(mine)).scalar_one())
        if total <= HISTORY_POINTS:
            return None
        older = total - HISTORY_RECENT
        stride = int(_stride(older))
        width = stride * max(1, step // stride)
        ranked = (
            sa.select(r.at, sa.func.row_number().over(order_by=r.at).label("n"))
            .where(mine)
            .subquery()
        )
        marks = conn.execute(
            sa.select(ranked.c.at, ranked.c.n)
            .where(((ranked.c.n - 1) % width == 0) | (ranked.c.n == older + 1))
            .order_by(ranked.c.n)
        ).all()
    cutoff = float(next(at for at, n in marks if n == older + 1))
    starts = tuple(float(at) for at, n in marks if n <= older)
    return Thinning(bot_id, players, stride, cutoff, starts)


def thin_step(engine: Engine, plan: Thinning, index: int) -> int:
    """Thin the points from ``plan.starts[index]`` to the next start (or the cutoff): one
    short transaction. Returns how many points were dropped."""
    r = ladder_ratings.c
    low = plan.starts[index]
    high = plan.starts[index + 1] if index + 1 < len(plan.starts) else plan.cutoff
    ranked = (
        sa.select(r.at, sa.func.row_number().over(order_by=r.at).label("n"))
        .where(
            (r.bot_id == plan.bot_id) & (r.players == plan.players) & (r.at >= low) & (r.at < high)
        )
        .subquery()
    )
    doomed = sa.select(ranked.c.at).where((ranked.c.n - 1) % plan.stride != 0)
    with engine.begin() as conn:
        done = conn.execute(
            ladder_ratings.delete().where(
                (r.bot_id == plan.bot_id) & (r.players == plan.players) & r.at.in_(doomed)
            )
        )
    return int(done.rowcount)


def rating_history(
    engine: Engine, bot_id: str, players: int, limit: int = HISTORY_POINTS
) -> list[tuple[float, float, float, float]]:
    """``(time, rating, low, high)`` points of one bot in one pool size, oldest first: the
    newest ``limit`` of them."""
    r = ladder_ratings.c
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(r.at, r.rating, r.low, r.high)
            .where((r.bot_id == bot_id) & (r.players == players))
            .order_by(r.at.desc())
            .limit(limit)
        ).all()
    return [(float(a), float(b), float(c), float(d)) for a, b, c, d in reversed(rows)]


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: str
    game: str
    variant: str
    players: int
    status: str
    reason: str
    decisions: int
    started_at: float
    finished_at: float | None
    seats: tuple[SeatOutcome, ...]


def recent_matches(
    engine: Engine,
    bot_id: str | None = None,
    limit: int = 50,
    before: tuple[float, str] | None = None,
) -> list[MatchRow]:
    """The newest matches (of one bot, if given), newest first, with their seats.

    ``before``: the ``(started_at, id)`` of the last match of a previous page; the page then
    starts after it (keyset pagination: every page is one index range, however deep).
    """
    m, s = ladder_matches.c, ladder_seats.c
    if bot_id is None:
        where: sa.ColumnElement[bool] = sa.true()
        if before is not None:
            where = _before(m.started_at, m.id, before)
        return _match_rows(engine, where, limit)
    query = sa.select(s.match_id).where(s.bot_id == bot_id)
    if before is not None:
        query = query.where(_before(s.started_at, s.match_id, before))
    query = query.order_by(s.started_at.desc(), s.match_id.desc()).limit(limit)
    with engine.connect() as conn:
        ids = list(conn.execute(query).scalars())
    return _match_rows(engine, m.id.in_(ids), limit) if ids else []


def _before(
    started: sa.ColumnElement[float], ident: sa.ColumnElement[str], cursor: tuple[float, str]
) -> sa.ColumnElement[bool]:
    at, match_id = cursor
    return (started < at) | ((started == at) & (ident < match_id))


def match_row(engine: Engine, match_id: str) -> MatchRow | None:
    found = _match_rows(engine, ladder_matches.c.id == match_id, 1)
    return found[0] if found else None


def _match_rows(engine: Engine, where: sa.ColumnElement[bool], limit: int) -> list[MatchRow]:
    m, s = ladder_matches.c, ladder_seats.c
    columns = (m.id, m.game, m.variant, m.players, m.status, m.reason, m.decisions)
    query = (
        sa.select(*columns, m.started_at, m.finished_at)
        .where(where)
        .order_by(m.started_at.desc(), m.id.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        heads = conn.execute(query).all()
        seats: dict[str, list[SeatOutcome]] = {}
        ids = [row.id for row in heads]
        if ids:
            for match_id, bot, rank, score, failure in conn.execute(
                sa.select(s.match_id, s.bot_id, s.rank, s.score, s.failure)
                .where(s.match_id.in_(ids))
                .order_by(s.match_id, s.seat)
            ):
                seats.setdefault(match_id, []).append(SeatOutcome(bot, rank, score, failure))
    return [
        MatchRow(
            id=row.id,
            game=row.game,
            variant=row.variant,
            players=row.players,
            status=row.status,
            reason=row.reason or "",
            decisions=row.decisions or 0,
            started_at=row.started_at,
            finished_at=row.finished_at,
            seats=tuple(seats.get(row.id, ())),
        )
        for row in heads
    ]


def _storable(value: float) -> float:
    """Infinite interval ends (no games yet) are stored as ±1e9: not every database has inf."""
    return max(-1e9, min(1e9, value))
