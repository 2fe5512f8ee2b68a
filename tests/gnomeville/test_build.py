"""Phase 2, build: drawing, the second chance, placing, gnome tiles, stuck, passing, and random
games that keep every tile (the seed's build phase; rulings G3, G4, G29)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games.contract import GameConfig, replay
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.buildings import KINDS, Tile
from games.gnomeville.movement import MoveStep
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY
from tests.conftest import Depth
from tests.gnomeville.helpers import (
    bag,
    boulder,
    choose,
    clear,
    decision,
    events_of,
    force_draws,
    give_ability,
    keys,
    kind,
    new_state,
    play,
    play_random,
    put,
    random_answer,
    sp,
    tile_counts,
    town,
    troll,
)


def test_a_build_phase_starts_with_draw_or_pass_for_every_seat() -> None:
    g = new_state(3)
    assert g.phase == "build"
    assert {d.seat: d.kind for d in g.pending()} == {
        0: "build.draw",
        1: "build.draw",
        2: "build.draw",
    }
    assert keys(g, 1) == ["draw", "pass"]


def test_a_drawn_tile_leaves_the_bag_and_is_held_until_placed() -> None:
    g = new_state(1)
    t = town(g)
    clear(t)
    bag(t, market=2, house=1)
    t.stew = False
    force_draws(t, "house")
    events = choose(g, "draw")
    assert t.drawn == Tile.HOUSE
    assert t.bag[Tile.HOUSE] == 0 and t.bag[Tile.MARKET] == 2
    assert events_of(events, "draw") == [{"seat": 0, "tile": "house"}]
    assert kind(g) == "build.place"


def test_draws_are_without_replacement_until_the_bag_is_empty_then_the_seat_passes() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, market=1, house=1, workshop=1)
    t.stew = False
    drawn = []
    for space in ("a1", "c1", "e1"):
        choose(g, "draw")
        drawn.append(t.drawn)
        choose(g, f"place:{space}")
    assert sorted(drawn) == [Tile.MARKET, Tile.HOUSE, Tile.WORKSHOP]
    assert t.passed  # the empty bag passed by itself: no build.draw was asked
    assert g.phase != "build" or kind(g) != "build.draw"


def test_draws_use_each_towns_own_stream_whatever_order_seats_answer() -> None:
    def run(order: tuple[int, ...]) -> tuple[object, ...]:
        g = new_state(3, seed=7)
        table = g.rng.getstate()
        for seat in order:
            choose(g, "draw", seat)
        assert g.rng.getstate() == table  # the shared stream is not used by a draw
        for seat in reversed(order):
            choose(g, "keep", seat)
        return g.canonical()

    assert run((0, 1, 2)) == run((2, 0, 1)) == run((1, 2, 0))


def test_the_draw_is_uniform_over_the_tiles_in_the_bag() -> None:
    g = new_state(1)
    t = town(g)
    counts = [0] * KINDS
    from games.gnomeville.build import draw_tile

    for _ in range(4000):
        bag(t, market=3, house=1)
        counts[draw_tile(t)] += 1
    assert 2800 < counts[Tile.MARKET] < 3200
    assert counts[Tile.MARKET] + counts[Tile.HOUSE] == 4000


def test_the_second_chance_is_offered_only_with_a_full_stew() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, market=3)
    choose(g, "draw")
    assert kind(g) == "build.second_chance"
    assert keys(g) == ["keep", "return"]
    choose(g, "keep")
    choose(g, "place:a1")
    t.stew = False
    choose(g, "draw")
    assert kind(g) == "build.place"


def test_returning_puts_the_tile_back_empties_the_stew_and_goes_back_to_draw_or_pass() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, market=1, house=1)
    force_draws(t, "house")
    events = play(g, 0, "draw", "return")
    assert t.bag[Tile.HOUSE] == 1 and t.drawn == EMPTY
    assert t.stew is False
    assert events_of(events, "second_chance") == [{"seat": 0, "tile": "house", "by": "return"}]
    assert keys(g) == ["draw", "pass"]
    choose(g, "draw")
    assert kind(g) == "build.place"  # the stew is empty now: no second chance


def test_the_second_chance_works_again_after_a_tavern_refills_the_stew() -> None:
    g = new_state(1)
    t = clear(town(g), gnome="c3")
    put(t, "tavern", "c2")
    bag(t, market=2, gnome=1)
    force_draws(t, "market", "gnome", "market")
    play(g, 0, "draw", "return")  # stew now empty
    choose(g, "draw")  # the gnome tile: no second chance, it is placed at once
    assert kind(g) == "move.step"
    play(g, 0, "move:0:N", "activate")  # the tavern fills the stew
    assert t.stew is True
    choose(g, "draw")
    assert keys(g) == ["keep", "return"]
    choose(g, "return")
    assert t.stew is False and t.bag[Tile.MARKET] == 2


def test_a_gnome_tile_can_be_returned_before_it_is_placed_but_not_after() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, gnome=1, market=1)
    force_draws(t, "gnome")
    choose(g, "draw")
    assert keys(g) == ["keep", "return"]  # before placing, even a gnome tile
    choose(g, "keep")
    assert kind(g) == "move.step"
    choose(g, "stop")
    assert kind(g) == "build.draw"  # no second chance after the placement
    assert t.stumps == 1 and t.stew is True


def test_a_building_goes_only_on_an_empty_space() -> None:
    g = new_state(1)
    t = clear(town(g), gnome="c3")
    put(t, "house", "a1")
    boulder(t, "b1")
    troll(t, "c1")
    bag(t, market=1)
    t.stew = False
    choose(g, "draw")
    offered = {k.split(":")[1] for k in keys(g)}
    assert offered == {f"{c}{r}" for c in "abcde" for r in "12345"} - {"a1", "b1", "c1", "c3"}


def test_placing_a_building_puts_it_on_the_board_and_goes_on_drawing() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, house=1, market=1)
    t.stew = False
    force_draws(t, "house")
    events = play(g, 0, "draw", "place:b2")
    assert t.tiles[sp("b2")] == Tile.HOUSE and t.drawn == EMPTY
    assert events_of(events, "place") == [{"seat": 0, "tile": "house", "space": "b2"}]
    assert keys(g) == ["draw", "pass"]


def test_a_building_that_fits_nowhere_goes_back_and_the_seat_passes() -> None:
    # Towerville: height marks take only tiers at or above their number (ruling G13).
    g = new_state(1, towns="5")
    t = clear(town(g))
    marks = t.layout.heights
    assert marks, "Towerville needs height marks"
    for space in range(25):
        if space not in marks and space != sp("c3"):
            t.tiles[space] = Tile.HOUSE
    bag(t, market=1, tavern=0)
    t.stew = False
    events = choose(g, "draw")
    assert t.bag[Tile.MARKET] == 1 and t.drawn == EMPTY
    assert t.passed
    assert events_of(events, "pass") == [{"seat": 0, "reason": "no space"}]


def test_towerville_marks_take_only_high_enough_tiers() -> None:
    g = new_state(1, towns="5")
    t = clear(town(g))
    marks = t.layout.heights
    bag(t, tavern=1)
    t.stew = False
    choose(g, "draw")
    offered = {sp(k.split(":")[1]) for k in keys(g)}
    for space, need in marks.items():
        assert (space in offered) == (need <= 3)


@pytest.mark.parametrize(("monuments", "expected"), [(0, (1, 2, 3)), (2, (3, 4, 5))])
def test_gnome_tiles_cover_the_stumps_top_to_bottom_worth_1_2_3_plus_monuments(
    monuments: int, expected: tuple[int, int, int]
) -> None:
    assert "1, 2 and 3" in ruling("G3")
    g = new_state(2)
    t = clear(town(g))
    put(t, "monument", *["a1", "e5"][:monuments])
    bag(t, gnome=3)
    t.stew = False
    gained = []
    for stump in range(3):
        events = choose(g, "draw")
        tile_event = events_of(events, "gnome_tile")[0]
        assert tile_event["stump"] == stump + 1
        gained.append(tile_event["movement"])
        assert g.stacks[0][-1].fields()["points"] == tile_event["movement"]
        choose(g, "stop")
    assert tuple(gained) == expected
    assert t.stumps == 3 and t.set_aside[Tile.GNOME] == 3


def test_the_third_gnome_tile_makes_the_seat_stuck_it_still_moves_then_stops_building() -> None:
    g = new_state(2)
    t = clear(town(g))
    bag(t, gnome=3, market=4)
    t.stew = False
    force_draws(t, "gnome", "gnome")
    play(g, 0, "draw", "stop", "draw", "stop")
    assert not t.stuck
    force_draws(t, "gnome")
    events = choose(g, "draw")
    assert t.stuck and events_of(events, "stuck") == [{"seat": 0}]
    assert kind(g) == "move.step"  # the seed's FAQ: a stuck player may still move
    play(g, 0, "move:0:N", "move:0:E", "move:0:E")
    assert t.mushrooms == 2 + 3
    assert kind(g) == ""  # no more drawing this round
    assert t.bag[Tile.MARKET] == 4
    assert kind(g, 1) == "build.draw"  # the other seat builds on


def test_a_pass_is_final_for_the_round() -> None:
    assert "final" in ruling("G4")
    g = new_state(2)
    t = town(g)
    events = choose(g, "pass")
    assert t.passed and events_of(events, "pass") == [{"seat": 0, "reason": "chose"}]
    assert kind(g) == ""
    choose(g, "draw", 1)
    assert kind(g) == ""  # seat 0 is not asked again while seat 1 builds
    assert kind(g, 1) in ("build.second_chance", "build.place", "move.step")


def test_a_stew_card_fills_an_empty_stew_before_a_draw() -> None:
    assert "before a draw" in ruling("G29")
    g = new_state(1)
    t = clear(town(g))
    bag(t, market=3)
    give_ability(g, t, 0, "stew")
    assert keys(g) == ["draw", "pass"]  # the pending decision was asked with a full stew
    t.stew = False
    play(g, 0, "draw", "place:a1")
    assert keys(g) == ["draw", "pass", "stew"]
    choose(g, "stew")
    assert t.stew is True and t.ability_used[0]
    assert keys(g) == ["draw", "pass"]
    play(g, 0, "draw", "return")
    assert "stew" not in keys(g)  # once per round


def test_a_redraw_card_returns_the_tile_without_the_stew() -> None:
    g = new_state(1)
    t = clear(town(g))
    bag(t, market=1, house=1)
    give_ability(g, t, 0, "redraw")
    t.stew = False
    force_draws(t, "house", "house")
    choose(g, "draw")
    assert keys(g) == ["keep", "redraw"]
    choose(g, "redraw")
    assert t.bag[Tile.HOUSE] == 1 and t.stew is False and t.ability_used[0]
    choose(g, "draw")
    assert kind(g) == "build.place"  # spent for the round


def test_a_drawn_tile_is_the_seats_secret_until_the_phase_ends() -> None:
    g = new_state(2)
    events = choose(g, "draw", 0)
    (draw,) = [e for e in events if e.kind == "draw"]
    assert draw.private_to == 0
    assert g.observe(1).towns[0].bag == g.snapshot[0].bag  # seat 1 sees the last barrier
    assert g.observe(1).drawn == EMPTY
    assert g.observe(0).drawn == town(g, 0).drawn


def test_every_option_of_every_build_decision_has_a_distinct_key() -> None:
    g = new_state(4, seed=3)
    rng = random.Random(3)
    for _ in range(400):
        if not g.pending():
            break
        d = g.pending()[0]
        option_keys = [o.key for o in d.options]
        assert len(set(option_keys)) == len(option_keys), (d.kind, option_keys)
        assert len(d.options) > 1
        g.apply(d.seat, rng.randrange(len(d.options)))


def test_stuck_and_pass_flags_are_cleared_when_the_next_build_phase_opens() -> None:
    from games.gnomeville.build import begin_build

    g = new_state(1)
    t = town(g)
    t.passed = t.stuck = True
    t.stumps = 3
    g.stacks[0].clear()
    begin_build(g)
    assert not t.passed and not t.stuck and t.stumps == 0
    assert decision(g).kind == "build.draw" or g.stacks[0]


# ---------------------------------------------------------------------- random games

VARIANTS = ("standard", "turn-by-turn", "master-build")


def invariants(before: list[int]) -> Callable[[GnomevilleState], None]:
    """A check after every answer: tiles kept (per kind, wherever they are), no negative
    mushrooms or bag counts, gnomes on distinct spaces but while one passes through (G20),
    and every decision pending a real choice (2+ options, distinct keys)."""

    def check(state: GnomevilleState) -> None:
        assert tile_counts(state) == before
        for t in state.towns:
            assert t.mushrooms >= 0
            assert all(n >= 0 for n in t.bag)
            deployed = [s for s in t.gnome_at if s != EMPTY]
            if len(deployed) != len(set(deployed)):
                moving = [s for s in state.stacks[t.seat] if isinstance(s, MoveStep)]
                assert moving and moving[-1].through != EMPTY
        for d in state.pending():
            option_keys = {o.key for o in d.options}
            assert len(option_keys) == len(d.options) > 1, (d.kind, option_keys)

    return check


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_finish_keeping_every_tile_and_never_owing_mushrooms(
    players: int, variant: str, depth: Depth
) -> None:
    games = depth(fast=6, slow=300)
    for seed in range(games):
        sides = "back" if seed % 2 else "front"
        g = new_state(players, variant, seed=seed, sides=sides)
        play_random(g, random.Random(seed), pass_rate=0.05, check=invariants(tile_counts(g)))
        assert g.is_over and g.round == 5 and g.phase == "over"  # always five rounds
        if seed < 2:
            config = GameConfig(players, variant, {"sides": sides})
            assert replay(GAME, config, seed, g.history).digest() == g.digest()


@pytest.mark.parametrize("variant", ["standard", "turn-by-turn"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_order_in_which_seats_answer_never_changes_the_game(
    players: int, variant: str, depth: Depth
) -> None:
    """Each seat answers from its own random stream; answering in seat order or in reverse
    order must give the very same game (own bag streams, supply shares: ruling G18)."""
    for seed in range(depth(fast=3, slow=30)):
        finals = []
        for reverse in (False, True):
            g = new_state(players, variant, seed=seed, sides="back")
            streams = [random.Random(seed * 10 + seat) for seat in range(players)]
            while g.pending():
                for d in sorted(g.pending(), key=lambda d: -d.seat if reverse else d.seat):
                    g.apply(d.seat, random_answer(streams[d.seat], d, 0.05))
            finals.append(g.canonical())
        assert finals[0] == finals[1]


def test_every_event_reads_as_one_line_and_build_events_have_their_own_words() -> None:
    from games.gnomeville.describe import _LINES, describe, generic

    seen: set[str] = set()
    for seed, variant in enumerate(VARIANTS * 3):
        g = new_state(2, variant, seed=seed, sides="back")
        rng = random.Random(seed)
        while g.pending():
            for d in g.pending():
                for event in g.apply(d.seat, random_answer(rng, d, 0.05)):
                    line = describe(event)
                    assert line and "\n" not in line
                    if event.kind in _LINES:
                        seen.add(event.kind)
                        assert line != generic(event), event
    assert {"draw", "place", "move", "mushroom", "gnome_tile", "stacked", "upgrade"} <= seen
