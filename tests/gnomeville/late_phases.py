"""Helpers for the tests of phases 3-5 and the end: a table with no step running, troll cards
made for a test, and a seat's steps driven on their own (without the phase barrier, so a test
looks at one phase and nothing after it)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.gnomeville import GnomevilleState
from games.gnomeville.content import Arrow, TrollCard
from games.gnomeville.steps import Step
from tests.gnomeville.helpers import clear, new_state, sp


def table(players: int = 1, seed: int = 1, **options: Any) -> GnomevilleState:
    """A new game with every town cleared (one gnome on c3, empty bag) and no step running."""
    g = new_state(players, seed=seed, **options)
    quiet(g)
    for t in g.towns:
        clear(t)
    return g


def quiet(g: GnomevilleState) -> None:
    """Drop every seat's steps and decisions and close the independent phase."""
    for seat in range(g.players):
        g.stacks[seat].clear()
        g._decisions[seat] = None
    g._pending = ()
    g.independent = False


def add_card(
    g: GnomevilleState,
    boulders: tuple[str, ...] = (),
    spawns: tuple[str, ...] = (),
    arrows: tuple[tuple[str, bool], ...] = (),
) -> int:
    """Append a troll card to the game's pack; its index. ``arrows``: (direction, until
    blocked)."""
    card = TrollCard(
        f"test-{len(g.pack.troll_cards)}",
        tuple(sp(s) for s in boulders),
        tuple(sp(s) for s in spawns),
        tuple(Arrow(d, until) for d, until in arrows),
    )
    g.pack = replace(g.pack, troll_cards=(*g.pack.troll_cards, card))
    return len(g.pack.troll_cards) - 1


def run(g: GnomevilleState, seat: int = 0) -> None:
    """Run ``seat``'s steps until it must decide or has nothing left."""
    g._settle(seat)


def offered(g: GnomevilleState, seat: int = 0) -> tuple[str, list[str]]:
    """The kind and option keys ``seat`` is asked now (("", []) if nothing)."""
    d = g._decisions[seat]
    return ("", []) if d is None else (d.kind, [o.key for o in d.options])


def answer(g: GnomevilleState, seat: int, *keys: str) -> None:
    """Answer ``seat``'s decisions with these keys in turn, running its steps in between."""
    for key in keys:
        d = g._decisions[seat]
        assert d is not None, f"seat {seat} is asked nothing (wanted {key!r})"
        found = [o for o in d.options if o.key == key]
        assert found, f"no {key!r} in {d.kind}: {[o.key for o in d.options]}"
        g._decisions[seat] = None
        g.stacks[seat][-1].choose(g, g.towns[seat], found[0].value)
        run(g, seat)


def start(g: GnomevilleState, step: Step) -> None:
    """Push ``step`` and run its seat to the first decision."""
    g.push(step)
    run(g, step.seat)


def attack(g: GnomevilleState, card: int, seat: int = 0, ambush: int = -1) -> None:
    """Resolve ``card`` (after ``ambush``, if given) on ``seat``'s town, up to a decision."""
    from games.gnomeville.enemy import EnemyStep

    cards = (card,) if ambush < 0 else (ambush, card)
    start(g, EnemyStep(seat, cards))
