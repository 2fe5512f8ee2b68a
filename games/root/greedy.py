"""A greedy Root player for the Marquise de Cat and the Eyrie Dynasties: simple rules, no search.

It sees only what a remote bot sees: the decision and its seat's ``RootView`` (the map, the
public faction boards, its own hand, the steps in progress), plus the public card, map and track
data. Every decision is answered by scoring its options with a few readable rules:

- both factions craft whenever it scores (items for VP, useful persistent effects, favors that
  clear enemy buildings), ambush an attacker, foil an ambush, and discard their least useful
  cards at the hand limit;
- moves and battles are judged on a small copy of the map (``_Map``): a move by how much it
  improves a position score (clearings ruled, buildings protected, enemy buildings threatened),
  a battle by its expected removals (dice 0-3: the attacker deals ~2.1, the defender ~0.9);
- the Marquise builds whenever she can (the building type with the best VP for its wood,
  sawmills early), battles where she outnumbers an enemy with buildings, recruits once, marches
  to gain rule, overworks when nothing better is left, and buys extra actions with bird cards
  when a build or a good battle is waiting;
- the Eyrie avoid turmoil: a card goes into a Decree column only if, on the current map, every
  card of the Decree can still be resolved (``_Decree.feasible``); when resolving, moves,
  battles, recruits and builds that would make a later card of the Decree impossible are
  avoided. Leaders are chosen by which Viziers the map can carry (Despot, Commander,
  Charismatic, Builder in that order of preference).

Ties are broken by the policy's own seeded generator, so it is deterministic given its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.contract import Option
from games.policies.base import DecisionContext
from games.root.cards import AMBUSH, CARD_BY_ID, FAVOR, ITEM, PERSISTENT
from games.root.maps import BOARDS, CLEARING_IDS
from games.root.suits import BIRD, CLEARING_SUITS
from games.root.tracks import (
    DECREE_COLUMNS,
    EYRIE_ROOSTS,
    LEADER_BY_ID,
    MARQUISE_BUILDINGS_PER_TYPE,
    MARQUISE_TRACK,
    SAWMILL,
    WORKSHOP,
    roost_vp,
)
from games.root.view import RootView

MARQUISE = "marquise"
EYRIE = "eyrie"
VIZIERS = ("loyal_vizier_1", "loyal_vizier_2")

#: Expected hits of the higher / lower of two dice showing 0-3 each.
ATTACK_HITS = 2.125
DEFENCE_HITS = 0.875
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
#: Which of her pieces the Marquise gives up first when she must choose.
MARQUISE_LOSS_ORDER = ("wood", "workshop", "sawmill", "recruiter", "keep")
LEADER_PREFERENCE = ("despot", "commander", "charismatic", "builder")
#: A move is worth a March when it improves the position by at least this much.
MARCH_GAIN = 0.9
#: Turmoil is worse than anything a single choice can gain.
TURMOIL = 100.0


def _card_suit(card_id: str) -> str:
    return BIRD if card_id in VIZIERS else CARD_BY_ID[card_id].suit


class _Map:
    """The pieces on the map, copied from the view so that moves can be tried on it."""

    __slots__ = ("buildings", "keep", "neighbours", "slots", "suit", "tokens", "warriors")

    def __init__(self, view: RootView) -> None:
        board = BOARDS[view.map]
        self.neighbours = board.neighbours
        self.slots = [0] + [board.clearing(c).slots for c in CLEARING_IDS]
        self.suit = [""] + [cl.suit for cl in view.clearings]
        self.warriors: list[dict[str, int]] = [{}] + [dict(cl.warriors) for cl in view.clearings]
        self.buildings: list[list[tuple[str, str]]] = [[]] + [
            list(cl.buildings) for cl in view.clearings
        ]
        self.tokens: list[list[tuple[str, str]]] = [[]] + [list(cl.tokens) for cl in view.clearings]
        self.keep = 0
        for c in CLEARING_IDS:
            if (MARQUISE, "keep") in self.tokens[c]:
                self.keep = c

    def copy(self) -> _Map:
        new = _Map.__new__(_Map)
        new.neighbours = self.neighbours
        new.slots = self.slots
        new.suit = self.suit
        new.keep = self.keep
        new.warriors = [dict(w) for w in self.warriors]
        new.buildings = [list(b) for b in self.buildings]
        new.tokens = [list(t) for t in self.tokens]
        return new

    def w(self, faction: str, c: int) -> int:
        return self.warriors[c].get(faction, 0)

    def built(self, faction: str, c: int) -> int:
        return sum(1 for owner, _ in self.buildings[c] if owner == faction)

    def pieces(self, faction: str, c: int) -> int:
        """Buildings and tokens (what hits reach after warriors)."""
        return self.built(faction, c) + sum(1 for o, _ in self.tokens[c] if o == faction)

    def free(self, c: int) -> int:
        return self.slots[c] - len(self.buildings[c])

    def ruler(self, c: int) -> str:
        counts: dict[str, int] = dict(self.warriors[c])
        for owner, _ in self.buildings[c]:
            if owner:
                counts[owner] = counts.get(owner, 0) + 1
        best = max(counts.values(), default=0)
        if best == 0:
            return ""
        top = [f for f, n in counts.items() if n == best]
        if len(top) == 1:
            return top[0]
        return EYRIE if EYRIE in top else ""

    def destinations(self, faction: str, a: int) -> tuple[int, ...]:
        if not self.w(faction, a):
            return ()
        if self.ruler(a) == faction:
            return self.neighbours[a]
        return tuple(b for b in self.neighbours[a] if self.ruler(b) == faction)

    def move(self, faction: str, a: int, b: int, n: int) -> None:
        self.add(faction, a, -n)
        self.add(faction, b, n)

    def add(self, faction: str, c: int, n: int) -> None:
        left = self.w(faction, c) + n
        if left > 0:
            self.warriors[c][faction] = left
        else:
            self.warriors[c].pop(faction, None)

    def matching(self, suit: str) -> tuple[int, ...]:
        return (
            CLEARING_IDS if suit == BIRD else tuple(c for c in CLEARING_IDS if self.suit[c] == suit)
        )

    def has_roost(self, c: int) -> bool:
        return (EYRIE, "roost") in self.buildings[c]


def _position(m: _Map, me: str, enemy: str) -> float:
    """How good the map is for ``me``: rule, protected buildings, threatened enemy buildings."""
    score = 0.0
    for c in CLEARING_IDS:
        ruler = m.ruler(c)
        mine, theirs = m.w(me, c), m.w(enemy, c)
        my_built = m.built(me, c)
        their_pieces = m.pieces(enemy, c)
        if ruler == me:
            score += 1.0
            if m.free(c) > 0 and not (me == EYRIE and m.has_roost(c)) and c != m.keep:
                score += 0.4
        elif my_built:
            score -= 1.2 * my_built
        if their_pieces and mine > theirs:
            score += 0.7 * min(their_pieces, mine - theirs)
        if mine and theirs and ruler != me:
            score -= 0.1 * mine
        # A clearing next to an enemy stack wants some defence.
        if my_built:
            near = max((m.w(enemy, n) for n in m.neighbours[c]), default=0)
            if near > mine + my_built:
                score -= 0.3
    return score


def _battle_value(m: _Map, me: str, enemy: str, c: int, extra_hits: int = 0) -> float:
    """Expected worth of attacking in ``c``: removals (1 VP each), warriors traded."""
    mine, theirs = m.w(me, c), m.w(enemy, c)
    pieces = m.pieces(enemy, c)
    dealt = min(ATTACK_HITS, mine) + extra_hits + (1 if theirs == 0 else 0)
    killed = min(dealt, theirs)
    removed = min(max(0.0, dealt - theirs), pieces)
    lost = min(DEFENCE_HITS, theirs)
    return 1.3 * removed + 0.5 * killed - 0.45 * lost


def _after_battle(m: _Map, me: str, enemy: str, c: int, taken: int = 1) -> _Map:
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


class _Decree:
    """The Eyrie's Decree still to resolve, as (column, suit) pairs in resolution order, and
    whether the map can carry it all (a conservative test: see ``feasible``)."""

    def __init__(
        self, cards: Sequence[tuple[str, str]], leader: str, supply: int, turns: int = 1
    ) -> None:
        self.cards = list(cards)
        self.leader = leader
        self.supply = supply
        #: Recruits must find warriors in supply for this many Daylights (they do not return).
        self.turns = turns

    def with_card(self, column: str, suit: str) -> _Decree:
        cards = list(self.cards)
        index = DECREE_COLUMNS.index(column)
        at = len(cards)
        for i, (col, _) in enumerate(cards):
            if DECREE_COLUMNS.index(col) > index:
                at = i
                break
        cards.insert(at, (column, suit))
        return _Decree(cards, self.leader, self.supply, self.turns)

    def feasible(self, m: _Map, search: bool = True) -> bool:
        """Whether every card can be resolved on ``m``. Recruits are placed first; the first
        move card is searched (a move may be what makes a later build possible), the rest
        are checked by counting what each suit needs against what the map offers."""
        m = m.copy()
        slack = 1 if self.turns > 1 else 0
        per = 2 if self.leader == "charismatic" else 1
        recruits = sum(1 for column, _ in self.cards if column == "recruit")
        supply = self.supply - (self.turns - 1) * per * recruits
        roosts = [c for c in CLEARING_IDS if m.has_roost(c)]
        rest: list[tuple[str, str]] = []
        for column, suit in self.cards:
            if column != "recruit":
                rest.append((column, suit))
                continue
            where = [c for c in roosts if suit == BIRD or m.suit[c] == suit]
            if not where or supply < per:
                return False
            supply -= per
            m.add(EYRIE, where[0], per)
        if not rest:
            return True
        moves = [suit for column, suit in rest if column == "move"]
        if search and moves:
            first = rest.index(("move", moves[0]))
            later = rest[first + 1 :]
            if _counts_ok(m, rest[first:], slack):
                return True
            for a, b, n in _moves(m, EYRIE, moves[0]):
                trial = m.copy()
                trial.move(EYRIE, a, b, n)
                if _counts_ok(trial, later, slack):
                    return True
            return False
        return _counts_ok(m, rest, slack)


def _hall(demand: dict[str, int], capacity: dict[str, int], slack: int = 0) -> bool:
    """Cards of a suit need capacity of that suit; birds take what is left of any suit;
    ``slack``: that much capacity to spare in all."""
    for suit in CLEARING_SUITS:
        if demand.get(suit, 0) > capacity.get(suit, 0):
            return False
    return sum(demand.values()) + slack <= sum(capacity.values())


def _counts_ok(m: _Map, cards: Sequence[tuple[str, str]], slack: int = 0) -> bool:
    demand: dict[str, dict[str, int]] = {"move": {}, "battle": {}, "build": {}}
    for column, suit in cards:
        if column in demand:
            demand[column][suit] = demand[column].get(suit, 0) + 1
    if demand["move"]:
        cap: dict[str, int] = {}
        for c in CLEARING_IDS:
            if m.destinations(EYRIE, c):
                cap[m.suit[c]] = cap.get(m.suit[c], 0) + m.w(EYRIE, c)
        if not _hall(demand["move"], cap):
            return False
    if demand["battle"]:
        cap = {}
        for c in CLEARING_IDS:
            if m.w(EYRIE, c) and (m.w(MARQUISE, c) or m.pieces(MARQUISE, c)):
                cap[m.suit[c]] = cap.get(m.suit[c], 0) + m.w(EYRIE, c)
        if not _hall(demand["battle"], cap, slack):
            return False
    if demand["build"]:
        cap = {}
        roosts = sum(1 for c in CLEARING_IDS if m.has_roost(c))
        for c in _roost_sites(m):
            cap[m.suit[c]] = cap.get(m.suit[c], 0) + 1
        # Planning ahead (slack): each build card needs a fresh clearing next Daylight too.
        builds = sum(demand["build"].values())
        if builds > EYRIE_ROOSTS - roosts or not _hall(
            demand["build"], cap, builds if slack else 0
        ):
            return False
    return True


def _roost_sites(m: _Map) -> list[int]:
    return [
        c
        for c in CLEARING_IDS
        if m.ruler(c) == EYRIE and m.free(c) > 0 and not m.has_roost(c) and c != m.keep
    ]


def _moves(m: _Map, faction: str, suit: str = BIRD) -> list[tuple[int, int, int]]:
    """Candidate moves (origin, destination, count) from clearings matching ``suit``: all,
    all but one, or one warrior."""
    found: list[tuple[int, int, int]] = []
    for a in m.matching(suit):
        n = m.w(faction, a)
        for b in m.destinations(faction, a):
            for k in sorted({1, max(1, n - 1), n}):
                found.append((a, b, k))
    return found


class GreedyPolicy:
    """Rule-based play for both factions (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    # ------------------------------------------------------------------ entry point

    def choose(self, ctx: DecisionContext) -> int:
        decision = ctx.decision
        options = decision.options
        if len(options) == 1:
            return 0
        view: RootView = ctx.observation
        turn = _Turn(view, ctx.seat)
        scores = turn.scores(decision.kind, options)
        best = max(scores)
        ties = [i for i, v in enumerate(scores) if v >= best - 1e-9]
        return ties[0] if len(ties) == 1 else self._rng.choice(ties)


class _Turn:
    """One decision's reading of the view: who I am, the map, the steps in progress."""

    def __init__(self, view: RootView, seat: int) -> None:
        self.view = view
        self.seat = seat
        player = view.players[seat]
        self.me = player.faction
        self.player = player
        self.enemy = EYRIE if self.me == MARQUISE else MARQUISE
        self.board: dict[str, Any] = dict(player.board)
        self.map = _Map(view)
        self.fields: dict[str, str] = dict(view.active[-1].fields) if view.active else {}

    def field(self, name: str, step: str | None = None) -> str:
        for active in reversed(self.view.active):
            if step is None or active.name == step:
                found = dict(active.fields)
                if name in found:
                    return found[name]
        return ""

    # ------------------------------------------------------------------ dispatch

    def scores(self, kind: str, options: Sequence[Option]) -> list[float]:
        handler = getattr(self, "_" + kind.replace(".", "_"), None)
        if handler is None:
            return [0.0] * len(options)
        return [float(v) for v in handler(options)]

    # ------------------------------------------------------------------ cards

    def card_value(self, card_id: str) -> float:
        """What keeping a card in hand is worth."""
        card = CARD_BY_ID[card_id]
        value = 0.5 if card.suit == BIRD else 0.0
        if card.kind == AMBUSH:
            return value + 2.0
        if card.kind == ITEM:
            return value + 0.5 + (card.vp if self._full_item_vp() else 1)
        if card.kind == PERSISTENT:
            return value + EFFECT_VALUE.get(card.effect or "", 0.0)
        if card.kind == FAVOR:
            return value + 1.0
        return value

    def _full_item_vp(self) -> bool:
        return self.me == MARQUISE or self.board.get("leader") == "builder"

    def craft_value(self, card_id: str) -> float:
        card = CARD_BY_ID[card_id]
        if card.kind == ITEM:
            return 1.0 + (card.vp if self._full_item_vp() else 1)
        if card.kind == PERSISTENT:
            return EFFECT_VALUE.get(card.effect or "", 0.0)
        if card.kind == FAVOR:
            m = self.map
            gain = 0.0
            for c in m.matching(card.suit):
                gain += 1.0 * m.pieces(self.enemy, c) + 0.3 * m.w(self.enemy, c)
            return gain - 1.0
        return 0.0

    def _craft_card(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield 0.4 if o.value[0] == "done" else self.craft_value(o.value[1])

    def _window(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        for o in options:
            if o.value[0] == "done":
                yield 0.0
                continue
            effect = o.value[1]
            if effect == "royal_claim":
                ruled = sum(1 for c in CLEARING_IDS if m.ruler(c) == self.me)
                yield 1.0 if ruled >= 4 else -1.0
            elif effect == "command_warren":
                yield (
                    max(
                        (
                            _battle_value(m, self.me, self.enemy, c, self._extra_hits())
                            for c in CLEARING_IDS
                            if m.w(self.me, c) and (m.w(self.enemy, c) or m.pieces(self.enemy, c))
                        ),
                        default=-1.0,
                    )
                    - 0.6
                    - self._turmoil_risk_of_battle()
                )
            elif effect == "tax_collector":
                most = max((m.w(self.me, c) for c in CLEARING_IDS), default=0)
                yield 0.5 if most >= 5 and self.player.warriors_in_supply < 3 else -1.0
            else:
                yield -1.0

    _cards_birdsong = _window
    _cards_daylight_start = _window
    _cards_daylight_end = _window
    _cards_evening = _window

    def _turmoil_risk_of_battle(self) -> float:
        return 0.0 if self.me == MARQUISE else 0.5

    def _effect_tax_collector(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            c = o.value[1]
            yield self.map.w(self.me, c) - 2 * self.map.w(self.enemy, c)

    def _hand_limit_discard(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield -self.card_value(o.value[1])

    # ------------------------------------------------------------------ battle

    def _extra_hits(self) -> int:
        return 1 if self.me == EYRIE and self.board.get("leader") == "commander" else 0

    def _battle_clearing(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        for o in options:
            c = o.value[1]
            value = _battle_value(m, self.me, self.enemy, c, self._extra_hits())
            if decree is not None:
                if not decree.feasible(_after_battle(m, self.me, self.enemy, c)):
                    value -= TURMOIL / 10
                elif not decree.feasible(_after_battle(m, self.me, self.enemy, c, 3)):
                    value -= 2.0
            yield value

    def _battle_ambush(self, options: Sequence[Option]) -> Iterable[float]:
        attacker = int(self.field("attacker", "battle") or -1)
        c = int(self.field("clearing", "battle") or 0)
        attackers = self.map.w(self.view.players[attacker].faction, c) if c else 0
        for o in options:
            yield 0.0 if o.value[0] == "pass" else (1.0 if attackers else -1.0)

    def _battle_foil(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield 0.0 if o.value[0] == "pass" else 1.0

    def _battle_attacker_effects(self, options: Sequence[Option]) -> Iterable[float]:
        c = int(self.field("clearing", "battle") or 0)
        theirs = self.map.w(self.enemy, c)
        pieces = self.map.pieces(self.enemy, c)
        rolled = int(self.field("attacker_rolled", "battle") or 0)
        extra = int(self.field("attacker_extra", "battle") or 0)
        taken = int(self.field("defender_rolled", "battle") or 0)
        for o in options:
            if o.value[0] == "done":
                yield 0.0
            elif o.value[1] == "armorers":
                yield 1.0 if taken >= 2 else -1.0
            elif o.value[1] == "brutal_tactics":
                yield 1.0 if pieces and rolled + extra >= theirs else -1.0
            else:
                yield -1.0

    def _battle_defender_effects(self, options: Sequence[Option]) -> Iterable[float]:
        c = int(self.field("clearing", "battle") or 0)
        attacker = int(self.field("attacker", "battle") or 0)
        attackers = self.map.w(self.view.players[attacker].faction, c) if c else 0
        rolled = int(self.field("attacker_rolled", "battle") or 0)
        taken = int(self.field("defender_rolled", "battle") or 0)
        mine = self.map.w(self.me, c)
        for o in options:
            if o.value[0] == "done":
                yield 0.0
            elif o.value[1] == "armorers":
                yield 1.0 if rolled >= 2 or (rolled > mine and self.map.pieces(self.me, c)) else -1
            elif o.value[1] == "sappers":
                yield 1.0 if attackers > taken else -1.0
            else:
                yield -1.0

    def _battle_remove(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            kind = o.value[1]
            order = MARQUISE_LOSS_ORDER
            yield -float(order.index(kind)) if kind in order else 0.0

    # ------------------------------------------------------------------ moves

    def _move_gain(self, m: _Map, a: int, b: int, n: int, decree: _Decree | None) -> float:
        trial = m.copy()
        trial.move(self.me, a, b, n)
        gain = _position(trial, self.me, self.enemy) - _position(m, self.me, self.enemy)
        if decree is not None and not decree.feasible(trial, search=False):
            gain -= TURMOIL
        return gain

    def best_move(self, origins: Iterable[int] | None = None) -> tuple[float, int, int, int]:
        m = self.map
        decree = self.decree()
        best = (-1e9, 0, 0, 0)
        for a in origins if origins is not None else CLEARING_IDS:
            n = m.w(self.me, a)
            for b in m.destinations(self.me, a):
                for k in range(1, n + 1):
                    gain = self._move_gain(m, a, b, k, decree) - 0.01 * k
                    if gain > best[0]:
                        best = (gain, a, b, k)
        return best

    def _move_origin(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        for o in options:
            if o.value[0] == "done":
                yield 0.05
                continue
            a = o.value[1]
            yield max(
                (
                    self._move_gain(m, a, b, k, decree) - 0.01 * k
                    for b in m.destinations(self.me, a)
                    for k in range(1, m.w(self.me, a) + 1)
                ),
                default=-1e9,
            )

    def _move_destination(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        a = int(self.field("origin", "move"))
        for o in options:
            b = o.value[1]
            yield max(
                self._move_gain(m, a, b, k, decree) - 0.01 * k
                for k in range(1, m.w(self.me, a) + 1)
            )

    def _move_count(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        a = int(self.field("origin", "move"))
        b = int(self.field("destination", "move"))
        for o in options:
            k = o.value[1]
            yield self._move_gain(m, a, b, k, decree) - 0.01 * k

    # ------------------------------------------------------------------ the Marquise

    def _marquise_keep(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        for o in options:
            c = o.value[1]
            yield sum(m.free(r) for r in (c, *m.neighbours[c]))

    def _setup_building(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        for o in options:
            c = o.value[1]
            yield m.free(c) + (0.5 if c != m.keep else 0.0)

    _marquise_sawmill = _setup_building
    _marquise_workshop = _setup_building
    _marquise_recruiter = _setup_building

    def good_battle(self) -> float:
        m = self.map
        return max(
            (
                _battle_value(m, self.me, self.enemy, c)
                for c in CLEARING_IDS
                if m.w(self.me, c) and (m.w(self.enemy, c) or m.pieces(self.enemy, c))
            ),
            default=-1.0,
        )

    def _marquise_action(self, options: Sequence[Option]) -> Iterable[float]:
        battle = self.good_battle()
        march = self.best_move()[0]
        hand = self.player.hand
        cheapest = min((self.card_value(c) for c in hand), default=9.0)
        build_ready = bool(self.build_sites())
        for o in options:
            verb = o.value[0]
            if verb == "done":
                yield 0.0
                continue
            if verb == "hawks":
                worth = 5.0 if build_ready else (battle if battle >= 1.0 else -1.0)
                yield worth - self.card_value(o.value[1])
                continue
            action = o.value[1]
            if action == "build":
                yield 10.0
            elif action == "battle":
                yield 2.0 + battle if battle >= 1.0 else (battle if battle >= 0.5 else -1.0)
            elif action == "recruit":
                yield 2.5 if self.player.warriors_in_supply > 0 else -1.0
            elif action == "march":
                yield 1.0 + march if march >= MARCH_GAIN else (0.2 if march > 0.2 else -1.0)
            elif action == "overwork":
                yield 0.5 if cheapest <= 2.0 else -0.5
            else:
                yield -1.0

    def build_sites(self) -> dict[str, list[int]]:
        """Building type -> clearings where the Marquise can build now (Law 6.5.4)."""
        m = self.map
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
        for kind, on_map in self.on_map().items():
            if on_map >= MARQUISE_BUILDINGS_PER_TYPE:
                continue
            cost = MARQUISE_TRACK[kind].wood[on_map]
            found = [c for c in CLEARING_IDS if ruled[c] and m.free(c) > 0 and reach[c] >= cost]
            if found:
                sites[kind] = found
        return sites

    def on_map(self) -> dict[str, int]:
        counts = {kind: 0 for kind in MARQUISE_TRACK}
        for c in CLEARING_IDS:
            for owner, kind in self.map.buildings[c]:
                if owner == MARQUISE:
                    counts[kind] += 1
        return counts

    def _marquise_build(self, options: Sequence[Option]) -> Iterable[float]:
        on_map = self.on_map()
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

    def safety(self, c: int) -> float:
        m = self.map
        near = sum(m.w(self.enemy, n) for n in m.neighbours[c])
        return m.w(self.me, c) - 2.0 * m.w(self.enemy, c) - 0.3 * near

    def _marquise_build_clearing(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        kind = self.fields.get("building", "")
        for o in options:
            c = o.value[1]
            value = self.safety(c)
            if kind == WORKSHOP:
                suits = [
                    m.suit[x]
                    for x in CLEARING_IDS
                    for b in m.buildings[x]
                    if b == (MARQUISE, WORKSHOP)
                ]
                value += 1.0 if m.suit[c] not in suits else 0.0
            yield value

    def _marquise_pay_wood(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            c = o.value[1]
            yield -self.safety(c)

    def _marquise_recruiters(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        for o in options:
            c = o.value[1]
            yield sum(m.w(self.enemy, n) for n in (c, *m.neighbours[c])) - 0.1 * m.w(self.me, c)

    def _marquise_sawmills(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield self.safety(o.value[1])

    def _marquise_overwork(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        for o in options:
            c = o.value[1]
            cards = [x for x in self.player.hand if CARD_BY_ID[x].suit in (BIRD, m.suit[c])]
            yield -min((self.card_value(x) for x in cards), default=9.0) + 0.1 * self.safety(c)

    def _marquise_overwork_card(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield -self.card_value(o.value[1])

    def _marquise_field_hospitals(self, options: Sequence[Option]) -> Iterable[float]:
        count = int(self.fields.get("count", "0") or 0)
        for o in options:
            if o.value[0] == "pass":
                yield 0.0
            else:
                yield (1.0 if count >= 2 else -1.0) - 0.1 * self.card_value(o.value[1])

    # ------------------------------------------------------------------ the Eyrie

    def decree(self) -> _Decree | None:
        """The Eyrie's Decree still to resolve this Daylight (None: not resolving one)."""
        if self.me != EYRIE:
            return None
        eyrie = [s for s in self.view.active if s.name == EYRIE and s.seat == self.seat]
        if not eyrie or eyrie[-1].stage in ("decree_card", "decree_column", "roost", "corner"):
            return None
        step = dict(eyrie[-1].fields)
        if "column" not in step:
            return None
        column = int(step["column"])
        resolved = [r for r in step.get("resolved", "").split(",") if r]
        cards: list[tuple[str, str]] = []
        for i, name in enumerate(DECREE_COLUMNS):
            if i < column:
                continue
            left = list(self.board.get(f"decree_{name}", ()))
            if i == column:
                for r in resolved:
                    if r in left:
                        left.remove(r)
            cards.extend((name, _card_suit(x)) for x in left)
        return _Decree(cards, str(self.board.get("leader", "")), self.player.warriors_in_supply)

    def full_decree(self, leader: str | None = None) -> _Decree:
        """The whole Decree, as it will be resolved next Daylight."""
        cards: list[tuple[str, str]] = []
        if leader is None:
            for name in DECREE_COLUMNS:
                cards.extend((name, _card_suit(x)) for x in self.board.get(f"decree_{name}", ()))
            leader = str(self.board.get("leader", ""))
        else:
            cards = [
                (col, BIRD)
                for col in sorted(LEADER_BY_ID[leader].viziers, key=DECREE_COLUMNS.index)
            ]
        return _Decree(cards, leader, self.player.warriors_in_supply)

    def column_value(self, column: str, suit: str, decree: _Decree) -> float:
        """How much a card of ``suit`` in ``column`` is worth if the Decree can carry it."""
        m = self.map
        if not decree.feasible(m):
            return -TURMOIL
        # Better if the new card does not rely on this turn's moves: its column works on the
        # map as it is now.
        same = [(col, s) for col, s in decree.cards if col == column]
        risk = 3.0 if column != "recruit" and not _counts_ok(m, same) else 0.0
        # Each card is an action owed every Daylight: the more a column holds, the less the
        # next one is worth (recruits drain the supply, builds need a new clearing each time).
        already = sum(1 for col, _ in decree.cards if col == column) - 1
        if column == "recruit":
            return 1.4 + (0.6 if suit == BIRD else 0.0) - 0.5 * already
        if column == "move":
            return 0.8 - 0.2 * already - risk
        if column == "battle":
            targets = sum(
                m.pieces(MARQUISE, c) for c in m.matching(suit) if m.w(EYRIE, c) > m.w(MARQUISE, c)
            )
            return 0.7 + 0.5 * min(targets, 2) - 0.4 * already - risk
        roosts = sum(1 for c in CLEARING_IDS if m.has_roost(c))
        if roosts + 2 * (already + 1) > EYRIE_ROOSTS:
            return -1.0
        return 1.5 + roost_vp(roosts + 1) - roost_vp(roosts) - 1.2 * already - risk

    def planning_decree(self) -> _Decree:
        """The whole Decree, asked to hold for three Daylights where it can."""
        base = self.full_decree()
        twice = _Decree(base.cards, base.leader, base.supply, 3)
        return twice if twice.feasible(self.map) else base

    def best_column(self, card_id: str) -> tuple[float, str]:
        suit = _card_suit(card_id)
        base = self.planning_decree()
        best = (-1e9, "")
        for column in DECREE_COLUMNS:
            value = self.column_value(column, suit, base.with_card(column, suit))
            if value > best[0]:
                best = (value, column)
        return best

    def _eyrie_decree_card(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            if o.value[0] == "done":
                yield 1.2
                continue
            card_id = o.value[1]
            value, _ = self.best_column(card_id)
            if value <= -TURMOIL:
                # Every place for this card ends in turmoil: give up a non-bird card, late.
                value = -TURMOIL - (5.0 if _card_suit(card_id) == BIRD else 0.0)
            yield value - 0.3 * self.card_value(card_id)

    def _eyrie_decree_column(self, options: Sequence[Option]) -> Iterable[float]:
        card_id = self.fields.get("card", "")
        suit = _card_suit(card_id) if card_id else BIRD
        base = self.planning_decree()
        for o in options:
            column = DECREE_COLUMNS[o.value[1]]
            value = self.column_value(column, suit, base.with_card(column, suit))
            # With turmoil certain, the later the failure the more of the Decree is taken.
            yield value + 0.01 * DECREE_COLUMNS.index(column)

    def _eyrie_leader(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            leader = o.value[1]
            value = float(len(LEADER_PREFERENCE) - LEADER_PREFERENCE.index(leader))
            decree = self.full_decree(leader)
            if not decree.feasible(self.map):
                value -= 10.0
            decree.turns = 3
            if not decree.feasible(self.map):
                value -= 1.5
            yield value

    def _eyrie_order(self, options: Sequence[Option]) -> Iterable[float]:
        decree = self.decree()
        column = DECREE_COLUMNS[int(self.field("column", EYRIE) or 0)]
        for o in options:
            suit = o.value[1]
            value = 0.0 if suit == BIRD else 1.0
            if decree is not None:
                cards = list(decree.cards)
                cards.remove((column, suit))
                first = _Decree([(column, suit), *cards], decree.leader, decree.supply)
                if not first.feasible(self.map):
                    value -= 10.0
            yield value

    def _eyrie_recruit(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        per = 2 if self.board.get("leader") == "charismatic" else 1
        for o in options:
            c = o.value[1]
            trial = m.copy()
            trial.add(EYRIE, c, per)
            value = -self.safety(c) * 0.2 + _position(trial, EYRIE, MARQUISE)
            if decree is not None and not decree.feasible(trial):
                value -= TURMOIL
            yield value

    def _eyrie_build(self, options: Sequence[Option]) -> Iterable[float]:
        m = self.map
        decree = self.decree()
        roost_suits = [m.suit[c] for c in CLEARING_IDS if m.has_roost(c)]
        for o in options:
            c = o.value[1]
            trial = m.copy()
            trial.buildings[c].append((EYRIE, "roost"))
            value = self.safety(c) + (1.0 if m.suit[c] not in roost_suits else 0.0)
            if decree is not None and not decree.feasible(trial):
                value -= TURMOIL
            yield value

    def _eyrie_roost(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield self.safety(o.value[1])

    def _eyrie_corner(self, options: Sequence[Option]) -> Iterable[float]:
        for o in options:
            yield self.safety(o.value[1])
