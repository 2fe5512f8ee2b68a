"""Phase 4, score: upgrade stacks (G2), events and their ties (G16), the full board (G52) and
the special delivery (G12, G45, G46), as the seed describes them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.gnomeville import GnomevilleState, scoring
from games.gnomeville.buildings import Tile
from games.gnomeville.content import Bonus, Delivery, MultiEvent, SoloEvent
from games.gnomeville.rulings import ruling
from games.gnomeville.town import EMPTY
from tests.gnomeville.helpers import bag, boulder, put, put_gnome, sp, town, troll
from tests.gnomeville.late_phases import answer, offered, run, table

# ---------------------------------------------------------------------- stacks


@pytest.mark.parametrize(
    ("height", "vp"), [(3, 3), (4, 4), (5, 6), (6, 8), (8, 12), (9, 14), (10, 15), (14, 19)]
)
def test_g2_a_stack_scores_its_height_plus_the_bonus(height: int, vp: int) -> None:
    assert "min(max(h - 4, 0), 5)" in ruling("G2")
    assert scoring.stack_vp(height) == vp


def test_the_seeds_chain_of_six_scores_eight_and_every_stack_scores_apart() -> None:
    g = table()
    t = town(g)
    markets, workshops = [int(Tile.MARKET)] * 3, [int(Tile.WORKSHOP)] * 3
    t.stacks = [markets + workshops, markets[:]]
    scoring.score_round(g)
    assert t.vp == 8 + 3


# ---------------------------------------------------------------------- events


def test_satchel_sprint_the_seeds_example() -> None:
    # Player 1 has 3 tiles left, players 2 and 3 five each: 5 VP, then 1 VP each.
    assert scoring.place_points([3, 5, 5], "fewest", 5, 1) == [5, 1, 1]


def test_a_tie_for_first_splits_first_plus_second_rounding_up_and_no_second() -> None:
    assert scoring.place_points([4, 4, 1], "most", 4, 1) == [3, 3, 0]
    assert scoring.place_points([2, 2, 2, 0], "most", 5, 1) == [2, 2, 2, 0]


def test_a_tie_for_second_splits_second_rounding_up() -> None:
    assert scoring.place_points([9, 4, 4, 4], "most", 6, 2) == [6, 1, 1, 1]
    assert scoring.place_points([9, 4, 1, 0], "most", 6, 3) == [6, 3, 0, 0]


def test_two_players_get_no_second_place() -> None:
    assert scoring.place_points([2, 7], "most", 5, 1) == [0, 5]


def test_g16_a_two_player_tie_and_nobody_meeting_the_condition_are_ties_for_first() -> None:
    assert "2-player tie" in ruling("G16")
    assert scoring.place_points([3, 3], "most", 5, 2) == [4, 4]
    assert scoring.place_points([0, 0, 0], "most", 4, 2) == [2, 2, 2]


def _events(g: GnomevilleState, *events: MultiEvent) -> None:
    g.pack = replace(g.pack, multi_events=events)
    g.events = list(range(len(events)))
    g.events_up = len(events)


def test_face_up_events_score_leftmost_first_and_face_down_ones_do_not() -> None:
    g = table(players=3)
    _events(
        g,
        MultiEvent("satchel", "Satchel", "bag_tiles", "fewest", 5, 1),
        MultiEvent("hoard", "Hoard", "mushrooms", "most", 4, 2),
        MultiEvent("trolls", "Trolls", "trolls", "most", 7, 3),
    )
    g.events_up = 2
    for t, tiles, mushrooms in zip(g.towns, (3, 5, 5), (1, 2, 6), strict=True):
        bag(t, market=tiles)
        t.mushrooms = mushrooms
    g._events = []
    scoring.score_round(g)
    assert [t.vp for t in g.towns] == [5 + 0, 1 + 2, 1 + 4]
    scored = [e.data["event"] for e in g._events if e.kind == "score"]
    assert scored == ["satchel"] * 3 + ["hoard"] * 3


def test_solo_events_score_the_highest_threshold_reached() -> None:
    most = SoloEvent("m", "M", "mushrooms", "most", ((4, 2), (7, 4), (10, 6)))
    fewest = SoloEvent("f", "F", "boulders", "fewest", ((2, 1), (0, 3)))
    assert [scoring.solo_points(v, most) for v in (3, 4, 9, 12)] == [0, 2, 4, 6]
    assert [scoring.solo_points(v, fewest) for v in (3, 2, 1, 0)] == [0, 1, 1, 3]
    g = table(players=1)
    g.pack = replace(g.pack, solo_events=(most,))
    g.events, g.events_up = [0], 1
    town(g).mushrooms = 7
    scoring.score_round(g)
    assert town(g).vp == 4


# ---------------------------------------------------------------------- full board


def _fill(g: GnomevilleState, seat: int = 0, leave: str = "") -> None:
    t = town(g, seat)
    for space in range(25):
        if space != t.gnome_at[0] and t.tiles[space] == EMPTY:
            t.tiles[space] = int(Tile.MARKET)
    if leave:
        t.tiles[sp(leave)] = EMPTY


def test_g52_a_board_without_an_empty_space_scores_ten() -> None:
    assert "full" in ruling("G52")
    g = table(players=2)
    _fill(g, 0)
    t = town(g, 0)
    t.tiles[sp("a1")] = EMPTY
    boulder(t, "a1")  # a boulder fills a space too
    t.tiles[sp("a2")] = EMPTY
    troll(t, "a2")
    _fill(g, 1, leave="e5")
    scoring.score_round(g)
    assert (town(g, 0).vp, town(g, 0).full) == (10, True)
    assert (town(g, 1).vp, town(g, 1).full) == (0, False)


# ---------------------------------------------------------------------- special delivery


def _delivery(g: GnomevilleState, *groups: tuple[Bonus, ...]) -> None:
    padded = (*groups, (), ())[:3]
    card = Delivery("test-delivery", (padded[0], padded[1], padded[2]))
    g.pack = replace(g.pack, deliveries=(card,))
    g.delivery_deck = [0]


def test_the_seeds_example_twelve_behind_gets_the_first_two_groups() -> None:
    g = table(players=3)
    _delivery(
        g,
        (Bonus("mushrooms", 1),),
        (Bonus("mushrooms", 2),),
        (Bonus("mushrooms", 4),),
    )
    for t, vp in zip(g.towns, (30, 18, 24), strict=True):
        t.vp = vp
        t.mushrooms = 0
    scoring.begin_deliveries(g)
    for seat in range(3):
        run(g, seat)
    assert g.delivery_card == 0 and g.delivery_deck == []
    assert [t.mushrooms for t in g.towns] == [0, 1 + 2, 1]


def test_g12_the_gaps_are_strictly_more_than_five_ten_fifteen() -> None:
    assert "fixed before" in ruling("G12")
    g = table(players=4)
    _delivery(g, (Bonus("mushrooms", 1),), (Bonus("mushrooms", 10),), (Bonus("mushrooms", 100),))
    for t, vp in zip(g.towns, (20, 15, 5, 4), strict=True):
        t.vp = vp
        t.mushrooms = 0
    g._events = []
    scoring.begin_deliveries(g)
    for seat in range(4):
        run(g, seat)
    assert [t.mushrooms for t in g.towns] == [0, 0, 11, 111]
    assert [e.data["groups"] for e in g._events if e.kind == "delivery"] == [[0, 0, 2, 3]]


def test_g46_a_bonus_that_cannot_be_taken_gives_a_mushroom_without_a_question() -> None:
    assert "without a question" in ruling("G46")
    g = table(players=2)
    _delivery(g, (Bonus("stew"), Bonus("remove_boulder"), Bonus("remove_troll"), Bonus("sword")))
    town(g, 0).vp = 10
    t = town(g, 1)
    t.stew = True
    t.sword[0] = True
    t.mushrooms = 0
    scoring.begin_deliveries(g)
    run(g, 1)
    assert offered(g, 1) == ("", [])
    assert t.mushrooms == 4


def test_a_bonus_is_taken_or_swapped_for_a_mushroom() -> None:
    g = table(players=2)
    _delivery(
        g,
        (
            Bonus("tile", tile=Tile.TAVERN),
            Bonus("sword"),
            Bonus("remove_troll"),
            Bonus("stew"),
            Bonus("hammer"),
        ),
    )
    town(g, 0).vp = 6
    t = town(g, 1)
    put_gnome(t, 2, "a5")
    troll(t, "b1", "d1")
    t.stew = False
    t.mushrooms = 0
    supply = g.supply[Tile.TAVERN]
    scoring.begin_deliveries(g)
    run(g, 1)
    assert offered(g, 1) == ("delivery.bonus", ["take", "mushroom"])
    answer(g, 1, "take")
    assert t.bag[Tile.TAVERN] == 1 and t.taken[Tile.TAVERN] == 1
    assert offered(g, 1) == ("delivery.bonus", ["take:c3", "take:a5", "mushroom"])
    answer(g, 1, "take:a5")
    assert t.sword == [False, False, True]
    assert offered(g, 1) == ("delivery.bonus", ["remove:b1", "remove:d1", "mushroom"])
    answer(g, 1, "remove:d1")
    assert t.trolls == [sp("b1")]
    assert offered(g, 1) == ("delivery.bonus", ["take", "mushroom"])
    answer(g, 1, "mushroom")
    assert not t.stew and t.mushrooms == 1
    answer(g, 1, "mushroom")
    assert t.mushrooms == 2 and offered(g, 1) == ("", [])
    g._close_phase()
    assert g.supply[Tile.TAVERN] == supply - 1


def test_g45_a_mushrooms_bonus_is_never_asked() -> None:
    assert "without a question" in ruling("G45")
    g = table(players=2)
    _delivery(g, (Bonus("mushrooms", 3), Bonus("remove_boulder")))
    town(g, 0).vp = 6
    t = town(g, 1)
    boulder(t, "e1")
    t.mushrooms = 0
    scoring.begin_deliveries(g)
    run(g, 1)
    assert t.mushrooms == 3
    assert offered(g, 1) == ("delivery.bonus", ["remove:e1", "mushroom"])
    answer(g, 1, "remove:e1")
    assert not t.boulders[sp("e1")]


def test_nobody_behind_nobody_asked_and_no_delivery_solo() -> None:
    g = table(players=2)
    _delivery(g, (Bonus("stew"),))
    for t in g.towns:
        t.vp, t.stew = 7, False
    scoring.begin_deliveries(g)
    assert all(not stack for stack in g.stacks)
    g = table(players=1)
    deck = list(g.delivery_deck)
    scoring.begin_deliveries(g)
    assert g.delivery_card == EMPTY and g.delivery_deck == deck == []


def test_the_delivery_is_discarded_after_the_round() -> None:
    from games.gnomeville import refresh

    g = table(players=2)
    _delivery(g, (Bonus("mushrooms", 1),))
    scoring.begin_deliveries(g)
    assert g.delivery_card == 0
    g.round = 1
    refresh.refresh_round(g)
    assert g.delivery_card == EMPTY


def test_buildings_are_counted_for_events_with_put() -> None:
    g = table(players=2)
    _events(g, MultiEvent("market-day", "Market Day", "tile:market", "most", 3, 1))
    put(town(g, 1), "market", "a1", "a2")
    scoring.score_round(g)
    assert [t.vp for t in g.towns] == [0, 3]
