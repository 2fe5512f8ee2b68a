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
    bot_page,
    find_pool,
    match_meta,
    source_of,
    standings_of,
)

#: Matches on the front page.
FRONT_PAGE_MATCHES = 20


def render(request: Request, template: str, **context: Any) -> Response:
    page = request.app.state.templates.get_template(template)
    return HTMLResponse(page.render(**context))


async def index(request: Request) -> Response:
    standings = await standings_of(request)
    source = source_of(request)
    recent = await source.db(data.load_matches, source.engine, None, FRONT_PAGE_MATCHES, None)
    return render(
        request,
        "index.html",
        title="Ladders",
        pools=data.pools(standings),
        matches=data.match_list(standings, recent),
    )


async def ladder(request: Request) -> Response:
    _standings, view = await find_pool(request)
    pool = data.pool_info(view)
    key = view.key
    return render(
        request,
        "ladder.html",
        title=f"{pool['title']} {key.variant}, {key.players} players",
        pool=pool,
        rows=data.ladder_rows(view),
    )


async def bot(request: Request) -> Response:
    found, info = await bot_page(request)
    return render(request, "bot.html", title=found.name, bot=info)


async def match(request: Request) -> Response:
    meta = await match_meta(request)
    return render(request, "match.html", title=f"Match {meta['match_id'][:12]}", match=meta)
