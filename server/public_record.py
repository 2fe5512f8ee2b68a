"""The public record of one match, shared by everyone who watches it.

A spectator never reads the live state: what it sees is a *shadow* game, started from the
match's initial position and advanced by the match's decisions once each is as old as the
spectator delay. The record is made when the first spectator of a match comes and holds:

- each decision's public events, encoded once (``chunks``: already the bytes of
  ``WatchResponse.events`` entries, so a message is a join of them);
- one *lane* per total delay that someone watches with. A lane owns one shadow game and
  publishes, at most once per ``publication_interval()``, its position and the public
  observation there (encoded once); every spectator of the lane is a cursor into ``chunks``,
  sent what it has not seen yet plus that observation. A newcomer's first message is the
  whole history up to now − delay: the lane is advanced that far for it (without publishing,
  so the others keep their pace).

A spectator's extra delay is rounded up to one of ``EXTRA_DELAYS_MS`` (never down: nobody sees
sooner than asked), so a match has at most that many lanes whatever its spectators ask. The
lane of the match's own delay is kept until the match ends (a spectator who comes back
finds it caught up); a lane with extra delay goes with its last spectator. The record goes
when the match has ended and its last spectator has left.

A lane replays in slices of at most ``SLICE_S`` of work between yields to the event loop: a
spectator who joins a long match late does not stall the other matches.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

import structlog

from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.wire import assemble
from server.memory import return_freed_memory_soon
from server.settings import MAX_WATCH_DELAY_MS

if TYPE_CHECKING:
    from games.contract import Event, Game, GameState
    from server.match import Match

log = structlog.get_logger("kassen.spectators")

#: Longest stretch of replay (engine and encoding) between two yields to the event loop.
SLICE_S = 0.002
#: Shortest time between two publications of a lane, hence between two messages to one
#: spectator: whatever the pace of the bots, a spectator is sent at most ten messages a second.
COALESCE_S = 0.1
#: Messages a second that all the spectators of a process are sent together, at most (their
#: first messages aside): with more than ``MESSAGES_PER_S * COALESCE_S`` spectators the lanes
#: publish less often, so that spectators never take more than about an eighth of a core (a
#: message costs about 60 us of CPU; docs/performance.md, "Spectators").
MESSAGES_PER_S = 2_000
#: The extra delays a spectator gets: what it asks for, rounded up to the next of these.
EXTRA_DELAYS_MS = (
    0,
    250,
    500,
    1_000,
    2_000,
    5_000,
    10_000,
    30_000,
    60_000,
    120_000,
    300_000,
    600_000,
    1_800_000,
    MAX_WATCH_DELAY_MS,
)
#: Field numbers of ``WatchResponse`` (kassen/v1/referee.proto).
_EVENTS, _OBSERVATION = 1, 2


def publication_interval() -> float:
    """The least time between two publications of a lane, for the spectators there are now."""
    return max(COALESCE_S, PublicRecord.spectators / MESSAGES_PER_S)


def lane_delay_ms(extra_ms: int) -> int:
    """The extra delay a spectator who asks for ``extra_ms`` gets (never less)."""
    if extra_ms > MAX_WATCH_DELAY_MS:
        raise ValueError(f"an extra delay of {extra_ms} ms is above {MAX_WATCH_DELAY_MS}")
    return EXTRA_DELAYS_MS[bisect.bisect_left(EXTRA_DELAYS_MS, extra_ms)]


def public_events(game: Game, events: Iterable[Event]) -> bytes:
    """The public ones of ``events`` as ``WatchResponse.events`` entries."""
    return assemble.events_field(
        (wire.event_to_proto(game, e).SerializeToString() for e in events if e.private_to is None),
        _EVENTS,
    )


def match_over_message(match: Match) -> bytes:
    """The last message of every spectator: the result (empty if the match has none)."""
    over = pb.WatchResponse()
    if match.result is not None:
        over.match_over.CopyFrom(match.result_proto())
    return over.SerializeToString()


class PublicRecord:
    """What the spectators of one match share (see the module's docstring)."""

    #: Spectators of every match of this process (the publication interval grows with it).
    spectators: ClassVar[int] = 0

    def __init__(self, match: Match) -> None:
        self.match = match
        #: The public setup events, encoded (set by the first lane, from its initial position).
        self.setup: bytes | None = None
        #: Decisions already in the initial position (a prepared one; 0 for a new game).
        self.base = 0
        #: Per decision of the match, its public events as ``WatchResponse.events`` entries.
        self.chunks: list[bytes] = []
        self.lanes: dict[int, Lane] = {}

    @staticmethod
    def of(match: Match) -> PublicRecord:
        """The match's record, made if nobody watches it yet."""
        if match.public_record is None:
            match.public_record = PublicRecord(match)
        return match.public_record

    def join(self, extra_delay_ms: int) -> Lane:
        """A new spectator who asked for ``extra_delay_ms``: the lane it follows."""
        extra = lane_delay_ms(extra_delay_ms)
        lane = self.lanes.get(extra)
        if lane is None:
            lane = self.lanes[extra] = Lane(self, extra)
        lane.watchers += 1
        PublicRecord.spectators += 1
        return lane

    def leave(self, lane: Lane) -> None:
        """A spectator of ``lane`` has gone."""
        lane.watchers -= 1
        PublicRecord.spectators -= 1
        if lane.watchers == 0 and (lane.extra_ms != 0 or lane.ended or lane.failed is not None):
            self._drop(lane)

    def lane_ended(self, lane: Lane) -> None:
        """``lane`` has shown the whole match: it stays only while someone still watches it."""
        if lane.watchers == 0:
            self._drop(lane)

    def _drop(self, lane: Lane) -> None:
        """A lane nobody needs any more; the record goes with its last lane (while the match
        runs, the lane of its own delay stays, so the record does too)."""
        lane.stop()
        if self.lanes.get(lane.extra_ms) is lane:
            del self.lanes[lane.extra_ms]
        if not self.lanes:
            if self.match.public_record is self:
                self.match.public_record = None
            return_freed_memory_soon()

    def start_from(self, shadow: GameState) -> None:
        """The first lane's initial position gives the setup events and the base."""
        if self.setup is None:
            self.base = len(shadow.history)
            self.setup = public_events(self.match.game, getattr(shadow, "setup_events", ()))

    def record(self, decision: int, events: Iterable[Event]) -> None:
        """Keep the public events of ``decision`` (only the first lane to apply it encodes)."""
        if decision == len(self.chunks):
            self.chunks.append(public_events(self.match.game, events))


class Lane:
    """One shadow game at one total delay, and the spectators who follow it."""

    def __init__(self, record: PublicRecord, extra_ms: int) -> None:
        self.record = record
        self.extra_ms = extra_ms
        match = record.match
        self.delay_s = (match.settings.watch_delay_ms + extra_ms) / 1000
        self.watchers = 0
        #: Decisions applied to the shadow, the ones shown by the current publication, and the
        #: ones looked at for a publication (a decision with no public events that leaves the
        #: public view as it was is not published on its own).
        self.applied = 0
        self.published = 0
        self._examined = 0
        #: Bumped by every publication that changes what spectators see.
        self.version = 0
        #: ``WatchResponse.observation`` at ``published``, encoded.
        self.observation = b""
        #: The whole match is published (its spectators' next message is MatchOver).
        self.ended = False
        self.failed: BaseException | None = None
        self._changed = asyncio.Event()
        #: The update from the previous publication to the current one, joined once (what
        #: every spectator in step is sent).
        self._messages: dict[int, bytes] = {}
        self._previous = 0
        #: The shadow and its view's encoder (set when the lane starts); one advance at a time
        #: (the lane's own, or a newcomer's catch-up to now).
        self._shadow: GameState | None = None
        self._encoder = wire.ObservationEncoder(match.game.name, pb.Observation())
        self._advancing = asyncio.Lock()
        #: A newcomer's first message, for the position it was built at.
        self._first: tuple[int, bytes] = (-1, b"")
        self._task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._run(), name=f"spectators-{match.id}-{extra_ms}"
        )

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._messages.clear()
        self._first = (-1, b"")
        self._shadow = None

    async def wait_beyond(self, version: int) -> None:
        """Until a publication later than ``version`` (or the lane failed)."""
        while self.version <= version and self.failed is None:
            await self._changed.wait()
        if self.failed is not None:
            raise RuntimeError("the spectators' replay failed") from self.failed

    async def first_message(self) -> tuple[int, bytes]:
        """A newcomer's first message: the setup, the whole public history up to now − delay
        and the public view there (the lane is advanced that far first, in slices), with the
        number of decisions it shows. Newcomers at the same position share one message."""
        await self.wait_beyond(0)  # the lane has started: its shadow and setup exist
        async with self._advancing:
            shadow = self._shadow
            assert shadow is not None
            await self._advance(shadow, self._due())
            position = self.applied
            if self._first[0] != position:
                self._encoder.encode(shadow.observe(None))
                view = self._encoder.target.SerializeToString()
                history = b"".join(self.record.chunks[:position])
                self._first = (
                    position,
                    (self.record.setup or b"")
                    + history
                    + assemble.length_delimited(_OBSERVATION, view),
                )
            return self._first

    def message(self, sent: int) -> bytes:
        """The update for a spectator that has been sent the events of the first ``sent``
        decisions: the events since, and the view at the current publication."""
        found = self._messages.get(sent)
        if found is not None:
            return found
        found = b"".join(self.record.chunks[sent : self.published]) + self.observation
        if sent == self._previous:  # shared by every spectator in step: joined once
            self._messages[sent] = found
        return found

    def _due(self) -> int:
        """How many of the match's decisions are as old as the lane's delay."""
        times = self.record.match.decided_at
        return bisect.bisect_right(times, time.monotonic() - self.delay_s, lo=self.applied)

    async def _run(self) -> None:
        try:
            await self._follow()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug of ours: its spectators' streams end with an error
            log.exception("spectators_failed", match_id=self.record.match.id)
            self.failed = exc
            self._wake()

    async def _follow(self) -> None:
        """Advance the shadow as decisions come of age; publish at most once an interval."""
        record, match = self.record, self.record.match
        shadow = self._shadow = match.initial_state()
        record.start_from(shadow)
        last_published = -float("inf")
        while True:
            async with self._advancing:
                await self._advance(shadow, self._due())
            over = match.finished_at is not None and self.applied >= len(match.decided_at)
            looked = self.version == 0 or self.applied > self._examined or over
            if looked and self._publish(shadow, over):
                last_published = time.monotonic()
            if over:
                self._task = None  # ends here: nothing to cancel
                record.lane_ended(self)
                return
            if self.applied >= len(match.decided_at):
                await match.next_progress()  # a decision, or the end
                if match.finished_at is not None and self.applied >= len(match.decided_at):
                    continue  # the end is shown at once
            wait = last_published + publication_interval() - time.monotonic()
            if self.applied < len(match.decided_at):
                wait = max(wait, match.decided_at[self.applied] + self.delay_s - time.monotonic())
            if wait > 0:
                await self._pause(wait)

    async def _pause(self, seconds: float) -> None:
        """Sleep, but wake when the match ends: its end is shown at once, not a publication
        interval later (a stopping referee ends its spectators' streams in its grace time)."""
        match = self.record.match
        if match.finished_at is not None:
            await asyncio.sleep(seconds)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(match.finished.wait(), seconds)

    async def _advance(self, shadow: GameState, due: int) -> None:
        """Apply the match's decisions up to ``due``, yielding to the loop between slices
        (the caller holds ``_advancing``)."""
        record, history = self.record, self.record.match.state.history
        deadline = time.perf_counter() + SLICE_S
        while self.applied < due:
            seat, index = history[record.base + self.applied]
            events = shadow.apply(seat, index)
            record.record(self.applied, events)
            self.applied += 1
            if time.perf_counter() >= deadline:
                await asyncio.sleep(0)
                history = record.match.state.history
                deadline = time.perf_counter() + SLICE_S

    def _publish(self, shadow: GameState, over: bool) -> bool:
        """Show the shadow's position to the lane's spectators, if they would see anything
        new (public events, a changed public view, the end). Whether it did."""
        self._examined = self.applied
        self._encoder.encode(shadow.observe(None))
        view = self._encoder.target.SerializeToString()
        observation = assemble.length_delimited(_OBSERVATION, view)
        news = any(self.record.chunks[self.published : self.applied])
        if not (self.version == 0 or over or news or observation != self.observation):
            return False  # the decisions since are shown with the next publication
        self._previous = self.published
        self.published = self.applied
        self.observation = observation
        self._messages.clear()
        self.ended = over
        self.version += 1
        self._wake()
        return True

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
