"""The Woodland Alliance: spread sympathy where it is cheap and safe, revolt where it pays, keep
officers coming, and give Outrage cards away cheaply when another faction must pay one.

- Birdsong: a revolt is worth its removals, the base (a draw, an officer, an unlimited stack)
  and the warriors it brings; sympathy is worth the VP of the next space, less the supporters it
  costs and the danger of enemy warriors around it. Supporters are spent non-birds first, the
  least useful first.
- Daylight: craft whatever scores (``cards``); train while officers are few (each is an Evening
  action); mobilize the cards not worth keeping (an ambush stays in hand, and nothing goes to
  a full stack, which would only discard it).
- Evening: organize (VP at once), recruit at a threatened base, battle where it removes pieces,
  move a warrior to a clearing it can organize next, never the last warrior off a base.

Other factions answer ``alliance.outrage`` with their least useful matching card
(``cards.card_value``). The Alliance's own moves and battles look at every enemy, not only
``Turn.enemy``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.cards import AMBUSH, CARD_BY_ID
from games.root.greedy.battle import battle_value
from games.root.greedy.cards import card_value
from games.root.greedy.map_model import MapModel
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS
from games.root.suits import BIRD
from games.root.tracks import (
    MARTIAL_LAW_WARRIORS,
    SUPPORTERS_LIMIT_WITHOUT_BASE,
    SYMPATHY_COST,
    SYMPATHY_VP,
)

ALLIANCE = "alliance"
SYMPATHY = "sympathy"
BASES = ("fox_base", "rabbit_base", "mouse_base")
#: What a base is worth beyond what a revolt removes: a card each Evening, an officer, Train,
#: and a Supporters stack without a limit.
BASE_VALUE = 3.0
#: Officers wanted before training stops being worth a card.
OFFICERS_WANTED = 4


def sympathetic(m: MapModel, c: int) -> bool:
    return (ALLIANCE, SYMPATHY) in m.tokens[c]


def placed(m: MapModel) -> int:
    return sum(1 for c in CLEARING_IDS if sympathetic(m, c))


def has_base(m: MapModel, c: int) -> bool:
    return any(owner == ALLIANCE for owner, _ in m.buildings[c])


def enemy_warriors(turn: Turn, m: MapModel, c: int) -> int:
    return sum(m.w(f, c) for f in turn.enemies)


def threat(turn: Turn, m: MapModel, c: int) -> int:
    """Enemy warriors in ``c`` and next to it: who may battle there soon."""
    return enemy_warriors(turn, m, c) + sum(enemy_warriors(turn, m, n) for n in m.neighbours[c])


def officers(turn: Turn) -> int:
    return int(turn.board.get("officers", 0))


def supporters(turn: Turn) -> tuple[str, ...]:
    return tuple(turn.board.get("supporter_cards", ()))


def _suit(card_id: str) -> str:
    return CARD_BY_ID[card_id].suit


# -- Birdsong ----------------------------------------------------------------------------------


def revolt_value(turn: Turn, c: int) -> float:
    m = turn.map
    removed = sum(m.pieces(f, c) for f in turn.enemies)
    killed = enemy_warriors(turn, m, c)
    suit = m.suit[c]
    warriors = sum(1 for x in CLEARING_IDS if sympathetic(m, x) and m.suit[x] == suit)
    danger = 0.15 * sum(enemy_warriors(turn, m, n) for n in m.neighbours[c])
    return BASE_VALUE + 1.0 * removed + 0.3 * killed + 0.5 * warriors - danger


def spread_value(turn: Turn, c: int) -> float:
    m = turn.map
    n = placed(m)
    cost = SYMPATHY_COST[n]
    if any(m.w(f, c) >= MARTIAL_LAW_WARRIORS for f in turn.enemies):
        cost += 1
    onward = sum(1 for x in m.neighbours[c] if not sympathetic(m, x))
    value = 1.0 + SYMPATHY_VP[n] - 0.35 * cost
    value -= 0.15 * threat(turn, m, c) + 0.3 * enemy_warriors(turn, m, c)
    value += 0.1 * onward + 0.1 * max(0, m.free(c))
    return value


#: A card effect offered beside an action (RT7) is left to the card windows.
LEFT_TO_WINDOWS = -1000.0


def _revolt(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        verb = o.value[0]
        if verb == "use":
            yield LEFT_TO_WINDOWS
        else:
            yield 0.0 if verb == "done" else revolt_value(turn, o.value[1])


def _spread(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        verb = o.value[0]
        if verb == "use":
            yield LEFT_TO_WINDOWS
        else:
            # Spreading is what scores: any place beats keeping the supporters idle.
            yield -2.0 if verb == "done" else spread_value(turn, o.value[1])


def supporter_value(turn: Turn, card_id: str) -> float:
    """What keeping a supporter is worth: birds pay anywhere; a suit with sympathy to spread or
    revolt into is worth more."""
    if _suit(card_id) == BIRD:
        return 2.0
    m = turn.map
    suit = _suit(card_id)
    near = sum(
        1
        for c in CLEARING_IDS
        if m.suit[c] == suit
        and not sympathetic(m, c)
        and any(sympathetic(m, n) for n in m.neighbours[c])
    )
    return 0.5 + 0.2 * near


def _supporter(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield -supporter_value(turn, o.value[1])


def _discard(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield -supporter_value(turn, o.value[1])


# -- Daylight ----------------------------------------------------------------------------------


def _daylight(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    stack = len(supporters(turn))
    based = any(has_base(turn.map, c) for c in CLEARING_IDS)
    for o in options:
        verb = o.value[0]
        if verb == "done":
            yield 0.0
        elif verb == "use":
            yield LEFT_TO_WINDOWS
        elif verb == "train":
            wanted = OFFICERS_WANTED - officers(turn)
            yield (3.0 if wanted > 0 else 0.3) - 0.5 * card_value(turn, o.value[1])
        else:  # mobilize
            card_id = o.value[1]
            if CARD_BY_ID[card_id].kind == AMBUSH:
                yield -1.0
                continue
            if not based and stack >= SUPPORTERS_LIMIT_WITHOUT_BASE:
                yield -1.0  # the full stack would only discard it (RA3)
                continue
            # Supporters are the Alliance's economy: a card it cannot craft now is mostly worth
            # what it will pay for as a supporter.
            room = 1.2 if based or stack < SUPPORTERS_LIMIT_WITHOUT_BASE - 1 else 0.2
            keep = 0.35 * card_value(turn, card_id)
            yield room + 0.5 * supporter_value(turn, card_id) - keep


# -- Evening -----------------------------------------------------------------------------------


def organize_value(turn: Turn, c: int) -> float:
    m = turn.map
    base_guard = 0.8 if has_base(m, c) and m.w(ALLIANCE, c) <= 1 else 0.0
    return 2.0 + SYMPATHY_VP[placed(m)] - 0.2 * threat(turn, m, c) - base_guard


def best_alliance_battle(turn: Turn) -> float:
    m = turn.map
    return max(
        (
            battle_value(m, ALLIANCE, f, c)
            for c in CLEARING_IDS
            if m.w(ALLIANCE, c)
            for f in turn.enemies
            if m.w(f, c) or m.pieces(f, c)
        ),
        default=-1.0,
    )


def move_value(turn: Turn, a: int, b: int, k: int, left: int) -> float:
    """Moving ``k`` warriors from ``a`` to ``b`` with ``left`` operations still to come."""
    m = turn.map
    value = -0.05 * k
    if has_base(m, a) and m.w(ALLIANCE, a) - k < 1:
        value -= 1.5  # the base keeps a guard
    if not sympathetic(m, b) and not m.w(ALLIANCE, b) and b != m.keep and left > 0:
        value += 0.8 * organize_value(turn, b) - 0.4 * (k - 1)  # organize it next
    elif has_base(m, b):
        value += 0.4 * min(k, max(0, threat(turn, m, b) - m.w(ALLIANCE, b)))
    theirs = max((m.pieces(f, b) for f in turn.enemies), default=0)
    if theirs and k + m.w(ALLIANCE, b) > max((m.w(f, b) for f in turn.enemies), default=0):
        value += 0.3
    value -= 0.1 * max(0, enemy_warriors(turn, m, b) - k - m.w(ALLIANCE, b))
    return value


def _operations_left(turn: Turn) -> int:
    """Military operations left in the Evening under way (0 outside one)."""
    for step in reversed(turn.view.active):
        if step.step == "AllianceEvening":
            return int(dict(step.fields).get("left", 0))
    return 0


def _operation(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    left = _operations_left(turn)  # after this one
    organize = max(
        (
            organize_value(turn, c)
            for c in CLEARING_IDS
            if m.w(ALLIANCE, c) and not sympathetic(m, c) and c != m.keep
        ),
        default=-1.0,
    )
    bases = [c for c in CLEARING_IDS if has_base(m, c)]
    guard = max((threat(turn, m, c) - m.w(ALLIANCE, c) for c in bases), default=-9)
    battle = best_alliance_battle(turn)
    move = max(
        (
            move_value(turn, a, b, k, left - 1)
            for a in CLEARING_IDS
            for b in m.destinations(ALLIANCE, a)
            for k in (1, m.w(ALLIANCE, a))
        ),
        default=-1.0,
    )
    for o in options:
        if o.value[0] == "done":
            yield 0.0
            continue
        action = o.value[1]
        if action == "organize":
            yield organize
        elif action == "recruit":
            yield 0.6 + 0.3 * min(4, max(0, guard))
        elif action == "battle":
            yield 1.0 + battle if battle >= 0.5 else -1.0
        else:
            yield move if move > 0.3 else -0.5


def _recruit(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        yield threat(turn, m, c) - m.w(ALLIANCE, c)


def _organize(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield organize_value(turn, o.value[1])


# -- the Alliance's view of shared decisions -----------------------------------------------------


def _move_origin(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    left = _operations_left(turn)
    for o in options:
        if o.value[0] == "done":
            yield 0.05
            continue
        a = o.value[1]
        yield max(
            (
                move_value(turn, a, b, k, left)
                for b in m.destinations(ALLIANCE, a)
                for k in range(1, m.w(ALLIANCE, a) + 1)
            ),
            default=-9.0,
        )


def _move_destination(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    a = int(turn.field("origin", "move"))
    left = _operations_left(turn)
    for o in options:
        b = o.value[1]
        yield max(move_value(turn, a, b, k, left) for k in range(1, m.w(ALLIANCE, a) + 1))


def _move_count(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    a = int(turn.field("origin", "move"))
    b = int(turn.field("destination", "move"))
    left = _operations_left(turn)
    for o in options:
        yield move_value(turn, a, b, o.value[1], left)


def _battle_clearing(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        yield max(
            (battle_value(m, ALLIANCE, f, c) for f in turn.enemies if m.w(f, c) or m.pieces(f, c)),
            default=-1.0,
        )


def _battle_remove(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Sympathy goes first (it comes back as Outrage); a base last (it costs supporters and
    officers)."""
    for o in options:
        yield -5.0 if o.value[1] in BASES else 0.0


def _outrage(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Another faction pays Outrage: the least useful matching card."""
    for o in options:
        yield -card_value(turn, o.value[1])


#: Decision kinds only the Alliance meets (and Outrage, which the others meet).
SCORERS: dict[str, Scorer] = {
    "alliance.revolt": _revolt,
    "alliance.spread": _spread,
    "alliance.supporter": _supporter,
    "alliance.discard": _discard,
    "alliance.daylight": _daylight,
    "alliance.operation": _operation,
    "alliance.recruit": _recruit,
    "alliance.organize": _organize,
    "alliance.outrage": _outrage,
}

#: Shared decision kinds the Alliance answers with its own rules.
OVERRIDES: dict[str, Scorer] = {
    "move.origin": _move_origin,
    "move.destination": _move_destination,
    "move.count": _move_count,
    "battle.clearing": _battle_clearing,
    "battle.remove": _battle_remove,
}
