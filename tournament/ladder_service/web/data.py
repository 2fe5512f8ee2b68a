"""What the web page shows, as plain dicts: the same data feeds the HTML pages and the JSON API.

Only public facts leave here: a bot's status but never its status reason (only its owner and
the organiser learn that over gRPC), never a token hash or a command line (``spec``).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from games import get_game
from tournament.ladder_service import registry
from tournament.ladder_service.ratings import Rating
from tournament.ladder_service.registry import BotRecord, MatchRow
from tournament.ladder_service.service import LadderService, PoolKey

#: How many of a bot's latest matches its page lists and counts failures in.
RECENT = 50
#: Stored interval ends at or beyond this are "no bound yet" (``registry._storable``).
UNBOUNDED = 1e9


def finite(value: float) -> float | None:
    return value if math.isfinite(value) and abs(value) < UNBOUNDED else None


def game_title(game: str) -> str:
    try:
        return str(get_game(game).title)
    except (KeyError, LookupError, ValueError):
        return game


def pool_key(service: LadderService, game: str, variant: str, players: int) -> PoolKey | None:
    key = PoolKey(game, variant, players)
    return key if key in service.pools else None


def pool_info(service: LadderService, key: PoolKey) -> dict[str, Any]:
    pool = service.pools[key]
    return {
        "game": key.game,
        "title": game_title(key.game),
        "variant": key.variant,
        "players": key.players,
        "label": key.label,
        "solo": key.players == 1,
        "bots": len(pool.table),
        "live": sum(1 for r in service.running.values() if r.pool == key),
        "url": f"/ladder/{key.game}/{key.variant}/{key.players}",
    }


def pools(service: LadderService) -> list[dict[str, Any]]:
    return [pool_info(service, key) for key in service.pools]


def ladder_rows(service: LadderService, key: PoolKey) -> list[dict[str, Any]]:
    return [
        _row(rank, rating, bot, service.online(bot.id))
        for rank, (rating, bot) in enumerate(service.ladder(key), start=1)
    ]


def _row(rank: int, rating: Rating, bot: BotRecord, online: bool) -> dict[str, Any]:
    return {
        "rank": rank,
        "bot_id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "rating": finite(rating.rating),
        "low": finite(rating.low),
        "high": finite(rating.high),
        "games": rating.matches,
        "provisional": rating.provisional,
        "online": online,
        "house": bot.house,
        "status": bot.status,
    }


def bot_info(service: LadderService, bot: BotRecord) -> dict[str, Any]:
    """A bot's public record, its standing in each pool, failures and latest matches."""
    matches = registry.recent_matches(service.engine, bot.id, RECENT)
    failures = Counter(
        seat.failure for m in matches for seat in m.seats if seat.bot_id == bot.id and seat.failure
    )
    standings = []
    for key, pool in service.pools.items():
        for rank, rating in enumerate(pool.table, start=1):
            if rating.bot_id == bot.id:
                standings.append(
                    {**pool_info(service, key), **_row(rank, rating, bot, service.online(bot.id))}
                )
    names = bot_names(service)
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
        "online": service.online(bot.id),
        "failures_in_row": bot.failures_in_row,
        "failures": dict(sorted(failures.items())),
        "counted_matches": len(matches),
        "standings": standings,
        "matches": [match_info(service, m, names) for m in matches],
    }


def history(service: LadderService, bot: BotRecord) -> list[dict[str, Any]]:
    """The bot's rating history per pool size it plays: ``[time, rating, low, high]`` points
    (an unbounded interval end is null)."""
    series = []
    for players in bot.player_counts:
        points = registry.rating_history(service.engine, bot.id, players)
        series.append(
            {
                "players": players,
                "solo": players == 1,
                "points": [[t, finite(r), finite(lo), finite(hi)] for t, r, lo, hi in points],
            }
        )
    return series


def bot_names(service: LadderService) -> dict[str, str]:
    return {b.id: b.name for b in registry.list_bots(service.engine)}


def match_info(service: LadderService, row: MatchRow, names: dict[str, str]) -> dict[str, Any]:
    live = row.status == "running" and row.id in service.referee.matches
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
        "live": live,
        "url": f"/matches/{row.id}",
        "seats": [
            {
                "seat": seat,
                "bot_id": s.bot_id,
                "name": names.get(s.bot_id, s.bot_id[:8]),
                "rank": s.rank,
                "score": s.score,
                "failure": s.failure,
            }
            for seat, s in enumerate(row.seats)
        ],
    }


def recent(service: LadderService, limit: int = 20) -> list[dict[str, Any]]:
    names = bot_names(service)
    return [
        match_info(service, m, names) for m in registry.recent_matches(service.engine, None, limit)
    ]
