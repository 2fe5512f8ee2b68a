"""Engine objects <-> wire messages, for every game. Shared by the referee and the SDK."""

from __future__ import annotations

import json
from typing import Any, Protocol

from games.contract import Decision, Event, Game, Option
from kassen.v1 import referee_pb2 as pb
from kassen.wire import gnomeville, root, rumble_nation

_JSON = json.JSONEncoder(
    separators=(",", ":"), default=lambda o: list(o) if isinstance(o, (tuple, set)) else str(o)
)


class UnsupportedGame(LookupError):
    pass


class Adapter(Protocol):
    """One game's views and options on the wire (``kassen/wire/<game>.py``)."""

    GAME: str
    FIELD: str

    def view_to_proto(self, view: Any) -> Any: ...
    def view_from_proto(self, msg: Any) -> Any: ...
    def option_to_proto(self, option: Option) -> Any: ...
    def option_value_from_proto(self, detail: Any) -> Any: ...
    def ViewEncoder(self, target: Any) -> Any: ...  # the adapter's class


#: The games with a wire format, by game name: each one has its own message in the
#: ``Observation.game`` and ``Option.detail`` oneofs (``proto/``), so it has its own adapter.
_LISTED: tuple[Adapter, ...] = (rumble_nation, root, gnomeville)
ADAPTERS: dict[str, Adapter] = {a.GAME: a for a in _LISTED}
#: The same, by their field in the oneofs.
_BY_FIELD: dict[str, Adapter] = {a.FIELD: a for a in ADAPTERS.values()}


def observation_to_proto(game: str, view: Any) -> pb.Observation:
    adapter = ADAPTERS.get(game)
    if adapter is None:
        raise UnsupportedGame(game)
    return pb.Observation(**{adapter.FIELD: adapter.view_to_proto(view)})


class ObservationEncoder:
    """Keeps ``target`` equal to the latest observation of one seat, patching it in place
    where the game allows (the referee reuses one request message per seat)."""

    def __init__(self, game: str, target: pb.Observation) -> None:
        self.game = game
        self.target = target
        adapter = ADAPTERS.get(game)
        self._encoder = (
            adapter.ViewEncoder(getattr(target, adapter.FIELD)) if adapter is not None else None
        )

    def encode(self, view: Any) -> None:
        if self._encoder is not None:
            self._encoder.encode(view)
        else:
            self.target.CopyFrom(observation_to_proto(self.game, view))


def observation_from_proto(msg: pb.Observation) -> Any:
    which = msg.WhichOneof("game")
    adapter = _BY_FIELD.get(str(which))
    if adapter is None:
        raise UnsupportedGame(str(which))
    return adapter.view_from_proto(getattr(msg, adapter.FIELD))


def option_to_proto(game: str, option: Option) -> pb.Option:
    adapter = ADAPTERS.get(game)
    if adapter is None:
        return pb.Option(key=option.key, label=option.label)
    detail = adapter.option_to_proto(option)
    return pb.Option(key=option.key, label=option.label, **{adapter.FIELD: detail})


def option_from_proto(msg: pb.Option) -> Option:
    which = msg.WhichOneof("detail")
    adapter = _BY_FIELD.get(str(which))
    value: tuple[Any, ...] = ()
    if adapter is not None:
        value = adapter.option_value_from_proto(getattr(msg, adapter.FIELD))
    return Option(msg.key, msg.label, value)


_OPTIONS: dict[tuple[str, Option], pb.Option] = {}


def options_to_proto(game: str, decision: Decision) -> list[pb.Option]:
    """Options on the wire; engines intern their options, so their messages are cached."""
    found = []
    for option in decision.options:
        message = _OPTIONS.get((game, option))
        if message is None:
            message = option_to_proto(game, option)
            if len(_OPTIONS) < 100_000:
                _OPTIONS[(game, option)] = message
        found.append(message)
    return found


def event_to_proto(game: Game, event: Event) -> pb.Event:
    return pb.Event(
        kind=event.kind, data_json=_JSON.encode(dict(event.data)), text=game.describe(event)
    )
