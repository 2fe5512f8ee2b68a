"""Shared helpers for Gnomeville rule tests: start a game, set up a town by hand, force the next
draws, answer decisions by option key, run a step on its own, play random games.

A new game of the standard variant stops at the first build phase with every seat asked
``build.draw``; tests change a town directly (``clear``, ``put``, ``bag``...) and then answer.
Spaces are names (``"c3"``) or numbers; tiles are ``Tile`` values or names (``"market"``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from games.contract import Decision, Event, GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.buildings import BUILDINGS, BY_NAME, KINDS, Tile
from games.gnomeville.steps import Step
from games.gnomeville.town import EMPTY, Town
from games.rng import below

Space = str | int
TileLike = Tile | str | int


def new_state(
    players: int = 1, variant: str = "standard", seed: int = 1, **options: Any
) -> GnomevilleState:
    """A new game (stopped at its first decisions: the first build phase's draws, or the side
    choice with ``sides="choose"``)."""
    return GAME.new(GameConfig(players, variant, options), seed)


def sp(space: Space) -> int:
    """A space number from ``"c3"`` (column letter, row number) or a number."""
    if isinstance(space, int):
        return space
    return (int(space[1]) - 1) * 5 + "abcde".index(space[0])


def tile_of(tile: TileLike) -> int:
    if isinstance(tile, str):
        return int(BY_NAME[tile])
    return int(tile)


def town(g: GnomevilleState, seat: int = 0) -> Town:
    return g.towns[seat]


def clear(t: Town, gnome: Space | None = "c3") -> Town:
    """An empty board (no tile, boulder or troll), one gnome (gnome 0, on ``gnome``) and the
    others in camp with nothing, an empty bag. Mushrooms, stew and piles stay as they are."""
    t.tiles[:] = [EMPTY] * len(t.tiles)
    t.boulders[:] = [False] * len(t.boulders)
    t.trolls.clear()
    for i in range(len(t.gnome_at)):
        t.gnome_at[i] = EMPTY
        t.sword[i] = t.hammer[i] = t.graduated[i] = t.ability_used[i] = False
        t.ability[i] = EMPTY
    if gnome is not None:
        t.gnome_at[0] = sp(gnome)
    t.bag[:] = [0] * KINDS
    return t


def put(t: Town, tile: TileLike, *spaces: Space) -> None:
    """Building tiles on the board."""
    for space in spaces:
        t.tiles[sp(space)] = tile_of(tile)


def put_gnome(t: Town, gnome: int, space: Space | None) -> None:
    """Put ``gnome`` on ``space`` (None: back to camp)."""
    t.gnome_at[gnome] = EMPTY if space is None else sp(space)


def boulder(t: Town, *spaces: Space) -> None:
    for space in spaces:
        t.boulders[sp(space)] = True


def troll(t: Town, *spaces: Space) -> None:
    for space in spaces:
        t.trolls.append(sp(space))


def bag(t: Town, counts: Mapping[TileLike, int] | None = None, **named: int) -> None:
    """Set the bag's contents: ``bag(t, market=2, gnome=1)`` or ``bag(t, {Tile.HOUSE: 3})``."""
    t.bag[:] = [0] * KINDS
    for tile, count in (counts or {}).items():
        t.bag[tile_of(tile)] = count
    for name, count in named.items():
        t.bag[tile_of(name)] = count


def give_ability(g: GnomevilleState, t: Town, gnome: int, effect: str) -> int:
    """Graduate ``gnome`` with the first card of the pack that has ``effect``; its index."""
    for card, ability in enumerate(g.pack.abilities):
        if ability.effect == effect:
            t.graduated[gnome] = True
            t.ability[gnome] = card
            t.ability_used[gnome] = False
            return card
    raise AssertionError(f"the pack has no {effect} ability")


class ForcedDraws(random.Random):
    """A town stream whose next draws are the given tiles (then ordinary chance).

    The build phase draws ``int(rng.random() * size)`` and walks the bag by tile kind, so the
    value returned here lands inside the wanted kind's run. Not kept by ``Town.copy``.
    """

    def __init__(self, t: Town, tiles: Iterable[TileLike]) -> None:
        super().__init__(0)
        self.town = t
        self.queue = [tile_of(x) for x in tiles]

    def random(self) -> float:
        if not self.queue:
            return super().random()
        tile = self.queue.pop(0)
        counts = self.town.bag
        assert counts[tile] > 0, f"no {Tile(tile).name.lower()} in the bag to draw"
        return (sum(counts[:tile]) + 0.5) / sum(counts)


def force_draws(t: Town, *tiles: TileLike) -> None:
    """Make the town's next draws these tiles (they must be in the bag when drawn)."""
    t.rng = ForcedDraws(t, tiles)


# ---------------------------------------------------------------------- decisions


def decision(g: GnomevilleState, seat: int = 0) -> Decision:
    for d in g.pending():
        if d.seat == seat:
            return d
    raise AssertionError(f"seat {seat} has no decision (pending: {kinds(g)})")


def kind(g: GnomevilleState, seat: int = 0) -> str:
    """The kind of ``seat``'s pending decision, or "" if it has none."""
    for d in g.pending():
        if d.seat == seat:
            return d.kind
    return ""


def kinds(g: GnomevilleState) -> dict[int, str]:
    return {d.seat: d.kind for d in g.pending()}


def keys(g: GnomevilleState, seat: int = 0) -> list[str]:
    return [o.key for o in decision(g, seat).options]


def choose(g: GnomevilleState, key: str, seat: int = 0) -> tuple[Event, ...]:
    """Answer ``seat``'s decision with the option ``key`` (AssertionError listing the keys
    there are if there is no such option)."""
    d = decision(g, seat)
    for i, option in enumerate(d.options):
        if option.key == key:
            return g.apply(seat, i)
    raise AssertionError(f"no option {key!r} in {d.kind}: {[o.key for o in d.options]}")


def play(g: GnomevilleState, seat: int, *answers: str) -> list[Event]:
    """Answer several decisions of ``seat`` in a row; all the events they caused."""
    out: list[Event] = []
    for key in answers:
        out.extend(choose(g, key, seat))
    return out


def settle(g: GnomevilleState, seat: int = 0) -> None:
    """Let ``seat``'s steps run until it must decide, and refresh what is pending."""
    g._settle(seat)
    g._pending = tuple(d for d in g._decisions if d is not None)


def run_step(g: GnomevilleState, step: Step) -> None:
    """Push ``step`` on its seat's stack (on top of what is there) and run it to a decision."""
    g.push(step)
    settle(g, step.seat)


def start_move(g: GnomevilleState, points: int, seat: int = 0) -> None:
    """Give ``seat`` ``points`` movement now (a ``move.step`` on top of its build step)."""
    from games.gnomeville.movement import MoveStep

    run_step(g, MoveStep(seat, points))


def events_of(events: Iterable[Event], kind_: str) -> list[dict[str, Any]]:
    """The data of the ``kind_`` events, once each: the public copy a barrier publishes of
    a seat's own (private) event is left out."""
    out: list[dict[str, Any]] = []
    private: list[dict[str, Any]] = []
    for e in events:
        if e.kind != kind_:
            continue
        data = dict(e.data)
        if e.private_to is None and data in private:
            private.remove(data)
            continue
        if e.private_to is not None:
            private.append(data)
        out.append(data)
    return out


# ---------------------------------------------------------------------- whole games


def random_answer(rng: random.Random, d: Decision, pass_rate: float = 0.1) -> int:
    """A random option, but ``pass`` and ``stop`` only now and then (so games build towns)."""
    options = d.options
    n = len(options)
    if n > 1 and options[0].key == "draw" and rng.random() > pass_rate:
        return 0
    for _ in range(3):
        i = below(rng, n)
        if options[i].key not in ("pass", "stop", "none", "skip") or rng.random() < pass_rate:
            return i
    return below(rng, n)


def play_random(
    g: GnomevilleState, rng: random.Random, pass_rate: float = 0.1, check: Any = None
) -> int:
    """Play ``g`` to its end with :func:`random_answer`; ``check(g)`` after every answer.
    Returns the number of decisions."""
    count = 0
    pending = g.pending()
    while pending:
        for d in pending:
            g.apply(d.seat, random_answer(rng, d, pass_rate))
            count += 1
            if check is not None:
                check(g)
        pending = g.pending()
    return count


def tile_counts(g: GnomevilleState) -> list[int]:
    """Every tile per kind wherever it is: the supply (less what towns took this phase), bags,
    boards, stacks, set-aside piles and drawn tiles. Constant through a game."""
    out = [0] * KINDS
    for building in BUILDINGS:
        out[building] = g.supply[building] - sum(t.taken[building] for t in g.towns)
    for t in g.towns:
        for kind_ in range(KINDS):
            out[kind_] += t.bag[kind_] + t.set_aside[kind_]
        for tile in t.tiles:
            if tile != EMPTY:
                out[tile] += 1
        for stack in t.stacks:
            for tile in stack:
                out[tile] += 1
        if t.drawn != EMPTY:
            out[t.drawn] += 1
    return out
