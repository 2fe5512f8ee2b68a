"""Engine objects <-> wire messages, for every game. Shared by the referee and the SDK."""

from __future__ import annotations

import json
from typing import Any

from games.contract import Decision, Event, Game, Option
from kassen.v1 import referee_pb2 as pb
from kassen.wire import rumble_nation

_JSON = json.JSONEncoder(
    separators=(",", ":"), default=lambda o: list(o) if isinstance(o, (tuple, set)) else str(o)
)


class UnsupportedGame(LookupError):
    pass


def observation_to_proto(game: str, view: Any) -> pb.Observation:
    if game == "rumble-nation":
        return pb.Observation(rumble_nation=rumble_nation.view_to_proto(view))
    raise UnsupportedGame(game)


def observation_from_proto(msg: pb.Observation) -> Any:
    which = msg.WhichOneof("game")
    if which == "rumble_nation":
        return rumble_nation.view_from_proto(msg.rumble_nation)
    raise UnsupportedGame(str(which))


def option_to_proto(game: str, option: Option) -> pb.Option:
    if game == "rumble-nation":
        return pb.Option(
            key=option.key, label=option.label, rumble_nation=rumble_nation.option_to_proto(option)
        )
    return pb.Option(key=option.key, label=option.label)


def option_from_proto(msg: pb.Option) -> Option:
    which = msg.WhichOneof("detail")
    value: tuple[Any, ...] = ()
    if which == "rumble_nation":
        value = rumble_nation.option_value_from_proto(msg.rumble_nation)
    return Option(msg.key, msg.label, value)


def options_to_proto(game: str, decision: Decision) -> list[pb.Option]:
    return [option_to_proto(game, option) for option in decision.options]


def event_to_proto(game: Game, event: Event) -> pb.Event:
    return pb.Event(
        kind=event.kind, data_json=_JSON.encode(dict(event.data)), text=game.describe(event)
    )
