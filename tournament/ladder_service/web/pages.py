"""The HTML pages: the pools, a ladder, a bot, a match (with its replay viewer or live view).

Pages are rendered on the server from ``data`` (Jinja2, autoescaped: a bot's name or
description is always text); the scripts under ``static/`` only sort tables, draw the rating
chart and run the viewer from the JSON API.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from tournament.ladder_service.web import data
from tournament.ladder_service.web.api import (
    find_bot,
    find_match,
    find_pool,
    match_meta,
    service_of,
)


def render(request: Request, template: str, **context: Any) -> Response:
    page = request.app.state.templates.get_template(template)
    return HTMLResponse(page.render(**context))


async def index(request: Request) -> Response:
    service = service_of(request)
    return render(
        request,
        "index.html",
        title="Ladders",
        pools=data.pools(service),
        matches=data.recent(service, 20),
    )


async def ladder(request: Request) -> Response:
    key = find_pool(request)
    service = service_of(request)
    pool = data.pool_info(service, key)
    return render(
        request,
        "ladder.html",
        title=f"{pool['title']} {key.variant}, {key.players} players",
        pool=pool,
        rows=data.ladder_rows(service, key),
    )


async def bot(request: Request) -> Response:
    found = find_bot(request)
    info = data.bot_info(service_of(request), found)
    return render(request, "bot.html", title=found.name, bot=info)


async def match(request: Request) -> Response:
    row = find_match(request)
    meta = match_meta(service_of(request), row)
    return render(request, "match.html", title=f"Match {row.id[:12]}", match=meta)
