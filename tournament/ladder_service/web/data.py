"""What the web page shows, as plain dicts: the same data feeds the HTML pages and the JSON API.

Only public facts leave here: a bot's status but never its status reason (only its owner and
the organiser learn that over gRPC), never a token hash or a command line (``spec``).

The ``load_*`` functions read the database and run in the page's database threads
(``LadderSource.db``); the others only arrange what was read and what the ladder reported.
Every list is bounded: ``MAX_MATCHES`` matches a page, ``registry.HISTORY_POINTS`` points a
chart.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from games import get_game
from tournament.ladder_service import registry, versions
from tournament.ladder_service.registry import BotRecord, MatchRow
from tournament.ladder_service.versions import Version
from tournament.ladder_service.web.source import PoolView, Standings

#: How many of a bot's latest matches its page lists and counts failures in.
RECENT = 50
#: Matches one page of a list may hold.
MAX_MATCHES = 200
CURSOR = re.compile(r"(\d{1,12}(?:\.\d{1,20})?)_([A-Za-z0-9-]{1,64})")


class BadCursor(ValueError):
    """A ``before`` value that is not one this page gave out."""


def parse_cursor(text: str) -> tuple[float, str]:
    found = CURSOR.fullmatch(text)
    if found is None:
        raise BadCursor(f"before {text[:80]!r} is not a page cursor (the 'next' of a page)")
    return float(found.group(1)), found.group(2)


def cursor_of(rows: list[MatchRow], limit: int) -> str | None:
    """The cursor of the page after ``rows`` (None when this page was the last)."""
    if len(rows) < limit:
        return None
    last = rows[-1]
    return f"{last.started_at!r}_{last.id}"  # repr: the exact float, so no row repeats


def game_title(game: str) -> str:
    try:
        return str(get_game(game).title)
    except (KeyError, LookupError, ValueError):
        return game


def pool_info(view: PoolView) -> dict[str, Any]:
    key = view.key
    return {
        "game": key.game,
        "title": game_title(key.game),
        "variant": key.variant,
        "players": key.players,
        "label": key.label,
        "solo": key.players == 1,
        "bots": len(view.rows),
        "live": len(view.live),
        "url": f"/ladder/{key.game}/{key.variant}/{key.players}",
    }


def pools(standings: Standings) -> list[dict[str, Any]]:
    return [pool_info(view) for view in standings.pools]


def ladder_rows(view: PoolView) -> list[dict[str, Any]]:
    return [dict(row) for row in view.rows]


# ---------------------------------------------------------------------- read in a db thread


@dataclass(frozen=True, slots=True)
class MatchList:
    rows: list[MatchRow]
    names: dict[str, str]
    next: str | None


def _names(engine: Engine, rows: Iterable[MatchRow]) -> dict[str, str]:
    ids = sorted({seat.bot_id for row in rows for seat in row.seats})
    return {bot.id: bot.name for bot in registry.bots_by_id(engine, ids)} if ids else {}


def load_matches(
    engine: Engine, bot_id: str | None, limit: int, before: tuple[float, str] | None
) -> MatchList:
    rows = registry.recent_matches(engine, bot_id, limit, before)
    return MatchList(rows, _names(engine, rows), cursor_of(rows, limit))


def load_match(engine: Engine, match_id: str) -> tuple[MatchRow, dict[str, str], str | None]:
    """The match, its bots' names and its stored replay (None while it runs or if voided);
    ``LookupError`` if there is no such match."""
    row = registry.match_row(engine, match_id)
    if row is None:
        raise LookupError(match_id)
    replay = registry.replay_of(engine, row.id) if row.status in ("done", "unrated") else None
    return row, _names(engine, [row]), replay


def load_bot(engine: Engine, bot_id: str) -> BotRecord | None:
    bot = registry.bot_by_id(engine, bot_id)
    return bot if bot is not None and bot.status != "revoked" and not bot.person else None


def load_history(engine: Engine, bot: BotRecord) -> list[dict[str, Any]]:
    """The bot's rating history per pool size it plays: ``[time, rating, low, high]`` points
    (an unbounded interval end is null), at most ``registry.HISTORY_POINTS`` each."""
    series = []
    for players in bot.player_counts:
        points = registry.rating_history(engine, bot.id, players)
        series.append(
            {
                "players": players,
                "solo": players == 1,
                "points": [[t, finite(r), finite(lo), finite(hi)] for t, r, lo, hi in points],
            }
        )
    return series


#: Stored interval ends at or beyond this are "no bound yet" (``registry._storable``).
UNBOUNDED = 1e9


def finite(value: float) -> float | None:
    return value if abs(value) < UNBOUNDED and value == value else None


# ---------------------------------------------------------------------- arranged


def bot_info(standings: Standings, bot: BotRecord, recent: MatchList) -> dict[str, Any]:
    """A bot's public record, its standing in each pool, failures and latest matches."""
    matches = recent.rows
    failures = Counter(
        seat.failure for m in matches for seat in m.seats if seat.bot_id == bot.id and seat.failure
    )
    standings_rows = [
        {**pool_info(view), **row}
        for view in standings.pools
        for row in view.rows
        if row["bot_id"] == bot.id
    ]
    return {
        "bot_id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "game": bot.game,
        "title": game_title(bot.game),
        "variant": bot.variant,
        "player_counts": list(bot.player_counts),
        "description": bot.description,
        "status": bot.status,
        "house": bot.house,
        "online": bot.house or bot.id in standings.online,
        "accepts_challenges": bot.accepts_challenges,
        "challengeable": bot.status == "active"
        and (bot.house or (bot.accepts_challenges and bot.id in standings.online)),
        "failures_in_row": bot.failures_in_row,
        "failures": dict(sorted(failures.items())),
        "counted_matches": len(matches),
        "standings": standings_rows,
        "matches": match_list(standings, recent),
    }


def submission_info(bot: BotRecord, found: Sequence[Version]) -> dict[str, Any]:
    """What the public may know of how a bot is run: its kind, the version that plays and
    how far the newest got (never its logs: those are its author's)."""
    if bot.house:
        return {"kind": "house"}
    if not found:
        return {"kind": "connected"}
    playing = versions.playing(list(found))
    newest = max(found, key=lambda v: v.number)
    return {
        "kind": "submitted",
        "playing_version": playing.number if playing else None,
        "runtime": (playing or newest).runtime,
        "newest_version": newest.number,
        "newest_state": newest.state.replace("_", " "),
        "pinned": bool(playing and playing.pinned),
    }


def match_list(standings: Standings, found: MatchList) -> list[dict[str, Any]]:
    live = standings.live
    return [match_info(live, row, found.names) for row in found.rows]


def match_info(live: frozenset[str], row: MatchRow, names: dict[str, str]) -> dict[str, Any]:
    return {
        "match_id": row.id,
        "game": row.game,
        "title": game_title(row.game),
        "variant": row.variant,
        "players": row.players,
        "status": row.status,
        "reason": row.reason,
        "decisions": row.decisions,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "live": row.status == "running" and row.id in live,
        "url": f"/matches/{row.id}",
        "seats": [
            {
                "seat": seat,
                "bot_id": s.bot_id,
                "name": names.get(s.bot_id, s.bot_id[:8]),
                # A person's seat has no bot page (the name no bot can register).
                "person": names.get(s.bot_id) == registry.PERSON_NAME,
                "rank": s.rank,
                "score": s.score,
                "failure": s.failure,
            }
            for seat, s in enumerate(row.seats)
        ],
    }
