"""What a bot implements, and what it is given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.contract import Option
from kassen.v1 import referee_pb2 as pb


@dataclass(frozen=True, slots=True)
class Request:
    """One decision to make. Answer with an index into ``options``.

    ``observation`` is the game's own view type (e.g. ``RumbleNationView``), rebuilt from the
    wire, so the same code runs against the referee and in-process.
    """

    request_id: int
    game: str
    seat: int
    kind: str
    options: tuple[Option, ...]
    observation: Any
    decision_ms: int
    bank_ms: int
    events: tuple[pb.Event, ...] = ()

    def index_of(self, key: str) -> int:
        """The index of the option with this key (ValueError if it is not offered)."""
        for index, option in enumerate(self.options):
            if option.key == key:
                return index
        raise ValueError(f"{key!r} is not offered (offered: {[o.key for o in self.options]})")


class Bot:
    """Subclass and implement ``choose``. The other hooks are optional."""

    name = "bot"

    def choose(self, request: Request) -> int:
        raise NotImplementedError

    def on_joined(self, joined: pb.Joined) -> None:
        """The seat is ours: match id, seat number, game setup, time control."""

    def on_events(self, events: tuple[pb.Event, ...]) -> None:
        """Events not delivered with a request (e.g. the last ones before MatchOver)."""

    def on_match_over(self, result: pb.MatchOver) -> None:
        """The match ended; the stream closes after this."""


class AsyncBot(Bot):
    """A bot whose ``choose`` is a coroutine (for bots that await I/O while thinking)."""

    async def choose_async(self, request: Request) -> int:
        raise NotImplementedError

    def choose(self, request: Request) -> int:  # pragma: no cover - never called for AsyncBot
        raise TypeError("AsyncBot answers through choose_async")
