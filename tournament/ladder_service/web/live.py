"""Live matches for the page: one ``Referee/Watch`` stream per match, shared by every viewer.

The referee sends a watcher the public record only, after the organiser's spectator delay;
this module adds nothing of its own. A ``LiveFeed`` holds one match's stream and what it has
said so far (every public event's text and the newest public view), encoded once as
Server-Sent Events: a viewer who arrives late is sent the whole public history in one
message, then each update as it comes. However many people watch, the ladder serves one
watcher per match (the page's relay token exempts it from the per-caller limit).

Viewers are bounded like the referee's watchers, with the same numbers: per match, per client
address and per process (``LiveLimits``). A viewer who does not keep up (its queue of
``VIEWER_QUEUE`` updates full) is dropped rather than buffered without end. A feed whose last
viewer left stays ``LINGER_S`` for a returning viewer, then closes its stream.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog
from google.protobuf.json_format import MessageToDict

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.settings import (
    DEFAULT_MAX_WATCHERS,
    DEFAULT_MAX_WATCHERS_PER_CALLER,
    DEFAULT_MAX_WATCHERS_PER_MATCH,
)

log = structlog.get_logger("kassen.web")

#: Updates a viewer may fall behind before it is dropped.
VIEWER_QUEUE = 64
#: How long a feed without viewers keeps its stream open.
LINGER_S = 10.0
#: The metadata key with which the page's process presents the relay token.
RELAY_KEY = "x-kassen-relay"


@dataclass(frozen=True, slots=True)
class LiveLimits:
    """Viewers of live matches: per match, per client address, in all (the referee's watcher
    limits, so a visitor gets no more through the page than over gRPC)."""

    per_match: int = DEFAULT_MAX_WATCHERS_PER_MATCH
    per_client: int = DEFAULT_MAX_WATCHERS_PER_CALLER
    total: int = DEFAULT_MAX_WATCHERS


class TooManyViewers(Exception):
    """A limit was reached; ``status`` is the HTTP status and the message names the limit."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def sse(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@dataclass(eq=False, slots=True)
class Viewer:
    client: str
    #: What the viewer is sent first: the history up to when it came (None: nothing yet).
    first: str | None = None
    queue: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=VIEWER_QUEUE)
    )
    dropped: bool = False


class LiveFeed:
    """One match's Watch stream and what it has said so far."""

    def __init__(self, hub: LiveHub, match_id: str, channel: grpc.aio.Channel) -> None:
        self.hub = hub
        self.match_id = match_id
        self.channel = channel
        self.events: list[str] = []
        self.view: dict[str, Any] | None = None
        self.over: str | None = None
        self.ended = False
        self.viewers: set[Viewer] = set()
        self._task = asyncio.get_running_loop().create_task(self._follow())
        self._linger: asyncio.TimerHandle | None = None

    def catch_up(self) -> str | None:
        """Everything so far as one message (None before the referee said anything)."""
        if self.view is None:
            return None
        return sse("frame", {"events": self.events, "view": self.view})

    async def _follow(self) -> None:
        stub = rpc.RefereeStub(self.channel)
        metadata = ((RELAY_KEY, self.hub.relay_token),) if self.hub.relay_token else None
        try:
            call = stub.Watch(pb.WatchRequest(match_id=self.match_id), metadata=metadata)
            async for response in call:
                if response.HasField("match_over"):
                    over = response.match_over
                    self.over = sse(
                        "over",
                        {
                            "reason": pb.ResultReason.Name(over.reason),
                            "ranks": [s.rank for s in over.seats],
                        },
                    )
                    self._send(self.over)
                    break
                texts = [e.text for e in response.events]
                self.events.extend(texts)
                inner = response.observation.WhichOneof("game")
                self.view = (
                    MessageToDict(
                        getattr(response.observation, inner),
                        always_print_fields_with_no_presence=True,
                        preserving_proto_field_name=True,
                    )
                    if inner
                    else {}
                )
                self._send(sse("frame", {"events": texts, "view": self.view}))
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.CANCELLED:
                log.info("live feed ended", match=self.match_id, status=exc.code().name)
        finally:
            self.ended = True
            self._send(None)
            self.hub.forget(self)

    def _send(self, message: str | None) -> None:
        for viewer in list(self.viewers):
            try:
                viewer.queue.put_nowait(message)
            except asyncio.QueueFull:
                viewer.dropped = True
                self.leave(viewer)

    def join(self, viewer: Viewer) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        self.viewers.add(viewer)

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)
        self.hub.left(viewer)
        if not self.viewers and not self.ended and self._linger is None:
            self._linger = asyncio.get_running_loop().call_later(LINGER_S, self.close)

    def let_go(self, viewer: Viewer) -> None:
        """``leave``, if the viewer has not left already."""
        if viewer in self.viewers:
            self.leave(viewer)

    def close(self) -> None:
        self._task.cancel()


class LiveHub:
    """Every live feed of the page's process, and the viewer limits."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        relay_token: str | None,
        limits: LiveLimits,
        referees_ca: bytes | None = None,
    ) -> None:
        """``channel``: to the ladder (its own referee's matches); the matches of other
        referees are watched on them (TLS checked with ``referees_ca``, else the system's
        roots), one channel per referee."""
        self.channel = channel
        self.relay_token = relay_token
        self.limits = limits
        self.referees_ca = referees_ca
        self._referees: dict[tuple[str, bool], grpc.aio.Channel] = {}
        self.feeds: dict[str, LiveFeed] = {}
        self.per_client: dict[str, int] = {}
        self.viewers = 0

    def admit(
        self, match_id: str, client: str, referee: tuple[str, bool] | None = None
    ) -> tuple[LiveFeed, Viewer]:
        """A new viewer of ``match_id`` (hosted by ``referee``: its address and TLS; None:
        the ladder's own), or ``TooManyViewers`` naming the limit."""
        limits = self.limits
        if self.viewers >= limits.total:
            raise TooManyViewers(
                503,
                f"too many live viewers on this ladder ({limits.total}, --max-watchers); "
                "try again later",
            )
        if self.per_client.get(client, 0) >= limits.per_client:
            raise TooManyViewers(
                429,
                f"too many live views from {client} ({limits.per_client}, "
                "--max-watchers-per-caller)",
            )
        feed = self.feeds.get(match_id)
        if feed is not None and len(feed.viewers) >= limits.per_match:
            raise TooManyViewers(
                503,
                f"too many live viewers of match {match_id} ({limits.per_match}, "
                "--max-watchers-per-match); try again later",
            )
        if feed is None:
            feed = self.feeds[match_id] = LiveFeed(self, match_id, self.channel_for(referee))
        viewer = Viewer(client, feed.catch_up())
        feed.join(viewer)  # at once: every later update goes to its queue, none is sent twice
        self.viewers += 1
        self.per_client[client] = self.per_client.get(client, 0) + 1
        return feed, viewer

    def channel_for(self, referee: tuple[str, bool] | None) -> grpc.aio.Channel:
        """The channel to a referee (its address and TLS; None: the ladder's own)."""
        return self.channel if referee is None else self._channel_to(*referee)

    def _channel_to(self, address: str, tls: bool) -> grpc.aio.Channel:
        key = (address, tls)
        if key not in self._referees:
            self._referees[key] = (
                grpc.aio.secure_channel(
                    address, grpc.ssl_channel_credentials(root_certificates=self.referees_ca)
                )
                if tls
                else grpc.aio.insecure_channel(address)
            )
        return self._referees[key]

    def left(self, viewer: Viewer) -> None:
        self.viewers -= 1
        count = self.per_client.get(viewer.client, 1) - 1
        if count > 0:
            self.per_client[viewer.client] = count
        else:
            self.per_client.pop(viewer.client, None)

    def forget(self, feed: LiveFeed) -> None:
        if self.feeds.get(feed.match_id) is feed:
            del self.feeds[feed.match_id]

    async def close(self) -> None:
        for feed in list(self.feeds.values()):
            feed.close()
        await asyncio.sleep(0)
        for channel in self._referees.values():
            await channel.close()
        self._referees.clear()


async def live_messages(feed: LiveFeed, viewer: Viewer) -> AsyncIterator[str]:
    """One viewer's Server-Sent Events: the public history so far, then each update, until
    the match is over, the viewer falls too far behind or leaves."""
    try:
        if viewer.first is not None:
            yield viewer.first
        if feed.over is not None:
            yield feed.over
            return
        while not viewer.dropped:
            message = await viewer.queue.get()
            if message is None:
                return
            yield message
    finally:
        feed.let_go(viewer)
