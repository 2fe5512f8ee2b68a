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
from games.root.invariants import check_invariants
from games.root.state import RootState
from games.root.woodland import EYRIE, MARQUISE
from tests.conftest import Depth

LIMIT = 20_000
PRIVATE_KINDS = {"drew", "looked_at_hand", "card_taken_detail"}


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
