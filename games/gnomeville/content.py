"""The content pack: every deck and board of Gnomeville as data.

No public source prints Gnomeville's card texts or town layouts, so Kassen authors them in a
versioned content file (``content/standard.toml``, described by ``content/pack.schema.json``
and explained entry by entry in ``docs/games/gnomeville.md``). Every entry is shaped by the
seed's own examples and marked provisional; a match may name another pack (``--content FILE``)
so the printed content can replace ours without code changes.

This module holds the pack's types (what the engine reads) and the loader, which validates
everything and names the entry and field of the first problem (:class:`ContentError`).
The engine does no I/O: the default pack is package data read once; another pack travels as
text in the game options (``content``), so a replay carries the content it was played with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games.gnomeville.buildings import Tile

#: The board is a 5 x 5 grid (ruling G6); spaces are numbered row by row, 0..24.
SIZE = 5
SPACES = SIZE * SIZE

DIRECTIONS = ("N", "E", "S", "W")

#: What events, solo events and adjacency goals may measure on a town (``games/gnomeville/
#: metrics.py`` computes each). ``tile:<building>`` counts one building, e.g. ``tile:market``.
METRICS = (
    "bag_tiles",
    "buildings",
    "prosperity_buildings",
    "defence_buildings",
    "boulders",
    "trolls",
    "sword_gnomes",
    "hammer_gnomes",
    "graduated_gnomes",
    "deployed_gnomes",
    "mushrooms",
    "empty_spaces",
    "largest_group",
    "stacks",
    "tallest_stack",
)

#: Special-delivery bonus kinds. ``remove_*`` take something off your own town (the seed's
#: red-outlined icons); the others are gains. A bonus that cannot (or is not wanted to) be
#: taken gives 1 mushroom instead.
BONUS_KINDS = (
    "mushrooms",  # gain ``amount`` mushrooms
    "tile",  # gain one ``tile`` building from the supply into your bag
    "stew",  # flip your second-chance tile to full
    "sword",  # one deployed gnome without a sword takes one
    "hammer",  # one deployed gnome without a hammer takes one
    "remove_boulder",  # remove one boulder from your town
    "remove_troll",  # remove one troll from your town
)

#: Ability effects the engine implements; a card names one (with an amount where it has one).
ABILITY_EFFECTS = (
    "movement",  # passive: +amount movement whenever you gain movement
    "forager",  # passive: +amount mushrooms whenever this gnome enters an empty space
    "sword",  # passive: this gnome counts as carrying a sword
    "hammer",  # passive: this gnome counts as carrying a hammer
    "diagonal",  # passive: this gnome may also move diagonally
    "bargain",  # passive: buying a tile costs amount fewer mushrooms (never below 0)
    "redraw",  # once per round: return a drawn tile to the bag (the stew stays as it is)
    "stew",  # once per round, before a draw: flip your second-chance tile to full
    "ballista",  # once per round, during movement: destroy a boulder or troll next to this gnome
    "echo",  # once per round, during movement: activate the building this gnome stands on again
)


class ContentError(ValueError):
    """A content pack that cannot be played; the message names the entry and field."""


@dataclass(frozen=True, slots=True)
class TownLayout:
    """One side of a town board: #1 is the symmetric front, #2-#5 the asymmetric backs."""

    number: int
    name: str
    centre: int = 12
    #: Movement of the three stump spaces, covered top to bottom (ruling G3: 1, 2, 3).
    stumps: tuple[int, int, int] = (1, 2, 3)
    #: Mazeville: pairs (a, b), a < b, of orthogonal neighbours a hedge separates.
    hedges: frozenset[tuple[int, int]] = frozenset()
    #: Riverville: the river spaces washed clean in phase 5, and the bridges (not river).
    river: tuple[int, ...] = ()
    bridges: tuple[int, ...] = ()
    #: Boulderville: spaces that start with a boulder.
    boulder_marks: tuple[int, ...] = ()
    #: Towerville: space -> the lowest tier a building tile there may have.
    heights: Mapping[int, int] = field(default_factory=dict)
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class Arrow:
    """Trolls move one step in ``direction`` or, if ``until_blocked``, until stopped."""

    direction: str
    until_blocked: bool


@dataclass(frozen=True, slots=True)
class TrollCard:
    id: str
    #: Spaces where boulders fall.
    boulders: tuple[int, ...]
    #: Spaces where trolls spawn, in the card's order (the 3rd/4th may be chosen between).
    spawns: tuple[int, ...]
    #: 1-3 arrows, resolved left to right.
    arrows: tuple[Arrow, ...]
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class MultiEvent:
    """A multiplayer event: the best at ``metric`` (``most`` or ``fewest``) scores ``first``,
    the next ``second`` (no second with 2 players)."""

    id: str
    name: str
    metric: str
    best: str
    first: int
    second: int
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class SoloEvent:
    """A solo event: the highest threshold the town reaches scores its VP.

    ``thresholds`` are (value, vp) pairs; with ``best == "most"`` a town reaches a threshold
    when its metric is at least the value, with ``"fewest"`` when it is at most the value.
    """

    id: str
    name: str
    metric: str
    best: str
    thresholds: tuple[tuple[int, int], ...]
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class Bonus:
    kind: str
    amount: int = 1
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """A special delivery card: bonus groups for players more than 5, 10 and 15 VP behind."""

    id: str
    groups: tuple[tuple[Bonus, ...], tuple[Bonus, ...], tuple[Bonus, ...]]
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class GoalSide:
    """One face of an adjacency goal card: the better neighbour at ``metric`` scores ``win``;
    a tie splits ``win + tie`` evenly, rounding up (ruling G5)."""

    name: str
    metric: str
    best: str
    win: int
    tie: int


@dataclass(frozen=True, slots=True)
class Goal:
    """A double-sided adjacency goal card (dealt face up or face down at random)."""

    id: str
    sides: tuple[GoalSide, GoalSide]
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    name: str
    effect: str
    amount: int = 1
    once_per_round: bool = False
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class Components:
    """Counts from the seed's component list and setup."""

    #: Building tiles in the shared supply at the start, before the starting bags are filled.
    supply: Mapping[Tile, int]
    #: Each player's starting bag (the seed: 3 gnome tiles, 5 markets, 2 houses, 2 workshops).
    starting_bag: Mapping[Tile, int]
    starting_mushrooms: int = 2
    gnomes: int = 3
    max_trolls: int = 3
    full_board_vp: int = 10
    #: Delivery thresholds: players more than these VP behind the leader get groups 1-3.
    delivery_gaps: tuple[int, int, int] = (5, 10, 15)
    #: The solo rank table, best first: (at least this score, title).
    solo_ranks: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ContentPack:
    name: str
    version: str
    components: Components
    towns: Mapping[int, TownLayout]
    troll_cards: tuple[TrollCard, ...]
    multi_events: tuple[MultiEvent, ...]
    solo_events: tuple[SoloEvent, ...]
    deliveries: tuple[Delivery, ...]
    goals: tuple[Goal, ...]
    abilities: tuple[Ability, ...]
    provisional: bool = True


# ---------------------------------------------------------------------------- loading
# To be written: load_pack_text(text, fmt) / pack_from_mapping(data) / default_pack().
