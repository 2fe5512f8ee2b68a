"""Root's data checked against a digest of the Law of Root and the printed game ("the digest").

The expected values below are typed again from the digest's tables, in the digest's own layout
(per-clearing adjacency lists, per-card rows, totals), so a slip in the engine's data shows up as
a mismatch rather than being copied into the test.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from games.root import cards, items, maps, tracks
from games.root.cards import AMBUSH, DOMINANCE, FAVOR, ITEM, PERSISTENT, STANDARD_DECK
from games.root.maps import AUTUMN, WINTER, Board
from games.root.suits import ANY, BIRD, CLEARING_SUITS, FOX, MOUSE, RABBIT

# -- Maps -----------------------------------------------------------------------------------------

# P: (suit, slots incl. ruin, ruin, opposite corner or None, adjacent clearings) — digest §1.2.
AUTUMN_TABLE = {
    1: (FOX, 1, False, 3, {5, 9, 10}),
    2: (MOUSE, 2, False, 4, {5, 6, 10}),
    3: (RABBIT, 1, False, 1, {6, 7, 11}),
    4: (RABBIT, 1, False, 2, {8, 9, 12}),
    5: (RABBIT, 2, False, None, {1, 2}),
    6: (FOX, 2, True, None, {2, 3, 11}),
    7: (MOUSE, 2, False, None, {3, 8, 12}),
    8: (FOX, 2, False, None, {4, 7}),
    9: (MOUSE, 2, False, None, {1, 4, 12}),
    10: (RABBIT, 2, True, None, {1, 2, 12}),
    11: (MOUSE, 3, True, None, {3, 6, 12}),
    12: (FOX, 2, True, None, {4, 7, 9, 10, 11}),
}
AUTUMN_PATHS = (
    "1-5, 1-9, 1-10, 2-5, 2-6, 2-10, 3-6, 3-7, 3-11, 4-8, 4-9, 4-12, "
    "6-11, 7-8, 7-12, 9-12, 10-12, 11-12"
)
# Digest label: (bordering clearings, adjacent forests). Engine ids are the labels' compass part.
AUTUMN_FORESTS = {
    "F-N": ({1, 2, 5, 10}, {"F-NW", "F-C"}),
    "F-NW": ({1, 9, 10, 12}, {"F-N", "F-C", "F-W"}),
    "F-C": ({2, 6, 10, 11, 12}, {"F-N", "F-NW", "F-S", "F-E"}),
    "F-W": ({4, 9, 12}, {"F-NW", "F-SW"}),
    "F-SW": ({4, 7, 8, 12}, {"F-W", "F-S"}),
    "F-S": ({3, 7, 11, 12}, {"F-C", "F-SW", "F-E"}),
    "F-E": ({3, 6, 11}, {"F-C", "F-S"}),
}

# P: (slots incl. ruin, ruin, opposite corner or None, adjacent clearings) — digest §1.3.
WINTER_TABLE = {
    1: (1, False, 3, {5, 10, 11}),
    2: (1, False, 4, {6, 7, 12}),
    3: (2, False, 1, {7, 8, 12}),
    4: (2, False, 2, {9, 10, 11}),
    5: (2, False, None, {1, 6}),
    6: (2, False, None, {2, 5}),
    7: (1, False, None, {2, 3}),
    8: (2, True, None, {3, 9, 12}),
    9: (2, True, None, {4, 8, 11}),
    10: (1, False, None, {1, 4}),
    11: (3, True, None, {1, 4, 9}),
    12: (3, True, None, {2, 3, 8}),
}
WINTER_PATHS = (
    "1-5, 1-10, 1-11, 2-6, 2-7, 2-12, 3-7, 3-8, 3-12, 4-9, 4-10, 4-11, 5-6, 8-9, 8-12, 9-11"
)
WINTER_FOREST_SETS = [
    {1, 2, 5, 6, 11, 12},
    {1, 10, 11},
    {2, 7, 12},
    {8, 9, 11, 12},
    {4, 10, 11},
    {3, 8, 12},
    {3, 7, 12},
    {4, 9, 11},
]


def _pairs(text: str) -> set[frozenset[int]]:
    return {frozenset(int(x) for x in p.split("-")) for p in re.split(r"[,\s–]+", text) if p}


def _dividers(board: Board) -> set[frozenset[int]]:
    lines = {frozenset(p) for p in board.paths}
    if board.river_divides_forests:
        lines |= {frozenset(r) for r in board.river}
    return lines


def test_autumn_clearings_match_the_digest_table() -> None:
    """§1.2 table: suit, slots, ruin, corner and opposite, and each clearing's paths."""
    assert [cl.id for cl in AUTUMN.clearings] == list(range(1, 13))
    for c, (suit, slots, ruin, opposite, adj) in AUTUMN_TABLE.items():
        cl = AUTUMN.clearing(c)
        assert (cl.suit, cl.slots, cl.ruin, cl.opposite) == (suit, slots, ruin, opposite), c
        assert cl.corner == (opposite is not None)
        assert set(maps.adjacent(AUTUMN, c)) == adj, c


def test_autumn_totals() -> None:
    """§1.2 Totals: 4 clearings per suit, 22 slots of which 4 ruins, the 18 listed paths."""
    assert Counter(cl.suit for cl in AUTUMN.clearings) == {FOX: 4, RABBIT: 4, MOUSE: 4}
    assert sum(cl.slots for cl in AUTUMN.clearings) == 22
    assert sum(cl.ruin for cl in AUTUMN.clearings) == 4
    assert len(AUTUMN.paths) == 18
    assert {frozenset(p) for p in AUTUMN.paths} == _pairs(AUTUMN_PATHS)
    for suit in CLEARING_SUITS:
        assert len(maps.clearings_of_suit(AUTUMN, suit)) == 4


def test_autumn_river() -> None:
    """§1.2 River: 5-10-11-7-4; rivers are not paths and do not divide Autumn's forests."""
    assert {frozenset(r) for r in AUTUMN.river} == _pairs("5-10, 10-11, 11-7, 7-4")
    assert not AUTUMN.river_divides_forests
    assert not {frozenset(r) for r in AUTUMN.river} & {frozenset(p) for p in AUTUMN.paths}
    assert AUTUMN.river_neighbours[7] == (4, 11)
    assert AUTUMN.river_neighbours[1] == ()


def test_autumn_forests_match_the_digest() -> None:
    """§1.2 Forests: 7 forests with the listed bordering clearings and adjacent forests."""
    label = {f"F-{f.id.upper()}": f for f in AUTUMN.forests}
    assert set(label) == set(AUTUMN_FORESTS)
    for name, (border, adj) in AUTUMN_FORESTS.items():
        f = label[name]
        assert set(f.clearings) == border, name
        assert {f"F-{a.upper()}" for a in maps.forest_neighbours(AUTUMN, f.id)} == adj, name


def test_winter_clearings_match_the_digest_table() -> None:
    """§1.3 table: no printed suits; slots, ruins, corners and each clearing's paths."""
    assert [cl.id for cl in WINTER.clearings] == list(range(1, 13))
    for c, (slots, ruin, opposite, adj) in WINTER_TABLE.items():
        cl = WINTER.clearing(c)
        assert (cl.suit, cl.slots, cl.ruin, cl.opposite) == (None, slots, ruin, opposite), c
        assert set(maps.adjacent(WINTER, c)) == adj, c
    assert sum(cl.slots for cl in WINTER.clearings) == 22
    assert sum(cl.ruin for cl in WINTER.clearings) == 4
    assert {frozenset(p) for p in WINTER.paths} == _pairs(WINTER_PATHS)
    assert len(WINTER.paths) == 16


def test_winter_river_and_forests() -> None:
    """§1.3: river links 10-11, 11-12, 12-7 divide forests (Law C.1); the 8 listed forests."""
    assert {frozenset(r) for r in WINTER.river} == _pairs("10-11, 11-12, 12-7")
    assert WINTER.river_divides_forests
    assert sorted(sorted(f.clearings) for f in WINTER.forests) == sorted(
        sorted(s) for s in WINTER_FOREST_SETS
    )


@pytest.mark.parametrize("board", [AUTUMN, WINTER], ids=lambda b: b.name)
def test_forest_count_follows_euler(board: Board) -> None:
    """§1.2/§1.3: enclosed areas = E - V + 1 (Autumn 18 paths -> 7; Winter 16 + 3 river -> 8)."""
    assert len(board.forests) == len(_dividers(board)) - 12 + 1


@pytest.mark.parametrize("board", [AUTUMN, WINTER], ids=lambda b: b.name)
def test_each_forest_is_enclosed_by_a_ring_of_dividers(board: Board) -> None:
    """§1.2/§1.3: a forest's bordering clearings, joined by its paths (Winter: and river),
    form a single cycle, so no clearing is missing from or extra in a forest's list."""
    lines = _dividers(board)
    for f in board.forests:
        members = set(f.clearings)
        edges = [e for e in lines if e <= members]
        degree = Counter(c for e in edges for c in e)
        assert len(edges) == len(members), f.id
        assert all(degree[c] == 2 for c in members), f.id
        seen, todo = set(), [f.clearings[0]]
        while todo:
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(x for e in edges if c in e for x in e)
        assert seen == members, f.id


@pytest.mark.parametrize("board", [AUTUMN, WINTER], ids=lambda b: b.name)
def test_forests_are_adjacent_across_exactly_one_divider(board: Board) -> None:
    """Law 2.3 forest adjacency (§1.2 list for Autumn; Winter derived, river as divider, §1.3):
    two forests are adjacent iff both border one path (or Winter river segment)."""
    lines = _dividers(board)
    for f in board.forests:
        expected = {
            g.id
            for g in board.forests
            if g.id != f.id and any(e <= set(f.clearings) & set(g.clearings) for e in lines)
        }
        assert set(f.adjacent) == expected, f.id
        for g in f.adjacent:
            assert f.id in maps.forest_neighbours(board, g)


@pytest.mark.parametrize("board", [AUTUMN, WINTER], ids=lambda b: b.name)
def test_corners_and_opposites(board: Board) -> None:
    """§1.1: corners P1 NW, P2 NE, P3 SE, P4 SW; opposite pairs 1-3 and 2-4."""
    assert board.corners == (1, 2, 3, 4)
    assert {c: board.clearing(c).opposite for c in board.corners} == {1: 3, 2: 4, 3: 1, 4: 2}
    assert dict(maps.OPPOSITE_CORNER) == {1: 3, 2: 4, 3: 1, 4: 2}
    positions = [board.clearing(c).position for c in board.corners]
    assert positions == ["NW corner", "NE corner", "SE corner", "SW corner"]


@pytest.mark.parametrize("board", [AUTUMN, WINTER], ids=lambda b: b.name)
def test_lookups_agree_with_the_data(board: Board) -> None:
    """§1: adjacency is symmetric and equals the path list; forest lookups match forests."""
    for c in maps.CLEARING_IDS:
        for d in maps.adjacent(board, c):
            assert c in maps.adjacent(board, d)
            assert (min(c, d), max(c, d)) in board.paths
        for fid in maps.bordering_forests(board, c):
            assert c in maps.forest(board, fid).clearings
    assert board.neighbours[0] == ()
    assert sum(len(maps.bordering_forests(board, c)) for c in maps.CLEARING_IDS) == sum(
        len(f.clearings) for f in board.forests
    )
    with pytest.raises(KeyError):
        maps.forest(board, "nowhere")


def test_dealing_winter_suits() -> None:
    """§1.3: 12 markers, 4 per suit, one per clearing; same seed, same deal; only the given
    generator is used."""
    assert Counter(WINTER.suit_markers) == {FOX: 4, RABBIT: 4, MOUSE: 4}
    assert AUTUMN.suit_markers == ()
    before = random.getstate()
    deals = [maps.deal_winter_suits(random.Random(seed)) for seed in range(20)]
    assert random.getstate() == before
    for deal in deals:
        assert sorted(deal) == list(range(1, 13))
        assert Counter(deal.values()) == {FOX: 4, RABBIT: 4, MOUSE: 4}
    assert maps.deal_winter_suits(random.Random(7)) == maps.deal_winter_suits(random.Random(7))
    assert len({tuple(d.values()) for d in deals}) > 15


def test_a_dealt_winter_board() -> None:
    """§1.3: dealt markers become the clearings' suits; the layout does not change."""
    deal = maps.deal_winter_suits(random.Random(3))
    board = maps.with_suits(WINTER, deal)
    assert [cl.suit for cl in board.clearings] == [deal[c] for c in range(1, 13)]
    assert board.paths == WINTER.paths and board.neighbours == WINTER.neighbours
    assert board.forests == WINTER.forests
    assert all(len(maps.clearings_of_suit(board, s)) == 4 for s in CLEARING_SUITS)
    assert maps.clearings_of_suit(WINTER, FOX) == ()
    with pytest.raises(ValueError):
        maps.with_suits(WINTER, {c: FOX for c in range(1, 12)})
    with pytest.raises(ValueError):
        maps.with_suits(WINTER, {c: BIRD for c in range(1, 13)})
    assert maps.BOARDS == {"autumn": AUTUMN, "winter": WINTER}


# -- Cards ----------------------------------------------------------------------------------------

# (name, suit, copies, cost, item, VP) for every row of the digest's §2 table.
DECK_TABLE = [
    ("Ambush!", BIRD, 2, "", None, 0),
    ("Dominance", BIRD, 1, "", None, 0),
    ("Armorers", BIRD, 2, "F", None, 0),
    ("Sappers", BIRD, 2, "M", None, 0),
    ("Brutal Tactics", BIRD, 2, "FF", None, 0),
    ("Royal Claim", BIRD, 1, "????", None, 0),
    ("Arms Trader", BIRD, 1, "FF", items.SWORD, 2),
    ("Birdy Bindle", BIRD, 1, "M", items.BAG, 1),
    ("Crossbow", BIRD, 1, "F", items.CROSSBOW, 1),
    ("Woodland Runners", BIRD, 1, "R", items.BOOT, 1),
    ("Ambush!", FOX, 1, "", None, 0),
    ("Dominance", FOX, 1, "", None, 0),
    ("Favor of the Foxes", FOX, 1, "FFF", None, 0),
    ("Stand and Deliver!", FOX, 2, "MMM", None, 0),
    ("Tax Collector", FOX, 3, "FRM", None, 0),
    ("Anvil", FOX, 1, "F", items.HAMMER, 2),
    ("Foxfolk Steel", FOX, 1, "FF", items.SWORD, 2),
    ("Gently Used Knapsack", FOX, 1, "M", items.BAG, 1),
    ("Protection Racket", FOX, 1, "RR", items.COIN, 3),
    ("Root Tea", FOX, 1, "M", items.TEA, 2),
    ("Travel Gear", FOX, 1, "R", items.BOOT, 1),
    ("Ambush!", RABBIT, 1, "", None, 0),
    ("Dominance", RABBIT, 1, "", None, 0),
    ("Favor of the Rabbits", RABBIT, 1, "RRR", None, 0),
    ("Better Burrow Bank", RABBIT, 2, "RR", None, 0),
    ("Cobbler", RABBIT, 2, "RR", None, 0),
    ("Command Warren", RABBIT, 2, "RR", None, 0),
    ("A Visit to Friends", RABBIT, 1, "R", items.BOOT, 1),
    ("Bake Sale", RABBIT, 1, "RR", items.COIN, 3),
    ("Root Tea", RABBIT, 1, "M", items.TEA, 2),
    ("Smuggler's Trail", RABBIT, 1, "M", items.BAG, 1),
    ("Ambush!", MOUSE, 1, "", None, 0),
    ("Dominance", MOUSE, 1, "", None, 0),
    ("Favor of the Mice", MOUSE, 1, "MMM", None, 0),
    ("Codebreakers", MOUSE, 2, "M", None, 0),
    ("Scouting Party", MOUSE, 2, "MM", None, 0),
    ("Crossbow", MOUSE, 1, "F", items.CROSSBOW, 1),
    ("Investments", MOUSE, 1, "RR", items.COIN, 3),
    ("Mouse-in-a-Sack", MOUSE, 1, "M", items.BAG, 1),
    ("Root Tea", MOUSE, 1, "M", items.TEA, 2),
    ("Sword", MOUSE, 1, "FF", items.SWORD, 2),
    ("Travel Gear", MOUSE, 1, "R", items.BOOT, 1),
]
ICON = {"F": FOX, "R": RABBIT, "M": MOUSE, "?": ANY}


def _icons(card: cards.Card) -> Counter[str]:
    return Counter(card.cost)


def test_the_deck_matches_the_digest_table_card_by_card() -> None:
    """§2 table: every row's suit, number of copies, cost, item and VP."""
    expected = Counter(
        (name, suit, tuple(sorted(ICON[i] for i in cost)), item, vp)
        for name, suit, copies, cost, item, vp in DECK_TABLE
        for _ in range(copies)
    )
    actual = Counter((c.name, c.suit, tuple(sorted(c.cost)), c.item, c.vp) for c in STANDARD_DECK)
    assert actual == expected


def test_deck_size_suits_and_kinds() -> None:
    """§2: 54 cards; Fox 14, Rabbit 13, Mouse 13, Bird 14; 20 items, 22 persistent, 3 favors,
    5 ambushes, 4 dominance."""
    assert len(STANDARD_DECK) == cards.DECK_SIZE == 54
    assert Counter(c.suit for c in STANDARD_DECK) == {FOX: 14, RABBIT: 13, MOUSE: 13, BIRD: 14}
    assert Counter(c.kind for c in STANDARD_DECK) == {
        ITEM: 20,
        PERSISTENT: 22,
        FAVOR: 3,
        AMBUSH: 5,
        DOMINANCE: 4,
    }


def test_ambush_and_dominance_cards() -> None:
    """§2: ambush bird x2 and fox, rabbit, mouse x1; one dominance per suit; neither craftable."""
    ambush = Counter(c.suit for c in STANDARD_DECK if c.kind == AMBUSH)
    assert ambush == {BIRD: 2, FOX: 1, RABBIT: 1, MOUSE: 1}
    dominance = [c for c in STANDARD_DECK if c.kind == DOMINANCE]
    assert sorted(c.suit for c in dominance) == sorted([BIRD, FOX, RABBIT, MOUSE])
    assert set(cards.DOMINANCE_IDS) == {c.id for c in dominance}
    for c in STANDARD_DECK:
        assert c.craftable == (c.kind not in (AMBUSH, DOMINANCE)), c.id


def test_blog_crafting_icon_totals() -> None:
    """§0/§2 (dreamingdragonslayer): crafting icons 18 fox / 24 mouse / 25 rabbit, not counting
    the 3 Tax Collectors."""
    taxes = [c for c in STANDARD_DECK if c.effect == "tax_collector"]
    assert len(taxes) == 3
    icons: Counter[str] = Counter()
    for c in STANDARD_DECK:
        if c.effect != "tax_collector":
            icons += _icons(c)
    assert (icons[FOX], icons[MOUSE], icons[RABBIT]) == (18, 24, 25)


def test_blog_cost_distribution() -> None:
    """§0 (makecraftgame): 2% "any" cost, 15% cost 3, 37% cost 1 (rounded, of 54)."""
    n = len(STANDARD_DECK)
    any_cost = sum(1 for c in STANDARD_DECK if ANY in c.cost)
    by_size = Counter(len(c.cost) for c in STANDARD_DECK)
    assert (any_cost, by_size[3], by_size[1]) == (1, 8, 20)
    assert [round(100 * k / n) for k in (any_cost, by_size[3], by_size[1])] == [2, 15, 37]
    assert by_size == {0: 9, 1: 20, 2: 16, 3: 8, 4: 1}


def test_card_ids() -> None:
    """§2 (brief): ids unique, snake_case, numbered where a suit holds copies."""
    ids = [c.id for c in STANDARD_DECK]
    assert len(set(ids)) == 54
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    for i in ("ambush_bird_1", "ambush_bird_2", "ambush_fox", "dominance_bird"):
        assert i in cards.CARD_BY_ID
    for i in ("tax_collector_3", "root_tea_rabbit", "crossbow_mouse", "favor_of_the_mice"):
        assert i in cards.CARD_BY_ID
    assert cards.CARD_BY_ID["smugglers_trail"].name == "Smuggler's Trail"


def test_effect_ids() -> None:
    """§2: persistent and favor cards carry an effect id shared by identical copies (Law: no
    duplicate persistent effects); favors cost 3 of their own suit."""
    effects = {c.effect for c in STANDARD_DECK if c.kind in (PERSISTENT, FAVOR)}
    assert effects == {
        "armorers",
        "sappers",
        "brutal_tactics",
        "royal_claim",
        "stand_and_deliver",
        "tax_collector",
        "better_burrow_bank",
        "cobbler",
        "command_warren",
        "codebreakers",
        "scouting_party",
        "favor_of_the_foxes",
        "favor_of_the_rabbits",
        "favor_of_the_mice",
    }
    for c in STANDARD_DECK:
        assert (c.effect is None) == (c.kind not in (PERSISTENT, FAVOR)), c.id
        assert (c.item is None) == (c.kind != ITEM), c.id
        if c.kind == FAVOR:
            assert c.cost == (c.suit,) * 3
        assert c.text, c.id
    assert set(cards.EFFECT_TEXT) == effects - {
        "favor_of_the_foxes",
        "favor_of_the_rabbits",
        "favor_of_the_mice",
    }


def test_two_player_deck_has_no_dominance() -> None:
    """§2 / §5: in 2-player games the 4 dominance cards are removed."""
    two = cards.standard_deck(2)
    assert len(two) == 50 and all(c.kind != DOMINANCE for c in two)
    assert cards.standard_deck(3) == cards.standard_deck(4) == STANDARD_DECK


# -- Items ----------------------------------------------------------------------------------------


def test_item_supply() -> None:
    """§3.1: supply of 12 = 2 boots, 2 bags, 1 crossbow, 1 hammer, 2 swords, 2 teas, 2 coins
    (not the swapped coin/crossbow counts of §6)."""
    assert dict(items.ITEM_SUPPLY) == {
        items.BOOT: 2,
        items.BAG: 2,
        items.CROSSBOW: 1,
        items.HAMMER: 1,
        items.SWORD: 2,
        items.TEA: 2,
        items.COIN: 2,
    }
    assert sum(items.ITEM_SUPPLY.values()) == 12
    assert items.TORCH not in items.ITEM_SUPPLY


def test_ruin_starting_and_box_items() -> None:
    """§3.1: ruin items bag, boot, hammer, sword; S items; box totals boots 4, bags 4,
    swords 4, hammers 3, teas 3, coins 2, crossbows 2, torch 1."""
    assert sorted(items.RUIN_ITEMS) == sorted([items.BAG, items.BOOT, items.HAMMER, items.SWORD])
    assert len(items.STARTING_ITEMS) == len(set(items.STARTING_ITEMS)) == 7
    assert items.box_totals() == {
        items.BOOT: 4,
        items.BAG: 4,
        items.SWORD: 4,
        items.HAMMER: 3,
        items.TEA: 3,
        items.COIN: 2,
        items.CROSSBOW: 2,
        items.TORCH: 1,
    }
    assert set(items.ITEM_NAMES) == set(items.ITEMS)


def test_every_item_card_makes_a_supply_item() -> None:
    """§2/§3.1: items are taken from the supply; 20 item cards for 12 supply items."""
    made = Counter(c.item for c in STANDARD_DECK if c.kind == ITEM)
    assert set(made) <= set(items.ITEM_SUPPLY)
    assert made == {
        items.BOOT: 4,
        items.BAG: 4,
        items.CROSSBOW: 2,
        items.HAMMER: 1,
        items.SWORD: 3,
        items.TEA: 3,
        items.COIN: 3,
    }


# -- Tracks ---------------------------------------------------------------------------------------


def test_marquise_tracks() -> None:
    """§4.1: wood 0,1,2,3,3,4 for all three; VP sawmill 0-5, workshop 0,2,2,3,4,5, recruiter
    0,1,2,3,3,4; draw bonuses on recruiter spaces 3 and 5; pieces."""
    t = tracks.MARQUISE_TRACK
    assert [b.building for b in tracks.MARQUISE_TRACKS] == ["sawmill", "workshop", "recruiter"]
    for b in tracks.MARQUISE_TRACKS:
        assert b.wood == (0, 1, 2, 3, 3, 4) and sum(b.wood) == 13
        assert len(b.vp) == len(b.draws) == tracks.MARQUISE_BUILDINGS_PER_TYPE == 6
    assert t["sawmill"].vp == (0, 1, 2, 3, 4, 5)
    assert t["workshop"].vp == (0, 2, 2, 3, 4, 5)
    assert t["recruiter"].vp == (0, 1, 2, 3, 3, 4)
    assert [sum(b.vp) for b in tracks.MARQUISE_TRACKS] == [15, 16, 13]
    assert sum(t["sawmill"].draws) == sum(t["workshop"].draws) == 0
    assert [i + 1 for i, d in enumerate(t["recruiter"].draws) if d] == [3, 5]
    assert [tracks.marquise_draws(k) for k in range(7)] == [1, 1, 1, 2, 2, 3, 3]
    assert tracks.build_cost("workshop", 1) == (1, 2)
    assert tracks.build_cost("sawmill", 5) == (4, 5)
    with pytest.raises(ValueError):
        tracks.build_cost("recruiter", 6)
    assert (tracks.MARQUISE_WARRIORS, tracks.MARQUISE_WOOD_TOKENS) == (25, 8)


def test_eyrie_roost_track() -> None:
    """§4.2: with k roosts on the map, VP 0,1,2,3,4,4,5 and cards 1,1,2,2,2,3,3; 20 warriors,
    7 roosts."""
    assert [tracks.roost_vp(k) for k in range(1, 8)] == [0, 1, 2, 3, 4, 4, 5]
    assert [tracks.eyrie_draws(k) for k in range(1, 8)] == [1, 1, 2, 2, 2, 3, 3]
    assert (tracks.roost_vp(0), tracks.eyrie_draws(0)) == (0, 1)
    assert len(tracks.ROOST_VP) == len(tracks.ROOST_DRAWS) == tracks.EYRIE_ROOSTS == 7
    assert tracks.EYRIE_WARRIORS == 20


def test_eyrie_leaders() -> None:
    """§3.4: decree columns Recruit | Move | Battle | Build; viziers per leader."""
    assert tracks.DECREE_COLUMNS == ("recruit", "move", "battle", "build")
    assert {leader.name: leader.viziers for leader in tracks.LEADERS} == {
        "Builder": ("recruit", "move"),
        "Charismatic": ("recruit", "battle"),
        "Commander": ("move", "battle"),
        "Despot": ("move", "build"),
    }
    for leader in tracks.LEADERS:
        assert len(leader.viziers) == tracks.LOYAL_VIZIERS
        order = [tracks.DECREE_COLUMNS.index(v) for v in leader.viziers]
        assert order == sorted(order) and len(set(order)) == 2
        assert tracks.LEADER_BY_ID[leader.id] is leader


def test_alliance_sympathy_track() -> None:
    """§4.3: costs 1,1,1,2,2,2,3,3,3,3 and VP 0,1,1,1,2,2,3,4,4,4 for 10 tokens."""
    assert tracks.SYMPATHY_COST == (1, 1, 1, 2, 2, 2, 3, 3, 3, 3)
    assert tracks.SYMPATHY_VP == (0, 1, 1, 1, 2, 2, 3, 4, 4, 4)
    assert len(tracks.SYMPATHY_COST) == tracks.ALLIANCE_SYMPATHY_TOKENS == 10
    assert (sum(tracks.SYMPATHY_COST), sum(tracks.SYMPATHY_VP)) == (21, 22)
