"""Where the replay viewer draws each game's board: positions for areas and clearings.

The links come from the engines' own map data (``games.rumble_nation.board``,
``games.root.maps``), so the drawing cannot disagree with the rules; only the coordinates are
chosen here. Rumble Nation's areas sit roughly where their castles are on a map of Japan
(Shuri in the south-west, Tokuyama-kan in the north-east). Root's clearings are laid on a 4 x 4
grid from the printed positions (NW corner, top centre, east edge, ...) of each map side.
Coordinates are in a 1000 x 700 drawing.
"""

from __future__ import annotations

from typing import Any

from games.root.maps import AUTUMN, WINTER, Board
from games.rumble_nation.board import AREAS, LAND_LINKS, SEA_LINKS

_RUMBLE_AT: dict[str, tuple[int, int]] = {
    "shuri": (90, 600),
    "usuki": (210, 480),
    "oko": (400, 560),
    "yoshida": (290, 320),
    "kyo": (470, 410),
    "inabayama": (540, 240),
    "kiyosu": (650, 450),
    "kasugayama": (700, 190),
    "odawara": (850, 480),
    "yonezawa": (880, 260),
    "tokuyama": (900, 80),
}

#: (column, row) on a 4 x 4 grid, from each clearing's printed position.
_ROOT_GRID: dict[str, dict[int, tuple[float, float]]] = {
    "autumn": {
        1: (0, 0),  # NW corner
        5: (1.5, 0),  # top centre
        2: (3, 0),  # NE corner
        9: (0, 1.5),  # west edge
        10: (1.5, 1),  # upper centre
        12: (1, 2),  # centre-left hub
        11: (2.1, 1.9),  # centre-right
        6: (3, 1.4),  # east edge
        4: (0, 3),  # SW corner
        8: (1, 3),  # bottom, centre-left
        7: (2, 3),  # bottom, centre-right
        3: (3, 3),  # SE corner
    },
    "winter": {
        1: (0, 0),  # NW corner
        5: (1, 0),  # top, left of centre
        6: (2, 0),  # top, right of centre
        2: (3, 0),  # NE corner
        10: (0, 1.5),  # west edge
        11: (1, 1.5),  # centre-left
        12: (2, 1.5),  # centre-right
        7: (3, 1.5),  # east edge
        4: (0, 3),  # SW corner
        9: (1, 3),  # bottom, left of centre
        8: (2, 3),  # bottom, right of centre
        3: (3, 3),  # SE corner
    },
}
_ROOT_BOARDS: dict[str, Board] = {"autumn": AUTUMN, "winter": WINTER}


def rumble_nation_board() -> dict[str, Any]:
    return {
        "areas": [
            {"id": a.id, "name": a.name, "label": a.label, "x": x, "y": y}
            for a in AREAS
            for x, y in [_RUMBLE_AT[a.id]]
        ],
        "land": [list(link) for link in LAND_LINKS],
        "sea": [list(link) for link in SEA_LINKS],
    }


def root_board(side: str) -> dict[str, Any]:
    board = _ROOT_BOARDS[side]
    grid = _ROOT_GRID[side]
    return {
        "clearings": [
            {
                "id": c.id,
                "position": c.position,
                "slots": c.slots,
                "x": round(110 + grid[c.id][0] * 260),
                "y": round(90 + grid[c.id][1] * 180),
            }
            for c in board.clearings
        ],
        "paths": [list(p) for p in board.paths],
        "river": [list(p) for p in board.river],
    }


def board_for(game: str, variant: str) -> dict[str, Any] | None:
    """The drawing data of a game's board (None: the game draws without a shared map)."""
    if game == "rumble-nation":
        return rumble_nation_board()
    if game == "root" and variant in _ROOT_BOARDS:
        return root_board(variant)
    return None
