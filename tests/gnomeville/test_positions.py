"""The prepared positions of ``games/gnomeville/positions.py`` (the conformance kit's rare
decisions): each puts the named decision before seat 0 with the promised option shapes, keeps
the game whole (every tile and ability card in one place, a view and a determinization still
possible), and plays on to the end of the game."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from games.gnomeville import GnomevilleState
from games.gnomeville.positions import decision_scenarios
from server.conformance import decision_scenarios as kit_scenarios
from tests.conftest import Depth
from tests.gnomeville.helpers import (
    choose,
    keys,
    kind,
    new_state,
    play_random,
    random_answer,
    tile_counts,
)
from tests.test_docs_option_keys import row_of

NAMES = tuple(decision_scenarios())


@cache
def _built() -> dict[str, GnomevilleState]:
    return decision_scenarios()


def scenario(name: str) -> GnomevilleState:
    """A fresh copy of the position ``name`` (built once per test process)."""
    return _built()[name].clone()


def test_every_rare_kind_has_a_position() -> None:
    kinds = {name.split()[0] for name in NAMES}
    assert kinds == {
        "setup.side",
        "build.draw",
        "build.second_chance",
        "move.step",
        "move.activate",
        "market.buy",
        "house.deploy",
        "academy.keep",
        "ballista.target",
        "upgrade.line",
        "upgrade.space",
        "enemy.spawn",
        "enemy.restand",
        "delivery.bonus",
        "buy.tile",
    }
    assert {scenario(n).players for n in NAMES} == {1, 2, 3, 4}
    assert {scenario(n).config.variant for n in NAMES} == {
        "standard",
        "turn-by-turn",
        "master-build",
    }


@pytest.mark.parametrize("name", NAMES)
def test_seat_zero_faces_the_named_kind(name: str) -> None:
    g = scenario(name)
    assert kind(g, 0) == name.split()[0], (name, kind(g, 0))
    assert len(keys(g, 0)) >= 2


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("setup.side", ["front", "back:"]),
        ("build.second_chance", ["keep", "return"]),
        ("build.second_chance redraw", ["keep", "return", "redraw"]),
        ("build.draw stew", ["draw", "pass", "stew"]),
        ("move.step cards", ["move:0:", "move:2:NE", "ballista:1", "echo:0", "stop"]),
        ("market.buy", ["buy:market", "buy:armory", "none"]),
        ("house.deploy", ["deploy:", "none"]),
        ("ballista.target", ["target:b5", "target:d5", "none"]),
        ("move.activate", ["activate", "skip"]),
        ("academy.keep", ["keep:"]),
        ("upgrade.line", ["line:house", "line:workshop"]),
        ("upgrade.space", ["upgrade:a1", "upgrade:b1", "upgrade:c1"]),
        ("enemy.spawn", ["spawn:a1", "spawn:e1", "spawn:a5", "spawn:e5"]),
        ("enemy.restand solo", ["restand:"]),
        ("delivery.bonus take", ["take", "mushroom"]),
        ("delivery.bonus remove", ["remove:a1", "remove:e1", "mushroom"]),
        ("buy.tile", ["buy:market", "done"]),
    ],
)
def test_the_options_have_the_promised_shapes(name: str, expected: list[str]) -> None:
    offered = keys(scenario(name), 0)
    for start in expected:
        assert any(k == start or (start.endswith(":") and k.startswith(start)) for k in offered), (
            start,
            offered,
        )


def test_a_delivery_asks_every_bonus_shape_within_a_few_decisions() -> None:
    """``take`` (stew), then ``take:<space>`` (a sword), in one card; ``remove:<space>`` and
    ``take`` (a tavern tile) in the other."""
    g = scenario("delivery.bonus take")
    choose(g, "take")
    assert kind(g, 0) == "delivery.bonus" and keys(g, 0) == ["take:c3", "take:a3", "mushroom"]
    g = scenario("delivery.bonus remove")
    choose(g, "remove:a1")
    assert keys(g, 0) == ["remove:e1", "mushroom"]
    choose(g, "mushroom")
    assert kind(g, 0) == "delivery.bonus" and keys(g, 0)[0].startswith("remove:")
    choose(g, "mushroom")
    assert keys(g, 0) == ["take", "mushroom"]  # a tavern tile into the bag


def test_the_academy_keeps_a_card_from_the_own_pile() -> None:
    g = scenario("academy.keep")
    pile = list(g.towns[0].ability_pile)
    first = keys(g, 0)[0]
    choose(g, first)
    kept = g.towns[0].ability[0]
    assert g.pack.abilities[kept].id == first.removeprefix("keep:")
    assert g.towns[0].ability_pile[-1] not in pile  # the other card went under the pile


@pytest.mark.parametrize("name", NAMES)
def test_the_position_keeps_the_game_whole(name: str) -> None:
    """Every tile where a new game has it counted; every ability card in one place; a view,
    a determinization and a clone are possible."""
    g = scenario(name)
    fresh = new_state(g.players, g.config.variant, **dict(g.config.options))
    assert tile_counts(g) == tile_counts(fresh)
    places: Counter[int] = Counter()
    for town in g.towns:
        places.update(town.ability_pile)
        places.update(c for c in town.ability if c >= 0)
    for stack in g.stacks:
        for step in stack:
            places.update(getattr(step, "cards", ()) if step.name == "academy" else ())
    assert max(places.values()) == 1, places.most_common(3)
    for seat in range(g.players):
        g.observe(seat)
        sample = g.determinize(seat, 5)
        assert [d.kind for d in sample.pending() if d.seat == seat] == [
            d.kind for d in g.pending() if d.seat == seat
        ]
    assert g.clone().canonical() == g.canonical()


@pytest.mark.parametrize("name", NAMES)
def test_play_goes_on_to_the_end(name: str, depth: Depth) -> None:
    """Random playouts (uniform answers, and answers that rarely pass) finish the game, with
    every tile still counted."""
    start = scenario(name)
    counts = tile_counts(start)
    for play in range(depth(fast=3, slow=12)):
        g = start.clone()
        rng = random.Random(play)
        if play % 2:
            while g.pending():
                d = g.pending()[-1]
                g.apply(d.seat, rng.randrange(len(d.options)))
        else:
            play_random(g, rng)
        assert g.is_over and g.round == 5, name
        assert tile_counts(g) == counts
        assert g.outcome() is not None


def test_the_kit_meets_every_documented_kind_in_seat_zero() -> None:
    """``kassen bot check --game gnomeville`` starts from these positions: with random
    answers seat 0 meets every kind the docs list."""
    scenarios = kit_scenarios("gnomeville")
    assert set(scenarios) == set(NAMES)
    met: set[str] = set()
    for name, start in scenarios.items():
        g = start.clone()
        rng = random.Random(len(name))
        while g.pending():
            for d in g.pending():
                if d.seat == 0:
                    met.add(d.kind)
                g.apply(d.seat, random_answer(rng, d))
                break
    assert met == set(row_of("gnomeville"))
