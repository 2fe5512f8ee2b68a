"""The Marquise de Cat: build first, then battle, recruit, march and overwork.

She builds whenever she can (the building type with the best VP for its wood, sawmills early),
battles where she outnumbers an enemy with buildings, recruits once, marches to gain rule,
overworks when nothing better is left, and buys extra actions with bird cards when a build or a
good battle is waiting.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.cards import CARD_BY_ID
from games.root.greedy.battle import best_battle
from games.root.greedy.cards import card_value
from games.root.greedy.map_model import MARQUISE
from games.root.greedy.moves import best_move
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS
from games.root.suits import BIRD
from games.root.tracks import MARQUISE_BUILDINGS_PER_TYPE, MARQUISE_TRACK, SAWMILL, WORKSHOP

#: A move is worth a March when it improves the position by at least this much.
MARCH_GAIN = 0.9


def build_sites(turn: Turn) -> dict[str, list[int]]:
    """Building type -> clearings where the Marquise can build now (Law 6.5.4)."""
    m = turn.map
    ruled = [False] + [m.ruler(c) == MARQUISE for c in CLEARING_IDS]
    reach = [0] * 13
    for c in CLEARING_IDS:
        if ruled[c] and not reach[c]:
            region, todo = [c], [c]
            while todo:
                x = todo.pop()
                for y in m.neighbours[x]:
                    if ruled[y] and y not in region:
                        region.append(y)
                        todo.append(y)
            wood = sum(m.tokens[r].count((MARQUISE, "wood")) for r in region)
            for r in region:
                reach[r] = wood
    sites: dict[str, list[int]] = {}
    for kind, on_map in buildings_on_map(turn).items():
        if on_map >= MARQUISE_BUILDINGS_PER_TYPE:
            continue
        cost = MARQUISE_TRACK[kind].wood[on_map]
        found = [c for c in CLEARING_IDS if ruled[c] and m.free(c) > 0 and reach[c] >= cost]
        if found:
            sites[kind] = found
    return sites


def buildings_on_map(turn: Turn) -> dict[str, int]:
    """How many of each building type the Marquise has on the map."""
    counts = {kind: 0 for kind in MARQUISE_TRACK}
    for c in CLEARING_IDS:
        for owner, kind in turn.map.buildings[c]:
            if owner == MARQUISE:
                counts[kind] += 1
    return counts


def _marquise_keep(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        yield sum(m.free(r) for r in (c, *m.neighbours[c]))


def _setup_building(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        yield m.free(c) + (0.5 if c != m.keep else 0.0)


def _marquise_action(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    battle = best_battle(turn)
    march = best_move(turn)[0]
    hand = turn.player.hand
    cheapest = min((card_value(turn, c) for c in hand), default=9.0)
    build_ready = bool(build_sites(turn))
    for o in options:
        verb = o.value[0]
        if verb == "done":
            yield 0.0
            continue
        if verb == "hawks":
            worth = 5.0 if build_ready else (battle if battle >= 1.0 else -1.0)
            yield worth - card_value(turn, o.value[1])
            continue
        action = o.value[1]
        if action == "build":
            yield 10.0
        elif action == "battle":
            yield 2.0 + battle if battle >= 1.0 else (battle if battle >= 0.5 else -1.0)
        elif action == "recruit":
            yield 2.5 if turn.player.warriors_in_supply > 0 else -1.0
        elif action == "march":
            yield 1.0 + march if march >= MARCH_GAIN else (0.2 if march > 0.2 else -1.0)
        elif action == "overwork":
            yield 0.5 if cheapest <= 2.0 else -0.5
        else:
            yield -1.0


def _marquise_build(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    on_map = buildings_on_map(turn)
    for o in options:
        kind = o.value[1]
        n = on_map[kind]
        track = MARQUISE_TRACK[kind]
        value = track.vp[n] - 0.4 * track.wood[n] + 1.0 * track.draws[n]
        if kind == SAWMILL and n < 3:
            value += 1.5
        if kind == WORKSHOP and n < 2:
            value += 0.5
        yield value


def _marquise_build_clearing(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    kind = turn.fields.get("building", "")
    for o in options:
        c = o.value[1]
        value = turn.safety(c)
        if kind == WORKSHOP:
            suits = [
                m.suit[x] for x in CLEARING_IDS for b in m.buildings[x] if b == (MARQUISE, WORKSHOP)
            ]
            value += 1.0 if m.suit[c] not in suits else 0.0
        yield value


def _marquise_pay_wood(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        c = o.value[1]
        yield -turn.safety(c)


def _marquise_recruiters(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        yield sum(m.w(turn.enemy, n) for n in (c, *m.neighbours[c])) - 0.1 * m.w(turn.me, c)


def _marquise_sawmills(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield turn.safety(o.value[1])


def _marquise_overwork(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    for o in options:
        c = o.value[1]
        cards = [x for x in turn.player.hand if CARD_BY_ID[x].suit in (BIRD, m.suit[c])]
        yield -min((card_value(turn, x) for x in cards), default=9.0) + 0.1 * turn.safety(c)


def _marquise_overwork_card(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield -card_value(turn, o.value[1])


def _marquise_field_hospitals(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    count = int(turn.fields.get("count", "0") or 0)
    for o in options:
        if o.value[0] == "pass":
            yield 0.0
        else:
            yield (1.0 if count >= 2 else -1.0) - 0.1 * card_value(turn, o.value[1])


SCORERS: dict[str, Scorer] = {
    "marquise.keep": _marquise_keep,
    "marquise.sawmill": _setup_building,
    "marquise.workshop": _setup_building,
    "marquise.recruiter": _setup_building,
    "marquise.action": _marquise_action,
    "marquise.build": _marquise_build,
    "marquise.build_clearing": _marquise_build_clearing,
    "marquise.pay_wood": _marquise_pay_wood,
    "marquise.recruiters": _marquise_recruiters,
    "marquise.sawmills": _marquise_sawmills,
    "marquise.overwork": _marquise_overwork,
    "marquise.overwork_card": _marquise_overwork_card,
    "marquise.field_hospitals": _marquise_field_hospitals,
}
