"""The turn-by-turn build phase: everyone draws, the tiles are revealed together, everyone
places and resolves, then draws again; a pass is final (the seed's variant; ruling G31)."""

from __future__ import annotations

from games.gnomeville import GnomevilleState
from games.gnomeville.buildings import Tile
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY
from tests.gnomeville.helpers import (
    bag,
    choose,
    clear,
    decision,
    events_of,
    force_draws,
    kind,
    kinds,
    new_state,
    play,
    town,
)


def tbt(players: int = 2, seed: int = 1) -> GnomevilleState:
    """A turn-by-turn game with empty towns, markets and houses in every bag, empty stews."""
    g = new_state(players, "turn-by-turn", seed=seed)
    for seat in range(players):
        t = clear(town(g, seat))
        bag(t, market=4, house=2)
        t.stew = False
    return g


def test_every_seat_draws_then_the_tiles_are_revealed_together() -> None:
    assert "revealed together" in ruling("G31")
    g = tbt()
    assert g.stage == "draw"
    assert kinds(g) == {0: "build.draw", 1: "build.draw"}
    force_draws(town(g, 0), "house")
    events = choose(g, "draw", 0)
    assert [e.private_to for e in events if e.kind == "draw"] == [0]  # a secret for now
    assert kinds(g) == {1: "build.draw"}  # seat 0 waits: no placing before the reveal
    assert g.observe(1).drawn == EMPTY
    force_draws(town(g, 1), "market")
    events = choose(g, "draw", 1)
    (reveal,) = [e for e in events if e.kind == "reveal"]
    assert reveal.private_to is None and reveal.data["tiles"] == ["house", "market"]
    public_draws = [e.data["tile"] for e in events if e.kind == "draw" and e.private_to is None]
    assert public_draws == ["house", "market"]  # both draws published at the barrier
    assert g.stage == "place"
    assert kinds(g) == {0: "build.place", 1: "build.place"}


def test_after_everyone_has_placed_everyone_draws_again() -> None:
    g = tbt()
    choose(g, "draw", 0)
    choose(g, "draw", 1)
    choose(g, "place:a1", 0)
    assert kinds(g) == {1: "build.place"}  # seat 0 waits for seat 1 to place
    choose(g, "place:a1", 1)
    assert g.stage == "draw"
    assert kinds(g) == {0: "build.draw", 1: "build.draw"}


def test_a_pass_is_final_and_the_others_go_on_drawing() -> None:
    g = tbt()
    choose(g, "pass", 1)
    choose(g, "draw", 0)
    assert kinds(g) == {0: "build.place"}
    choose(g, "place:a1", 0)
    assert kinds(g) == {0: "build.draw"}
    assert town(g, 1).passed


def test_an_empty_bag_is_a_final_pass() -> None:
    g = tbt()
    bag(town(g, 1), market=1)
    choose(g, "draw", 0)
    choose(g, "draw", 1)
    choose(g, "place:a1", 0)
    events = choose(g, "place:a1", 1)  # the next draw stage opens: seat 1's bag is empty
    assert events_of(events, "pass") == [{"seat": 1, "reason": "empty bag"}]
    assert kinds(g) == {0: "build.draw"}
    bag(town(g, 1), market=1)
    choose(g, "draw", 0)
    choose(g, "place:b1", 0)
    assert kinds(g) == {0: "build.draw"}  # a tile in the bag again does not bring it back


def test_the_second_chance_is_settled_before_the_reveal() -> None:
    g = tbt()
    town(g, 0).stew = True
    force_draws(town(g, 0), "house", "market")
    play(g, 0, "draw", "return", "draw")
    assert kinds(g) == {1: "build.draw"}
    events = choose(g, "draw", 1)
    (reveal,) = [e for e in events if e.kind == "reveal"]
    assert reveal.data["tiles"][0] == "market"  # the kept tile, not the returned one
    assert town(g, 0).bag[Tile.HOUSE] == 2


def test_a_gnome_tile_moves_in_the_place_stage_and_the_third_one_ends_the_seats_phase() -> None:
    g = tbt()
    t = town(g, 0)
    bag(t, gnome=1, market=3)
    t.stumps = 2
    force_draws(t, "gnome")
    choose(g, "draw", 0)
    choose(g, "draw", 1)
    assert kinds(g) == {0: "move.step", 1: "build.place"}
    assert t.stuck
    play(g, 0, "move:0:N", "move:0:N", "move:0:E")
    choose(g, "place:a1", 1)
    assert kinds(g) == {1: "build.draw"}  # stuck: seat 0 draws no more this round


def test_the_phase_ends_when_nobody_builds() -> None:
    g = tbt()
    choose(g, "pass", 0)
    choose(g, "pass", 1)
    assert g.phase != "build" or g.round > 1


def test_the_order_in_which_seats_answer_does_not_matter() -> None:
    def run(order: tuple[int, ...]) -> tuple[object, ...]:
        g = new_state(3, "turn-by-turn", seed=11)
        for _ in range(3):
            for seat in order:
                if kind(g, seat) == "build.draw":
                    choose(g, "draw", seat)
            for seat in order:
                while kind(g, seat) in ("build.second_chance",):
                    choose(g, "keep", seat)
            for seat in order:
                if kind(g, seat) == "build.place":
                    g.apply(seat, len(decision(g, seat).options) - 1)
                elif kind(g, seat) == "move.step":
                    choose(g, "stop", seat)
        return g.canonical()

    assert run((0, 1, 2)) == run((2, 1, 0)) == run((1, 0, 2))
