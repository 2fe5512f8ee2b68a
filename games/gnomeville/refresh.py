"""Phase 5, buy and refresh (skipped after round 5).

Riverville's river is washed first: everything on its four river spaces (bridges are not
river) goes back to its own supply — a building tile to the shared supply (it leaves the
player's economy, unlike a destroyed tile), a troll or boulder off the board, a gnome to camp
(exhausted). Then, in the seed's order: 1 each player buys up to (round number) building tiles
at their tier in mushrooms (``buy.tile``); 2 the round tracker advances and reveals the event
under it (ruling G47); 3 bought tiles are already in the bag, and the upgrade stacks, destroyed
tiles and gnome tiles go back into it; a town that scored the full-board bonus also returns
every building tile on its board. Gnomes, buildings, boulders and trolls on the board stay;
the second-chance tile is not refilled (G10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.gnomeville.buildings import KINDS
from games.gnomeville.buying import buy, buy_options
from games.gnomeville.damage import RestandStep, exhaust, needs_restand
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

#: The three event cards lie under the round tracker's spaces for rounds 3, 4 and 5.
FIRST_EVENT_ROUND = 3


def begin_buy(g: GnomevilleState) -> None:
    """Wash the rivers, then let every seat buy."""
    for town in g.towns:
        if town.layout.river:
            wash(g, town)
    g.open_phase()
    for town in g.towns:
        g.push(BuyStep(town.seat, g.round))
        if needs_restand(town):
            g.push(RestandStep(town.seat))


def wash(g: GnomevilleState, town: Town) -> None:
    """Riverville: clear the river spaces, everything to its own supply (ruling G48)."""
    for space in town.layout.river:
        tile = town.tiles[space]
        if tile != EMPTY:
            town.tiles[space] = EMPTY
            g.give_back(town, tile)
        gnome = town.gnome_on(space)
        if gnome != EMPTY:
            exhaust(g, town, gnome, "river", restand=False)
        if space in town.trolls:
            town.trolls.remove(space)
        town.boulders[space] = False
    g.emit(None, "washed", seat=town.seat, spaces=[space_name(s) for s in town.layout.river])


_DONE = Option("done", "Buy nothing more", Act("done"))


class BuyStep(Step):
    """``buy.tile``: buy building tiles one at a time, up to the round number, or stop."""

    __slots__ = ("bought", "limit")
    name = "buy"

    def __init__(self, seat: int, limit: int) -> None:
        super().__init__(seat, "tile")
        self.limit = limit
        self.bought = 0

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.bought >= self.limit:
            return FINISHED
        options = buy_options(g, town)
        if not options:
            return FINISHED
        return (*options, _DONE)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = Act(*value)
        if act.action == "done":
            self.limit = self.bought
            return
        buy(g, town, act.tile)
        self.bought += 1


def refresh_round(g: GnomevilleState) -> None:
    """Phase 5, steps 2 and 3, after everyone bought."""
    upcoming = g.round + 1
    if upcoming >= FIRST_EVENT_ROUND:
        up = min(len(g.events), upcoming - FIRST_EVENT_ROUND + 1)
        deck = g.pack.solo_events if g.solo else g.pack.multi_events
        for card in g.events[g.events_up : up]:
            g.emit(None, "event_revealed", event=deck[card].id, round=upcoming)
        g.events_up = max(g.events_up, up)
    if g.delivery_card != EMPTY:
        g.delivery_discard.append(g.delivery_card)
    g.delivery_card = EMPTY
    for town in g.towns:
        back = town.set_aside[:]
        for stack in town.stacks:
            for tile in stack:
                back[tile] += 1
        if town.full:
            for space, tile in enumerate(town.tiles):
                if tile != EMPTY:
                    back[tile] += 1
                    town.tiles[space] = EMPTY
        for kind in range(KINDS):
            town.bag[kind] += back[kind]
        g.emit(None, "bag_refilled", seat=town.seat, tiles=sum(back), full=town.full)
        town.set_aside = [0] * KINDS
        town.stacks = []
        town.full = False
        town.passed = False
        town.stuck = False
        town.stumps = 0
        town.drawn = EMPTY
        town.ability_used = [False] * len(town.ability_used)
