"""Whether the Eyrie's Decree can still be carried out: the test that keeps them out of turmoil.

Turmoil costs the Eyrie far more than any single choice gains, so every Eyrie choice that adds
to the Decree or changes the map (a card, a leader, a move, a battle, a recruit, a build) is
first checked against ``Decree.feasible`` on a ``MapModel``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.root.cards import CARD_BY_ID
from games.root.greedy.map_model import EYRIE, MARQUISE, MapModel, candidate_moves
from games.root.greedy.turn import Turn, text_fields
from games.root.maps import CLEARING_IDS
from games.root.suits import BIRD, CLEARING_SUITS
from games.root.tracks import DECREE_COLUMNS, EYRIE_ROOSTS

VIZIERS = ("loyal_vizier_1", "loyal_vizier_2")
#: Turmoil is worse than anything a single choice can gain.
TURMOIL = 100.0


def card_suit(card_id: str) -> str:
    """The suit a card counts as in the Decree (Loyal Viziers are birds)."""
    return BIRD if card_id in VIZIERS else CARD_BY_ID[card_id].suit


class Decree:
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

    def with_card(self, column: str, suit: str) -> Decree:
        cards = list(self.cards)
        index = DECREE_COLUMNS.index(column)
        at = len(cards)
        for i, (col, _) in enumerate(cards):
            if DECREE_COLUMNS.index(col) > index:
                at = i
                break
        cards.insert(at, (column, suit))
        return Decree(cards, self.leader, self.supply, self.turns)

    def feasible(self, m: MapModel, search: bool = True) -> bool:
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
            if counts_ok(m, rest[first:], slack):
                return True
            for a, b, n in candidate_moves(m, EYRIE, moves[0]):
                trial = m.copy()
                trial.move(EYRIE, a, b, n)
                if counts_ok(trial, later, slack):
                    return True
            return False
        return counts_ok(m, rest, slack)


def _hall(demand: dict[str, int], capacity: dict[str, int], slack: int = 0) -> bool:
    """Cards of a suit need capacity of that suit; birds take what is left of any suit;
    ``slack``: that much capacity to spare in all."""
    for suit in CLEARING_SUITS:
        if demand.get(suit, 0) > capacity.get(suit, 0):
            return False
    return sum(demand.values()) + slack <= sum(capacity.values())


def counts_ok(m: MapModel, cards: Sequence[tuple[str, str]], slack: int = 0) -> bool:
    """Whether the map offers, suit by suit, a warrior to move, a battle or a roost site for
    every move, battle and build card of ``cards`` (recruits are not checked here)."""
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


def _roost_sites(m: MapModel) -> list[int]:
    return [
        c
        for c in CLEARING_IDS
        if m.ruler(c) == EYRIE and m.free(c) > 0 and not m.has_roost(c) and c != m.keep
    ]


def remaining_decree(turn: Turn) -> Decree | None:
    """The Eyrie's Decree still to resolve this Daylight (None: not resolving one)."""
    if turn.me != EYRIE:
        return None
    eyrie = [s for s in turn.view.active if s.name == EYRIE and s.seat == turn.seat]
    if not eyrie or eyrie[-1].stage in ("decree_card", "decree_column", "roost", "corner"):
        return None
    step = text_fields(eyrie[-1])
    if "column" not in step:
        return None
    column = int(step["column"])
    resolved = [r for r in step.get("resolved", "").split(",") if r]
    cards: list[tuple[str, str]] = []
    for i, name in enumerate(DECREE_COLUMNS):
        if i < column:
            continue
        left = list(turn.board.get(f"decree_{name}", ()))
        if i == column:
            for r in resolved:
                if r in left:
                    left.remove(r)
        cards.extend((name, card_suit(x)) for x in left)
    return Decree(cards, str(turn.board.get("leader", "")), turn.player.warriors_in_supply)
