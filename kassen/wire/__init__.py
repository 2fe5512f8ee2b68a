"""Engine objects <-> wire messages, for every game. Shared by the referee and the SDK."""

from __future__ import annotations

import json
from typing import Any

from games.contract import Decision, Event, Game, Option
from kassen.v1 import referee_pb2 as pb
from kassen.wire import gnomeville, root, rumble_nation

_JSON = json.JSONEncoder(
    separators=(",", ":"), default=lambda o: list(o) if isinstance(o, (tuple, set)) else str(o)
)


class UnsupportedGame(LookupError):
    pass


def observation_to_proto(game: str, view: Any) -> pb.Observation:
    if game == "rumble-nation":
        return pb.Observation(rumble_nation=rumble_nation.view_to_proto(view))
    if game == "root":
        return pb.Observation(root=root.view_to_proto(view))
    if game == "gnomeville":
        return pb.Observation(gnomeville=gnomeville.view_to_proto(view))
    raise UnsupportedGame(game)


class ObservationEncoder:
    """Keeps ``target`` equal to the latest observation of one seat, patching it in place
    where the game allows (the referee reuses one request message per seat)."""

    def __init__(self, game: str, target: pb.Observation) -> None:
        self.game = game
        self.target = target
        self._rumble_nation = (
            rumble_nation.ViewEncoder(target.rumble_nation) if game == "rumble-nation" else None
        )
        self._root = root.ViewEncoder(target.root) if game == "root" else None
        self._gnomeville = (
            gnomeville.ViewEncoder(target.gnomeville) if game == "gnomeville" else None
        )

    def encode(self, view: Any) -> None:
        if self._rumble_nation is not None:
            self._rumble_nation.encode(view)
        elif self._root is not None:
            self._root.encode(view)
        elif self._gnomeville is not None:
            self._gnomeville.encode(view)
        else:
            self.target.CopyFrom(observation_to_proto(self.game, view))


def observation_from_proto(msg: pb.Observation) -> Any:
    which = msg.WhichOneof("game")
    if which == "rumble_nation":
        return rumble_nation.view_from_proto(msg.rumble_nation)
    if which == "root":
        return root.view_from_proto(msg.root)
    if which == "gnomeville":
        return gnomeville.view_from_proto(msg.gnomeville)
    raise UnsupportedGame(str(which))


def option_to_proto(game: str, option: Option) -> pb.Option:
    if game == "rumble-nation":
        return pb.Option(
            key=option.key, label=option.label, rumble_nation=rumble_nation.option_to_proto(option)
        )
    if game == "root":
        return pb.Option(key=option.key, label=option.label, root=root.option_to_proto(option))
    if game == "gnomeville":
        return pb.Option(
            key=option.key, label=option.label, gnomeville=gnomeville.option_to_proto(option)
        )
    return pb.Option(key=option.key, label=option.label)


def option_from_proto(msg: pb.Option) -> Option:
    which = msg.WhichOneof("detail")
    value: tuple[Any, ...] = ()
    if which == "rumble_nation":
        value = rumble_nation.option_value_from_proto(msg.rumble_nation)
    elif which == "root":
        value = root.option_value_from_proto(msg.root)
    elif which == "gnomeville":
        value = gnomeville.option_value_from_proto(msg.gnomeville)
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
