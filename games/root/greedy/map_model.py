"""A small copy of the map, built from the view, on which moves, battles and builds are tried.

The engine's own state is not visible to a bot (it sees only its ``RootView``), and trying an
option must not touch the view, so the greedy player keeps this cheap, copyable model.
"""

from __future__ import annotations

from games.root.maps import BOARDS, CLEARING_IDS
from games.root.suits import BIRD
from games.root.view import RootView

MARQUISE = "marquise"
EYRIE = "eyrie"


class MapModel:
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

    def copy(self) -> MapModel:
        new = MapModel.__new__(MapModel)
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


def candidate_moves(m: MapModel, faction: str, suit: str = BIRD) -> list[tuple[int, int, int]]:
    """Candidate moves (origin, destination, count) from clearings matching ``suit``: all,
    all but one, or one warrior."""
    found: list[tuple[int, int, int]] = []
    for a in m.matching(suit):
        n = m.w(faction, a)
        for b in m.destinations(faction, a):
            for k in sorted({1, max(1, n - 1), n}):
                found.append((a, b, k))
    return found
