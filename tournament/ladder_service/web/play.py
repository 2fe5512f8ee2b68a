"""People at the table: start a game against bots, and play one's seat in the browser.

``/play`` offers every pool with the bots a person may sit against (the pool's house bots,
and its bots that accept challenges and are online now); ``POST /api/play`` asks the ladder
for the game (``Ladder/Challenge``: it applies the limits per visitor address and for the
whole ladder, and it never rates the game); ``/play/<key>`` is the seat, played through
``/api/play/<key>/events`` (Server-Sent Events, ``web.seats``) and
``POST /api/play/<key>/answer``. POSTs must be JSON (a form on another site cannot send it).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from kassen.v1 import ladder_pb2 as lpb
from tournament.ladder_service.web import data
from tournament.ladder_service.web.api import source_of, standings_of
from tournament.ladder_service.web.boards import board_for
from tournament.ladder_service.web.pages import render
from tournament.ladder_service.web.seats import PersonSeat, PersonSeats, SeatClosed
from tournament.ladder_service.web.source import ChallengeRefused

#: The largest JSON body a POST may have.
MAX_BODY = 4096


def seats_of(request: Request) -> PersonSeats:
    found: PersonSeats = request.app.state.seats
    return found


def client_of(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def new_game_page(request: Request) -> Response:
    return render(request, "play_new.html", title="Play")


async def pools(request: Request) -> Response:
    """Each pool with the bots a person may choose as opponents now."""
    standings = await standings_of(request)
    found = []
    for view in standings.pools:
        opponents = [
            {"bot_id": r["bot_id"], "name": r["name"], "house": r["house"]}
            for r in view.rows
            if r["status"] == "active" and (r["house"] or (r["accepts_challenges"] and r["online"]))
        ]
        if not opponents:
            continue
        key = view.key
        found.append(
            {
                "game": key.game,
                "variant": key.variant,
                "players": key.players,
                "title": data.pool_info(view)["title"],
                "opponents": opponents,
            }
        )
    return JSONResponse({"pools": found})


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "send the body as application/json")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise HTTPException(413, f"the body is {len(body)} bytes; at most {MAX_BODY}")
    try:
        found = json.loads(body)
    except ValueError:
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(found, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return found


def _field(body: dict[str, Any], name: str, kind: type, optional: bool = False) -> Any:
    value = body.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise HTTPException(400, f"{name} must be a {kind.__name__}")
    return value


async def start(request: Request) -> Response:
    """Ask the ladder for a person's game; answer with the seat's page."""
    body = await _json_body(request)
    opponents = _field(body, "opponents", list)
    if not all(isinstance(o, str) and len(o) <= 64 for o in opponents) or len(opponents) > 8:
        raise HTTPException(400, "opponents must list at most 8 bot ids")
    seat = _field(body, "seat", int, optional=True)
    if seat is not None and not 0 <= seat < 16:
        raise HTTPException(400, "seat must be a seat number from 0")
    ask = lpb.ChallengeRequest(
        game=_field(body, "game", str)[:64],
        variant=_field(body, "variant", str)[:64],
        players=_players(_field(body, "players", int)),
        opponents=opponents,
        person=True,
        client=client_of(request),
    )
    if seat is not None:
        ask.seat = seat
    try:
        made = await source_of(request).challenge(ask)
    except ChallengeRefused as exc:
        raise HTTPException(exc.status, str(exc)) from None
    seat_record = seats_of(request).add(
        client=client_of(request),
        match_id=made.match_id,
        seat=made.seat,
        ticket=made.ticket,
        referee=(made.referee_address, made.referee_tls) if made.referee_address else None,
        game=made.setup.game,
        variant=made.setup.variant,
        players=made.setup.players,
        seat_names=tuple(made.seat_names),
        decision_ms=made.time_control.decision_ms,
        bank_ms=made.time_control.bank_ms,
    )
    return JSONResponse({"url": f"/play/{seat_record.key}", "match_id": made.match_id})


def _players(value: int) -> int:
    if not 1 <= value <= 16:
        raise HTTPException(400, "players must be from 1 to 16")
    return value


def _seat(request: Request) -> PersonSeat:
    found = seats_of(request).get(request.path_params["key"])
    if found is None:
        raise HTTPException(
            404,
            "no game of yours is known here under this link (it is wrong, older than a day, "
            "or the page's process restarted)",
        )
    return found


async def seat_page(request: Request) -> Response:
    seat = _seat(request)
    return render(
        request,
        "play.html",
        title=f"Playing {data.game_title(seat.game)}",
        key=seat.key,
        seat=seat.meta(),
    )


async def seat_meta(request: Request) -> Response:
    seat = _seat(request)
    return JSONResponse({**seat.meta(), "board": board_for(seat.game, seat.variant)})


async def seat_events(request: Request) -> Response:
    seat = _seat(request)
    # Nothing happens before the stream's first message is asked for: a browser gone at once
    # opens no Play stream.
    return StreamingResponse(
        seats_of(request).stream(seat),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


async def answer(request: Request) -> Response:
    seat = _seat(request)
    body = await _json_body(request)
    raw_id = _field(body, "request_id", str)
    if not raw_id.isdigit() or len(raw_id) > 20:
        raise HTTPException(400, "request_id must be the decision's id, as sent")
    option = _field(body, "option", int)
    try:
        seats_of(request).answer(seat, int(raw_id), option)
    except SeatClosed as exc:
        raise HTTPException(409, str(exc)) from None
    return Response(status_code=204)
