"""A move (Law 4.2): from one clearing to an adjacent one, some warriors, ruling either end.

Asked as three small decisions: origin, destination, how many. Only origins with a legal
destination are offered, so every choice can be completed. ``optional`` adds "done" at the
origin step (a March's second move, Cobbler); a move a faction must make has no "done".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.root.steps import DONE, FINISHED, Options, Step, clearing_option, count_option

if TYPE_CHECKING:
    from games.root.state import RootState


def move_origins(g: RootState, seat: int, within: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Clearings ``seat`` can move warriors out of now (optionally only those in ``within``)."""
    w = g.woodland
    faction = g.faction_of(seat)
    rulers = w.rulers()
    neighbours = g.board.neighbours
    found = []
    for c in within if within is not None else range(1, 13):
        # Law 4.2.1: rule the origin, or some adjacent destination.
        if w.warriors(faction, c) and (
            rulers[c] == faction or any(rulers[n] == faction for n in neighbours[c])
        ):
            found.append(c)
    return tuple(found)


class Move(Step):
    """One move by ``seat`` starting in one of ``origins``."""

    __slots__ = ("destination", "optional", "origin", "origins")
    name = "move"

    origins: tuple[int, ...]
    optional: bool
    origin: int
    destination: int

    def __init__(self, seat: int, origins: tuple[int, ...], optional: bool = False) -> None:
        super().__init__(seat, "origin")
        self.origins = origins
        self.optional = optional
        self.origin = 0
        self.destination = 0

    def advance(self, g: RootState) -> Options:
        stage = self.stage
        faction = g.faction_of(self.seat)
        w = g.woodland
        if stage == "origin":
            found = tuple(clearing_option(c) for c in move_origins(g, self.seat, self.origins))
            if not found:
                return FINISHED
            return (*found, DONE) if self.optional else found
        if stage == "destination":
            return tuple(clearing_option(c) for c in w.move_destinations(faction, self.origin))
        if stage == "count":
            return tuple(count_option(n) for n in range(1, w.warriors(faction, self.origin) + 1))
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        stage = self.stage
        if stage == "origin":
            if value[0] == "done":
                self.stage = "over"
                return
            self.origin = value[1]
            self.stage = "destination"
        elif stage == "destination":
            self.destination = value[1]
            self.stage = "count"
        else:
            count = value[1]
            seat, dst = self.seat, self.destination
            g.woodland.move(g.faction_of(seat), self.origin, dst, count)
            g.emit("move", seat=seat, src=self.origin, dst=dst, count=count)
            self.stage = "over"
            # Warriors moving in may outrage another faction (the Alliance, Law 8.2.6): once per
            # move. The Vagabond's pawn is no warrior: its moves must not call this.
            for other in g.others(seat):
                rules = g.rules(other)
                if rules.watches_moves:
                    rules.enemy_moved(g, other, seat, dst)
