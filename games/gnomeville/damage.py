"""What trolls, boulders and the river do to a town: destroyed buildings, exhausted gnomes.

The seed: a destroyed building tile goes back into its owner's building bag, not the supply;
it lies beside the board with the upgrade stacks until phase 5 puts them all into the bag
(ruling G41). An exhausted gnome returns to camp, its tracker flips back to ungraduated, its
ability card is discarded (the seed: 能力を捨て, unlike a graduation's second card, which goes
to the bottom of the deck): it lies face up on its owner's discard pile, out of the game, where
no graduation draws it (G19); its equipment returns to the supply. With no gnome left on the board the player at once places a stand on any space
without troll or boulder, activating nothing and gaining no mushroom (G11): the ``enemy.restand``
decision, pushed on the seat's stack so it comes before anything else the seat does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.gnomeville.buildings import NAMES, Tile
from games.gnomeville.content import SPACES
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def destroy_building(g: GnomevilleState, town: Town, space: int, by: str) -> None:
    """Destroy the building on ``space`` (if any): its tile goes to the bag in phase 5 (G41)."""
    tile = town.tiles[space]
    if tile == EMPTY:
        return
    town.tiles[space] = EMPTY
    town.set_aside[tile] += 1
    g.emit(
        town.seat,
        "destroyed",
        seat=town.seat,
        space=space_name(space),
        tile=NAMES[Tile(tile)],
        by=by,
    )


def exhaust(g: GnomevilleState, town: Town, gnome: int, by: str, restand: bool = True) -> None:
    """Send ``gnome`` back to camp stripped of graduation, ability and equipment; if it was
    the last gnome on the board, push the restand decision (G11) unless the caller pushes it
    itself (``restand=False``: the caller has steps to put under it)."""
    space = town.gnome_at[gnome]
    card = town.ability[gnome]
    town.gnome_at[gnome] = EMPTY
    town.graduated[gnome] = False
    town.sword[gnome] = False
    town.hammer[gnome] = False
    town.ability_used[gnome] = False
    town.ability[gnome] = EMPTY
    if card != EMPTY:
        town.discard.append(card)  # G19: discarded, face up, out of the game
    g.emit(
        town.seat,
        "exhausted",
        seat=town.seat,
        gnome=gnome,
        space=space_name(space) if space != EMPTY else "",
        ability=g.pack.abilities[card].id if card != EMPTY else "",
        by=by,
    )
    if restand and needs_restand(town):
        stack = g.stacks[town.seat]
        if not (stack and isinstance(stack[-1], RestandStep)):
            g.push(RestandStep(town.seat))


def needs_restand(town: Town) -> bool:
    return all(at == EMPTY for at in town.gnome_at)


def restand_spaces(town: Town) -> list[int]:
    """G11: any space without a troll or a boulder (a building may be under the stand)."""
    trolls = town.trolls
    boulders = town.boulders
    return [s for s in range(SPACES) if not boulders[s] and s not in trolls]


_RESTAND: dict[tuple[int, int], Option] = {}


def restand_option(space: int, gnome: int) -> Option:
    found = _RESTAND.get((space, gnome))
    if found is None:
        name = space_name(space)
        found = Option(
            f"restand:{name}",
            f"Place a new gnome stand on {name}",
            Act("restand", space=space, gnome=gnome),
        )
        _RESTAND[(space, gnome)] = found
    return found


class RestandStep(Step):
    """``enemy.restand``: the town has no gnome left; choose where a new stand goes (G11)."""

    __slots__ = ()
    name = "enemy"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "restand")

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if not needs_restand(town):
            return FINISHED
        gnome = town.gnome_at.index(EMPTY)  # stands in camp are alike: the lowest goes
        return tuple(restand_option(s, gnome) for s in restand_spaces(town))

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = Act(*value)
        town.gnome_at[act.gnome] = act.space
        g.emit(town.seat, "restand", seat=town.seat, gnome=act.gnome, space=space_name(act.space))
