"""Readable log lines for Root events (for ``kassen play`` and spectators)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Event
from games.root.cards import CARD_BY_ID


def _p(seat: int) -> str:
    return f"Player {seat + 1}"


def _card(card_id: str) -> str:
    card = CARD_BY_ID.get(card_id)
    if card is None and card_id.startswith("loyal_vizier"):
        return "Loyal Vizier (bird)"
    return f"{card.name} ({card.suit})" if card else card_id


def _pieces(d: Mapping[str, Any]) -> str:
    count, piece = d.get("count", 1), d.get("piece", "warrior")
    return f"{count} {piece}{'s' if count != 1 else ''}"


_LINES: dict[str, Any] = {
    "game_start": lambda d: (
        f"Game {d['game']} on the {d['map']} map: "
        + ", ".join(f"{_p(s)} {f}" for s, f in enumerate(d["factions"]))
        + f"; {_p(d['start_seat'])} starts"
    ),
    "turn": lambda d: f"-- turn {d['turn']}: {_p(d['seat'])} ({d['faction']})",
    "draw": lambda d: f"  {_p(d['seat'])} draws {d['count']}",
    "drew": lambda d: f"  {_p(d['seat'])} drew " + ", ".join(_card(c) for c in d["cards"]),
    "discard": lambda d: f"  {_p(d['seat'])} discards {_card(d['card'])} ({d['why']})",
    "reshuffle": lambda d: f"  the discard pile ({d['cards']} cards) becomes the deck",
    "score": lambda d: f"  {_p(d['seat'])} {d['vp']:+d} VP ({d['why']}) = {d['total']}",
    "place": lambda d: f"  {_p(d['seat'])} places {_pieces(d)} in clearing {d['clearing']}",
    "remove": lambda d: f"  {_p(d['seat'])} loses {_pieces(d)} in clearing {d['clearing']}",
    "move": lambda d: f"  {_p(d['seat'])} moves {d['count']} from {d['src']} to {d['dst']}",
    "battle": lambda d: (
        f"  {_p(d['seat'])} attacks {_p(d['defender'])} in clearing {d['clearing']}"
    ),
    "ambush": lambda d: f"  {_p(d['seat'])} ambushes with {_card(d['card'])}",
    "roll": lambda d: (
        f"  dice {d['dice'][0]} and {d['dice'][1]}: "
        f"{d['attacker_hits']} hits to the defender, {d['defender_hits']} to the attacker"
    ),
    "craft": lambda d: f"  {_p(d['seat'])} crafts {_card(d['card'])}",
    "effect": lambda d: f"  {_p(d['seat'])} uses {d['effect'].replace('_', ' ')}",
    "action": lambda d: f"  {_p(d['seat'])} takes the action {d['action']}",
    "leader": lambda d: f"  {_p(d['seat'])} chooses the {d['leader']} as leader",
    "decree": lambda d: f"  {_p(d['seat'])} adds {_card(d['card'])} to the Decree ({d['column']})",
    "resolve": lambda d: f"  {_p(d['seat'])} resolves {_card(d['card'])} ({d['column']})",
    "turmoil": lambda d: (
        f"  {_p(d['seat'])} falls into Turmoil: cannot {d['column']} in a {d['suit']} clearing"
    ),
    "depose": lambda d: f"  {_p(d['seat'])} deposes the {d['leader']}",
    "battle_over": lambda d: f"  the battle in clearing {d['clearing']} is over",
    "card_taken": lambda d: f"  {_p(d['seat'])} takes a card from {_p(d['target'])}",
    "card_taken_detail": lambda d: f"  {_p(d['seat'])} took {_card(d['card'])}",
    "looked_at_hand": lambda d: (
        f"  {_p(d['seat'])} sees {_p(d['target'])}'s hand: "
        + (", ".join(_card(c) for c in d["cards"]) or "empty")
    ),
    "dominance_activated": lambda d: (
        f"  {_p(d['seat'])} activates {_card(d['card'])} at {d['vp']} VP: no more VP, "
        "it wins by ruling instead"
    ),
    "coalition_formed": lambda d: (
        f"  {_p(d['seat'])} activates {_card(d['card'])} at {d['vp']} VP to form a coalition "
        f"with {_p(d['partner'])}: no more VP, it wins when they win"
    ),
    "dominance_taken": lambda d: (
        f"  {_p(d['seat'])} takes the available {_card(d['card'])} for {_card(d['spent'])}"
    ),
    "dominance_victory": lambda d: (
        f"  {_p(d['seat'])} rules clearings "
        + ", ".join(str(c) for c in d["clearings"])
        + f": {_card(d['card'])} wins"
    ),
    "supporter": lambda d: (
        f"  {_p(d['seat'])} gains a supporter ({d['source'].replace('_', ' ')}): {d['count']}"
    ),
    "supporter_card": lambda d: f"  the supporter is {_card(d['card'])}",
    "outrage": lambda d: (
        f"  {_p(d['seat'])} outrages {_p(d['alliance'])} in clearing {d['clearing']}"
        + (": a card to the supporters" if d["gave"] else ": no matching card, the hand is shown")
    ),
    "showed_hand": lambda d: (
        f"  {_p(d['seat'])} shows the hand: " + (", ".join(_card(c) for c in d["cards"]) or "empty")
    ),
    "revolt": lambda d: f"  {_p(d['seat'])} revolts in clearing {d['clearing']}",
    "officers": lambda d: f"  {_p(d['seat'])} has {d['count']} officer{'s' * (d['count'] != 1)}",
    "game_over": lambda d: (
        f"Game {d['game']} over: {_p(d['winner'])} wins, scores "
        + ", ".join(str(s) for s in d["scores"])
    ),
    "contest_over": lambda d: "\n".join(
        [
            (
                "Contest over (RT3: total VP, then games won, then the faster win): "
                if len(d["totals"]) == 2
                else "Ranking (RT16: the winner, then VP, then later in the turn order): "
            )
            + ", ".join(
                f"{_p(s)} {d['totals'][s]} VP, {d['wins'][s]} won" for s in range(len(d["totals"]))
            ),
            *(f"  {rank}. {_p(s)} ({d['totals'][s]})" for rank, s in enumerate(d["ranking"], 1)),
        ]
    ),
}


def describe(event: Event) -> str:
    line = _LINES.get(event.kind)
    if line is not None:
        try:
            return str(line(event.data))
        except (KeyError, IndexError, TypeError):
            pass
    facts = ", ".join(f"{k}={v}" for k, v in event.data.items())
    return f"  {event.kind}: {facts}"
