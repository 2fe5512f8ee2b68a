"""The JSON API behind the pages: ladders, bots, matches, replay frames and live updates.

Unknown ids are 404 and malformed query values 400, each with a one-line ``{"error": ...}``.
Lists are pages of at most ``data.MAX_MATCHES`` with a ``next`` cursor for the page after.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from tournament.ladder_service import versions
from tournament.ladder_service.registry import BotRecord, MatchRow
from tournament.ladder_service.service import PoolKey
from tournament.ladder_service.web import data
from tournament.ladder_service.web.boards import board_for
from tournament.ladder_service.web.frames import ReplayNotPublic
from tournament.ladder_service.web.live import LiveHub, TooManyViewers, live_messages
from tournament.ladder_service.web.source import (
    LadderSource,
    LadderUnavailable,
    PoolView,
    Standings,
)

#: Frames one request may ask for (a Root game has ~1,500).
MAX_FRAMES = 200


def source_of(request: Request) -> LadderSource:
    found: LadderSource = request.app.state.source
    return found


async def standings_of(request: Request, asked_after: float = 0.0) -> Standings:
    try:
        return await source_of(request).standings(asked_after)
    except LadderUnavailable as exc:
        raise HTTPException(503, str(exc)) from None


async def standings_for(request: Request, row: MatchRow) -> Standings:
    """Standings that know whether ``row`` is live: asked for after it started, if it is
    still running by the database."""
    return await standings_of(request, row.started_at if row.status == "running" else 0.0)


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query value in ``low..high``; 400 naming it otherwise."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise HTTPException(400, f"{name} must be a whole number from {low} to {high}")
    return value


def cursor_param(request: Request) -> tuple[float, str] | None:
    raw = request.query_params.get("before")
    if raw is None:
        return None
    try:
        return data.parse_cursor(raw)
    except data.BadCursor as exc:
        raise HTTPException(400, str(exc)) from None


async def find_pool(request: Request) -> tuple[Standings, PoolView]:
    params = request.path_params
    standings = await standings_of(request)
    view = standings.pool(PoolKey(params["game"], params["variant"], params["players"]))
    if view is None:
        raise HTTPException(
            404,
            f"this ladder runs no pool {params['game']}/{params['variant']}/{params['players']}p",
        )
    return standings, view


async def find_bot(request: Request) -> BotRecord:
    bot_id = request.path_params["bot_id"]
    source = source_of(request)
    bot = await source.db(data.load_bot, source.engine, bot_id)
    if bot is None:
        raise HTTPException(404, f"no bot {bot_id[:40]}")
    return bot


async def find_match(request: Request) -> tuple[MatchRow, dict[str, str], str | None]:
    match_id = request.path_params["match_id"]
    source = source_of(request)
    try:
        return await source.db(data.load_match, source.engine, match_id)
    except LookupError:
        raise HTTPException(404, f"no match {match_id[:64]}") from None


def revealed(replay_json: str) -> bool:
    """Whether a stored replay may be shown: its seed is revealed."""
    try:
        record = json.loads(replay_json)
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("seed") is not None


async def match_meta(request: Request) -> dict[str, Any]:
    """The match as the viewer needs it: seats, result, frame count and board drawing data."""
    row, names, text = await find_match(request)
    standings = await standings_for(request, row)
    info = data.match_info(standings.live, row, names)
    replay = text is not None and revealed(text)
    return {
        **info,
        "replay": replay,
        "frames": row.decisions + 1 if replay else 0,
        "board": board_for(row.game, row.variant),
    }


async def bot_page(request: Request) -> tuple[BotRecord, dict[str, Any]]:
    found = await find_bot(request)
    source = source_of(request)
    recent = await source.db(data.load_matches, source.engine, found.id, data.RECENT, None)
    found_versions = await source.db(versions.shown, source.engine, found.id)
    info = data.bot_info(await standings_of(request), found, recent)
    return found, {**info, **data.submission_info(found, found_versions)}


async def pools(request: Request) -> Response:
    return JSONResponse({"pools": data.pools(await standings_of(request))})


async def ladder(request: Request) -> Response:
    _standings, view = await find_pool(request)
    return JSONResponse({"pool": data.pool_info(view), "rows": data.ladder_rows(view)})


async def bot(request: Request) -> Response:
    _found, info = await bot_page(request)
    return JSONResponse(info)


async def bot_history(request: Request) -> Response:
    found = await find_bot(request)
    players = int_param(request, "players", 0, 0, 4)
    source = source_of(request)
    series = await source.db(data.load_history, source.engine, found)
    if players:
        series = [s for s in series if s["players"] == players]
    return JSONResponse({"bot_id": found.id, "series": series})


async def bot_matches(request: Request) -> Response:
    found = await find_bot(request)
    return await _match_page(request, found.id)


async def matches(request: Request) -> Response:
    return await _match_page(request, None)


async def _match_page(request: Request, bot_id: str | None) -> Response:
    limit = int_param(request, "limit", 20, 1, data.MAX_MATCHES)
    before = cursor_param(request)
    source = source_of(request)
    found = await source.db(data.load_matches, source.engine, bot_id, limit, before)
    standings = await standings_of(request)
    return JSONResponse({"matches": data.match_list(standings, found), "next": found.next})


async def match(request: Request) -> Response:
    return JSONResponse(await match_meta(request))


async def frames(request: Request) -> Response:
    row, _names, text = await find_match(request)
    start = int_param(request, "start", 0, 0, 10_000_000)
    count = int_param(request, "count", 100, 1, MAX_FRAMES)
    if text is None:
        raise HTTPException(404, f"match {row.id} has no public replay ({row.status})")
    if start > row.decisions:
        raise HTTPException(400, f"start {start} is past the last frame ({row.decisions})")
    try:
        async with request.app.state.frame_slots:  # re-simulating is CPU: two at a time
            total, found = await asyncio.to_thread(
                request.app.state.frames.frames, row.id, text, start, count
            )
    except ReplayNotPublic as exc:
        raise HTTPException(404, str(exc)) from None
    head = json.dumps({"match_id": row.id, "game": row.game, "total": total})
    body = f'{head[:-1]},"frames":[{",".join(found)}]}}'
    return Response(body, media_type="application/json")


async def live(request: Request) -> Response:
    """Server-Sent Events: the public view of a running match, with its spectator delay."""
    row, _names, _text = await find_match(request)
    standings = await standings_for(request, row)
    if row.status != "running" or row.id not in standings.live:
        raise HTTPException(404, f"match {row.id} is not being played now ({row.status})")
    hub: LiveHub = request.app.state.live
    client = request.client.host if request.client is not None else "unknown"
    try:
        feed, viewer = hub.admit(row.id, client, standings.referees.get(row.id))
    except TooManyViewers as exc:
        raise HTTPException(exc.status, str(exc)) from None
    messages = live_messages(feed, viewer)
    # A stream that is never started (its visitor gone at once) never runs its ``finally``:
    # the viewer is let go when the stream is collected instead.
    weakref.finalize(messages, feed.let_go, viewer)
    return StreamingResponse(
        messages,
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )
