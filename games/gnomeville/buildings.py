"""The tiles of Gnomeville: eight buildings in five tiers on two upgrade lines, and gnome tiles.

Ruling G1 fixes the lines (the seed names market 1, house and workshop 2, armory 3 and shows a
market group upgrading to a workshop and a workshop group to an armory):

- prosperity (blue):  market -> house -> tavern -> academy -> monument
- defence (red):      market -> workshop -> armory -> ballista -> monument

The market is "public" (on neither line); the monument tops both lines (ruling G17: it counts
for neither colour in events and goals).
"""

from __future__ import annotations

from enum import IntEnum


class Tile(IntEnum):
    """A tile that can be in a bag. Buildings first (their value indexes supply and bag lists)."""

    MARKET = 0
    HOUSE = 1
    WORKSHOP = 2
    TAVERN = 3
    ARMORY = 4
    ACADEMY = 5
    BALLISTA = 6
    MONUMENT = 7
    GNOME = 8


BUILDINGS: tuple[Tile, ...] = tuple(t for t in Tile if t is not Tile.GNOME)
#: Number of tile kinds (bag count vectors have this length).
KINDS = len(Tile)

PROSPERITY = "prosperity"
DEFENCE = "defence"
LINES = (PROSPERITY, DEFENCE)

TIER: dict[Tile, int] = {
    Tile.MARKET: 1,
    Tile.HOUSE: 2,
    Tile.WORKSHOP: 2,
    Tile.TAVERN: 3,
    Tile.ARMORY: 3,
    Tile.ACADEMY: 4,
    Tile.BALLISTA: 4,
    Tile.MONUMENT: 5,
}
#: Tier of a tile as a list indexed by the tile's value (fast path for the engine).
TIER_OF: tuple[int, ...] = tuple(TIER.get(Tile(v), 0) for v in range(KINDS))

LINE_OF: dict[Tile, str | None] = {
    Tile.MARKET: None,
    Tile.HOUSE: PROSPERITY,
    Tile.TAVERN: PROSPERITY,
    Tile.ACADEMY: PROSPERITY,
    Tile.WORKSHOP: DEFENCE,
    Tile.ARMORY: DEFENCE,
    Tile.BALLISTA: DEFENCE,
    Tile.MONUMENT: None,
}

#: Each line from tier 1 to tier 5.
LINE_TILES: dict[str, tuple[Tile, ...]] = {
    PROSPERITY: (Tile.MARKET, Tile.HOUSE, Tile.TAVERN, Tile.ACADEMY, Tile.MONUMENT),
    DEFENCE: (Tile.MARKET, Tile.WORKSHOP, Tile.ARMORY, Tile.BALLISTA, Tile.MONUMENT),
}


def upgrade_choices(tile: Tile) -> tuple[tuple[Tile, Tile | None], ...]:
    """For a group of ``tile``: each (next tile, tile two tiers up or None) the upgrade may
    yield, one pair per line it may follow (two for a market, one otherwise, none for a
    monument). The seed: if the next tile's supply is empty, take the tile two tiers up."""
    if tile is Tile.MONUMENT or tile is Tile.GNOME:
        return ()
    tier = TIER[tile]
    lines = LINES if tile is Tile.MARKET else (LINE_OF[tile],)
    out: list[tuple[Tile, Tile | None]] = []
    for line in lines:
        assert line is not None
        row = LINE_TILES[line]
        two_up = row[tier + 1] if tier + 1 < len(row) else None
        out.append((row[tier], two_up))
    return tuple(out)


NAMES: dict[Tile, str] = {t: t.name.lower() for t in Tile}
BY_NAME: dict[str, Tile] = {name: t for t, name in NAMES.items()}
