"""Gnome movement: spending movement points one step at a time (``move.step``).

The seed: movement points are split among the deployed gnomes as the player likes, one
orthogonal step per point, all optional. Entering a space resolves it at once: an empty space
gives a mushroom, a building may be activated (``activations.py``), a troll space needs a sword
and a boulder space a hammer (the troll or boulder goes, and a mushroom is gained as if the
space were empty). Mazeville's hedges block gnomes. Stepping off a building can complete a
group of three, which upgrades at once, mid-move (``upgrades.py``).

Gnomes pass through each other but never share a space at rest (ruling G20): a gnome may step
onto another gnome's space only with a point to spare and a legal way onward, it must then go
on (the only options are its own steps), and nothing is resolved on the shared space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from games.contract import Option
from games.gnomeville import abilities, activations, upgrades
from games.gnomeville.content import SIZE
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, STEPS8, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

Moves = tuple[tuple[tuple[str, int], ...], ...]


class Ways(NamedTuple):
    """A layout's gnome steps per space, as (direction, target): orthogonal ones not crossing
    a hedge, and the diagonal ones a ``diagonal`` gnome may also take (ruling G26)."""

    orthogonal: Moves
    diagonal: Moves


_WAYS: dict[frozenset[tuple[int, int]], Ways] = {}


def _blocked(hedges: frozenset[tuple[int, int]], a: int, b: int) -> bool:
    return (min(a, b), max(a, b)) in hedges


def ways(town: Town) -> Ways:
    """The step tables of ``town``'s layout (computed once per set of hedges)."""
    hedges = town.layout.hedges
    found = _WAYS.get(hedges)
    if found is not None:
        return found
    orth: list[tuple[tuple[str, int], ...]] = []
    diag: list[tuple[tuple[str, int], ...]] = []
    for space in range(SIZE * SIZE):
        row, col = divmod(space, SIZE)
        here_o: list[tuple[str, int]] = []
        here_d: list[tuple[str, int]] = []
        for name, dr, dc in STEPS8:
            r, c = row + dr, col + dc
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                continue
            target = r * SIZE + c
            if dr == 0 or dc == 0:
                if not _blocked(hedges, space, target):
                    here_o.append((name, target))
                continue
            # Ruling G26: a diagonal step goes round a corner; it is blocked only when both
            # ways round (via the row neighbour or via the column neighbour) cross a hedge.
            via_row, via_col = r * SIZE + col, row * SIZE + c
            round_a = not _blocked(hedges, space, via_row) and not _blocked(hedges, via_row, target)
            round_b = not _blocked(hedges, space, via_col) and not _blocked(hedges, via_col, target)
            if round_a or round_b:
                here_d.append((name, target))
        orth.append(tuple(here_o))
        diag.append(tuple(here_d))
    found = _WAYS[hedges] = Ways(tuple(orth), tuple(diag))
    return found


WORDS = {
    "N": "north",
    "E": "east",
    "S": "south",
    "W": "west",
    "NE": "north-east",
    "SE": "south-east",
    "SW": "south-west",
    "NW": "north-west",
}

_MOVE: dict[tuple[int, str], Option] = {}
_ECHO: dict[int, Option] = {}
_BALLISTA: dict[int, Option] = {}
_SPRINT: dict[int, Option] = {}
STOP = Option("stop", "Stop moving (forfeit the points left)", Act("stop"))


def move_option(gnome: int, direction: str) -> Option:
    found = _MOVE.get((gnome, direction))
    if found is None:
        found = _MOVE[(gnome, direction)] = Option(
            f"move:{gnome}:{direction}",
            f"Move gnome {gnome} one space {WORDS[direction]}",
            Act("move", gnome=gnome, direction=direction),
        )
    return found


def echo_option(gnome: int) -> Option:
    found = _ECHO.get(gnome)
    if found is None:
        found = _ECHO[gnome] = Option(
            f"echo:{gnome}",
            f"Use gnome {gnome}'s echo: activate its building again",
            Act("echo", gnome=gnome),
        )
    return found


def ballista_option(gnome: int) -> Option:
    found = _BALLISTA.get(gnome)
    if found is None:
        found = _BALLISTA[gnome] = Option(
            f"ballista:{gnome}",
            f"Use gnome {gnome}'s ballista: destroy a boulder or troll next to it",
            Act("ballista", gnome=gnome),
        )
    return found


def sprint_option(gnome: int) -> Option:
    found = _SPRINT.get(gnome)
    if found is None:
        found = _SPRINT[gnome] = Option(
            f"sprint:{gnome}",
            f"Use gnome {gnome}'s sprint: gain movement now",
            Act("sprint", gnome=gnome),
        )
    return found


# ---------------------------------------------------------------------- rules of a step


def other_gnome_on(town: Town, space: int, gnome: int) -> bool:
    """Whether a gnome other than ``gnome`` (-1: any gnome) stands on ``space``."""
    at = town.gnome_at
    count = at.count(space)
    if gnome >= 0 and at[gnome] == space:
        count -= 1
    return count > 0


def may_enter(g: GnomevilleState, town: Town, gnome: int, space: int) -> bool:
    """Whether ``gnome`` may come to rest on ``space`` (ignoring other gnomes): a troll space
    needs a sword, a boulder space a hammer; anything else is open."""
    if town.boulders[space]:
        return town.has_hammer(gnome, g.pack)
    if space in town.trolls:
        return town.has_sword(gnome, g.pack)
    return True


def _steps_of(g: GnomevilleState, town: Town, gnome: int, space: int) -> Any:
    table = ways(town)
    if abilities.diagonal(g, town, gnome):
        return table.orthogonal[space] + table.diagonal[space]
    return table.orthogonal[space]


def _onward(g: GnomevilleState, town: Town, gnome: int, space: int, points: int) -> bool:
    """Whether ``gnome``, passing through the occupied ``space`` with ``points`` left, can
    still come to rest somewhere (ruling G20: every step offered can be completed)."""
    for _, target in _steps_of(g, town, gnome, space):
        if other_gnome_on(town, target, gnome):
            if points >= 2 and _onward(g, town, gnome, target, points - 1):
                return True
        elif may_enter(g, town, gnome, target):
            return True
    return False


def legal_steps(g: GnomevilleState, town: Town, gnome: int, points: int) -> list[tuple[str, int]]:
    """The steps ``gnome`` may take now with ``points`` left, as (direction, target)."""
    out: list[tuple[str, int]] = []
    if points <= 0:
        return out
    for direction, target in _steps_of(g, town, gnome, town.gnome_at[gnome]):
        if other_gnome_on(town, target, gnome):
            if points >= 2 and _onward(g, town, gnome, target, points - 1):
                out.append((direction, target))
        elif may_enter(g, town, gnome, target):
            out.append((direction, target))
    return out


def gain_mushrooms(g: GnomevilleState, town: Town, gnome: int, space: int) -> None:
    """Entering an empty space (or one cleared of a troll or boulder, "as if empty")."""
    amount = 1 + abilities.forager(g, town, gnome)  # ruling G24: forager counts here too
    town.mushrooms += amount
    g.emit(
        town.seat,
        "mushroom",
        seat=town.seat,
        gnome=gnome,
        space=space_name(space),
        amount=amount,
        total=town.mushrooms,
    )


def arrive(g: GnomevilleState, town: Town, gnome: int, space: int) -> None:
    """Resolve ``gnome`` coming to rest on ``space`` (the seed's four kinds of space)."""
    if town.tiles[space] != EMPTY:
        activations.arrive(g, town, gnome, space)
    elif town.boulders[space]:
        town.boulders[space] = False  # back to the supply (ruling G14: unlimited)
        g.emit(town.seat, "boulder_broken", seat=town.seat, gnome=gnome, space=space_name(space))
        gain_mushrooms(g, town, gnome, space)
    elif space in town.trolls:
        town.trolls.remove(space)
        g.emit(town.seat, "troll_defeated", seat=town.seat, gnome=gnome, space=space_name(space))
        gain_mushrooms(g, town, gnome, space)
    else:
        gain_mushrooms(g, town, gnome, space)


# ---------------------------------------------------------------------- the step


class MoveStep(Step):
    """``move.step``: spend ``points`` of movement, one step per decision, or stop.

    ``through`` is the gnome passing through another gnome's space (it must go on), or -1.
    While the step is open a gnome with a ready ballista, echo or sprint card may use it.
    """

    __slots__ = ("points", "through")
    name = "move"

    def __init__(self, seat: int, points: int) -> None:
        super().__init__(seat, "step")
        self.points = points
        self.through = EMPTY

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        points = self.points
        if self.through != EMPTY:
            gnome = self.through
            return tuple(move_option(gnome, d) for d, _ in legal_steps(g, town, gnome, points))
        out: list[Option] = []
        if points > 0:
            for gnome, at in enumerate(town.gnome_at):
                if at != EMPTY:
                    for d, _ in legal_steps(g, town, gnome, points):
                        out.append(move_option(gnome, d))
        if any(card != EMPTY for card in town.ability):
            # Ruling G28: once-per-round movement cards, while this movement is open.
            for gnome in abilities.ready(g, town, "ballista"):
                if activations.targets(town, town.gnome_at[gnome]):
                    out.append(ballista_option(gnome))
            for gnome in abilities.ready(g, town, "echo"):
                if activations.possible(g, town, gnome, town.gnome_at[gnome]):
                    out.append(echo_option(gnome))
            # Ruling G55: a sprint card gains movement while this movement is open.
            for gnome in abilities.ready(g, town, "sprint"):
                out.append(sprint_option(gnome))
        if not out:
            return FINISHED
        out.append(STOP)
        return tuple(out)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = cast(Act, value)
        action = act.action
        if action == "move":
            self.step(g, town, act.gnome, act.direction)
        elif action == "stop":
            if self.points:
                g.emit(town.seat, "stop", seat=town.seat, forfeited=self.points)
            self.points = 0
            self.stage = "done"
        elif action == "echo":
            abilities.spend(g, town, act.gnome)
            activations.arrive(g, town, act.gnome, town.gnome_at[act.gnome], forced=True)
        elif action == "ballista":
            abilities.spend(g, town, act.gnome)
            g.push(activations.TargetStep(town.seat, town.gnome_at[act.gnome], forced=True))
        elif action == "sprint":
            abilities.spend(g, town, act.gnome)
            gained = abilities.sprint(g, town, act.gnome)
            self.points += gained
            g.emit(
                town.seat,
                "sprint",
                seat=town.seat,
                gnome=act.gnome,
                movement=gained,
                left=self.points,
            )
        else:
            raise AssertionError(action)

    def step(self, g: GnomevilleState, town: Town, gnome: int, direction: str) -> None:
        start = town.gnome_at[gnome]
        target = -1
        for d, t in _steps_of(g, town, gnome, start):
            if d == direction:
                target = t
                break
        self.points -= 1
        town.gnome_at[gnome] = target
        g.emit(
            town.seat,
            "move",
            seat=town.seat,
            gnome=gnome,
            start=space_name(start),
            to=space_name(target),
            left=self.points,
        )
        if other_gnome_on(town, target, gnome):
            self.through = gnome  # ruling G20: passing through, nothing resolves here
        else:
            self.through = EMPTY
            arrive(g, town, gnome, target)
        # Stepping off a building may complete a group; it resolves before the arrival's
        # activation (pushed last, so it runs first: ruling G30).
        if town.tiles[start] != EMPTY and not other_gnome_on(town, start, EMPTY):
            upgrades.check(g, town, start, placed=False)


def begin_move(g: GnomevilleState, town: Town, points: int) -> None:
    """Gain ``points`` movement (already including monuments and abilities) and spend it."""
    g.push(MoveStep(town.seat, points))
