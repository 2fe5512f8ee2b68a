"""How good a map is for one faction: the yardstick every move and Eyrie recruit is judged by.

A move is worth the change it makes to this score, so it holds what the greedy player wants
from the map: clearings ruled, its buildings protected, enemy buildings threatened.
"""

from __future__ import annotations

from games.root.greedy.map_model import EYRIE, MapModel
from games.root.maps import CLEARING_IDS


def position(m: MapModel, me: str, enemy: str) -> float:
    """How good the map is for ``me``: rule, protected buildings, threatened enemy buildings."""
    score = 0.0
    for c in CLEARING_IDS:
        ruler = m.ruler(c)
        mine, theirs = m.w(me, c), m.w(enemy, c)
        my_built = m.built(me, c)
        their_pieces = m.pieces(enemy, c)
        if ruler == me:
            score += 1.0
            if m.free(c) > 0 and not (me == EYRIE and m.has_roost(c)) and c != m.keep:
                score += 0.4
        elif my_built:
            score -= 1.2 * my_built
        if their_pieces and mine > theirs:
            score += 0.7 * min(their_pieces, mine - theirs)
        if mine and theirs and ruler != me:
            score -= 0.1 * mine
        # A clearing next to an enemy stack wants some defence.
        if my_built:
            near = max((m.w(enemy, n) for n in m.neighbours[c]), default=0)
            if near > mine + my_built:
                score -= 0.3
    return score
