"""A seat's DecisionRequest written as bytes from parts encoded once.

Protobuf's wire format is a concatenation of fields, and an embedded message is its tag, its
length and its bytes. So the referee need not build a ``PlayResponse`` message per decision and
copy every option and event into it: an option's bytes are the same every time it is offered,
an event's bytes are the same for every seat that receives it, and the observation is one
message kept up to date in place (``ObservationEncoder``). Each request is these parts joined;
a bot parses exactly what ``PlayResponse(decision=...)`` would have serialized to (tested).
Measured gains and what else was considered: docs/protocol.md, "What a decision costs".
"""

from __future__ import annotations

from collections.abc import Iterable

from games.contract import Decision, Option
from kassen.v1 import referee_pb2 as pb

_LEN = 2
_VARINT = 0
#: Field numbers of the messages written here (kassen/v1/referee.proto).
_PLAY_DECISION = 2
_PLAY_MATCH_OVER = 6
_REQUEST_ID, _KIND, _OPTIONS, _OBSERVATION, _CLOCK, _SEAT, _EVENTS = 1, 2, 3, 4, 5, 6, 7
_CLOCK_DECISION_MS, _CLOCK_BANK_MS = 1, 2
_MATCH_OVER_EVENTS = 5
#: Most options kept encoded (engines intern their options: the set per game is small).
OPTION_CACHE_LIMIT = 100_000


def varint(value: int) -> bytes:
    """``value`` (not negative) as a protobuf varint."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


def length_delimited(number: int, payload: bytes) -> bytes:
    """Field ``number`` holding ``payload`` (an embedded message, a string or bytes)."""
    return tag(number, _LEN) + varint(len(payload)) + payload


def varint_field(number: int, value: int) -> bytes:
    """Field ``number`` holding an integer; nothing for 0, as proto3 writes it."""
    return tag(number, _VARINT) + varint(value) if value else b""


_KINDS: dict[str, bytes] = {}
_OPTION_BYTES: dict[tuple[str, Option], bytes] = {}
_EVENT_TAG = tag(_EVENTS, _LEN)


def _kind_field(kind: str) -> bytes:
    found = _KINDS.get(kind)
    if found is None:
        found = length_delimited(_KIND, kind.encode())
        if len(_KINDS) < OPTION_CACHE_LIMIT:
            _KINDS[kind] = found
    return found


def options_field(game: str, decision: Decision) -> bytes:
    """The ``options`` field of a request for ``decision``, each option encoded once."""
    from kassen.wire import option_to_proto  # the package imports this module

    parts = []
    for option in decision.options:
        found = _OPTION_BYTES.get((game, option))
        if found is None:
            found = length_delimited(_OPTIONS, option_to_proto(game, option).SerializeToString())
            if len(_OPTION_BYTES) < OPTION_CACHE_LIMIT:
                _OPTION_BYTES[(game, option)] = found
        parts.append(found)
    return b"".join(parts)


def event_bytes(event: pb.Event) -> bytes:
    """An event encoded once, for every seat that receives it (``events_field``)."""
    return event.SerializeToString()


def events_field(events: Iterable[bytes], number: int = _EVENTS) -> bytes:
    """A repeated ``Event`` field (DecisionRequest's by default) from encoded events."""
    prefix = _EVENT_TAG if number == _EVENTS else tag(number, _LEN)
    return b"".join(prefix + varint(len(e)) + e for e in events)


def decision_message(
    request_id: int,
    decision: Decision,
    options: bytes,
    observation: bytes,
    decision_ms: int,
    bank_ms: int,
    events: Iterable[bytes],
) -> bytes:
    """``PlayResponse(decision=DecisionRequest(...))`` as bytes."""
    clock = varint_field(_CLOCK_DECISION_MS, decision_ms) + varint_field(_CLOCK_BANK_MS, bank_ms)
    body = b"".join(
        (
            varint_field(_REQUEST_ID, request_id),
            _kind_field(decision.kind),
            options,
            length_delimited(_OBSERVATION, observation),
            length_delimited(_CLOCK, clock),
            varint_field(_SEAT, decision.seat),
            events_field(events),
        )
    )
    return length_delimited(_PLAY_DECISION, body)


def match_over_message(result: pb.MatchOver, events: Iterable[bytes]) -> bytes:
    """``PlayResponse(match_over=result)`` with ``events`` appended to its events."""
    body = result.SerializeToString() + events_field(events, _MATCH_OVER_EVENTS)
    return length_delimited(_PLAY_MATCH_OVER, body)
