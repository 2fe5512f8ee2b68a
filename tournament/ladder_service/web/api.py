"""The JSON API behind the pages: ladders, bots, matches, replay frames and live updates.

Unknown ids are 404 and malformed query values 400, each with a one-line ``{"error": ...}``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from tournament.ladder_service import registry
from tournament.ladder_service.registry import BotRecord, MatchRow
from tournament.ladder_service.service import LadderService, PoolKey
from tournament.ladder_service.web import data
from tournament.ladder_service.web.boards import board_for
from tournament.ladder_service.web.frames import ReplayNotPublic
from tournament.ladder_service.web.live import live_updates

#: Frames one request may ask for (a Root game has ~1,500).
MAX_FRAMES = 200


def service_of(request: Request) -> LadderService:
    found: LadderService = request.app.state.service
    return found


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


def find_pool(request: Request) -> PoolKey:
    params = request.path_params
    key = data.pool_key(service_of(request), params["game"], params["variant"], params["players"])
    if key is None:
        raise HTTPException(
            404,
            f"this ladder runs no pool {params['game']}/{params['variant']}/{params['players']}p",
        )
    return key


def find_bot(request: Request) -> BotRecord:
    bot_id = request.path_params["bot_id"]
    bot = registry.bot_by_id(service_of(request).engine, bot_id)
    if bot is None or bot.status == "revoked":
        raise HTTPException(404, f"no bot {bot_id[:40]}")
    return bot


def find_match(request: Request) -> MatchRow:
    match_id = request.path_params["match_id"]
    row = registry.match_row(service_of(request).engine, match_id)
    if row is None:
        raise HTTPException(404, f"no match {match_id[:64]}")
    return row


def revealed(replay_json: str) -> bool:
    """Whether a stored replay may be shown: its seed is revealed."""
    try:
        record = json.loads(replay_json)
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("seed") is not None


def match_meta(service: LadderService, row: MatchRow) -> dict[str, Any]:
    """The match as the viewer needs it: seats, result, frame count and board drawing data."""
    info = data.match_info(service, row, data.bot_names(service))
    text = registry.replay_of(service.engine, row.id) if row.status == "done" else None
    replay = text is not None and revealed(text)
    return {
        **info,
        "replay": replay,
        "frames": row.decisions + 1 if replay else 0,
        "board": board_for(row.game, row.variant),
    }


async def pools(request: Request) -> Response:
    return JSONResponse({"pools": data.pools(service_of(request))})


async def ladder(request: Request) -> Response:
    key = find_pool(request)
    service = service_of(request)
    return JSONResponse(
        {"pool": data.pool_info(service, key), "rows": data.ladder_rows(service, key)}
    )


async def bot(request: Request) -> Response:
    return JSONResponse(data.bot_info(service_of(request), find_bot(request)))


async def bot_history(request: Request) -> Response:
    found = find_bot(request)
    series = data.history(service_of(request), found)
    players = int_param(request, "players", 0, 0, 4)
    if players:
        series = [s for s in series if s["players"] == players]
    return JSONResponse({"bot_id": found.id, "series": series})


async def matches(request: Request) -> Response:
    limit = int_param(request, "limit", 20, 1, 200)
    return JSONResponse({"matches": data.recent(service_of(request), limit)})


async def match(request: Request) -> Response:
    return JSONResponse(match_meta(service_of(request), find_match(request)))


async def frames(request: Request) -> Response:
    row = find_match(request)
    start = int_param(request, "start", 0, 0, 10_000_000)
    count = int_param(request, "count", 100, 1, MAX_FRAMES)
    service = service_of(request)
    text = registry.replay_of(service.engine, row.id) if row.status == "done" else None
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
    row = find_match(request)
    service = service_of(request)
    running = service.referee.matches.get(row.id) if row.status == "running" else None
    if running is None or running.finished_at is not None:
        raise HTTPException(404, f"match {row.id} is not being played now ({row.status})")
    state: Any = request.app.state
    if state.live_streams >= state.max_live_streams:
        raise HTTPException(503, "too many spectators right now; try again later")

    async def stream() -> AsyncIterator[str]:
        state.live_streams += 1
        try:
            async for update in live_updates(running):
                yield f"event: {update.kind}\ndata: {json.dumps(update.data)}\n\n"
        finally:
            state.live_streams -= 1

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )
