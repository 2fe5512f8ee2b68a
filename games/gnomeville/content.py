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

import functools
import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from typing import Any, NoReturn, TypeVar

from games.gnomeville.buildings import BUILDINGS, BY_NAME, NAMES, Tile

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
    "sprint",  # once per round, during movement: gain amount movement now (monuments add to it)
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
# load_pack(text, source) / pack_from_mapping(data, source) / default_pack().
#
# A pack is one table (TOML or JSON, the same shape): ``name``, ``version``, ``provisional`` and
# the sections below. Spaces are written as names ``a1``..``e5`` (column letter, row number, row
# 1 at the top) or as numbers 0..24. Every problem raises a one-line ContentError that names the
# source, the entry and the field, so whoever transcribes a printed card finds the typo at once.

#: The sections of a pack, all required.
SECTIONS = (
    "components",
    "towns",
    "troll_cards",
    "multi_events",
    "solo_events",
    "deliveries",
    "goals",
    "abilities",
)

#: The fewest entries a playable pack needs in a section, and why (said in the error).
MINIMUM: dict[str, tuple[int, str]] = {
    "troll_cards": (10, "each of the 5 rounds reveals one and may add an ambush"),
    "multi_events": (3, "the game board has 3 event spaces"),
    "solo_events": (3, "the game board has 3 event spaces"),
    "deliveries": (5, "one is revealed in each of the 5 rounds"),
    "goals": (4, "one lies between each pair of neighbours: 3 with 2 or 3 players, 4 with 4"),
    "abilities": (1, "an academy graduates a gnome with an ability card"),
}

#: Town boards: the front #1 and the four backs #2-#5; every pack has all five.
TOWN_NUMBERS = (1, 2, 3, 4, 5)
#: Stump spaces on every town board (a gnome tile goes on each; ruling G3).
STUMPS = 3
#: Most players a game seats (the supply must fill this many starting bags).
MAX_PLAYERS = 4
BEST = ("most", "fewest")
#: Troll arrows: one step, or on until a boulder, the edge or defeat stops the troll.
ARROW_MODES = ("step", "until_blocked")
#: Ability effects used once per round; every other effect is passive.
ONCE_PER_ROUND = frozenset({"redraw", "stew", "ballista", "echo", "sprint"})
#: Ability effects that take an amount (the others are all-or-nothing).
AMOUNT_EFFECTS = ("movement", "forager", "bargain", "sprint")
#: Troll-card matrix characters. Spawns marked ``T`` come in reading order (row by row, left to
#: right); a card may instead number its spawns ``1``..``9`` to give another order.
MATRIX_NOTHING = "."
MATRIX_BOULDER = "B"
MATRIX_SPAWN = "T"

#: The keys each kind of table accepts: (required, optional). ``pack.schema.json`` describes the
#: same tables under ``$defs`` of the same names (a test compares them).
KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pack": (("name", "version", *SECTIONS), ("$schema", "provisional")),
    "components": (
        ("supply", "starting_bag"),
        (
            "starting_mushrooms",
            "gnomes",
            "max_trolls",
            "full_board_vp",
            "delivery_gaps",
            "solo_ranks",
        ),
    ),
    "solo_rank": (("at_least", "title"), ()),
    "town": (
        ("number", "name"),
        (
            "centre",
            "stumps",
            "hedges",
            "river",
            "bridges",
            "boulder_marks",
            "heights",
            "provisional",
        ),
    ),
    "troll_card": (("id", "matrix", "arrows"), ("provisional",)),
    "arrow": (("direction", "mode"), ()),
    "multi_event": (("id", "name", "metric", "best", "first", "second"), ("provisional",)),
    "solo_event": (("id", "name", "metric", "best", "thresholds"), ("provisional",)),
    "threshold": (("value", "vp"), ()),
    "delivery": (("id", "groups"), ("provisional",)),
    "bonus": (("kind",), ("amount", "tile")),
    "goal": (("id", "sides"), ("provisional",)),
    "goal_side": (("name", "metric", "best", "win", "tie"), ()),
    "ability": (("id", "name", "effect"), ("amount", "once_per_round", "provisional")),
}

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SPACE_NAME = re.compile(r"[a-e][1-5]")
_BUILDING_NAMES = ", ".join(NAMES[t] for t in BUILDINGS)
_TILE_NAMES = ", ".join(NAMES[t] for t in Tile)


def _show(value: object) -> str:
    """A value as one line in an error: texts quoted, everything else as JSON would write it."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:
        return repr(value)


def _default(cls: type[Any], name: str) -> Any:
    """A dataclass field's default: an omitted optional key means what the engine's type says."""
    return next(f.default for f in fields(cls) if f.name == name)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _name_of(space: int) -> str:
    """``a1``..``e5`` (town.py has the same helper, but imports this module)."""
    row, col = divmod(space, SIZE)
    return f"{'abcde'[col]}{row + 1}"


def _orthogonal(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    return abs(ra - rb) + abs(ca - cb) == 1


class _At:
    """One entry of the pack being read: checks its values and fails with
    ``<source>: <entry>: <problem>`` so every message points at a field."""

    __slots__ = ("where",)

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, problem: str) -> NoReturn:
        raise ContentError(f"{self.where}: {problem}")

    def table(self, value: object, what: str, kind: str) -> Mapping[str, Any]:
        """``value`` as a table of ``kind``: no unknown key, no required key missing."""
        prefix = f"{what}: " if what else ""
        if not isinstance(value, Mapping):
            self.fail(f"{what or 'the entry'} must be a table, not {_show(value)}")
        required, optional = KEYS[kind]
        word = "section" if kind == "pack" else "key"
        for key in value:
            if key not in required and key not in optional:
                known = ", ".join(required + optional)
                self.fail(f"{prefix}unknown {word} {_show(key)} (known: {known})")
        for key in required:
            if key not in value:
                self.fail(f"{prefix}missing {word} {_show(key)}")
        return value

    def array(self, value: object, what: str, least: int = 0, most: int | None = None) -> list[Any]:
        if not isinstance(value, list | tuple):
            self.fail(f"{what} must be a list, not {_show(value)}")
        if len(value) < least or (most is not None and len(value) > most):
            wanted = f"exactly {least}" if most == least else f"at least {least}"
            if most is not None and most != least:
                wanted = f"{least} to {most}"
            self.fail(f"{what} has {_count(len(value), 'entry', 'entries')}, {wanted} expected")
        return list(value)

    def integer(self, value: object, what: str, least: int = 0, most: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{what} must be a whole number, not {_show(value)}")
        if most is not None and not least <= value <= most:
            self.fail(f"{what} {value} is out of {least}..{most}")
        if value < least:
            self.fail(
                f"{what} {value} is negative"
                if least == 0
                else f"{what} {value} is less than {least}"
            )
        return value

    def text(self, value: object, what: str) -> str:
        if not isinstance(value, str):
            self.fail(f"{what} must be a text, not {_show(value)}")
        if not value.strip():
            self.fail(f"{what} is empty")
        return value

    def flag(self, value: object, what: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{what} must be true or false, not {_show(value)}")
        return value

    def choice(self, value: object, what: str, options: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in options:
            self.fail(f"{what} {_show(value)} is not one of {', '.join(options)}")
        return value

    def ident(self, value: object) -> str:
        text = self.text(value, "id")
        if not _ID.fullmatch(text):
            self.fail(f"id {_show(text)} must be lower-case letters and digits joined by dashes")
        return text

    def space(self, value: object, what: str) -> int:
        """A space given as a name (``c3``) or a number (12)."""
        if isinstance(value, str):
            if _SPACE_NAME.fullmatch(value):
                return (int(value[1]) - 1) * SIZE + "abcde".index(value[0])
            self.fail(f"{what} {_show(value)} is not a space (a1..e5 or 0..24)")
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{what} must be a space (a1..e5 or 0..24), not {_show(value)}")
        if not 0 <= value < SPACES:
            self.fail(f"{what} {value} is off the {SIZE}x{SIZE} grid")
        return value

    def spaces(self, value: object, what: str) -> tuple[int, ...]:
        """A list of distinct spaces (``what`` is the singular, e.g. "river space")."""
        out: list[int] = []
        for i, item in enumerate(self.array(value, f"{what}s"), 1):
            space = self.space(item, f"{what} {i}")
            if space in out:
                self.fail(f"{what} {i} {_name_of(space)} is listed twice")
            out.append(space)
        return tuple(out)

    def metric(self, value: object, what: str) -> str:
        if isinstance(value, str) and value in METRICS:
            return value
        if isinstance(value, str) and value.startswith("tile:"):
            building = value.removeprefix("tile:")
            if building in BY_NAME and BY_NAME[building] in BUILDINGS:
                return value
            self.fail(
                f"{what} {_show(value)}: {_show(building)} is not a building "
                f"(known: {_BUILDING_NAMES})"
            )
        self.fail(f"{what} {_show(value)} is not one of {', '.join(METRICS)} or tile:<building>")

    def tile(self, value: object, what: str, gnome: bool = False) -> Tile:
        """A tile by name: a building, or also the gnome tile when ``gnome``."""
        tile = BY_NAME.get(value) if isinstance(value, str) else None
        if tile is None or (tile is Tile.GNOME and not gnome):
            known = _TILE_NAMES if gnome else _BUILDING_NAMES
            self.fail(
                f"{what} {_show(value)} is not a {'tile' if gnome else 'building'} (known: {known})"
            )
        return tile

    def counts(self, value: object, what: str, gnome: bool) -> dict[Tile, int]:
        """A table of tile name -> count, in tile order."""
        if not isinstance(value, Mapping):
            self.fail(f"{what} must be a table of tile counts, not {_show(value)}")
        found = {self.tile(name, what, gnome): count for name, count in value.items()}
        out: dict[Tile, int] = {}
        for tile in Tile:
            if tile in found:
                out[tile] = self.integer(found[tile], f"{what} {NAMES[tile]}")
        return out


def _where(source: str, noun: str, position: int, raw: object) -> _At:
    """Name an entry by its id when it has a usable one, else by its position (from 1)."""
    if isinstance(raw, Mapping):
        ident = raw.get("id")
        if isinstance(ident, str) and _ID.fullmatch(ident):
            return _At(f'{source}: {noun} "{ident}"')
    return _At(f"{source}: {noun} at position {position}")


# ---------------------------------------------------------------- components and towns


def _components(source: str, raw: object) -> Components:
    at = _At(f"{source}: components")
    t = at.table(raw, "", "components")
    supply = at.counts(t["supply"], "supply", gnome=False)
    for tile in BUILDINGS:
        if tile not in supply:
            at.fail(f"supply is missing {NAMES[tile]}")
    bag = at.counts(t["starting_bag"], "starting_bag", gnome=True)
    if bag.get(Tile.GNOME, 0) > STUMPS:
        at.fail(f"starting_bag gnome {bag[Tile.GNOME]} is more than the {STUMPS} stump spaces")
    for tile, count in bag.items():
        if tile is not Tile.GNOME and supply[tile] < MAX_PLAYERS * count:
            at.fail(
                f"supply {NAMES[tile]} {supply[tile]} cannot fill {MAX_PLAYERS} starting bags "
                f"of {count}"
            )
    gaps_raw = at.array(
        t.get("delivery_gaps", _default(Components, "delivery_gaps")), "delivery_gaps", 3, 3
    )
    gaps = tuple(at.integer(gap, f"delivery_gaps {i}") for i, gap in enumerate(gaps_raw, 1))
    if not gaps[0] < gaps[1] < gaps[2]:
        at.fail(f"delivery_gaps {list(gaps)} must rise")
    ranks: list[tuple[int, str]] = []
    for i, item in enumerate(at.array(t.get("solo_ranks", ()), "solo_ranks"), 1):
        rank = at.table(item, f"solo rank {i}", "solo_rank")
        least = at.integer(rank["at_least"], f"solo rank {i} at_least")
        if ranks and least >= ranks[-1][0]:
            at.fail(f"solo rank {i} at_least {least} must be below {ranks[-1][0]} (best first)")
        ranks.append((least, at.text(rank["title"], f"solo rank {i} title")))

    def number(key: str, least: int = 0) -> int:
        return at.integer(t.get(key, _default(Components, key)), key, least)

    return Components(
        supply=supply,
        starting_bag=bag,
        starting_mushrooms=number("starting_mushrooms"),
        gnomes=number("gnomes", 1),
        max_trolls=number("max_trolls", 1),
        full_board_vp=number("full_board_vp"),
        delivery_gaps=(gaps[0], gaps[1], gaps[2]),
        solo_ranks=tuple(ranks),
    )


def _town(source: str, position: int, raw: object) -> TownLayout:
    at = _At(f"{source}: town at position {position}")
    if isinstance(raw, Mapping) and isinstance(raw.get("number"), int):
        at = _At(f"{source}: town {raw['number']}")
        if isinstance(raw.get("name"), str):
            at = _At(f"{source}: town {raw['number']} {_show(raw['name'])}")
    t = at.table(raw, "", "town")
    number = at.integer(t["number"], "number", TOWN_NUMBERS[0], TOWN_NUMBERS[-1])
    name = at.text(t["name"], "name")
    centre = at.space(t.get("centre", _default(TownLayout, "centre")), "centre")
    stumps_raw = at.array(t.get("stumps", _default(TownLayout, "stumps")), "stumps", STUMPS, STUMPS)
    stumps = tuple(at.integer(v, f"stump {i} movement", 1) for i, v in enumerate(stumps_raw, 1))
    hedges: list[tuple[int, int]] = []
    for i, item in enumerate(at.array(t.get("hedges", ()), "hedges"), 1):
        pair = at.array(item, f"hedge {i}", 2, 2)
        a, b = sorted(at.space(v, f"hedge {i} space") for v in pair)
        shown = f"{_name_of(a)}-{_name_of(b)}"
        if not _orthogonal(a, b):
            at.fail(f"hedge {i} {shown}: the spaces are not orthogonal neighbours")
        if (a, b) in hedges:
            at.fail(f"hedge {i} {shown} is listed twice")
        hedges.append((a, b))
    for space in range(SPACES):
        sides = [n for n in range(SPACES) if _orthogonal(space, n)]
        if all((min(space, n), max(space, n)) in hedges for n in sides):
            at.fail(f"hedges close space {_name_of(space)} in on every side")
    river = at.spaces(t.get("river", ()), "river space")
    bridges = at.spaces(t.get("bridges", ()), "bridge")
    for space in bridges:
        if space in river:
            at.fail(f"bridge {_name_of(space)} is also a river space (bridges are not river)")
    marks = at.spaces(t.get("boulder_marks", ()), "boulder mark")
    heights_raw = t.get("heights", {})
    if not isinstance(heights_raw, Mapping):
        at.fail(f"heights must be a table of space -> tier, not {_show(heights_raw)}")
    heights: dict[int, int] = {}
    for key, tier in heights_raw.items():
        space = at.space(int(key) if isinstance(key, str) and key.isdigit() else key, "height mark")
        if space in heights:
            at.fail(f"height mark {_name_of(space)} is listed twice")
        heights[space] = at.integer(tier, f"height mark {_name_of(space)}", 2, 5)
    where = _name_of(centre)
    if centre in marks:
        at.fail(f"centre {where} holds a boulder mark (the first gnome starts there)")
    if centre in river:
        at.fail(f"centre {where} is a river space (the first gnome starts there)")
    if centre in heights:
        at.fail(f"centre {where} has a height mark (the first gnome starts there)")
    return TownLayout(
        number=number,
        name=name,
        centre=centre,
        stumps=(stumps[0], stumps[1], stumps[2]),
        hedges=frozenset(hedges),
        river=river,
        bridges=bridges,
        boulder_marks=marks,
        heights=dict(sorted(heights.items())),
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


# ---------------------------------------------------------------- cards


def _troll_card(at: _At, raw: object) -> TrollCard:
    t = at.table(raw, "", "troll_card")
    ident = at.ident(t["id"])
    rows = at.array(t["matrix"], "matrix", SIZE, SIZE)
    boulders: list[int] = []
    in_order: list[int] = []
    numbered: dict[int, int] = {}
    for r, row in enumerate(rows):
        text = at.text(row, f"matrix row {r + 1}")
        if len(text) != SIZE:
            length = _count(len(text), "character", "characters")
            at.fail(f"matrix row {r + 1} {_show(text)} has {length}, {SIZE} expected")
        for c, char in enumerate(text):
            space = r * SIZE + c
            if char == MATRIX_BOULDER:
                boulders.append(space)
            elif char == MATRIX_SPAWN:
                in_order.append(space)
            elif char in "123456789":
                if int(char) in numbered:
                    at.fail(f"matrix {_name_of(space)}: spawn number {char} is used twice")
                numbered[int(char)] = space
            elif char != MATRIX_NOTHING:
                at.fail(
                    f"matrix {_name_of(space)} {_show(char)} is not one of "
                    f'"{MATRIX_NOTHING}", "{MATRIX_BOULDER}", "{MATRIX_SPAWN}" or a digit 1-9'
                )
    if in_order and numbered:
        at.fail(f'matrix mixes "{MATRIX_SPAWN}" with numbered spawns (use one or the other)')
    if numbered and sorted(numbered) != list(range(1, len(numbered) + 1)):
        at.fail(f"matrix spawn numbers {sorted(numbered)} must be 1..{len(numbered)}, each once")
    arrows = []
    for i, item in enumerate(at.array(t["arrows"], "arrows", 1, 3), 1):
        arrow = at.table(item, f"arrow {i}", "arrow")
        direction = at.choice(arrow["direction"], f"arrow {i} direction", DIRECTIONS)
        mode = at.choice(arrow["mode"], f"arrow {i} mode", ARROW_MODES)
        arrows.append(Arrow(direction, mode == "until_blocked"))
    return TrollCard(
        id=ident,
        boulders=tuple(boulders),
        spawns=tuple(in_order) or tuple(numbered[n] for n in sorted(numbered)),
        arrows=tuple(arrows),
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


def _multi_event(at: _At, raw: object) -> MultiEvent:
    t = at.table(raw, "", "multi_event")
    first = at.integer(t["first"], "first")
    second = at.integer(t["second"], "second")
    if second > first:
        at.fail(f"second {second} is more than first {first}")
    return MultiEvent(
        id=at.ident(t["id"]),
        name=at.text(t["name"], "name"),
        metric=at.metric(t["metric"], "metric"),
        best=at.choice(t["best"], "best", BEST),
        first=first,
        second=second,
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


def _solo_event(at: _At, raw: object) -> SoloEvent:
    t = at.table(raw, "", "solo_event")
    best = at.choice(t["best"], "best", BEST)
    pairs: list[tuple[int, int]] = []
    for i, item in enumerate(at.array(t["thresholds"], "thresholds", 1), 1):
        pair = at.table(item, f"threshold {i}", "threshold")
        value = at.integer(pair["value"], f"threshold {i} value")
        vp = at.integer(pair["vp"], f"threshold {i} vp")
        if pairs:
            last_value, last_vp = pairs[-1]
            if (value <= last_value) if best == "most" else (value >= last_value):
                way = "more" if best == "most" else "less"
                at.fail(
                    f"threshold {i} value {value} must be {way} than {last_value} "
                    f'(with best "{best}" thresholds run from the easiest)'
                )
            if vp <= last_vp:
                at.fail(f"threshold {i} vp {vp} must be more than {last_vp}")
        pairs.append((value, vp))
    return SoloEvent(
        id=at.ident(t["id"]),
        name=at.text(t["name"], "name"),
        metric=at.metric(t["metric"], "metric"),
        best=best,
        thresholds=tuple(pairs),
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


def _bonus(at: _At, raw: object, what: str) -> Bonus:
    b = at.table(raw, what, "bonus")
    kind = at.choice(b["kind"], f"{what} kind", BONUS_KINDS)
    if "amount" in b and kind != "mushrooms":
        at.fail(f"{what}: amount applies only to mushrooms, not {kind}")
    if kind == "tile":
        if "tile" not in b:
            at.fail(f'{what}: kind "tile" needs a tile (one of {_BUILDING_NAMES})')
        return Bonus(kind, tile=at.tile(b["tile"], f"{what} tile"))
    if "tile" in b:
        at.fail(f'{what}: only kind "tile" takes a tile, not {kind}')
    return Bonus(kind, amount=at.integer(b.get("amount", 1), f"{what} amount", 1))


def _delivery(at: _At, raw: object) -> Delivery:
    t = at.table(raw, "", "delivery")
    ident = at.ident(t["id"])
    groups: list[tuple[Bonus, ...]] = []
    for g, group in enumerate(at.array(t["groups"], "groups", 3, 3), 1):
        bonuses = at.array(group, f"group {g}", 1)
        groups.append(
            tuple(_bonus(at, b, f"group {g} bonus {i}") for i, b in enumerate(bonuses, 1))
        )
    return Delivery(
        id=ident,
        groups=(groups[0], groups[1], groups[2]),
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


def _goal_side(at: _At, raw: object, what: str) -> GoalSide:
    s = at.table(raw, what, "goal_side")
    win = at.integer(s["win"], f"{what} win")
    tie = at.integer(s["tie"], f"{what} tie")
    if tie > win:
        at.fail(f"{what} tie {tie} is more than win {win} (a tie would beat a win)")
    return GoalSide(
        name=at.text(s["name"], f"{what} name"),
        metric=at.metric(s["metric"], f"{what} metric"),
        best=at.choice(s["best"], f"{what} best", BEST),
        win=win,
        tie=tie,
    )


def _goal(at: _At, raw: object) -> Goal:
    t = at.table(raw, "", "goal")
    ident = at.ident(t["id"])
    front, back = (
        _goal_side(at, s, f"side {i}") for i, s in enumerate(at.array(t["sides"], "sides", 2, 2), 1)
    )
    return Goal(
        id=ident,
        sides=(front, back),
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


def _ability(at: _At, raw: object) -> Ability:
    t = at.table(raw, "", "ability")
    ident = at.ident(t["id"])
    name = at.text(t["name"], "name")
    effect = t["effect"]
    if not isinstance(effect, str) or effect not in ABILITY_EFFECTS:
        at.fail(f"unknown effect {_show(effect)} (known: {', '.join(ABILITY_EFFECTS)})")
    if "amount" in t and effect not in AMOUNT_EFFECTS:
        at.fail(f"amount applies only to {', '.join(AMOUNT_EFFECTS)}, not {effect}")
    amount = at.integer(t.get("amount", 1), "amount", 1)
    once = effect in ONCE_PER_ROUND
    if "once_per_round" in t and at.flag(t["once_per_round"], "once_per_round") != once:
        kind = "used once per round" if once else "passive"
        at.fail(f"once_per_round must be {str(once).lower()}: {effect} is {kind}")
    return Ability(
        id=ident,
        name=name,
        effect=effect,
        amount=amount,
        once_per_round=once,
        provisional=at.flag(t.get("provisional", True), "provisional"),
    )


_Card = TypeVar("_Card", TrollCard, MultiEvent, SoloEvent, Delivery, Goal, Ability)


def _cards(
    source: str, section: str, noun: str, read: Callable[[_At, object], _Card], raw: object
) -> tuple[_Card, ...]:
    """One card section: enough entries, each valid, no id twice."""
    entries = _At(source).array(raw, section)
    least, why = MINIMUM[section]
    if len(entries) < least:
        found = _count(len(entries), "entry", "entries")
        _At(source).fail(f"{section} has {found}, at least {least} needed ({why})")
    cards: list[_Card] = []
    seen: dict[str, int] = {}
    for position, entry in enumerate(entries, 1):
        at = _where(source, noun, position, entry)
        card = read(at, entry)
        if card.id in seen:
            at.fail(f"id is used twice (positions {seen[card.id]} and {position})")
        seen[card.id] = position
        cards.append(card)
    return tuple(cards)


# ---------------------------------------------------------------- the pack


def pack_from_mapping(data: Mapping[str, Any], source: str) -> ContentPack:
    """Validate a parsed pack (the same tables from TOML or JSON) and build it; the first
    problem raises a one-line :class:`ContentError` naming ``source``, entry and field."""
    at = _At(source)
    t = at.table(data, "", "pack")
    name = at.text(t["name"], "name")
    version = at.text(t["version"], "version")
    provisional = at.flag(t.get("provisional", True), "provisional")
    components = _components(source, t["components"])
    towns: dict[int, TownLayout] = {}
    for position, raw in enumerate(at.array(t["towns"], "towns"), 1):
        town = _town(source, position, raw)
        if town.number in towns:
            at.fail(f"towns: town {town.number} is given twice")
        towns[town.number] = town
    for number in TOWN_NUMBERS:
        if number not in towns:
            at.fail(f"towns: town {number} is missing (every pack has towns 1 to 5)")
    return ContentPack(
        name=name,
        version=version,
        components=components,
        towns=dict(sorted(towns.items())),
        troll_cards=_cards(source, "troll_cards", "troll card", _troll_card, t["troll_cards"]),
        multi_events=_cards(
            source, "multi_events", "multiplayer event", _multi_event, t["multi_events"]
        ),
        solo_events=_cards(source, "solo_events", "solo event", _solo_event, t["solo_events"]),
        deliveries=_cards(source, "deliveries", "delivery", _delivery, t["deliveries"]),
        goals=_cards(source, "goals", "goal", _goal, t["goals"]),
        abilities=_cards(source, "abilities", "ability", _ability, t["abilities"]),
        provisional=provisional,
    )


def load_pack(text: str, source: str = "content pack") -> ContentPack:
    """Read a pack from TOML or JSON text (JSON when it starts with ``{``) and validate it."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ContentError(
                f"{source}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            ) from None
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(f"{source}: not valid TOML: {exc}") from None
    if not isinstance(data, Mapping):
        raise ContentError(f"{source}: a pack must be a table, not {_show(data)}")
    return pack_from_mapping(data, source)


@functools.cache
def default_pack() -> ContentPack:
    """The standard pack shipped as package data, read and validated once per process."""
    path = resources.files("games.gnomeville").joinpath("content").joinpath("standard.toml")
    return load_pack(path.read_text(encoding="utf-8"), "content/standard.toml")
