"""A projection of each seat's final score from an unfinished Root position, for search bots.

The adjudicated standing (RT4) is the VP so far; a position's promise is not in it. Here a
seat's projection is its contest total so far (``RootState.totals``) plus, in a two-player
game, ``POSITION_WEIGHT`` times the greedy player's map yardstick
(``games.root.greedy.position``: clearings ruled, own buildings protected, enemy buildings
threatened) from that seat's own view. Three or four players: the VP alone.

``stage`` counts turns (over the contest's games): a search rolls out to the end of the turn
in progress and judges the position there. ``partners``: a Vagabond in a coalition wins or
loses with his partner (RT23), so the search judges him by the partner's projection and
neither counts the other as a rival.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.root.greedy.map_model import MapModel
from games.root.greedy.position import position

if TYPE_CHECKING:
    from games.root.state import RootState

#: VP per unit of the greedy yardstick (a clearing ruled is 1 unit).
POSITION_WEIGHT = 0.3


def stage(g: RootState) -> int:
    """Turns begun so far in the contest (a new game starts a new count)."""
    return g.game_number * 100_000 + g.turns


def projected(g: RootState) -> tuple[float, ...]:
    """Each seat's projected final score (the final totals if the contest is over)."""
    outcome = g.outcome()
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    totals = [float(v) for v in g.totals()]
    if g.n != 2:
        return tuple(totals)
    factions = [p.faction for p in g.players]
    for seat in range(2):
        model = MapModel(g.observe(seat))
        totals[seat] += POSITION_WEIGHT * position(model, factions[seat], factions[1 - seat])
    return tuple(totals)


def partners(g: RootState) -> tuple[int, ...]:
    """For each seat, the seat whose projection judges it: a Vagabond in a coalition, whose
    own VP no longer move (RT19), his partner's (RT22, RT23); everyone else itself."""
    judge = list(range(g.n))
    for seat, player in enumerate(g.players):
        if player.coalition is not None and player.coalition >= 0:
            judge[seat] = player.coalition
    return tuple(judge)
