"""Rumble Nation views and options on the wire (both directions; used by server and SDK)."""

from __future__ import annotations

from typing import Any

from games.contract import Option
from games.rumble_nation.board import AREAS
from games.rumble_nation.view import AreaView, PlayerView, RumbleNationView
from kassen.v1 import rumble_nation_pb2 as pb

#: The game this adapter carries (its name in ``games.registry``) and its field in the
#: ``Observation.game`` and ``Option.detail`` oneofs (``kassen.wire.ADAPTERS``).
GAME = "rumble-nation"
FIELD = "rumble_nation"


class ViewEncoder:
    """Encodes successive views of one seat, rebuilding only the areas and seats that changed.

    The referee sends a full observation with every decision; between two decisions of a seat
    usually one or two areas change, so patching a kept message is several times cheaper than
    building a new one. The result always equals ``view_to_proto(view)`` (tested).
    """

    def __init__(self, target: pb.RumbleNationObservation | None = None) -> None:
        """``target``: a message (e.g. inside a reused request) to keep up to date in place."""
        self._message = target if target is not None else pb.RumbleNationObservation()
        self._fresh = True
        self._areas: tuple[AreaView, ...] = ()
        self._seats: tuple[PlayerView, ...] = ()

    def encode(self, view: RumbleNationView) -> pb.RumbleNationObservation:
        message = self._message
        if (
            self._fresh
            or len(view.areas) != len(self._areas)
            or len(view.seats) != len(self._seats)
        ):
            message.CopyFrom(view_to_proto(view))
            self._fresh = False
            self._areas, self._seats = view.areas, view.seats
            return message
        for index, (area, before) in enumerate(zip(view.areas, self._areas, strict=True)):
            if area != before:
                target = message.areas[index]
                target.soldiers[:] = area.soldiers
                target.reinforcements[:] = area.reinforcements
                target.daimyo[:] = area.daimyo
                target.resolved = area.resolved
        for index, (seat, seat_before) in enumerate(zip(view.seats, self._seats, strict=True)):
            if seat != seat_before:
                message.seats[index].CopyFrom(_seat_to_proto(seat))
        self._areas, self._seats = view.areas, view.seats
        message.phase, message.step, message.current = view.phase, view.step, view.current
        message.tactic_display[:] = view.tactic_display
        message.swords_left[:] = view.swords_left
        message.cutoff, message.rerolled = view.cutoff, view.rerolled
        message.dice[:] = view.dice
        message.reinforcement_pool = view.reinforcement_pool
        message.daimyo_seen[:] = view.daimyo_seen
        if view.viewer is None:
            message.ClearField("viewer")
        else:
            message.viewer = view.viewer
        message.ClearField("effect")
        if view.effect is not None:
            _set_effect(message, view.effect)
        return message


def _seat_to_proto(p: PlayerView) -> pb.RumbleNationSeat:
    return pb.RumbleNationSeat(
        stock=p.stock,
        daimyo_in_stock=p.daimyo_in_stock,
        daimyo_area=p.daimyo_area or "",
        sword=p.sword,
        tactic_used=p.tactic_used or "",
        daimyo_card=p.daimyo_card or "",
        daimyo_revealed=p.daimyo_revealed,
        score=p.score,
        tokens=[pb.RumbleNationToken(castle=c, size=s) for c, s in p.tokens],
    )


def _set_effect(message: pb.RumbleNationObservation, effect: dict[str, Any]) -> None:
    fields = dict(effect)
    message.effect.card = fields.pop("card")
    message.effect.seat = fields.pop("seat")
    message.effect.done_areas.extend(fields.pop("done_areas", ()))
    for name, value in fields.items():
        message.effect.values[name] = int(value)


def view_to_proto(view: RumbleNationView) -> pb.RumbleNationObservation:
    msg = pb.RumbleNationObservation(
        players=view.players,
        variant=view.variant,
        phase=view.phase,
        step=view.step,
        current=view.current,
        start_player=view.start_player,
        areas=[
            pb.RumbleNationArea(
                id=a.id,
                castle=a.castle,
                soldiers=a.soldiers,
                reinforcements=a.reinforcements,
                daimyo=a.daimyo,
                resolved=a.resolved,
            )
            for a in view.areas
        ],
        seats=[_seat_to_proto(p) for p in view.seats],
        tactic_display=view.tactic_display,
        swords_left=view.swords_left,
        cutoff=view.cutoff,
        dice=view.dice,
        rerolled=view.rerolled,
        reinforcement_pool=view.reinforcement_pool,
        daimyo_display=view.daimyo_display,
        daimyo_seen=view.daimyo_seen,
        draft_order=view.draft_order,
    )
    if view.viewer is not None:
        msg.viewer = view.viewer
    if view.effect is not None:
        _set_effect(msg, view.effect)
    return msg


def view_from_proto(msg: pb.RumbleNationObservation) -> RumbleNationView:
    effect: dict[str, Any] | None = None
    if msg.HasField("effect"):
        effect = {"card": msg.effect.card, "seat": msg.effect.seat, **dict(msg.effect.values)}
        if msg.effect.card == "otomo":
            effect["done_areas"] = tuple(msg.effect.done_areas)
    return RumbleNationView(
        viewer=msg.viewer if msg.HasField("viewer") else None,
        players=msg.players,
        variant=msg.variant,
        phase=msg.phase,
        step=msg.step,
        current=msg.current,
        start_player=msg.start_player,
        areas=tuple(
            AreaView(
                id=a.id,
                castle=a.castle,
                soldiers=tuple(a.soldiers),
                reinforcements=tuple(a.reinforcements),
                daimyo=tuple(a.daimyo),
                resolved=a.resolved,
            )
            for a in msg.areas
        ),
        seats=tuple(
            PlayerView(
                stock=p.stock,
                daimyo_in_stock=p.daimyo_in_stock,
                daimyo_area=p.daimyo_area or None,
                sword=p.sword,
                tactic_used=p.tactic_used or None,
                daimyo_card=p.daimyo_card or None,
                daimyo_revealed=p.daimyo_revealed,
                score=p.score,
                tokens=tuple((t.castle, t.size) for t in p.tokens),
            )
            for p in msg.seats
        ),
        tactic_display=tuple(msg.tactic_display),
        swords_left=tuple(msg.swords_left),
        cutoff=msg.cutoff,
        dice=tuple(msg.dice),
        rerolled=msg.rerolled,
        reinforcement_pool=msg.reinforcement_pool,
        daimyo_display=tuple(msg.daimyo_display),
        daimyo_seen=tuple(msg.daimyo_seen),
        draft_order=tuple(msg.draft_order),
        effect=effect,
    )


def option_to_proto(option: Option) -> pb.RumbleNationOption:
    """The typed detail of an option, from its engine value."""
    value = option.value
    action = value[0]
    if action == "place":
        return pb.RumbleNationOption(
            action="place", castle=value[1], soldiers=value[2], with_daimyo=value[3]
        )
    if action in ("tactic", "daimyo", "draft"):
        return pb.RumbleNationOption(action=action, card=value[1])
    if action == "area":
        return pb.RumbleNationOption(action="area", area=AREAS[value[1]].id)
    if action == "seat":
        return pb.RumbleNationOption(action="seat", seat=value[1])
    if action == "escort":
        return pb.RumbleNationOption(action="escort", with_daimyo=value[1])
    if action in ("move_soldier", "move_daimyo"):
        return pb.RumbleNationOption(action=action, area=AREAS[value[1]].id)
    return pb.RumbleNationOption(action=action)


def option_value_from_proto(detail: pb.RumbleNationOption) -> tuple[Any, ...]:
    """The engine value of an option, rebuilt from its typed detail (for SDK policies)."""
    from games.rumble_nation.board import AREA_INDEX

    action = detail.action
    if action == "place":
        return ("place", detail.castle, detail.soldiers, detail.with_daimyo)
    if action in ("tactic", "daimyo", "draft"):
        return (action, detail.card)
    if action == "area":
        return ("area", AREA_INDEX[detail.area])
    if action == "seat":
        return ("seat", detail.seat)
    if action == "escort":
        return ("escort", detail.with_daimyo)
    if action in ("move_soldier", "move_daimyo"):
        return (action, AREA_INDEX[detail.area])
    return (action,)
