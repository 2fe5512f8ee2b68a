"""One player's town: the 5 x 5 board, its gnomes, trolls and boulders, the bag and the purse.

A ``Town`` holds plain lists of ints and bools so that ``copy()`` is cheap (search bots clone
games thousands of times a second). Geometry (neighbours, hedges) comes from the town's layout.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.gnomeville.buildings import KINDS, TIER_OF, Tile
from games.gnomeville.content import SIZE, SPACES, ContentPack, TownLayout

EMPTY = -1
#: A mark of ``Town.pile_seen``: every seat saw the card go under the pile (no rule of the
#: standard game puts a card under face up; a rebuilt view marks the known cards with it).
#: Any other mark is the seat that alone saw it go under (its own put-back, ruling G19).
PUBLIC = -2
#: Orthogonal steps as (name, d_row, d_col).
STEPS4 = (("N", -1, 0), ("E", 0, 1), ("S", 1, 0), ("W", 0, -1))
STEPS8 = STEPS4 + (("NE", -1, 1), ("SE", 1, 1), ("SW", 1, -1), ("NW", -1, -1))


def space_of(row: int, col: int) -> int:
    return row * SIZE + col


def row_col(space: int) -> tuple[int, int]:
    return divmod(space, SIZE)


#: ``a1``..``e5`` for every space, in space order.
SPACE_NAMES: tuple[str, ...] = tuple(
    f"{'abcde'[space % SIZE]}{space // SIZE + 1}" for space in range(SPACES)
)


def space_name(space: int) -> str:
    """``a1``..``e5``: column letter, row number (row 1 at the top, as a card is printed)."""
    return SPACE_NAMES[space]


def step_from(space: int, direction: str) -> int | None:
    """The space one step from ``space`` towards ``direction`` (N, E, S, W or diagonals)."""
    for name, dr, dc in STEPS8:
        if name == direction:
            row, col = divmod(space, SIZE)
            r, c = row + dr, col + dc
            if 0 <= r < SIZE and 0 <= c < SIZE:
                return r * SIZE + c
            return None
    raise ValueError(direction)


def _neighbours(steps: tuple[tuple[str, int, int], ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for space in range(SPACES):
        row, col = divmod(space, SIZE)
        out.append(
            tuple(
                (row + dr) * SIZE + col + dc
                for _, dr, dc in steps
                if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE
            )
        )
    return tuple(out)


#: Orthogonal neighbours of every space, ignoring hedges.
ORTHOGONAL = _neighbours(STEPS4)
#: All eight neighbours of every space (the seed's "adjacent").
AROUND = _neighbours(STEPS8)


_LINKED: dict[frozenset[tuple[int, int]], tuple[tuple[int, ...], ...]] = {}


class Geometry:
    """A layout's adjacency: orthogonal links minus hedges (Mazeville), and the 8-neighbourhood."""

    __slots__ = ("around", "layout", "linked")

    def __init__(self, layout: TownLayout) -> None:
        self.layout = layout
        hedges = layout.hedges
        linked = _LINKED.get(hedges)
        if linked is None:  # computed once per set of hedges: every new game makes towns
            linked = _LINKED[hedges] = tuple(
                tuple(n for n in ORTHOGONAL[s] if (min(s, n), max(s, n)) not in hedges)
                for s in range(SPACES)
            )
        #: Orthogonal neighbours a gnome may step to and an upgrade group may connect through.
        self.linked: tuple[tuple[int, ...], ...] = linked
        self.around = AROUND

    def hedge_between(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.layout.hedges


class Town:
    """Everything one player owns. Gnome stands are indexed 0..gnomes-1; a stand at
    ``EMPTY`` is in camp."""

    __slots__ = (
        "ability",
        "ability_pile",
        "ability_used",
        "bag",
        "boulders",
        "discard",
        "drawn",
        "full",
        "geometry",
        "gnome_at",
        "graduated",
        "hammer",
        "layout",
        "mushrooms",
        "passed",
        "pile_seen",
        "rng",
        "seat",
        "set_aside",
        "share",
        "stacks",
        "stew",
        "stuck",
        "stumps",
        "sword",
        "taken",
        "tiles",
        "trolls",
        "vp",
    )

    def __init__(self, seat: int, layout: TownLayout, pack: ContentPack, rng_seed: int) -> None:
        comp = pack.components
        self.seat = seat
        self.layout = layout
        self.geometry = Geometry(layout)
        #: Building tile on each space (a ``Tile`` value) or EMPTY.
        self.tiles: list[int] = [EMPTY] * SPACES
        self.boulders: list[bool] = [False] * SPACES
        #: Spaces holding a troll, in the order they arrived.
        self.trolls: list[int] = []
        self.gnome_at: list[int] = [EMPTY] * comp.gnomes
        self.sword: list[bool] = [False] * comp.gnomes
        self.hammer: list[bool] = [False] * comp.gnomes
        self.graduated: list[bool] = [False] * comp.gnomes
        #: Index into ``pack.abilities`` of each gnome's ability card, or EMPTY.
        self.ability: list[int] = [EMPTY] * comp.gnomes
        self.ability_used: list[bool] = [False] * comp.gnomes
        #: Tiles in the bag, counted per kind (the order is the town's own random stream).
        self.bag: list[int] = [0] * KINDS
        for tile, count in comp.starting_bag.items():
            self.bag[tile] += count
        self.rng = random.Random(rng_seed)
        #: Gnome tiles placed on the stumps this round (0..3).
        self.stumps = 0
        #: Second-chance tile: True = full stew.
        self.stew = True
        self.mushrooms = comp.starting_mushrooms
        self.vp = 0
        #: Upgrade stacks made this round (tiles as Tile values); scored in phase 4.
        self.stacks: list[list[int]] = []
        #: Tiles that go back into the bag in phase 5 (scored stacks, gnome tiles).
        self.set_aside: list[int] = [0] * KINDS
        #: The tile drawn and not yet placed, or EMPTY.
        self.drawn = EMPTY
        self.passed = False
        self.stuck = False
        #: The board was full when scored this round (+10 VP; its buildings go back to the bag).
        self.full = False
        #: What this town may still take from the supply in the current phase (ruling G18),
        #: and what it took.
        self.share: list[int] = [0] * KINDS
        self.taken: list[int] = [0] * KINDS
        #: This town's own pile of ability cards (ruling G19), top first.
        self.ability_pile: list[int] = []
        #: Who saw the bottom ``len(pile_seen)`` cards of the pile go under (``PUBLIC`` or a
        #: seat), top first; the cards above them were dealt face down. Cards leave from the
        #: top and go under at the bottom, so what is known of a pile is always its bottom.
        #: Knowledge, not table state: not in ``canonical`` (the record implies it).
        self.pile_seen: list[int] = []
        #: Ability cards of this town's exhausted gnomes, face up and out of the game, in the
        #: order they were discarded (the seed: 能力を捨て; no graduation draws them again).
        self.discard: list[int] = []
        self.gnome_at[0] = layout.centre

    # ------------------------------------------------------------------ copies

    def copy(self) -> Town:
        new = Town.__new__(Town)
        new.seat = self.seat
        new.layout = self.layout
        new.geometry = self.geometry
        new.tiles = self.tiles[:]
        new.boulders = self.boulders[:]
        new.trolls = self.trolls[:]
        new.gnome_at = self.gnome_at[:]
        new.sword = self.sword[:]
        new.hammer = self.hammer[:]
        new.graduated = self.graduated[:]
        new.ability = self.ability[:]
        new.ability_used = self.ability_used[:]
        new.bag = self.bag[:]
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.stumps = self.stumps
        new.stew = self.stew
        new.mushrooms = self.mushrooms
        new.vp = self.vp
        new.stacks = [s[:] for s in self.stacks]
        new.set_aside = self.set_aside[:]
        new.drawn = self.drawn
        new.passed = self.passed
        new.stuck = self.stuck
        new.full = self.full
        new.share = self.share[:]
        new.taken = self.taken[:]
        new.ability_pile = self.ability_pile[:]
        new.pile_seen = self.pile_seen[:]
        new.discard = self.discard[:]
        return new

    def canonical(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.layout.number,
            tuple(self.tiles),
            tuple(self.boulders),
            tuple(self.trolls),
            tuple(self.gnome_at),
            tuple(self.sword),
            tuple(self.hammer),
            tuple(self.graduated),
            tuple(self.ability),
            tuple(self.ability_used),
            tuple(self.bag),
            self.rng.getstate(),
            self.stumps,
            self.stew,
            self.mushrooms,
            self.vp,
            tuple(tuple(s) for s in self.stacks),
            tuple(self.set_aside),
            self.drawn,
            self.passed,
            self.stuck,
            self.full,
            tuple(self.share),
            tuple(self.taken),
            tuple(self.ability_pile),
            tuple(self.discard),
        )

    # ------------------------------------------------------------------ the ability pile

    def take_from_pile(self, count: int) -> list[int]:
        """The top ``count`` cards of the ability pile, out of it."""
        pile = self.ability_pile
        cards = pile[:count]
        del pile[:count]
        excess = len(self.pile_seen) - len(pile)
        if excess > 0:
            del self.pile_seen[:excess]
        return cards

    def put_under_pile(self, card: int, seen_by: int) -> None:
        """``card`` goes to the bottom of the pile, seen by ``seen_by`` (``PUBLIC`` or a seat)."""
        self.ability_pile.append(card)
        self.pile_seen.append(seen_by)

    def pile_known(self, viewer: int | None) -> tuple[tuple[int, int], ...]:
        """(position from the top, card) of the pile cards ``viewer`` saw go under (None: the
        ones everybody saw). A pile changed by hand, out of step with its marks, shows none."""
        seen = self.pile_seen
        if not seen:
            return ()
        pile = self.ability_pile
        start = len(pile) - len(seen)
        if start < 0:
            return ()
        return tuple(
            (start + i, pile[start + i]) for i, who in enumerate(seen) if who in (PUBLIC, viewer)
        )

    # ------------------------------------------------------------------ questions

    def gnome_on(self, space: int) -> int:
        """The gnome standing on ``space``, or EMPTY."""
        try:
            return self.gnome_at.index(space)
        except ValueError:
            return EMPTY

    def deployed(self) -> Iterator[int]:
        """Indexes of the gnomes on the board."""
        return (g for g, at in enumerate(self.gnome_at) if at != EMPTY)

    def is_empty(self, space: int) -> bool:
        """The seed's "empty": no tile, no stand, no troll, no boulder."""
        return (
            self.tiles[space] == EMPTY
            and not self.boulders[space]
            and space not in self.trolls
            and space not in self.gnome_at
        )

    def may_hold(self, space: int, tile: int) -> bool:
        """Whether a building tile may be placed on ``space`` now (empty, and Towerville's
        height mark allows its tier: ruling G13)."""
        if not self.is_empty(space):
            return False
        need = self.layout.heights.get(space)
        return need is None or TIER_OF[tile] >= need

    def bag_size(self) -> int:
        return sum(self.bag)

    def buildings_on_board(self) -> int:
        return sum(1 for t in self.tiles if t != EMPTY)

    def has_sword(self, gnome: int, pack: ContentPack) -> bool:
        ability = self.ability[gnome]
        return self.sword[gnome] or (ability != EMPTY and pack.abilities[ability].effect == "sword")

    def has_hammer(self, gnome: int, pack: ContentPack) -> bool:
        ability = self.ability[gnome]
        return self.hammer[gnome] or (
            ability != EMPTY and pack.abilities[ability].effect == "hammer"
        )

    def monuments(self) -> int:
        return sum(1 for t in self.tiles if t == Tile.MONUMENT)
