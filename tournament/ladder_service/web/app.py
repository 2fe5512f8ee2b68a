"""The ladder's web page: server-rendered pages, a small JSON API and static scripts.

``create_app(source)`` serves one ladder from the page's own process (``web.process``):
``source`` reads the database in threads and asks the ladder for its standings; the busiest
answers are shared for a second (``cache.ResponseCache``); re-simulating a replay runs in a
thread; live matches come from one shared Watch stream each (``live.LiveHub``); people play
their seats through ``play`` and ``seats``. Every
response carries headers that allow scripts, styles and images from this site only.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tournament.ladder_service.web import api, pages, play
from tournament.ladder_service.web.cache import ResponseCache
from tournament.ladder_service.web.frames import FrameCache
from tournament.ladder_service.web.live import LiveHub, LiveLimits
from tournament.ladder_service.web.seats import PersonSeats
from tournament.ladder_service.web.source import LadderSource

HERE = Path(__file__).parent
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
        b"form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every response (pure ASGI: streams pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["when"] = _when
    env.filters["elo"] = _number
    return env


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at)) if at else ""


def _number(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{value:.{digits}f}"


async def _error(request: Request, exc: Exception) -> Response:
    """Errors as one line: JSON under /api, a small page elsewhere."""
    assert isinstance(exc, HTTPException)
    message = exc.detail if exc.status_code != 404 or exc.detail != "Not Found" else "not found"
    message = " ".join(str(message).split())
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=exc.status_code)
    page = request.app.state.templates.get_template("error.html")
    return HTMLResponse(
        page.render(status=exc.status_code, message=message, title=f"{exc.status_code}"),
        status_code=exc.status_code,
    )


def create_app(
    source: LadderSource, limits: LiveLimits | None = None, referees_ca: bytes | None = None
) -> Starlette:
    """The web application of one running ladder (``referees_ca``: the CA of its remote
    referees' TLS, where it watches their live matches)."""
    cache = ResponseCache()
    shared = cache.cached
    app = Starlette(
        routes=[
            Route("/", shared(pages.index)),
            Route("/ladder/{game}/{variant}/{players:int}", shared(pages.ladder)),
            Route("/bots/{bot_id}", shared(pages.bot)),
            Route("/matches/{match_id}", shared(pages.match)),
            Route("/api/pools", shared(api.pools)),
            Route("/api/ladder/{game}/{variant}/{players:int}", shared(api.ladder)),
            Route("/api/bots/{bot_id}", shared(api.bot)),
            Route("/api/bots/{bot_id}/history", shared(api.bot_history)),
            Route("/api/bots/{bot_id}/matches", shared(api.bot_matches)),
            Route("/api/matches", shared(api.matches)),
            Route("/api/matches/{match_id}", shared(api.match)),
            Route("/api/matches/{match_id}/frames", api.frames),
            Route("/api/matches/{match_id}/live", api.live),
            Route("/play", play.new_game_page),
            Route("/play/{key}", play.seat_page),
            Route("/api/play/pools", shared(play.pools)),
            Route("/api/play", play.start, methods=["POST"]),
            Route("/api/play/{key}", play.seat_meta),
            Route("/api/play/{key}/events", play.seat_events),
            Route("/api/play/{key}/answer", play.answer, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        exception_handlers={HTTPException: _error},
    )
    state: Any = app.state
    state.source = source
    state.templates = _templates()
    state.frames = FrameCache()
    state.frame_slots = asyncio.Semaphore(2)
    state.live = LiveHub(source.channel, source.relay_token, limits or LiveLimits(), referees_ca)
    state.seats = PersonSeats(state.live.channel_for)
    app.add_middleware(SecurityHeaders)
    return app
