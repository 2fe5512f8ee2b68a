"""A running match's public view for the page, from the referee's spectator stream.

``live_updates`` turns ``server.spectators.watch`` (public events and ``observe(None)``,
released only once the match's spectator delay has passed) into small JSON updates; it adds
no information of its own and reads nothing else of the match.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf.json_format import MessageToDict

from kassen.v1.referee_pb2 import ResultReason
from server.spectators import watch

if TYPE_CHECKING:
    from server.match import Match


@dataclass(frozen=True, slots=True)
class Update:
    """``kind``: "frame" (events and view) or "over" (the result)."""

    kind: str
    data: dict[str, Any]


async def live_updates(match: Match) -> AsyncIterator[Update]:
    async for response in watch(match, 0):
        if response.HasField("match_over"):
            over = response.match_over
            yield Update(
                "over",
                {"reason": ResultReason.Name(over.reason), "ranks": [s.rank for s in over.seats]},
            )
            return
        inner = response.observation.WhichOneof("game")
        view = (
            MessageToDict(
                getattr(response.observation, inner),
                always_print_fields_with_no_presence=True,
                preserving_proto_field_name=True,
            )
            if inner
            else {}
        )
        yield Update(
            "frame",
            {
                "events": [e.text for e in response.events],
                "view": view,
            },
        )
