"""People's seats, held by the page's process: a seat's Play stream relayed to a browser.

The page asks the ladder for a person's game (``Ladder/Challenge`` with its relay token); the
ladder answers with the seat's ticket, which stays in this process. The browser is given a
key of its own instead (``/play/<key>``, 128 random bits): whoever has the key plays the
seat, nobody can guess it, and the ticket never leaves the server.

Each time the browser opens its event stream, this process joins the seat with the ticket
over ``Referee/Play`` — the protocol's reconnect: the referee sends the open decision again —
and relays what the seat is sent, as JSON, converted field by field from the messages the
referee addressed to this seat (its own observation, the public events and its own private
ones): the page can never be sent more than a bot in that seat. The browser's answers come
back as POSTs. When the browser goes (a closed tab, a reload), the Play stream is closed: for
the referee the seat has left exactly as a bot that disconnects, and if it is not back within
the match's reconnect window when a decision is due, the decision fails DISCONNECTED and the
match's failure policy applies. One browser stream per seat: a newer one takes over.

What is kept per seat is small (its ids, the ticket, the result once seen) and bounded
(``MAX_SEATS``, oldest forgotten first); the ladder bounds how many games people start.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from tournament.ladder_service.web.live import sse

log = structlog.get_logger("kassen.web")

#: A referee's address and whether it speaks TLS.
Referee = tuple[str, bool]
#: Seats remembered at once (a finished game's seat is kept to show its result on reload).
MAX_SEATS = 2000
#: How long a seat is remembered after it was made.
SEAT_TTL_S = 24 * 3600.0


class SeatClosed(LookupError):
    """An answer that cannot be used now; the message says why (HTTP 409)."""


def as_json(message: Message) -> dict[str, Any]:
    return MessageToDict(
        message, always_print_fields_with_no_presence=True, preserving_proto_field_name=True
    )


@dataclass(slots=True)
class Relay:
    """One browser connection to a seat: what goes up the Play stream, and the open decision."""

    outbox: asyncio.Queue[pb.PlayRequest | None] = field(default_factory=asyncio.Queue)
    #: The open decision: its request id, how many options, when the browser was sent it.
    open: tuple[int, int, float] | None = None
    displaced: bool = False


@dataclass(slots=True)
class PersonSeat:
    key: str
    client: str
    match_id: str
    seat: int
    ticket: str
    #: The referee hosting the match (None: the ladder's own).
    referee: Referee | None
    game: str
    variant: str
    players: int
    seat_names: tuple[str, ...]
    decision_ms: int
    bank_ms: int
    made_at: float = field(default_factory=time.monotonic)
    #: The result, once the referee sent it (shown again on a reload).
    over: dict[str, Any] | None = None
    relay: Relay | None = None

    def meta(self) -> dict[str, Any]:
        """What the page is told about its game (nothing secret: no ticket, no seed)."""
        return {
            "match_id": self.match_id,
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "seat": self.seat,
            "seats": [{"seat": i, "name": n} for i, n in enumerate(self.seat_names)],
            "time_control": {"decision_ms": self.decision_ms, "bank_ms": self.bank_ms},
        }


class PersonSeats:
    """Every person's seat this process holds."""

    def __init__(self, channel_for: Callable[[Referee | None], grpc.aio.Channel]) -> None:
        """``channel_for(referee)``: the gRPC channel to a referee (None: the ladder's own)."""
        self._channel_for = channel_for
        self._seats: OrderedDict[str, PersonSeat] = OrderedDict()

    def add(self, **fields: Any) -> PersonSeat:
        self._forget_old()
        seat = PersonSeat(key=secrets.token_urlsafe(16), **fields)
        self._seats[seat.key] = seat
        while len(self._seats) > MAX_SEATS:
            self._seats.popitem(last=False)
        return seat

    def get(self, key: str) -> PersonSeat | None:
        return self._seats.get(key)

    def close(self) -> None:
        """End every attached browser's Play stream (the page is stopping)."""
        for seat in self._seats.values():
            if seat.relay is not None:
                seat.relay.displaced = True
                seat.relay.outbox.put_nowait(None)

    def _forget_old(self) -> None:
        now = time.monotonic()
        while self._seats:
            oldest = next(iter(self._seats.values()))
            if oldest.made_at > now - SEAT_TTL_S:
                return
            self._seats.popitem(last=False)

    def answer(self, seat: PersonSeat, request_id: int, option: int) -> None:
        """Send the browser's choice up the seat's stream (``SeatClosed`` if it is not the
        open decision of an attached browser: a stale click never reaches the referee)."""
        relay = seat.relay
        if relay is None or relay.open is None:
            raise SeatClosed("no decision of this seat is open now")
        open_id, count, sent_at = relay.open
        if request_id != open_id:
            raise SeatClosed(f"decision {request_id} is no longer open (now {open_id})")
        if not 0 <= option < count:
            raise SeatClosed(f"option {option} is not one of the {count} offered")
        relay.open = None
        think_us = int((time.monotonic() - sent_at) * 1_000_000)
        relay.outbox.put_nowait(
            pb.PlayRequest(
                answer=pb.Answer(request_id=request_id, option_index=option, think_time_us=think_us)
            )
        )

    async def stream(self, seat: PersonSeat) -> AsyncIterator[str]:
        """The browser's Server-Sent Events for ``seat``, while it stays (a newer stream of
        the same seat ends this one)."""
        relay = Relay()
        previous, seat.relay = seat.relay, relay
        if previous is not None:
            previous.displaced = True
            previous.outbox.put_nowait(None)
        yield sse("seat", seat.meta())
        if seat.over is not None:
            yield sse("over", seat.over)
            return
        call = rpc.RefereeStub(self._channel_for(seat.referee)).Play(self._requests(seat, relay))
        try:
            async for response in call:
                message = self._relayed(seat, relay, response)
                if message is not None:
                    yield message
                if seat.over is not None or relay.displaced:
                    return
            if not relay.displaced:
                yield sse("gone", {"message": "the referee closed the seat's stream"})
        except grpc.aio.AioRpcError as exc:
            if not relay.displaced and exc.code() != grpc.StatusCode.CANCELLED:
                yield sse("gone", {"message": f"the referee: {exc.details()}"})
        finally:
            relay.outbox.put_nowait(None)
            call.cancel()
            if seat.relay is relay:
                seat.relay = None

    @staticmethod
    async def _requests(seat: PersonSeat, relay: Relay) -> AsyncIterator[pb.PlayRequest]:
        yield pb.PlayRequest(join=pb.Join(ticket=seat.ticket, bot_name="person"))
        while True:
            item = await relay.outbox.get()
            if item is None:
                return
            yield item

    def _relayed(self, seat: PersonSeat, relay: Relay, response: pb.PlayResponse) -> str | None:
        kind = response.WhichOneof("message")
        if kind == "ping":
            relay.outbox.put_nowait(pb.PlayRequest(pong=pb.Pong(nonce=response.ping.nonce)))
            return None
        if kind == "joined":
            return sse("joined", {"seat": response.joined.seat})
        if kind == "decision":
            return self._decision(relay, response.decision)
        if kind == "events":
            return sse("events", {"events": [e.text for e in response.events.events]})
        if kind == "notice":
            notice = response.notice
            if notice.code == "displaced":
                relay.displaced = True
            return sse("notice", {"code": notice.code, "message": notice.message})
        if kind == "match_over":
            seat.over = _result(seat, response.match_over)
            return sse("over", seat.over)
        return None

    @staticmethod
    def _decision(relay: Relay, decision: pb.DecisionRequest) -> str:
        relay.open = (decision.request_id, len(decision.options), time.monotonic())
        inner = decision.observation.WhichOneof("game")
        view = as_json(getattr(decision.observation, inner)) if inner else {}
        return sse(
            "decision",
            {
                # A string: a uint64 does not fit a JavaScript number.
                "request_id": str(decision.request_id),
                "kind": decision.kind,
                "options": [as_json(option) for option in decision.options],
                "view": view,
                "clock": {
                    "decision_ms": decision.clock.decision_ms,
                    "bank_ms": decision.clock.bank_ms,
                },
                "events": [e.text for e in decision.events],
            },
        )


def _result(seat: PersonSeat, over: pb.MatchOver) -> dict[str, Any]:
    """The end as the page shows it: reason, each seat's rank and score, the last events.
    The seed's reveal is not passed on: the replay page shows the finished game."""
    return {
        "match_id": over.match_id,
        "reason": pb.ResultReason.Name(over.reason),
        "seats": [
            {
                "seat": s.seat,
                "name": seat.seat_names[s.seat] if s.seat < len(seat.seat_names) else "",
                "rank": s.rank,
                "score": s.score,
                "reason": pb.ResultReason.Name(s.reason),
                "forfeited": s.forfeited,
            }
            for s in over.seats
        ],
        "events": [e.text for e in over.events],
    }
