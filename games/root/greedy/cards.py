"""Cards for both factions: what a card in hand is worth, and crafting, effects and discards.

Both factions craft whenever it scores (items for VP, useful persistent effects, favors that
clear enemy buildings), use a persistent effect only when it pays now, and discard their least
useful cards at the hand limit; ``card_value`` is also what the factions pay with cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.cards import AMBUSH, CARD_BY_ID, FAVOR, ITEM, PERSISTENT
from games.root.greedy.battle import best_battle, extra_hits, turmoil_risk_of_battle
from games.root.greedy.map_model import EYRIE
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS
from games.root.suits import BIRD

#: What having a card in hand is worth, by persistent effect.
EFFECT_VALUE: dict[str, float] = {
    "armorers": 1.5,
    "brutal_tactics": 1.0,
    "sappers": 1.2,
    "royal_claim": 2.0,
    "stand_and_deliver": 0.0,
    "tax_collector": 0.4,
    "better_burrow_bank": 1.5,
    "cobbler": 0.6,
    "command_warren": 1.2,
    "codebreakers": 0.0,
    "scouting_party": 0.6,
}


def card_value(turn: Turn, card_id: str) -> float:
    """What keeping a card in hand is worth."""
    card = CARD_BY_ID[card_id]
    value = 0.5 if card.suit == BIRD else 0.0
    if card.kind == AMBUSH:
        return value + 2.0
    if card.kind == ITEM:
        return value + 0.5 + (card.vp if full_item_vp(turn) else 1)
    if card.kind == PERSISTENT:
        return value + EFFECT_VALUE.get(card.effect or "", 0.0)
    if card.kind == FAVOR:
        return value + 1.0
    return value


def full_item_vp(turn: Turn) -> bool:
    """Whether an item crafted now scores its printed VP (Disdain for Trade: Eyrie items score 1
    unless the Builder leads)."""
    return turn.me != EYRIE or turn.board.get("leader") == "builder"


def craft_value(turn: Turn, card_id: str) -> float:
    """What crafting a card gains: item VP, a persistent effect, or the enemy pieces a favor
    clears (less the card)."""
    card = CARD_BY_ID[card_id]
    if card.kind == ITEM:
        return 1.0 + (card.vp if full_item_vp(turn) else 1)
    if card.kind == PERSISTENT:
        return EFFECT_VALUE.get(card.effect or "", 0.0)
    if card.kind == FAVOR:
        m = turn.map
        gain = 0.0
        for c in m.matching(card.suit):
            for enemy in turn.enemies:  # a favor spares a coalition partner (Law 9.2.8)
                gain += 1.0 * m.pieces(enemy, c) + 0.3 * m.w(enemy, c)
        return gain - 1.0
    return 0.0


def _craft_card(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 0.4 if o.value[0] == "done" else craft_value(turn, o.value[1])


def _window(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """A window for persistent effects (Birdsong, Daylight, Evening)."""
    m = turn.map
    for o in options:
        if o.value[0] == "done":
            yield 0.0
            continue
        effect = o.value[1]
        if effect == "royal_claim":
            ruled = sum(1 for c in CLEARING_IDS if m.ruler(c) == turn.me)
            yield 1.0 if ruled >= 4 else -1.0
        elif effect == "command_warren":
            yield best_battle(turn, extra_hits(turn)) - 0.6 - turmoil_risk_of_battle(turn)
        elif effect == "tax_collector":
            most = max((m.w(turn.me, c) for c in CLEARING_IDS), default=0)
            yield 0.5 if most >= 5 and turn.player.warriors_in_supply < 3 else -1.0
        else:
            yield -1.0


def _effect_tax_collector(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        c = o.value[1]
        yield turn.map.w(turn.me, c) - 2 * turn.map.w(turn.enemy, c)


def _hand_limit_discard(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield -card_value(turn, o.value[1])


SCORERS: dict[str, Scorer] = {
    "craft.card": _craft_card,
    "cards.birdsong": _window,
    "cards.birdsong_end": _window,
    "cards.daylight_start": _window,
    "cards.daylight_end": _window,
    "cards.evening": _window,
    "effect.tax_collector": _effect_tax_collector,
    "hand_limit.discard": _hand_limit_discard,
}
