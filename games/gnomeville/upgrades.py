"""Upgrades: three or more connected matching building tiles become one tile of the next tier.

The seed: whenever 3+ orthogonally connected, matching, unoccupied building tiles are on the
board, an upgrade happens at once: 1) stack all of them beside the board; 2) take the next tile
of the upgrade line from the supply (a market group chooses the line, tier 2+ follows its
own; if that tile has run out, the tile two tiers up) and place it on one of the group's
spaces; 3) if the new tile completes another group, that is a chain: resolve it the same way
and put all its tiles on the same stack. Tier 5 never upgrades. Master-build: the new tile goes
on the space whose placement triggered the upgrade, if possible.

An upgrade is a state, not an event (the seed: 3枚以上の、縦横に接続されていて、一致しており、
占有されていない建物タイルがある場合、アップグレードが発動します). A group only changes when a tile is
placed (drawn, or an upgrade's new tile) or a gnome steps off a tile, so the engine checks at
those moments (:func:`check`). Mazeville's hedges break connections (``Town.geometry.linked``).
An occupied tile neither belongs to a group nor connects one (ruling G25). Taking the new tile
uses the town's share of the supply (ruling G18). If no tile can be obtained, nothing happens
and the group stays on the board (ruling G23); what a town may take grows only when a phase
opens (the river returned tiles in phase 5, or the shares are split anew), so each build phase
and turn-by-turn stage opens with a :class:`RecheckStep` that upgrades every group that can
now obtain a tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from games.contract import Option
from games.gnomeville.buildings import NAMES, Tile, upgrade_choices
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

MONUMENT = int(Tile.MONUMENT)


def group_at(town: Town, space: int) -> list[int]:
    """The unoccupied tiles connected to ``space`` that match it (``space`` first); empty if
    ``space`` holds no building or is occupied."""
    tiles = town.tiles
    tile = tiles[space]
    occupied = town.gnome_at
    if tile == EMPTY or space in occupied:
        return []
    linked = town.geometry.linked
    found = [space]
    frontier = [space]
    while frontier:
        here = frontier.pop()
        for n in linked[here]:
            if tiles[n] == tile and n not in found and n not in occupied:
                found.append(n)
                frontier.append(n)
    return found


def check(g: GnomevilleState, town: Town, space: int, placed: bool) -> bool:
    """After a tile was placed on ``space`` (``placed``) or a gnome stepped off it: push the
    upgrade its group triggers, if any. Other phases (an exhausted gnome leaving a tile) may
    call this too; the seat's driver resolves the pushed step."""
    tile = town.tiles[space]
    if tile in (EMPTY, MONUMENT):
        return False
    if len(group_at(town, space)) < 3:
        return False
    g.push(UpgradeStep(town.seat, space, placed))
    return True


def obtainable(g: GnomevilleState, town: Town, tile: int) -> tuple[int, ...]:
    """The tiles an upgrade of a ``tile`` group can take now: per line the next tile, or the
    tile two tiers up if the next has run out in the town's share (the seed)."""
    out: list[int] = []
    for following, two_up in upgrade_choices(Tile(tile)):
        if g.can_take(town, following):
            out.append(int(following))
        elif two_up is not None and g.can_take(town, two_up):
            out.append(int(two_up))
    return tuple(out)


def upgradable(g: GnomevilleState, town: Town) -> int:
    """The lowest space of a group of 3+ that can upgrade now (a group blocked for want of a
    tile, ruling G23, whose tile is back), or EMPTY. Tiles of every other kind are never in
    such a group: an upgrade happens the moment a group forms."""
    tiles = town.tiles
    counts: dict[int, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    seen: set[int] = set()
    for space, tile in enumerate(tiles):
        if tile in (EMPTY, MONUMENT) or counts[tile] < 3 or space in seen:
            continue
        group = group_at(town, space)
        seen.update(group)
        if len(group) >= 3 and obtainable(g, town, tile):
            return space
    return EMPTY


class RecheckStep(Step):
    """``upgrade.recheck``: at the opening of a build phase or turn-by-turn stage, before
    anything else the seat does, every group blocked for want of a tile (ruling G23) that can
    obtain one now upgrades, lowest space first, on any space of its group (as after a
    step-off: no placement triggered it). It asks nothing itself."""

    __slots__ = ()
    name = "upgrade"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "recheck")

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        space = upgradable(g, town)
        if space != EMPTY:
            g.push(UpgradeStep(town.seat, space, placed=False))
        return FINISHED

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        raise AssertionError("upgrade.recheck asks nothing")


_LINE: dict[int, Option] = {}
_SPACE: dict[tuple[int, int], Option] = {}


def line_option(tile: int) -> Option:
    found = _LINE.get(tile)
    if found is None:
        name = NAMES[Tile(tile)]
        found = _LINE[tile] = Option(f"line:{name}", f"Upgrade to a {name}", Act("line", tile=tile))
    return found


def space_option(tile: int, space: int) -> Option:
    found = _SPACE.get((tile, space))
    if found is None:
        name = space_name(space)
        found = _SPACE[(tile, space)] = Option(
            f"upgrade:{name}",
            f"Place the {NAMES[Tile(tile)]} on {name}",
            Act("upgrade", space=space, tile=tile),
        )
    return found


class UpgradeStep(Step):
    """An upgrade and its chain: ``upgrade.line`` (a market group, when both lines can be
    taken) then ``upgrade.space`` (which of the group's spaces gets the new tile).

    ``space`` is the space to check (the trigger, then each new tile's space), ``placed``
    whether a placement triggered it (master-build), ``stack`` the index into ``town.stacks``
    of this chain's stack (-1 before the first upgrade), ``group`` the spaces just stacked,
    ``choices`` the tiles on offer and ``tile`` the one taken.
    """

    __slots__ = ("choices", "group", "placed", "space", "stack", "tile")
    name = "upgrade"

    def __init__(self, seat: int, space: int, placed: bool) -> None:
        super().__init__(seat, "check")
        self.space = space
        self.placed = placed
        self.stack = EMPTY
        self.group: tuple[int, ...] = ()
        self.choices: tuple[int, ...] = ()
        self.tile = EMPTY

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        stage = self.stage
        if stage == "check":
            if not self.start(g, town):
                return FINISHED
            stage = self.stage
        if stage == "line":
            return tuple(line_option(t) for t in self.choices)
        if stage == "space":
            if g.master_build and self.placed and self.space in self.group:
                # Ruling G32, master-build: the space whose placement triggered it (a chain
                # keeps it); after a step-off (``placed`` False) any space of the group.
                return (space_option(self.tile, self.space),)
            return tuple(space_option(self.tile, s) for s in self.group)
        return FINISHED

    def start(self, g: GnomevilleState, town: Town) -> bool:
        """Stack the group at ``space`` if it upgrades; False when there is no upgrade."""
        tile = town.tiles[self.space]
        if tile in (EMPTY, MONUMENT):
            return False
        group = group_at(town, self.space)
        if len(group) < 3:
            return False
        choices = obtainable(g, town, tile)
        seat = town.seat
        if not choices:
            # Ruling G23: nothing to take, no upgrade; the tiles stay where they are.
            g.emit(
                seat,
                "upgrade_blocked",
                seat=seat,
                tile=NAMES[Tile(tile)],
                spaces=[space_name(s) for s in sorted(group)],
            )
            return False
        if self.stack == EMPTY:
            town.stacks.append([])
            self.stack = len(town.stacks) - 1
        stack = town.stacks[self.stack]
        for s in group:
            stack.append(tile)
            town.tiles[s] = EMPTY
        self.group = tuple(sorted(group))
        g.emit(
            seat,
            "stacked",
            seat=seat,
            tile=NAMES[Tile(tile)],
            spaces=[space_name(s) for s in self.group],
            height=len(stack),
        )
        if len(choices) > 1:
            self.choices = choices
            self.stage = "line"
        else:
            self.tile = choices[0]
            self.stage = "space"
        return True

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = cast(Act, value)
        if act.action == "line":
            self.tile = act.tile
            self.stage = "space"
            return
        tile, space = self.tile, act.space
        g.take(town, tile)
        town.tiles[space] = tile
        g.emit(
            town.seat,
            "upgrade",
            seat=town.seat,
            tile=NAMES[Tile(tile)],
            space=space_name(space),
            height=len(town.stacks[self.stack]),
        )
        # Check the new tile's group: a chain goes on the same stack.
        self.space = space
        self.placed = True
        self.group = ()
        self.choices = ()
        self.tile = EMPTY
        self.stage = "check"
