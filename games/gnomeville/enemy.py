"""Phase 3, enemy attack: the ambush for stuck players, then the round's troll card for all.

The seed: if at least one player is stuck, a face-down troll card is revealed as an ambush and
every stuck player resolves it; then every player resolves the round's card. A card resolves in
order: 1 boulders fall on its spaces, 2 trolls spawn on its spawn spaces, 3 trolls move by its
arrows, left to right. Each seat resolves the cards on its own town (``EnemyStep``), so seats
work independently; a seat is asked only where its choice can change the result:

- ``enemy.spawn``: the order of the spawns (the seed's FAQ lets the player choose it), offered
  only when the troll limit makes the order matter (ruling G42);
- ``enemy.restand``: where a new stand goes when the last gnome is lost (``damage.py``, G11).

Boulders fall in the card's order: their order never changes the result (ruling G40).
A card maps onto every town the same way (G15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.gnomeville.content import DIRECTIONS, SIZE, SPACES, Arrow, TrollCard
from games.gnomeville.damage import destroy_building, exhaust
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name, step_from

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

BOULDERS, SPAWNS, ARROWS = "boulders", "spawns", "arrows"


def begin_enemy(g: GnomevilleState) -> None:
    """Reveal the ambush card if anyone is stuck, then give every seat its cards to resolve."""
    stuck = [town.seat for town in g.towns if town.stuck]
    if stuck and g.troll_deck:
        g.ambush_card = g.troll_deck.pop(0)
        g.emit(None, "ambush", card=g.pack.troll_cards[g.ambush_card].id, seats=stuck)
    g.open_phase()
    for town in g.towns:
        cards: tuple[int, ...] = (g.round_card,)
        if town.stuck and g.ambush_card != EMPTY:
            cards = (g.ambush_card, g.round_card)
        g.push(EnemyStep(town.seat, cards))


# ---------------------------------------------------------------------- one piece at a time


def drop_boulder(g: GnomevilleState, town: Town, space: int) -> None:
    """A boulder falls on ``space``: it destroys everything there, except a gnome with a hammer,
    which destroys the boulder (+1 mushroom); a building under that gnome is still destroyed
    (G7). A space already holding a boulder takes no second one."""
    if town.boulders[space]:
        return
    destroy_building(g, town, space, "boulder")
    if space in town.trolls:
        town.trolls.remove(space)
        g.emit(town.seat, "troll_crushed", seat=town.seat, space=space_name(space))
    gnome = town.gnome_on(space)
    if gnome != EMPTY and town.has_hammer(gnome, g.pack):
        town.mushrooms += 1
        g.emit(town.seat, "boulder_smashed", seat=town.seat, space=space_name(space), gnome=gnome)
        return
    town.boulders[space] = True
    g.emit(town.seat, "boulder", seat=town.seat, space=space_name(space))
    if gnome != EMPTY:
        exhaust(g, town, gnome, "boulder")


def spawn_blocked(town: Town, space: int) -> bool:
    """G8: a spawn onto a boulder or a troll is ignored (and does not count toward the limit)."""
    return town.boulders[space] or space in town.trolls


def sword_at(g: GnomevilleState, town: Town, space: int) -> bool:
    gnome = town.gnome_on(space)
    return gnome != EMPTY and town.has_sword(gnome, g.pack)


def spawn_troll(g: GnomevilleState, town: Town, space: int) -> None:
    """A troll appears on ``space`` (free of boulder and troll, with room under the limit):
    a sword gnome there defeats it (+1 mushroom; the building under it is destroyed, G7);
    otherwise it stays, destroying the building and exhausting the gnome there."""
    gnome = town.gnome_on(space)
    destroy_building(g, town, space, "troll")
    if gnome != EMPTY and town.has_sword(gnome, g.pack):
        town.mushrooms += 1
        g.emit(town.seat, "troll_defeated", seat=town.seat, space=space_name(space), gnome=gnome)
        return
    town.trolls.append(space)
    g.emit(town.seat, "troll", seat=town.seat, space=space_name(space))
    if gnome != EMPTY:
        exhaust(g, town, gnome, "troll")


#: The space one step from each space towards N, E, S and W (EMPTY off the board).
_NEXT: dict[str, tuple[int, ...]] = {
    d: tuple(EMPTY if (n := step_from(s, d)) is None else n for s in range(SPACES))
    for d in DIRECTIONS
}
#: How many rows or columns each space is behind the lead, per direction (G9).
_BEHIND: dict[str, tuple[int, ...]] = {
    "N": tuple(s // SIZE for s in range(SPACES)),
    "S": tuple(SIZE - 1 - s // SIZE for s in range(SPACES)),
    "E": tuple(SIZE - 1 - s % SIZE for s in range(SPACES)),
    "W": tuple(s % SIZE for s in range(SPACES)),
}


def leading_first(trolls: list[int], direction: str) -> tuple[int, ...]:
    """G9: the troll furthest in the arrow's direction moves first (ties: lower space)."""
    behind = _BEHIND[direction]
    return tuple(sorted(trolls, key=lambda space: (behind[space], space)))


def arrive(g: GnomevilleState, town: Town, space: int) -> int:
    """A moving troll enters ``space``: it destroys the building there and exhausts the gnome
    there, unless that gnome has a sword and defeats it (+1 mushroom; the building is still
    destroyed, G43). Returns the troll's space, or EMPTY if it was defeated."""
    gnome = town.gnome_on(space)
    destroy_building(g, town, space, "troll")
    if gnome == EMPTY:
        return space
    if town.has_sword(gnome, g.pack):
        town.trolls.remove(space)
        town.mushrooms += 1
        g.emit(town.seat, "troll_defeated", seat=town.seat, space=space_name(space), gnome=gnome)
        return EMPTY
    exhaust(g, town, gnome, "troll")
    return space


def _moved(g: GnomevilleState, town: Town, start: int, end: int) -> None:
    g.emit(town.seat, "troll_moves", seat=town.seat, space=space_name(start), to=space_name(end))


# ---------------------------------------------------------------------- the step


_SPAWN: dict[int, Option] = {}


def spawn_option(space: int) -> Option:
    found = _SPAWN.get(space)
    if found is None:
        name = space_name(space)
        found = Option(
            f"spawn:{name}", f"Resolve the troll spawning on {name} next", Act("spawn", space=space)
        )
        _SPAWN[space] = found
    return found


class EnemyStep(Step):
    """One seat resolving its troll cards (the ambush, if stuck, then the round's card).

    Fields: ``cards`` to resolve, ``card`` (index into them), ``part`` (boulders, spawns,
    arrows), ``index`` (next boulder or arrow), ``spawns`` (spawn spaces not yet resolved),
    ``queue`` (trolls still to move on the current arrow, the moving one first) and ``moved``
    (steps the moving troll took). Every field is a plain value, so the step can stop for a
    decision (a spawn order, a restand) anywhere and resume.
    """

    __slots__ = ("card", "cards", "index", "moved", "part", "queue", "spawns")
    name = "enemy"

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        super().__init__(seat, "resolve")
        self.cards = cards
        self.card = 0
        self.part = BOULDERS
        self.index = 0
        self.spawns: tuple[int, ...] = ()
        self.queue: tuple[int, ...] = ()
        self.moved = 0

    def _interrupted(self, g: GnomevilleState) -> bool:
        """Whether the last piece pushed a decision (a restand) to answer first."""
        return g.stacks[self.seat][-1] is not self

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        self.stage = "resolve"
        while self.card < len(self.cards):
            tc = g.pack.troll_cards[self.cards[self.card]]
            if self.part == BOULDERS:
                while self.index < len(tc.boulders):
                    space = tc.boulders[self.index]
                    self.index += 1
                    drop_boulder(g, town, space)
                    if self._interrupted(g):
                        return FINISHED
                self._start_spawns(g, town, tc)
            if self.part == SPAWNS:
                options = self._spawns(g, town)
                if options or self._interrupted(g):
                    return options
                self.part = ARROWS
                self.index = 0
                self.queue = ()
                self.moved = -1
            if self.part == ARROWS:
                if self._arrows(g, town, tc.arrows):
                    return FINISHED
                self.card += 1
                self.part = BOULDERS
                self.index = 0
        return FINISHED

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        space = Act(*value).space
        self.spawns = tuple(s for s in self.spawns if s != space)
        spawn_troll(g, town, space)

    # ------------------------------------------------------------------ spawns

    def _start_spawns(self, g: GnomevilleState, town: Town, tc: TrollCard) -> None:
        """Drop the spawns G8 ignores (onto a boulder or a troll: nothing during the spawn
        step can clear either, so they are known at once)."""
        self.part = SPAWNS
        live: list[int] = []
        for space in tc.spawns:
            if spawn_blocked(town, space):
                g.emit(
                    town.seat,
                    "spawn_ignored",
                    seat=town.seat,
                    space=space_name(space),
                    why="boulder" if town.boulders[space] else "troll",
                )
            else:
                live.append(space)
        self.spawns = tuple(live)

    def _spawns(self, g: GnomevilleState, town: Town) -> Options:
        """Resolve spawns in the card's order while the order cannot matter; else ask (G42).

        With ``room`` trolls still allowed, ``plain`` spawns (each places a troll) and
        ``sword`` spawns (a sword gnome defeats the troll at once, which needs a free troll
        stand, so it happens only while there is room):

        - no room: every remaining spawn is ignored (the seed: a 4th troll is ignored);
        - fewer plain spawns than room, or as many and no sword spawn: all happen, any order;
        - more plain spawns than room: which ones happen is the player's choice;
        - as many plain spawns as room and a sword spawn: the player chooses whether the sword
          gnome fights (before the last troll stand is used) or the icon is ignored (after).
        """
        while self.spawns:
            room = g.pack.components.max_trolls - len(town.trolls)
            if room <= 0:
                for space in self.spawns:
                    g.emit(
                        town.seat,
                        "spawn_ignored",
                        seat=town.seat,
                        space=space_name(space),
                        why="limit",
                    )
                self.spawns = ()
                break
            swords = [s for s in self.spawns if sword_at(g, town, s)]
            plain = [s for s in self.spawns if s not in swords]
            if len(plain) < room or (len(plain) == room and not swords):
                space = self.spawns[0]
                self.spawns = self.spawns[1:]
                spawn_troll(g, town, space)
                if self._interrupted(g):
                    return FINISHED
                continue
            self.stage = "spawn"
            if len(plain) > room:
                return tuple(spawn_option(s) for s in self.spawns)
            # Every plain spawn happens: one option stands for them all.
            return tuple(spawn_option(s) for s in self.spawns if s in swords or s == plain[0])
        return FINISHED

    # ------------------------------------------------------------------ arrows

    def _arrows(self, g: GnomevilleState, town: Town, arrows: tuple[Arrow, ...]) -> bool:
        """Move the trolls arrow by arrow; True if interrupted by a restand. ``moved`` is -1
        until the current arrow's queue is drawn up. A troll stops at the edge, before a
        boulder or another troll (G9, G43); hedges do not stop it. One ``troll_moves`` event
        per stretch of its way, cut where it meets something."""
        trolls, boulders, tiles, gnomes = town.trolls, town.boulders, town.tiles, town.gnome_at
        while self.index < len(arrows):
            arrow = arrows[self.index]
            nxt = _NEXT[arrow.direction]
            until = arrow.until_blocked
            if self.moved < 0:
                self.queue = leading_first(trolls, arrow.direction)
                self.moved = 0
            while self.queue:
                space = start = self.queue[0]
                while until or self.moved == 0:
                    target = nxt[space]
                    if target == EMPTY or boulders[target] or target in trolls:
                        break
                    trolls[trolls.index(space)] = target
                    self.moved += 1
                    space = target
                    if tiles[target] != EMPTY or target in gnomes:
                        _moved(g, town, start, target)
                        start = target
                        space = arrive(g, town, target)
                        if space == EMPTY:
                            break
                        if self._interrupted(g):
                            self.queue = (space, *self.queue[1:])
                            return True
                if space != EMPTY and space != start:
                    _moved(g, town, start, space)
                self.queue = self.queue[1:]
                self.moved = 0
            self.index += 1
            self.moved = -1
        return False
