"""Properties over many seeded random contests on both maps: every game ends, pieces and cards
are conserved, no hidden card reaches another seat, replays reproduce the game exactly.

With ``--slow`` (CI): 80 one-game contests and 6 two-game contests, with the invariants checked
every few decisions; the default depth plays 24 and 2 (one on each map) with the same checks.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.contract import GameConfig, replay
from games.root import GAME
from games.root.cards import standard_deck
from games.root.items import ITEM_SUPPLY
from games.root.moving import move_origins
from games.root.state import RootState
from games.root.tracks import (
    EYRIE_ROOSTS,
    EYRIE_WARRIORS,
    MARQUISE_BUILDINGS_PER_TYPE,
    MARQUISE_WARRIORS,
    MARQUISE_WOOD_TOKENS,
)
from games.root.woodland import EYRIE, MARQUISE
from tests.conftest import Depth

LIMIT = 20_000
PRIVATE_KINDS = {"drew", "looked_at_hand", "card_taken_detail"}
DECK = Counter(c.id for c in standard_deck(2))


def check_invariants(g: RootState) -> None:
    w = g.woodland
    # Pieces: never more on the map than the box holds; slots never overfilled.
    assert w.warriors_on_map(MARQUISE) <= MARQUISE_WARRIORS
    assert w.warriors_on_map(EYRIE) <= EYRIE_WARRIORS
    kinds = Counter(kind for c in range(1, 13) for _owner, kind in w.buildings(c))
    assert kinds["roost"] <= EYRIE_ROOSTS
    for building in ("sawmill", "workshop", "recruiter"):
        assert kinds[building] <= MARQUISE_BUILDINGS_PER_TYPE
    # The woodland's caches (rule, warriors on the map, building sites) match a fresh count.
    for faction in (MARQUISE, EYRIE):
        assert w.warriors_on_map(faction) == sum(w.warriors(faction, c) for c in range(1, 13))
    for faction, kind in ((EYRIE, "roost"), (MARQUISE, "sawmill"), (MARQUISE, "recruiter")):
        expected = tuple(
            c for c in range(1, 13) for slot in w.buildings(c) if slot == (faction, kind)
        )
        assert w.building_sites(faction, kind) == expected
    for seat in range(g.n):
        faction = g.faction_of(seat)
        expected = tuple(
            c for c in range(1, 13) if w.warriors(faction, c) and w.move_destinations(faction, c)
        )
        assert move_origins(g, seat) == expected
    for c in range(1, 13):
        assert w.ruler(c) == w._compute_ruler(c)
        assert w.free_slots(c) >= 0
        assert sum(1 for r in w.buildings(c) if r[0] == EYRIE and r[1] == "roost") <= 1
    # Wood: supply plus tokens on the map is the eight tokens of the box.
    marquise = g.players[g.seat_of[MARQUISE]]
    wood_on_map = sum(1 for c in range(1, 13) for t in w.tokens(c) if t == (MARQUISE, "wood"))
    assert dict(marquise.board.public())["wood"] + wood_on_map == MARQUISE_WOOD_TOKENS
    # Cards: the 50 cards of the two-player deck are each in exactly one place.
    eyrie = dict(g.players[g.seat_of[EYRIE]].board.public())
    decree = [
        card
        for name, column in eyrie.items()
        if name.startswith("decree_")
        for card in column
        if not card.startswith("loyal_vizier")
    ]
    places = Counter(g.deck) + Counter(g.discard) + Counter(decree)
    for p in g.players:
        places += Counter(p.hand) + Counter(p.crafted)
    assert places == DECK
    # Items: the supply plus crafted items is the printed supply.
    crafted = Counter(item for p in g.players for item in p.items)
    assert Counter(g.supply) + crafted == Counter(ITEM_SUPPLY)
    assert all(p.vp >= 0 for p in g.players)


def play_checked(board: str, games: int, seed: int) -> RootState:
    config = GameConfig(2, board, {"games": games})
    g = GAME.new(config, seed)
    rng = random.Random(seed)
    for event in g.setup_events:
        assert event.kind not in PRIVATE_KINDS or event.private_to is not None
    taken = 0
    while g.pending() and taken < LIMIT:
        d = g.pending()[0]
        events = g.apply(d.seat, rng.randrange(len(d.options)))
        taken += 1
        for event in events:
            if event.kind in PRIVATE_KINDS:
                assert event.private_to is not None, event
        if taken % 7 == 0:
            check_invariants(g)
            seat = taken % 2
            view = g.observe(seat)
            other = view.players[1 - seat]
            assert other.hand == () and other.hand_count == len(g.players[1 - seat].hand)
            # A seat's view cannot tell the real game from a redeal of what it cannot see.
            assert g.determinize(seat, taken).observe(seat) == view
    assert not g.pending(), f"seed {seed} did not finish in {LIMIT} decisions"
    check_invariants(g)
    again = replay(GAME, config, seed, g.history)
    assert again.digest() == g.digest() and again.outcome() == g.outcome()
    return g


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_random_one_game_contests_end_conserve_pieces_and_hide_hands(
    board: str, depth: Depth
) -> None:
    winners = Counter()
    for seed in range(depth(fast=12, slow=40)):
        g = play_checked(board, 1, seed)
        outcome = g.outcome()
        assert outcome is not None
        assert max(outcome.scores) >= 30
        winners[g.players[outcome.ranking[0]].faction] += 1
    assert set(winners) == {MARQUISE, EYRIE}, "both factions win some random games"


def test_random_two_game_contests_total_both_games(depth: Depth) -> None:
    for seed in range(depth(fast=2, slow=6)):
        g = play_checked("autumn" if seed % 2 else "winter", 2, 100 + seed)
        outcome = g.outcome()
        assert outcome is not None and len(g.results) == 2
        assert outcome.scores == tuple(map(sum, zip(*g.results, strict=True)))
