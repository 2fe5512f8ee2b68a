"""Root views and options on the wire (both directions; used by the server and the SDK)."""

from __future__ import annotations

from typing import Any

from games.contract import Option
from games.root.view import ClearingView, PlayerView, RootView, StepView
from kassen.v1 import root_pb2 as pb

#: The game this adapter carries (its name in ``games.registry``) and its field in the
#: ``Observation.game`` and ``Option.detail`` oneofs (``kassen.wire.ADAPTERS``).
GAME = "root"
FIELD = "root"

#: Named values already encoded (boards and steps repeat the same few values all game).
_VALUES: dict[tuple[str, type, Any], pb.RootValue] = {}
VALUE_CACHE_LIMIT = 50_000


def _value(name: str, value: Any) -> pb.RootValue:
    """A named value of a board or step (int, bool, str, or tuples of them) as a message
    (messages are copied where they are used, so a cached one is never changed)."""
    key = (name, type(value), value)  # True and 1 are equal but encode differently
    found = _VALUES.get(key)
    if found is None:
        found = _encode_value(name, value)
        if len(_VALUES) < VALUE_CACHE_LIMIT:
            _VALUES[key] = found
    return found


def _encode_value(name: str, value: Any) -> pb.RootValue:
    msg = pb.RootValue(name=name)
    if isinstance(value, bool):
        msg.flag = value
    elif isinstance(value, int):
        msg.number = value
    elif isinstance(value, str):
        msg.text = value
    elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
        msg.lists.lists.extend(pb.RootNames(names=[str(v) for v in inner]) for inner in value)
    elif isinstance(value, tuple) and value and isinstance(value[0], int):
        msg.numbers.numbers.extend(value)
    elif isinstance(value, tuple):
        msg.names.SetInParent()
        msg.names.names.extend(str(v) for v in value)
    else:
        raise TypeError(f"value {name}={value!r} has no wire form")
    return msg


def _value_from(msg: pb.RootValue) -> tuple[str, Any]:
    which = msg.WhichOneof("value")
    if which == "flag":
        return msg.name, msg.flag
    if which == "number":
        return msg.name, msg.number
    if which == "names":
        return msg.name, tuple(msg.names.names)
    if which == "numbers":
        return msg.name, tuple(msg.numbers.numbers)
    if which == "lists":
        return msg.name, tuple(tuple(inner.names) for inner in msg.lists.lists)
    return msg.name, msg.text


def _step(s: StepView) -> pb.RootStep:
    return pb.RootStep(
        step=s.step,
        name=s.name,
        stage=s.stage,
        seat=s.seat,
        fields=[_value(k, v) for k, v in s.fields],
    )


def _player(p: PlayerView) -> pb.RootPlayer:
    return pb.RootPlayer(
        seat=p.seat,
        faction=p.faction,
        vp=p.vp,
        hand_count=p.hand_count,
        hand=p.hand,
        crafted=p.crafted,
        items=p.items,
        used=p.used,
        warriors_in_supply=p.warriors_in_supply,
        board=[_value(k, v) for k, v in p.board],
        dominance=p.dominance,
        coalition=p.coalition,
    )


def _clearing(c: ClearingView) -> pb.RootClearing:
    return pb.RootClearing(
        id=c.id,
        suit=c.suit,
        warriors=[pb.RootWarriors(faction=f, count=n) for f, n in c.warriors],
        buildings=[pb.RootPiece(owner=o, kind=k) for o, k in c.buildings],
        tokens=[pb.RootPiece(owner=o, kind=k) for o, k in c.tokens],
        ruler=c.ruler,
    )


def view_to_proto(view: RootView) -> pb.RootObservation:
    msg = pb.RootObservation(
        map=view.map,
        game_number=view.game_number,
        games=view.games,
        results=[pb.RootGameResult(vp=r) for r in view.results],
        winners=[pb.RootWin(seat=s, turns=t) for s, t in view.winners],
        start_seat=view.start_seat,
        current=view.current,
        turn=view.turn,
        clearings=[_clearing(c) for c in view.clearings],
        players=[_player(p) for p in view.players],
        deck_count=view.deck_count,
        discard=view.discard,
        item_supply=[pb.RootItemCount(item=i, count=n) for i, n in view.item_supply],
        active=[_step(s) for s in view.active],
        available_dominance=view.available_dominance,
    )
    if view.viewer is not None:
        msg.viewer = view.viewer
    return msg


class ViewEncoder:
    """Encodes successive views of one seat, rebuilding only the clearings, players and steps
    that changed (between two decisions of a seat usually one or two clearings change). The
    result always equals ``view_to_proto(view)`` (tested)."""

    def __init__(self, target: pb.RootObservation | None = None) -> None:
        """``target``: a message (e.g. inside a reused request) to keep up to date in place."""
        self._message = target if target is not None else pb.RootObservation()
        self._last: RootView | None = None

    def encode(self, view: RootView) -> pb.RootObservation:
        message, last = self._message, self._last
        self._last = view
        if (
            last is None
            or len(view.clearings) != len(last.clearings)
            or len(view.players) != len(last.players)
        ):
            message.CopyFrom(view_to_proto(view))
            return message
        for index, (clearing, before) in enumerate(
            zip(view.clearings, last.clearings, strict=True)
        ):
            if clearing != before:
                message.clearings[index].CopyFrom(_clearing(clearing))
        for index, (player, before_p) in enumerate(zip(view.players, last.players, strict=True)):
            if player != before_p:
                message.players[index].CopyFrom(_player(player))
        if view.viewer is None:
            message.ClearField("viewer")
        else:
            message.viewer = view.viewer
        message.map, message.game_number, message.games = view.map, view.game_number, view.games
        if view.results != last.results or view.winners != last.winners:
            del message.results[:]
            message.results.extend(pb.RootGameResult(vp=r) for r in view.results)
            del message.winners[:]
            message.winners.extend(pb.RootWin(seat=s, turns=t) for s, t in view.winners)
        message.start_seat = view.start_seat
        message.current, message.turn, message.deck_count = view.current, view.turn, view.deck_count
        if view.discard != last.discard:
            message.discard[:] = view.discard
        if view.item_supply != last.item_supply:
            del message.item_supply[:]
            message.item_supply.extend(
                pb.RootItemCount(item=i, count=n) for i, n in view.item_supply
            )
        if view.active != last.active:
            # The stack changes at its top: the steps below are kept as they are.
            kept = 0
            for step, before_s in zip(view.active, last.active, strict=False):
                if step != before_s:
                    break
                kept += 1
            del message.active[kept:]
            message.active.extend(_step(s) for s in view.active[kept:])
        if view.available_dominance != last.available_dominance:
            message.available_dominance[:] = view.available_dominance
        return message


def view_from_proto(msg: pb.RootObservation) -> RootView:
    return RootView(
        viewer=msg.viewer if msg.HasField("viewer") else None,
        map=msg.map,
        game_number=msg.game_number,
        games=msg.games,
        results=tuple(tuple(r.vp) for r in msg.results),
        winners=tuple((w.seat, w.turns) for w in msg.winners),
        start_seat=msg.start_seat,
        current=msg.current,
        turn=msg.turn,
        clearings=tuple(
            ClearingView(
                c.id,
                c.suit,
                tuple((w.faction, w.count) for w in c.warriors),
                tuple((b.owner, b.kind) for b in c.buildings),
                tuple((t.owner, t.kind) for t in c.tokens),
                c.ruler,
            )
            for c in msg.clearings
        ),
        players=tuple(
            PlayerView(
                p.seat,
                p.faction,
                p.vp,
                p.hand_count,
                tuple(p.hand),
                tuple(p.crafted),
                tuple(p.items),
                tuple(p.used),
                p.warriors_in_supply,
                tuple(_value_from(b) for b in p.board),
                p.dominance,
                p.coalition,
            )
            for p in msg.players
        ),
        deck_count=msg.deck_count,
        discard=tuple(msg.discard),
        item_supply=tuple((i.item, i.count) for i in msg.item_supply),
        active=tuple(
            StepView(s.step, s.name, s.stage, s.seat, tuple(_value_from(f) for f in s.fields))
            for s in msg.active
        ),
        available_dominance=tuple(msg.available_dominance),
    )


def option_to_proto(option: Option) -> pb.RootOption:
    """The typed detail of an option: its verb and arguments, in order."""
    verb, *args = option.value
    msg = pb.RootOption(verb=str(verb))
    for arg in args:
        if isinstance(arg, bool) or not isinstance(arg, int | str):
            raise TypeError(f"option {option.key}: argument {arg!r} has no wire form")
        if isinstance(arg, int):
            msg.arguments.add(number=arg)
        else:
            msg.arguments.add(text=arg)
    return msg


def option_value_from_proto(detail: pb.RootOption) -> tuple[Any, ...]:
    """The engine value of an option, rebuilt from its typed detail (for SDK policies)."""
    args: list[Any] = []
    for arg in detail.arguments:
        args.append(arg.number if arg.WhichOneof("value") == "number" else arg.text)
    return (detail.verb, *args)
