"""Spectators: the public record of a match, replayed with the organiser's delay.

A spectator never reads the live state. It keeps a *shadow* game of its own, started from the
match's initial position and advanced by the match's decisions once each is ``delay`` old; what
it sends are the shadow's public events and public view (``observe(None)``). So a spectator
who joins late first receives the public history up to ``now - delay``, then every later
decision as it comes of age, and the delay holds for the catch-up as much as for live play: a
spectator can never see the game sooner than the organiser allows. The cost is the engine's
own cost per decision, paid only while someone watches.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from kassen import wire
from kassen.v1 import referee_pb2 as pb

if TYPE_CHECKING:
    from server.match import Match


async def watch(match: Match, extra_delay_ms: int = 0) -> AsyncIterator[pb.WatchResponse]:
    """The updates a spectator receives: catch-up first, then one per decision, then the end.

    The delay is the match's spectator delay; a spectator may only add to it.
    """
    delay = (match.settings.watch_delay_ms + extra_delay_ms) / 1000
    shadow = match.initial_state()
    game = match.game
    applied = len(shadow.history)
    base = applied
    setup = tuple(getattr(shadow, "setup_events", ()))
    first = True
    match.watchers += 1
    try:
        while True:
            due_by = time.monotonic() - delay
            times = match.decided_at
            target = applied
            while target - base < len(times) and times[target - base] <= due_by:
                target += 1
            events: list[pb.Event] = []
            if first:
                events.extend(wire.event_to_proto(game, e) for e in setup if e.private_to is None)
            history = match.state.history
            for seat, index in history[applied:target]:
                for event in shadow.apply(seat, index):
                    if event.private_to is None:
                        events.append(wire.event_to_proto(game, event))
            applied = target
            if first or events:
                yield pb.WatchResponse(
                    events=events,
                    observation=wire.observation_to_proto(game.name, shadow.observe(None)),
                )
                first = False
            caught_up = applied - base >= len(match.decided_at)
            if match.finished_at is not None and caught_up:
                wait = match.finished_at + delay - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                over = pb.WatchResponse()
                if match.result is not None:
                    over.match_over.CopyFrom(match.result_proto())
                yield over
                return
            if not caught_up:
                wait = match.decided_at[applied - base] + delay - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            else:
                await match.next_progress()
    finally:
        match.watchers -= 1
