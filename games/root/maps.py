"""The two sides of the base board, Autumn and Winter: clearings, paths, rivers, forests (data).

Facts from the Law of Root and the printed maps (seven map sources agree); where the Japanese
edition's rules summary and the Law differ, the Law wins.
Clearings are numbered 1..12 by their Clockwork bot priority (§1.1), which is also how game
logs number them; corners are 1 NW, 2 NE, 3 SE, 4 SW and 1-3, 2-4 are diagonally opposite.

Only ``paths`` make clearings adjacent. Rivers are kept apart: they are not paths (Law 2.3),
only some factions (not in the base game) use them, and on Winter they also divide forests.
Derived lookups (``neighbours``, ``river_neighbours``, ``clearing_forests``) are computed once
and indexed by clearing id; entry 0 is empty because there is no clearing 0.

Data choices:
- Clearing ids are the Clockwork priorities P1..P12 (digest §1.1, H); whether the numbers are
  printed on the board was not confirmed (digest §8). They match game-log numbering.
- ``slots`` counts every building slot including the one a ruin starts in (digest §1.2 table:
  Autumn 22 slots, 4 ruins; Winter also 22 and 4).
- Autumn river 5-10-11-7-4 (digest: confidence M; chadfraser's 1-7 rejected as a typo). The
  haunt-roll-fail Root engine (guarantee418/haunt-roll-fail ``haunt-roll-fail/root/maps.scala``,
  Autumn ``byRiver``) gives the same four links, a third source. Rivers do not divide forests
  on Autumn (Law 2.3).
- Winter slots (digest: M, two sources) also match haunt-roll-fail and KvanQuilst/Rootbotics
  ``src/root-maps.adb`` (which stores slots and ruin separately: 1 + ruin = 2, and so on).
- Winter river links 10-11, 11-12, 12-7 (digest: L, Rtificer only) match haunt-roll-fail's Winter
  ``byRiver`` (Drift-Wade-Bend-Ford = 10-11-12-7).
- Winter forests (digest: L, Rtificer only) match haunt-roll-fail's eight Winter forests exactly.
- Winter forest adjacency is not in the digest. The Law makes forests adjacent when "separated by
  only one printed path" and says the Winter river divides forests, so a river segment counts as
  a divider too: NW-W, N-S and NE-E are adjacent across the river. haunt-roll-fail (forests
  sharing two clearings) gives the same eight adjacencies. Autumn adjacency is the digest's (H).
- Forest ids ("n", "nw", "c", ...) are compass positions chosen here; the board names none.
- Winter prints no suits: ``Clearing.suit`` is None there. Tyler's fixed Winter suits are not
  official (digest §1.3); suits come from dealing the 12 markers (``deal_winter_suits``), which
  uses ``games.rng.shuffle`` on the game's own generator.
- Winter corners and opposites are the same numbers as Autumn's (digest §1.3 table;
  haunt-roll-fail's Winter diagonals agree).
- The Japanese rules summary agrees with the Law on everything used here (Winter: markers dealt
  face down, the frozen river divides forests like a path; rivers otherwise ignored by the base
  factions).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass

from games.rng import shuffle
from games.root.suits import CLEARING_SUITS, FOX, MOUSE, RABBIT

CLEARING_COUNT = 12
CLEARING_IDS: tuple[int, ...] = tuple(range(1, CLEARING_COUNT + 1))

#: Corner clearings (where the keep and roost start; targets of bird dominance), and opposites.
CORNERS: tuple[int, ...] = (1, 2, 3, 4)
OPPOSITE_CORNER: Mapping[int, int] = {1: 3, 3: 1, 2: 4, 4: 2}

#: The 12 suit markers shuffled face down onto Winter's clearings (Law Advanced Setup; the
#: Japanese rules summary).
WINTER_SUIT_MARKERS: tuple[str, ...] = (FOX,) * 4 + (RABBIT,) * 4 + (MOUSE,) * 4


@dataclass(frozen=True, slots=True)
class Clearing:
    id: int
    position: str
    suit: str | None
    slots: int
    ruin: bool
    opposite: int | None = None

    @property
    def corner(self) -> bool:
        return self.opposite is not None


@dataclass(frozen=True, slots=True)
class Forest:
    id: str
    clearings: tuple[int, ...]
    adjacent: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    clearings: tuple[Clearing, ...]
    paths: tuple[tuple[int, int], ...]
    river: tuple[tuple[int, int], ...]
    river_divides_forests: bool
    forests: tuple[Forest, ...]
    suit_markers: tuple[str, ...]
    #: neighbours[c]: clearings linked to clearing c by a path, ascending.
    neighbours: tuple[tuple[int, ...], ...]
    #: river_neighbours[c]: clearings linked to clearing c by the river.
    river_neighbours: tuple[tuple[int, ...], ...]
    #: clearing_forests[c]: ids of the forests clearing c touches.
    clearing_forests: tuple[tuple[str, ...], ...]

    def clearing(self, c: int) -> Clearing:
        return self.clearings[c - 1]

    @property
    def corners(self) -> tuple[int, ...]:
        return tuple(cl.id for cl in self.clearings if cl.corner)


def _links(pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    found: list[set[int]] = [set() for _ in range(CLEARING_COUNT + 1)]
    for a, b in pairs:
        found[a].add(b)
        found[b].add(a)
    return tuple(tuple(sorted(s)) for s in found)


def _pairs(text: str) -> tuple[tuple[int, int], ...]:
    """'1-5 1-9' -> ((1, 5), (1, 9)), each pair ascending, the whole sorted."""
    out = []
    for token in text.split():
        a, b = (int(x) for x in token.split("-"))
        out.append((min(a, b), max(a, b)))
    return tuple(sorted(out))


def _make_board(
    name: str,
    clearings: tuple[Clearing, ...],
    paths: str,
    river: str,
    river_divides_forests: bool,
    forests: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...],
    suit_markers: tuple[str, ...] = (),
) -> Board:
    path_pairs = _pairs(paths)
    river_pairs = _pairs(river)
    forest_rows = tuple(Forest(fid, tuple(sorted(cs)), adj) for fid, cs, adj in forests)
    by_clearing: list[list[str]] = [[] for _ in range(CLEARING_COUNT + 1)]
    for f in forest_rows:
        for c in f.clearings:
            by_clearing[c].append(f.id)
    return Board(
        name=name,
        clearings=clearings,
        paths=path_pairs,
        river=river_pairs,
        river_divides_forests=river_divides_forests,
        forests=forest_rows,
        suit_markers=suit_markers,
        neighbours=_links(path_pairs),
        river_neighbours=_links(river_pairs),
        clearing_forests=tuple(tuple(fs) for fs in by_clearing),
    )


AUTUMN = _make_board(
    "autumn",
    (
        Clearing(1, "NW corner", FOX, 1, False, opposite=3),
        Clearing(2, "NE corner", MOUSE, 2, False, opposite=4),
        Clearing(3, "SE corner", RABBIT, 1, False, opposite=1),
        Clearing(4, "SW corner", RABBIT, 1, False, opposite=2),
        Clearing(5, "top centre", RABBIT, 2, False),
        Clearing(6, "east edge", FOX, 2, True),
        Clearing(7, "bottom, centre-right", MOUSE, 2, False),
        Clearing(8, "bottom, centre-left", FOX, 2, False),
        Clearing(9, "west edge", MOUSE, 2, False),
        Clearing(10, "upper centre", RABBIT, 2, True),
        Clearing(11, "centre-right", MOUSE, 3, True),
        Clearing(12, "centre-left hub", FOX, 2, True),
    ),
    paths="1-5 1-9 1-10 2-5 2-6 2-10 3-6 3-7 3-11 4-8 4-9 4-12 6-11 7-8 7-12 9-12 10-12 11-12",
    river="5-10 10-11 11-7 7-4",
    river_divides_forests=False,
    forests=(
        ("n", (1, 2, 5, 10), ("nw", "c")),
        ("nw", (1, 9, 10, 12), ("n", "c", "w")),
        ("c", (2, 6, 10, 11, 12), ("n", "nw", "s", "e")),
        ("w", (4, 9, 12), ("nw", "sw")),
        ("sw", (4, 7, 8, 12), ("w", "s")),
        ("s", (3, 7, 11, 12), ("c", "sw", "e")),
        ("e", (3, 6, 11), ("c", "s")),
    ),
)

WINTER = _make_board(
    "winter",
    (
        Clearing(1, "NW corner", None, 1, False, opposite=3),
        Clearing(2, "NE corner", None, 1, False, opposite=4),
        Clearing(3, "SE corner", None, 2, False, opposite=1),
        Clearing(4, "SW corner", None, 2, False, opposite=2),
        Clearing(5, "top, left of centre", None, 2, False),
        Clearing(6, "top, right of centre", None, 2, False),
        Clearing(7, "east edge", None, 1, False),
        Clearing(8, "bottom, right of centre", None, 2, True),
        Clearing(9, "bottom, left of centre", None, 2, True),
        Clearing(10, "west edge", None, 1, False),
        Clearing(11, "centre-left", None, 3, True),
        Clearing(12, "centre-right", None, 3, True),
    ),
    paths="1-5 1-10 1-11 2-6 2-7 2-12 3-7 3-8 3-12 4-9 4-10 4-11 5-6 8-9 8-12 9-11",
    river="10-11 11-12 12-7",
    river_divides_forests=True,
    forests=(
        ("n", (1, 2, 5, 6, 11, 12), ("nw", "ne", "s")),
        ("nw", (1, 10, 11), ("n", "w")),
        ("ne", (2, 7, 12), ("n", "e")),
        ("w", (4, 10, 11), ("nw", "sw")),
        ("sw", (4, 9, 11), ("w", "s")),
        ("s", (8, 9, 11, 12), ("n", "sw", "se")),
        ("se", (3, 8, 12), ("s", "e")),
        ("e", (3, 7, 12), ("ne", "se")),
    ),
    suit_markers=WINTER_SUIT_MARKERS,
)

BOARDS: Mapping[str, Board] = {AUTUMN.name: AUTUMN, WINTER.name: WINTER}


def adjacent(board: Board, c: int) -> tuple[int, ...]:
    """Clearings linked to clearing ``c`` by a path (rivers excluded), ascending."""
    return board.neighbours[c]


def forest(board: Board, forest_id: str) -> Forest:
    for f in board.forests:
        if f.id == forest_id:
            return f
    raise KeyError(f"no forest {forest_id!r} on {board.name}")


def forest_neighbours(board: Board, forest_id: str) -> tuple[str, ...]:
    """Forests adjacent to ``forest_id``: across one path (Winter: or one river segment)."""
    return forest(board, forest_id).adjacent


def bordering_forests(board: Board, c: int) -> tuple[str, ...]:
    """Forests that clearing ``c`` touches (where a pawn can go from it)."""
    return board.clearing_forests[c]


def clearings_of_suit(board: Board, suit: str) -> tuple[int, ...]:
    """Clearings of ``suit``; empty on a Winter board whose suits are not dealt yet."""
    return tuple(cl.id for cl in board.clearings if cl.suit == suit)


def deal_winter_suits(rng: random.Random) -> dict[int, str]:
    """Shuffle Winter's 12 suit markers onto clearings 1..12, drawing only from ``rng``."""
    markers = list(WINTER.suit_markers)
    shuffle(rng, markers)
    return {c: markers[c - 1] for c in CLEARING_IDS}


def with_suits(board: Board, suits: Mapping[int, str]) -> Board:
    """``board`` with every clearing given the suit in ``suits`` (e.g. dealt Winter markers)."""
    if sorted(suits) != list(CLEARING_IDS):
        raise ValueError("a suit is needed for each of clearings 1..12")
    if any(s not in CLEARING_SUITS for s in suits.values()):
        raise ValueError(f"clearing suits are {', '.join(CLEARING_SUITS)}")
    clearings = tuple(dataclasses.replace(cl, suit=suits[cl.id]) for cl in board.clearings)
    return dataclasses.replace(board, clearings=clearings)
