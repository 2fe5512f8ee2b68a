"""What events, solo events and adjacency goals measure on a town (``content.METRICS``).

One function, :func:`metric`, so an event card, a solo threshold and a goal card that name the
same metric always agree. Gnome counts look at deployed gnomes (a gnome in camp carries
nothing); a sword or hammer given by an ability counts like the token (``Town.has_sword``).
The monument tops both lines and counts for neither colour (ruling G17).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.gnomeville.buildings import BY_NAME, DEFENCE, LINE_OF, PROSPERITY
from games.gnomeville.content import SPACES
from games.gnomeville.town import EMPTY, Town

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

#: Tile values on each line (market and monument on neither, G17).
_ON_LINE: dict[str, frozenset[int]] = {
    line: frozenset(int(t) for t, of in LINE_OF.items() if of == line)
    for line in (PROSPERITY, DEFENCE)
}


def largest_group(town: Town) -> int:
    """The most building tiles of one kind connected orthogonally (hedges cut a group, as
    they cut an upgrade group: the seed's Mazeville)."""
    tiles = town.tiles
    linked = town.geometry.linked
    seen = [False] * SPACES
    best = 0
    for start in range(SPACES):
        kind = tiles[start]
        if kind == EMPTY or seen[start]:
            continue
        seen[start] = True
        todo = [start]
        size = 0
        while todo:
            space = todo.pop()
            size += 1
            for n in linked[space]:
                if not seen[n] and tiles[n] == kind:
                    seen[n] = True
                    todo.append(n)
        best = max(best, size)
    return best


def _gnomes(g: GnomevilleState, town: Town, test: Callable[[int], bool]) -> int:
    return sum(1 for gnome in town.deployed() if test(gnome))


def metric(g: GnomevilleState, town: Town, name: str) -> int:
    """The value of the metric ``name`` on ``town`` now."""
    if name.startswith("tile:"):
        return town.tiles.count(int(BY_NAME[name[5:]]))
    if name == "bag_tiles":
        return sum(town.bag)
    if name == "buildings":
        return town.buildings_on_board()
    if name == "prosperity_buildings":
        on = _ON_LINE[PROSPERITY]
        return sum(1 for t in town.tiles if t in on)
    if name == "defence_buildings":
        on = _ON_LINE[DEFENCE]
        return sum(1 for t in town.tiles if t in on)
    if name == "boulders":
        return sum(town.boulders)
    if name == "trolls":
        return len(town.trolls)
    if name == "sword_gnomes":
        return _gnomes(g, town, lambda gnome: town.has_sword(gnome, g.pack))
    if name == "hammer_gnomes":
        return _gnomes(g, town, lambda gnome: town.has_hammer(gnome, g.pack))
    if name == "graduated_gnomes":
        return _gnomes(g, town, lambda gnome: town.graduated[gnome])
    if name == "deployed_gnomes":
        return _gnomes(g, town, lambda gnome: True)
    if name == "mushrooms":
        return town.mushrooms
    if name == "empty_spaces":
        return sum(1 for s in range(SPACES) if town.is_empty(s))
    if name == "largest_group":
        return largest_group(town)
    if name == "stacks":
        return len(town.stacks)
    if name == "tallest_stack":
        return max((len(s) for s in town.stacks), default=0)
    raise ValueError(f"unknown metric {name!r}")


def better(best: str, a: int, b: int) -> bool:
    """Whether value ``a`` beats ``b`` for an entry whose ``best`` is most or fewest."""
    return a > b if best == "most" else a < b
