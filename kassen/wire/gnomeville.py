"""Gnomeville views and options on the wire (both directions; used by the server and the SDK).

The engine's "none" (-1) for a tile, a space or a card is an unset ``optional`` field on the
wire; Tile numbers are the engine's own (``Tile`` in gnomeville.proto, MARKET = 0).
"""

from __future__ import annotations

from typing import Any

from games.contract import Option
from games.gnomeville.steps import Act
from games.gnomeville.view import GnomeView, GnomevilleView, StepView, TownView
from kassen.v1 import gnomeville_pb2 as pb

#: The game this adapter carries (its name in ``games.registry``) and its field in the
#: ``Observation.game`` and ``Option.detail`` oneofs (``kassen.wire.ADAPTERS``).
GAME = "gnomeville"
FIELD = "gnomeville"

NONE = -1
#: A Tile number as the generated code types it (the numbers are the engine's).
TILE = pb.Tile.ValueType


def _value(value: Any) -> pb.GnomevilleValue:
    """A step field's value (int, bool, str, None or tuples of them) as a message."""
    msg = pb.GnomevilleValue()
    if value is None:
        return msg
    if isinstance(value, bool):
        msg.flag = value
    elif isinstance(value, int):
        msg.number = value
    elif isinstance(value, str):
        msg.text = value
    elif isinstance(value, tuple | list):
        msg.list.SetInParent()
        msg.list.items.extend(_value(item) for item in value)
    else:
        raise TypeError(f"value {value!r} has no wire form")
    return msg


def _value_from(msg: pb.GnomevilleValue) -> Any:
    which = msg.WhichOneof("value")
    if which == "number":
        return msg.number
    if which == "flag":
        return msg.flag
    if which == "text":
        return msg.text
    if which == "list":
        return tuple(_value_from(item) for item in msg.list.items)
    return None


def _step(step: StepView) -> pb.GnomevilleStep:
    return pb.GnomevilleStep(
        kind=step.kind,
        fields=[pb.GnomevilleField(name=name, value=_value(v)) for name, v in step.fields],
    )


def _gnome(gnome: GnomeView) -> pb.GnomevilleGnome:
    msg = pb.GnomevilleGnome(
        sword=gnome.sword,
        hammer=gnome.hammer,
        graduated=gnome.graduated,
        ability=gnome.ability,
        ability_used=gnome.ability_used,
    )
    if gnome.space != NONE:
        msg.space = gnome.space
    return msg


def _space(tile: int, boulder: bool) -> pb.GnomevilleSpace:
    msg = pb.GnomevilleSpace(boulder=boulder)
    if tile != NONE:
        msg.tile = TILE(tile)
    return msg


def town_to_proto(town: TownView) -> pb.GnomevilleTown:
    if len(town.tiles) != len(town.boulders):
        raise ValueError(
            f"town {town.seat}: {len(town.tiles)} tiles, {len(town.boulders)} boulders"
        )
    return pb.GnomevilleTown(
        seat=town.seat,
        number=town.number,
        name=town.name,
        spaces=[_space(t, b) for t, b in zip(town.tiles, town.boulders, strict=True)],
        trolls=town.trolls,
        gnomes=[_gnome(g) for g in town.gnomes],
        bag=town.bag,
        stumps=town.stumps,
        stew=town.stew,
        mushrooms=town.mushrooms,
        vp=town.vp,
        stacks=[pb.GnomevilleStack(tiles=map(TILE, stack)) for stack in town.stacks],
        passed=town.passed,
        stuck=town.stuck,
        set_aside=town.set_aside,
        full=town.full,
        pile=town.pile,
        pile_known=[
            pb.GnomevilleKnownCard(position=at, ability=card) for at, card in town.pile_known
        ],
        revealed=None if town.revealed == NONE else TILE(town.revealed),
        discard=town.discard,
    )


def town_from_proto(msg: pb.GnomevilleTown) -> TownView:
    return TownView(
        seat=msg.seat,
        number=msg.number,
        name=msg.name,
        tiles=tuple(int(s.tile) if s.HasField("tile") else NONE for s in msg.spaces),
        boulders=tuple(s.boulder for s in msg.spaces),
        trolls=tuple(msg.trolls),
        gnomes=tuple(
            GnomeView(
                space=g.space if g.HasField("space") else NONE,
                sword=g.sword,
                hammer=g.hammer,
                graduated=g.graduated,
                ability=g.ability,
                ability_used=g.ability_used,
            )
            for g in msg.gnomes
        ),
        bag=tuple(msg.bag),
        stumps=msg.stumps,
        stew=msg.stew,
        mushrooms=msg.mushrooms,
        vp=msg.vp,
        stacks=tuple(tuple(int(t) for t in s.tiles) for s in msg.stacks),
        passed=msg.passed,
        stuck=msg.stuck,
        set_aside=tuple(msg.set_aside),
        full=msg.full,
        pile=msg.pile,
        pile_known=tuple((k.position, k.ability) for k in msg.pile_known),
        revealed=int(msg.revealed) if msg.HasField("revealed") else NONE,
        discard=tuple(msg.discard),
    )


def _fill(msg: pb.GnomevilleObservation, view: GnomevilleView) -> None:
    """Every field of ``msg`` except the towns."""
    if view.seat is None:
        msg.ClearField("viewer")
    else:
        msg.viewer = view.seat
    msg.players = view.players
    msg.round = view.round
    msg.phase = view.phase
    msg.stage = view.stage
    msg.turn_by_turn = view.turn_by_turn
    msg.master_build = view.master_build
    if view.drawn == NONE:
        msg.ClearField("drawn")
    else:
        msg.drawn = TILE(view.drawn)
    msg.supply[:] = view.supply
    msg.share[:] = view.share
    msg.round_card = view.round_card
    msg.ambush_card = view.ambush_card
    msg.troll_deck = view.troll_deck
    msg.events[:] = view.events
    msg.events_face_down = view.events_face_down
    del msg.goals[:]
    msg.goals.extend(
        pb.GnomevilleGoal(seat_a=a, seat_b=b, goal=goal, side=side)
        for a, b, goal, side in view.goals
    )
    msg.delivery_card = view.delivery_card
    msg.ability_pile = view.ability_pile
    del msg.steps[:]
    msg.steps.extend(_step(s) for s in view.steps)
    msg.turn_by_turn_rounds[:] = view.turn_by_turn_rounds
    del msg.troll_cards[:]
    msg.troll_cards.extend(
        pb.GnomevilleTrollCard(round=number, card=card, ambush=ambush)
        for number, card, ambush in view.troll_cards
    )
    msg.deliveries[:] = view.deliveries
    msg.backs[:] = view.backs


def view_to_proto(view: GnomevilleView) -> pb.GnomevilleObservation:
    msg = pb.GnomevilleObservation(towns=[town_to_proto(t) for t in view.towns])
    _fill(msg, view)
    return msg


class ViewEncoder:
    """Encodes successive views of one seat, rebuilding only the towns that changed (while a
    phase runs the other towns are the same snapshot objects). The result always equals
    ``view_to_proto(view)`` (tested)."""

    def __init__(self, target: pb.GnomevilleObservation | None = None) -> None:
        """``target``: a message (e.g. inside a reused request) to keep up to date in place."""
        self._message = target if target is not None else pb.GnomevilleObservation()
        self._towns: tuple[TownView, ...] = ()

    def encode(self, view: GnomevilleView) -> pb.GnomevilleObservation:
        message = self._message
        if len(view.towns) != len(self._towns):
            message.CopyFrom(view_to_proto(view))
        else:
            for index, (town, before) in enumerate(zip(view.towns, self._towns, strict=True)):
                if town is not before and town != before:
                    message.towns[index].CopyFrom(town_to_proto(town))
            _fill(message, view)
        self._towns = view.towns
        return message


def view_from_proto(msg: pb.GnomevilleObservation) -> GnomevilleView:
    return GnomevilleView(
        seat=msg.viewer if msg.HasField("viewer") else None,
        players=msg.players,
        round=msg.round,
        phase=msg.phase,
        stage=msg.stage,
        turn_by_turn=msg.turn_by_turn,
        master_build=msg.master_build,
        towns=tuple(town_from_proto(t) for t in msg.towns),
        drawn=int(msg.drawn) if msg.HasField("drawn") else NONE,
        supply=tuple(msg.supply),
        share=tuple(msg.share),
        round_card=msg.round_card,
        ambush_card=msg.ambush_card,
        troll_deck=msg.troll_deck,
        events=tuple(msg.events),
        events_face_down=msg.events_face_down,
        goals=tuple((g.seat_a, g.seat_b, g.goal, g.side) for g in msg.goals),
        delivery_card=msg.delivery_card,
        ability_pile=msg.ability_pile,
        steps=tuple(
            StepView(s.kind, tuple((f.name, _value_from(f.value)) for f in s.fields))
            for s in msg.steps
        ),
        turn_by_turn_rounds=tuple(msg.turn_by_turn_rounds),
        troll_cards=tuple((c.round, c.card, c.ambush) for c in msg.troll_cards),
        deliveries=tuple(msg.deliveries),
        backs=tuple(msg.backs),
    )


def option_to_proto(option: Option) -> pb.GnomevilleOption:
    """The typed detail of an option: its ``Act`` (unused arguments unset)."""
    act = Act(*option.value)
    msg = pb.GnomevilleOption(action=act.action, direction=act.direction, amount=act.amount)
    if act.space != NONE:
        msg.space = act.space
    if act.gnome != NONE:
        msg.gnome = act.gnome
    if act.tile != NONE:
        msg.tile = TILE(act.tile)
    if act.card != NONE:
        msg.card = act.card
    return msg


def option_value_from_proto(detail: pb.GnomevilleOption) -> Act:
    """The engine value of an option, rebuilt from its typed detail (for SDK policies)."""
    return Act(
        action=detail.action,
        space=detail.space if detail.HasField("space") else NONE,
        gnome=detail.gnome if detail.HasField("gnome") else NONE,
        tile=int(detail.tile) if detail.HasField("tile") else NONE,
        direction=detail.direction,
        amount=detail.amount,
        card=detail.card if detail.HasField("card") else NONE,
    )
