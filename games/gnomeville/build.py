"""Phase 2, build: draw, maybe return with the second chance, place; until a pass or stuck.

The seed's iteration, for each player on their own and all at once:

1) draw a tile from your bag, or pass (a pass ends your build phase: ruling G4; an empty bag
   passes by itself);
2) optionally, if your second-chance tile shows a full stew, return the drawn tile to the bag,
   flip the stew to empty and go back to 1 (never after placing);
3) place it: a building on an empty space of your town (if it fits nowhere it goes back into
   the bag and you pass automatically); a gnome tile on the topmost uncovered stump, gaining
   that stump's movement (+1 per monument, + movement cards) to spend at once. The third gnome
   tile makes you stuck: you still move, then your build phase ends.

Every draw comes from the town's own random stream, so seats are independent. The turn-by-turn
variant (rounds in ``g.turn_by_turn``) cuts the phase into stages: in ``draw`` every seat still
building draws (or passes) and settles its second chance; at the barrier the kept tiles are
revealed together; in ``place`` each seat places and resolves its tile; then ``draw`` again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from games.contract import Option
from games.gnomeville import abilities, movement, upgrades
from games.gnomeville.buildings import NAMES, Tile
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name
from games.rng import below

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

GNOME = int(Tile.GNOME)

DRAW = Option("draw", "Draw a tile from your bag", Act("draw"))
PASS = Option("pass", "Pass: end your build phase", Act("pass"))
STEW = Option("stew", "Use your stew card: fill your second-chance stew", Act("stew"))
DRAW_OPTIONS = (DRAW, PASS)
DRAW_OR_STEW = (DRAW, PASS, STEW)
_KEEP: dict[int, Option] = {}
_RETURN: dict[int, Option] = {}
_REDRAW: dict[int, Option] = {}
_PLACE: dict[tuple[int, int], Option] = {}


def keep_option(tile: int) -> Option:
    found = _KEEP.get(tile)
    if found is None:
        found = _KEEP[tile] = Option("keep", f"Keep the {NAMES[Tile(tile)]}", Act("keep"))
    return found


def return_option(tile: int) -> Option:
    found = _RETURN.get(tile)
    if found is None:
        found = _RETURN[tile] = Option(
            "return",
            f"Second chance: return the {NAMES[Tile(tile)]} to the bag (the stew empties)",
            Act("return"),
        )
    return found


def redraw_option(tile: int) -> Option:
    found = _REDRAW.get(tile)
    if found is None:
        found = _REDRAW[tile] = Option(
            "redraw",
            f"Use your redraw card: return the {NAMES[Tile(tile)]} to the bag",
            Act("redraw"),
        )
    return found


def place_option(tile: int, space: int) -> Option:
    found = _PLACE.get((tile, space))
    if found is None:
        name = space_name(space)
        found = _PLACE[(tile, space)] = Option(
            f"place:{name}", f"Place the {NAMES[Tile(tile)]} on {name}", Act("place", space=space)
        )
    return found


def place_options(town: Town, tile: int) -> tuple[Option, ...]:
    """One option per space where the drawn building may go."""
    heights = town.layout.heights
    tiles, boulders, trolls, gnomes = town.tiles, town.boulders, town.trolls, town.gnome_at
    out = []
    for space in range(len(tiles)):
        if tiles[space] != EMPTY or boulders[space] or space in trolls or space in gnomes:
            continue
        if heights and not town.may_hold(space, tile):
            continue
        out.append(place_option(tile, space))
    return tuple(out)


def draw_tile(town: Town) -> int:
    """Take a uniformly random tile out of the bag, from the town's own stream."""
    bag = town.bag
    r = below(town.rng, sum(bag))
    for kind, count in enumerate(bag):
        if r < count:
            bag[kind] -= 1
            return kind
        r -= count
    raise AssertionError("drew from an empty bag")


def give_up(g: GnomevilleState, town: Town, reason: str) -> None:
    """End this town's build phase for the round (ruling G4: a pass is final; turn by turn
    too, ruling G31)."""
    town.passed = True
    g.emit(town.seat, "pass", seat=town.seat, reason=reason)


class BuildStep(Step):
    """A seat's build phase: ``build.draw`` -> ``build.second_chance`` -> ``build.place``.

    ``mode`` is ``loop`` (the standard phase: repeat until a pass or stuck), ``draw`` or
    ``place`` (one stage of a turn-by-turn round).
    """

    __slots__ = ("mode",)
    name = "build"

    def __init__(self, seat: int, mode: str = "loop") -> None:
        super().__init__(seat, "place" if mode == "place" else "draw")
        self.mode = mode

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        while True:
            stage = self.stage
            if stage == "draw":
                if town.passed or town.stuck:
                    return FINISHED
                if not any(town.bag):
                    give_up(g, town, "empty bag")
                    return FINISHED
                if not town.stew and abilities.first_ready(g, town, "stew") != EMPTY:
                    return DRAW_OR_STEW  # ruling G29: a stew card, before a draw
                return DRAW_OPTIONS
            if stage == "second_chance":
                tile = town.drawn
                redraw = abilities.first_ready(g, town, "redraw") != EMPTY  # ruling G29
                if not town.stew and not redraw:
                    self.stage = "done" if self.mode == "draw" else "place"
                    continue
                options = [keep_option(tile)]
                if town.stew:
                    options.append(return_option(tile))
                if redraw:
                    options.append(redraw_option(tile))
                return tuple(options)
            if stage == "place":
                tile = town.drawn
                if tile == EMPTY:
                    return FINISHED
                if tile == GNOME:
                    self.place_gnome(g, town)
                    return FINISHED  # the movement step was pushed and runs first
                places = place_options(town, tile)
                if places:
                    return places
                # The seed: a building that fits nowhere goes back and the player passes.
                town.bag[tile] += 1
                town.drawn = EMPTY
                g.emit(town.seat, "unplaceable", seat=town.seat, tile=NAMES[Tile(tile)])
                give_up(g, town, "no space")
                return FINISHED
            if stage == "moved":
                if town.stuck:
                    return FINISHED
                self.stage = self.after_tile()
                continue
            return FINISHED

    def after_tile(self) -> str:
        return "draw" if self.mode == "loop" else "done"

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        action = cast(Act, value).action
        seat = town.seat
        if action == "draw":
            tile = draw_tile(town)
            town.drawn = tile
            g.emit(seat, "draw", seat=seat, tile=NAMES[Tile(tile)])
            self.stage = "second_chance"
        elif action == "pass":
            give_up(g, town, "chose")
            self.stage = "done"
        elif action == "stew":
            abilities.spend(g, town, abilities.first_ready(g, town, "stew"))
            town.stew = True
            g.emit(seat, "stew", seat=seat, gnome=EMPTY)
        elif action == "keep":
            self.stage = "done" if self.mode == "draw" else "place"
        elif action in ("return", "redraw"):
            tile = town.drawn
            town.bag[tile] += 1
            town.drawn = EMPTY
            if action == "return":
                town.stew = False
            else:
                abilities.spend(g, town, abilities.first_ready(g, town, "redraw"))
            g.emit(seat, "second_chance", seat=seat, tile=NAMES[Tile(tile)], by=action)
            self.stage = "draw"
        elif action == "place":
            tile, space = town.drawn, cast(Act, value).space
            town.tiles[space] = tile
            town.drawn = EMPTY
            g.emit(seat, "place", seat=seat, tile=NAMES[Tile(tile)], space=space_name(space))
            self.stage = self.after_tile()
            upgrades.check(g, town, space, placed=True)
        else:
            raise AssertionError(action)

    def place_gnome(self, g: GnomevilleState, town: Town) -> None:
        """The gnome tile covers the topmost free stump: its movement, then maybe stuck."""
        seat = town.seat
        town.drawn = EMPTY
        town.set_aside[GNOME] += 1  # back into the bag in phase 5
        stump = town.stumps
        town.stumps = stump + 1
        points = town.layout.stumps[stump] + abilities.movement_bonus(g, town)
        g.emit(seat, "gnome_tile", seat=seat, stump=stump + 1, movement=points)
        if town.stumps >= len(town.layout.stumps):
            town.stuck = True  # the seed: still move, then the build phase ends
            g.emit(seat, "stuck", seat=seat)
        self.stage = "moved"
        movement.begin_move(g, town, points)


# ---------------------------------------------------------------------- the phase


def begin_build(g: GnomevilleState) -> None:
    """Open phase 2: every seat builds (the standard phase), or the first turn-by-turn draw."""
    for town in g.towns:
        town.passed = False
        town.stuck = False
        town.stumps = 0  # the gnome tiles went back to the bag in phase 5
    g.open_phase()
    if g.round in g.turn_by_turn:
        g.stage = "draw"
        for seat in range(g.players):
            open_build(g, BuildStep(seat, "draw"))
    else:
        g.stage = ""
        for seat in range(g.players):
            open_build(g, BuildStep(seat))


def open_build(g: GnomevilleState, step: BuildStep) -> None:
    """Give a seat its build step, and above it the re-check of groups blocked for want of a
    tile (ruling G23): the phase just split the supply anew, so one may upgrade now."""
    g.push(step)
    g.push(upgrades.RecheckStep(step.seat))


def building(town: Town) -> bool:
    return not town.passed and not town.stuck


def next_build_stage(g: GnomevilleState) -> bool:
    """Called when no seat has a decision left: the next turn-by-turn stage, if any."""
    if g.round not in g.turn_by_turn:
        return False
    if g.stage == "draw":
        drawn = [t for t in g.towns if t.drawn != EMPTY]
        if not drawn:
            return False
        # Ruling G31: the kept tiles are revealed at once, then each seat places and resolves.
        g.emit(
            None,
            "reveal",
            tiles=[NAMES[Tile(t.drawn)] if t.drawn != EMPTY else "" for t in g.towns],
        )
        g.stage = "place"
        g.open_phase()
        for town in drawn:
            open_build(g, BuildStep(town.seat, "place"))
        return True
    if not any(building(t) for t in g.towns):
        return False
    g.stage = "draw"
    g.open_phase()
    for town in g.towns:
        if building(town):
            open_build(g, BuildStep(town.seat, "draw"))
    return True
