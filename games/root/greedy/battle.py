"""Battles for both factions: what a battle is expected to gain, and the choices inside one.

A battle is judged by its expected removals with dice of 0-3: the attacker deals the higher die
(about 2.1 hits), the defender the lower (about 0.9). The Eyrie also avoid battles that would
leave a later card of their Decree impossible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.greedy.decree import TURMOIL, remaining_decree
from games.root.greedy.map_model import EYRIE, MARQUISE, MapModel
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS

#: Expected hits of the higher / lower of two dice showing 0-3 each.
ATTACK_HITS = 2.125
DEFENCE_HITS = 0.875
#: Which of her pieces the Marquise gives up first when she must choose.
MARQUISE_LOSS_ORDER = ("wood", "workshop", "sawmill", "recruiter", "keep")


def battle_value(m: MapModel, me: str, enemy: str, c: int, extra_hits: int = 0) -> float:
    """Expected worth of attacking in ``c``: removals (1 VP each), warriors traded."""
    mine, theirs = m.w(me, c), m.w(enemy, c)
    pieces = m.pieces(enemy, c)
    dealt = min(ATTACK_HITS, mine) + extra_hits + (1 if theirs == 0 else 0)
    killed = min(dealt, theirs)
    removed = min(max(0.0, dealt - theirs), pieces)
    lost = min(DEFENCE_HITS, theirs)
    return 1.3 * removed + 0.5 * killed - 0.45 * lost


def best_battle(turn: Turn, extra_hits: int = 0) -> float:
    """The best ``battle_value`` anywhere I can attack now (-1 if nowhere)."""
    m = turn.map
    return max(
        (
            battle_value(m, turn.me, turn.enemy, c, extra_hits)
            for c in CLEARING_IDS
            if m.w(turn.me, c) and (m.w(turn.enemy, c) or m.pieces(turn.enemy, c))
        ),
        default=-1.0,
    )


def after_battle(m: MapModel, me: str, enemy: str, c: int, taken: int = 1) -> MapModel:
    """The map after a typical battle in ``c`` (two hits dealt, ``taken`` taken)."""
    new = m.copy()
    mine, theirs = new.w(me, c), new.w(enemy, c)
    dealt = min(2, mine)
    new.add(enemy, c, -min(dealt, theirs))
    left = dealt - min(dealt, theirs)
    while left > 0 and new.pieces(enemy, c):
        for i, (owner, _) in enumerate(new.buildings[c]):
            if owner == enemy:
                del new.buildings[c][i]
                break
        else:
            for i, (owner, _) in enumerate(new.tokens[c]):
                if owner == enemy:
                    del new.tokens[c][i]
                    break
        left -= 1
    new.add(me, c, -min(taken, theirs, mine))
    return new


def extra_hits(turn: Turn) -> int:
    """Hits I deal on top of the dice (the Eyrie's Commander)."""
    return 1 if turn.me == EYRIE and turn.board.get("leader") == "commander" else 0


def turmoil_risk_of_battle(turn: Turn) -> float:
    """What an extra battle may cost in Decree risk (the Eyrie only)."""
    return 0.0 if turn.me == MARQUISE else 0.5


def _battle_clearing(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    for o in options:
        c = o.value[1]
        value = battle_value(m, turn.me, turn.enemy, c, extra_hits(turn))
        if decree is not None:
            if not decree.feasible(after_battle(m, turn.me, turn.enemy, c)):
                value -= TURMOIL / 10
            elif not decree.feasible(after_battle(m, turn.me, turn.enemy, c, 3)):
                value -= 2.0
        yield value


def _battle_ambush(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    attacker = int(turn.field("attacker", "battle") or -1)
    c = int(turn.field("clearing", "battle") or 0)
    attackers = turn.map.w(turn.view.players[attacker].faction, c) if c else 0
    for o in options:
        yield 0.0 if o.value[0] == "pass" else (1.0 if attackers else -1.0)


def _battle_foil(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 0.0 if o.value[0] == "pass" else 1.0


def _battle_attacker_effects(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    c = int(turn.field("clearing", "battle") or 0)
    theirs = turn.map.w(turn.enemy, c)
    pieces = turn.map.pieces(turn.enemy, c)
    rolled = int(turn.field("attacker_rolled", "battle") or 0)
    extra = int(turn.field("attacker_extra", "battle") or 0)
    taken = int(turn.field("defender_rolled", "battle") or 0)
    for o in options:
        if o.value[0] == "done":
            yield 0.0
        elif o.value[1] == "armorers":
            yield 1.0 if taken >= 2 else -1.0
        elif o.value[1] == "brutal_tactics":
            yield 1.0 if pieces and rolled + extra >= theirs else -1.0
        else:
            yield -1.0


def _battle_defender_effects(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    c = int(turn.field("clearing", "battle") or 0)
    attacker = int(turn.field("attacker", "battle") or 0)
    attackers = turn.map.w(turn.view.players[attacker].faction, c) if c else 0
    rolled = int(turn.field("attacker_rolled", "battle") or 0)
    taken = int(turn.field("defender_rolled", "battle") or 0)
    mine = turn.map.w(turn.me, c)
    for o in options:
        if o.value[0] == "done":
            yield 0.0
        elif o.value[1] == "armorers":
            yield 1.0 if rolled >= 2 or (rolled > mine and turn.map.pieces(turn.me, c)) else -1
        elif o.value[1] == "sappers":
            yield 1.0 if attackers > taken else -1.0
        else:
            yield -1.0


def _battle_remove(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        kind = o.value[1]
        order = MARQUISE_LOSS_ORDER
        yield -float(order.index(kind)) if kind in order else 0.0


SCORERS: dict[str, Scorer] = {
    "battle.clearing": _battle_clearing,
    "battle.ambush": _battle_ambush,
    "battle.foil": _battle_foil,
    "battle.attacker_effects": _battle_attacker_effects,
    "battle.defender_effects": _battle_defender_effects,
    "battle.remove": _battle_remove,
}
