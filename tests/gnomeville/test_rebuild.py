"""``GnomevilleState.from_view``: a playable position rebuilt from one seat's view alone, as a
search bot outside the referee receives it (through the wire).

At points of random games (every player count, every variant, the side choice and the backs,
answers in a random seat order so that many points fall inside a phase of independent seats)
the rebuilt position shows the seat the same view, asks it the same decision, differs from the
real game only in what the seat cannot see, is the very sample ``determinize(seat, seed)`` draws,
and plays on to the end; it depends on the view object alone and on the seed.
"""

from __future__ import annotations

import dataclasses
import json
import random
import tomllib
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from games.contract import GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.content import load_pack
from games.gnomeville.positions import decision_scenarios
from games.gnomeville.view import GnomevilleView
from kassen import wire
from tests.conftest import Depth
from tests.gnomeville.hidden_check import gnomeville_check, gnomeville_secret

#: (players, variant, options): solo and 2-4 players, the three variants, the sides and towns
#: options, turn by turn in some rounds.
SETUPS = [
    (1, "standard", {}),
    (1, "turn-by-turn", {}),
    (2, "master-build", {}),
    (2, "standard", {"sides": "choose"}),
    (3, "turn-by-turn", {}),
    (3, "standard", {"sides": "back"}),
    (4, "standard", {}),
    (4, "master-build", {"sides": "choose"}),
    (2, "standard", {"towns": "3,5", "turn_by_turn": "2,4"}),
    (3, "master-build", {"towns": "2,1,4", "turn_by_turn": "all"}),
]
#: Points of each random game (about) at which every seat's view is rebuilt.
POINTS = 14
#: Every this many rebuilt positions, one is played on to the end.
PLAY_ON_EVERY = 5


def walk(players: int, variant: str, options: dict[str, str], seed: int) -> Iterator[Any]:
    """Every position of a random game, answered by a random pending seat each time."""
    g = GAME.new(GameConfig(players, variant, options), seed)
    rng = random.Random(seed)
    while g.pending():
        yield g
        decision = rng.choice(g.pending())
        g.apply(decision.seat, rng.randrange(len(decision.options)))


def remote(view: GnomevilleView) -> GnomevilleView:
    """The view as a bot over gRPC decodes it."""
    decoded = wire.observation_from_proto(wire.observation_to_proto(GAME.name, view))
    assert decoded == view
    assert isinstance(decoded, GnomevilleView)
    return decoded


def asked(g: GnomevilleState, seat: int) -> tuple[Any, ...]:
    return tuple(d for d in g.pending() if d.seat == seat)


def play_on(g: GnomevilleState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20_000):
        if not g.pending():
            break
        decision = rng.choice(g.pending())
        g.apply(decision.seat, rng.randrange(len(decision.options)))
    assert g.outcome() is not None


@pytest.mark.parametrize(
    ("players", "variant", "options"),
    SETUPS,
    ids=[f"{p}-{v}-{'-'.join(o.values()).replace(',', '') or 'default'}" for p, v, o in SETUPS],
)
def test_a_rebuilt_position_is_the_seats_own_sample(
    players: int, variant: str, options: dict[str, str], depth: Depth
) -> None:
    moments: set[tuple[str, str]] = set()
    rebuilt_count = 0
    midway = 0  # points inside a phase where another seat already answered
    secrets = varied = 0
    for game in range(depth(2, 12)):
        stride = max(1, sum(1 for _ in walk(players, variant, options, game)) // POINTS)
        for number, g in enumerate(walk(players, variant, options, game)):
            if number % stride != game % stride:
                continue
            midway += 0 < len(g.pending()) < players
            for seat in range(players):
                view = remote(g.observe(seat))
                seed = 7919 * number + 31 * game + seat
                rebuilt = GnomevilleState.from_view(view, seed)
                rebuilt_count += 1
                moments.add((view.phase, view.stage))
                assert rebuilt.observe(seat) == view, "the rebuilt position shows another view"
                assert asked(rebuilt, seat) == asked(g, seat), "another decision"
                gnomeville_check(g, rebuilt, seat)  # it differs in hidden things only
                # The very sample determinize draws with this seed (same hidden part).
                assert rebuilt.canonical() == g.determinize(seat, seed).canonical()
                again = GnomevilleState.from_view(view, seed)
                assert again.canonical() == rebuilt.canonical(), "not deterministic in seed"
                truth = gnomeville_secret(g, seat)
                if truth:
                    secrets += 1
                    other = GnomevilleState.from_view(view, seed + 1)
                    varied += gnomeville_secret(other, seat) != gnomeville_secret(rebuilt, seat)
                if rebuilt_count % PLAY_ON_EVERY == 0:
                    play_on(rebuilt, seed)
    assert rebuilt_count > 20
    assert varied > secrets // 2, f"only {varied} of {secrets} pairs of seeds differ"
    phases = {phase for phase, _ in moments}
    assert {"build", "enemy", "buy"} <= phases, moments
    if players > 1:
        assert midway, "no point inside a phase of independent seats"
    if options.get("sides") == "choose":
        assert "sides" in phases
    if variant == "turn-by-turn":
        assert {("build", "draw"), ("build", "place")} <= moments


def test_special_deliveries_in_the_score_phase_are_rebuilt() -> None:
    """The score phase asks only the seats far behind (a special delivery): rarer, so looked
    for on purpose."""
    found = 0
    for game in range(40):
        for g in walk(3, "standard", {}, game):
            if g.phase != "score":
                continue
            for decision in g.pending():
                view = remote(g.observe(decision.seat))
                rebuilt = GnomevilleState.from_view(view, game)
                assert rebuilt.observe(decision.seat) == view
                assert asked(rebuilt, decision.seat) == asked(g, decision.seat)
                assert rebuilt.canonical() == g.determinize(decision.seat, game).canonical()
                found += 1
        if found >= 3:
            break
    assert found >= 3


def test_every_prepared_rare_decision_is_rebuilt() -> None:
    """The conformance kit's positions (ability cards, activations, upgrades, troll spawns,
    deliveries...): every seat's rebuilt position asks what the real one asks, every option
    applies, and it plays on to the end."""
    for name, g in decision_scenarios().items():
        for seat in range(g.players):
            view = remote(g.observe(seat))
            rebuilt = GnomevilleState.from_view(view, seat)
            assert rebuilt.observe(seat) == view, name
            assert asked(rebuilt, seat) == asked(g, seat), name
            for decision in rebuilt.pending():
                for index in range(len(decision.options)):
                    rebuilt.clone().apply(decision.seat, index)
            play_on(rebuilt, seat)


def test_the_view_is_the_only_input() -> None:
    """The view object alone: the real game changed afterwards (hidden cards shuffled, play
    gone on) does not change the rebuilt position, nor does a view decoded from the wire."""
    g = GAME.new(GameConfig(3, "standard"), 4)
    rng = random.Random(4)
    for _ in range(60):
        decision = rng.choice(g.pending())
        g.apply(decision.seat, rng.randrange(len(decision.options)))
    view = g.observe(1)
    before = GnomevilleState.from_view(view, 11).canonical()
    assert GnomevilleState.from_view(remote(view), 11).canonical() == before
    rng.shuffle(g.troll_deck)
    for town in g.towns:
        rng.shuffle(town.ability_pile)
    play_on(g, 5)
    assert GnomevilleState.from_view(view, 11).canonical() == before
    # Nor does playing on a rebuilt position (a search bot rebuilds the same view many times).
    play_on(GnomevilleState.from_view(view, 11), 6)
    assert GnomevilleState.from_view(view, 11).canonical() == before
    # A copy of the view with a field changed rebuilds a position showing that change.
    richer = dataclasses.replace(
        view, towns=tuple(dataclasses.replace(t, mushrooms=t.mushrooms + 1) for t in view.towns)
    )
    assert GnomevilleState.from_view(richer, 11).observe(1) == richer


def test_hidden_cards_are_drawn_from_the_unseen_ones_evenly() -> None:
    """Across seeds the next troll card, the face-down events and the top of another seat's
    pile are spread over every card the seat has not seen, as determinize spreads them."""
    g = GAME.new(GameConfig(2, "standard"), 9)
    seat = 0
    view = g.observe(seat)
    seeds = range(400)
    samples = [GnomevilleState.from_view(view, s) for s in seeds]
    trolls = Counter(s.troll_deck[0] for s in samples)
    events = Counter(e for s in samples for e in s.events[s.events_up :])
    piles = Counter(s.towns[1].ability_pile[0] for s in samples)
    shown = {card for town in g.towns for card in town.ability if card != -1}
    for counts, pool in (
        (trolls, set(g.troll_deck)),
        (events, set(range(len(g.pack.multi_events))) - set(g.events[: g.events_up])),
        (piles, set(range(len(g.pack.abilities))) - shown),
    ):
        assert set(counts) == pool
        mean = sum(counts.values()) / len(pool)
        assert all(0.4 * mean < n < 1.8 * mean for n in counts.values()), counts
    # determinize draws the same distribution (here: the same cards, seed by seed).
    assert trolls == Counter(g.determinize(seat, s).troll_deck[0] for s in seeds)


def test_moments_that_cannot_be_rebuilt() -> None:
    g = GAME.new(GameConfig(2, "standard"), 1)
    with pytest.raises(ValueError, match="spectator"):
        GnomevilleState.from_view(g.observe(None), 1)
    play_on(g, 1)
    with pytest.raises(ValueError, match="'over'"):
        GnomevilleState.from_view(g.observe(0), 1)
    with pytest.raises(TypeError, match="GnomevilleView"):
        GnomevilleState.from_view(object(), 1)


def test_a_match_with_its_own_content_pack() -> None:
    """The view names cards by id: a match with its own pack is rebuilt with that pack."""
    text = resources.files("games.gnomeville").joinpath("content/standard.toml").read_text()
    data = tomllib.loads(text)
    for card in data["troll_cards"]:
        card["id"] = "house-" + card["id"]
    content = json.dumps(data)
    g = GAME.new(GameConfig(2, "standard", {"content": content}), 3)
    view = g.observe(0)
    assert view.round_card.startswith("house-")
    with pytest.raises(ValueError, match="content pack"):
        GnomevilleState.from_view(view, 5)
    rebuilt = GnomevilleState.from_view(view, 5, load_pack(content))
    assert rebuilt.observe(0) == view
    assert rebuilt.canonical() == g.determinize(0, 5).canonical()
