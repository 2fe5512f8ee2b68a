"""Spectators: the public record of a match, shown with the organiser's delay.

A spectator never reads the live state. It follows a lane of the match's public record
(server/public_record.py): a shadow game, shared by every spectator with the same delay,
advanced by the match's decisions once each is that old, whose public events and public view
(``observe(None)``) are encoded once for all of them. So a spectator who joins late first
receives the public history up to ``now - delay``, then one message per publication of its
lane (at most one every 100 ms, less often when the process has many spectators:
``publication_interval``) with every public event since its last message and the newest view, and the delay holds for the catch-up as much as for live play: a spectator
can never see the game sooner than the organiser allows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TYPE_CHECKING

from kassen.v1 import referee_pb2 as pb
from server.memory import return_freed_memory_soon
from server.public_record import PublicRecord, match_over_message

if TYPE_CHECKING:
    from server.match import Match


async def watch_bytes(match: Match, extra_delay_ms: int = 0) -> AsyncGenerator[bytes, None]:
    """What a spectator receives, as encoded ``WatchResponse`` messages: the history first,
    then what is new at each publication of its lane, then the end (``match_over``).

    The delay is the match's spectator delay; a spectator may only add to it (rounded up,
    ``server.public_record.lane_delay_ms``). A spectator that reads slowly skips
    publications: its next message holds everything since its last one.
    """
    record = PublicRecord.of(match)
    lane = record.join(extra_delay_ms)
    try:
        sent, message = await lane.first_message()
        seen = lane.version
        yield message
        del message
        while True:
            if lane.published > sent:
                message = lane.message(sent)
                sent = lane.published
                yield message
                del message
            if lane.ended and sent == lane.published:
                assert match.finished_at is not None
                wait = match.finished_at + lane.delay_s - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                yield match_over_message(match)
                return
            await lane.wait_beyond(seen)
            seen = lane.version
    finally:
        record.leave(lane)
        return_freed_memory_soon()


async def watch(match: Match, extra_delay_ms: int = 0) -> AsyncIterator[pb.WatchResponse]:
    """The same updates as messages, for an in-process spectator (the ladder's web page)."""
    async for data in watch_bytes(match, extra_delay_ms):
        yield pb.WatchResponse.FromString(data)
