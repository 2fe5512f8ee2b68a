"""Rumble Nation views and options on the wire (both directions; used by server and SDK)."""

from __future__ import annotations

from typing import Any

from games.contract import Option
from games.rumble_nation.board import AREAS
from games.rumble_nation.view import AreaView, PlayerView, RumbleNationView
from kassen.v1 import rumble_nation_pb2 as pb

_CHOSOKABE_PIECES = {"soldier": "soldier", "daimyo": "move_daimyo"}


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
        seats=[
            pb.RumbleNationSeat(
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
            for p in view.seats
        ],
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
        fields = dict(view.effect)
        msg.effect.card = fields.pop("card")
        msg.effect.seat = fields.pop("seat")
        msg.effect.done_areas.extend(fields.pop("done_areas", ()))
        for name, value in fields.items():
            msg.effect.values[name] = int(value)
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
    if action in _CHOSOKABE_PIECES:
        return pb.RumbleNationOption(action=_CHOSOKABE_PIECES[action], area=AREAS[value[1]].id)
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
    if action == "soldier":
        return ("soldier", AREA_INDEX[detail.area])
    if action == "move_daimyo":
        return ("daimyo", AREA_INDEX[detail.area])
    return (action,)
