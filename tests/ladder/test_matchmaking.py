"""Matchmaking: fair over time, close ratings, no immediate rematches, seats rotated."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournament.ladder_service.matchmaking import Candidate, History, form_groups, seat_order


def bot(
    name: str,
    rating: float = 1500.0,
    games: int = 0,
    *,
    free_slots: int = 1,
    waiting_since: float = 0.0,
    house: bool = False,
) -> Candidate:
    return Candidate(name, rating, games, free_slots, waiting_since, house)


def simulate(
    players: int, steps: int, seed: int, churn: bool, lengths: tuple[int, int] = (2, 2)
) -> tuple[Counter[str], dict[str, int]]:
    """Bots with concurrency 1 play matches lasting ``lengths`` steps (inclusive range); with
    ``churn`` one bot leaves and another joins every 50 steps.

    Returns games per bot and the number of steps each was present and idle-or-playing.
    """
    rng = random.Random(seed)
    history = History(players)
    ratings = {f"b{i}": rng.gauss(1500, 200) for i in range(12)}
    house = {f"h{i}": 1500.0 + 100 * i for i in range(players)}
    present = set(list(ratings)[:8])
    busy_until: dict[str, int] = {}
    games: Counter[str] = Counter()
    presence: Counter[str] = Counter()
    for now in range(steps):
        if churn and now % 50 == 0 and now:
            leaving = rng.choice(sorted(present))
            present.discard(leaving)
            joining = rng.choice(sorted(set(ratings) - present))
            present.add(joining)
        for name in present:
            presence[name] += 1
        candidates = [
            bot(n, ratings[n], games[n], waiting_since=float(now))
            for n in sorted(present)
            if busy_until.get(n, -1) <= now
        ] + [bot(n, r, games[n], free_slots=100, house=True) for n, r in house.items()]
        # The server starts at most two matches a step: who plays is matchmaking's choice.
        for group in form_groups(candidates, players, history, limit=2):
            length = rng.randint(*lengths)
            for name in group.seats:
                games[name] += 1
                if name in ratings:
                    busy_until[name] = now + length
    return games, dict(presence)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_counts_of_bots_always_present_stay_within_a_bound(players: int) -> None:
    games, _ = simulate(players, steps=2000, seed=players, churn=False)
    always = [f"b{i}" for i in range(8)]
    counts = [games[name] for name in always]
    assert min(counts) > 200  # they really played (a match lasts 2 steps)
    assert max(counts) - min(counts) <= 3, counts


def test_play_counts_follow_time_present_when_bots_join_and_leave() -> None:
    games, presence = simulate(4, steps=3000, seed=11, churn=True, lengths=(1, 4))
    rates = [games[n] / presence[n] for n in presence if presence[n] >= 300]
    assert len(rates) >= 8
    assert max(rates) - min(rates) < 0.06, rates  # games per step present, within 6 points


def test_a_lone_bot_gets_a_game_at_once_against_house_bots() -> None:
    groups = form_groups(
        [bot("new"), bot("h1", house=True, free_slots=9), bot("h2", house=True, free_slots=9)],
        3,
        History(3),
    )
    assert len(groups) == 1 and "new" in groups[0].seats


def test_house_bots_never_play_only_among_themselves() -> None:
    houses = [bot(f"h{i}", house=True, free_slots=9) for i in range(4)]
    assert form_groups(houses, 2, History(2)) == []


def test_close_ratings_are_preferred() -> None:
    field = [bot("a", 1500), bot("far", 2100, waiting_since=1), bot("near", 1520, waiting_since=1)]
    (group,) = form_groups(field, 2, History(2), limit=1)
    assert set(group.seats) == {"a", "near"}


def test_no_immediate_rematch_when_another_opponent_is_available() -> None:
    history = History(2)
    field = [bot("a", 1500), bot("b", 1500, waiting_since=1), bot("c", 1600, waiting_since=1)]
    (first,) = form_groups(field, 2, history, limit=1)
    assert set(first.seats) == {"a", "b"}
    (second,) = form_groups(field, 2, history, limit=1)
    assert set(second.seats) == {"a", "c"}


def test_a_bot_plays_at_most_its_declared_concurrency() -> None:
    field = [bot("a", free_slots=2), *(bot(f"h{i}", house=True, free_slots=50) for i in range(3))]
    groups = form_groups(field, 2, History(2))
    assert sum("a" in g.seats for g in groups) == 2
    assert all(len(set(g.seats)) == len(g.seats) for g in groups)


def test_seats_rotate_between_two_bots() -> None:
    history = History(2)
    field = [bot("a"), bot("b")]
    firsts = Counter(form_groups(field, 2, history)[0].seats[0] for _ in range(10))
    assert firsts == {"a": 5, "b": 5}


def test_seat_order_gives_each_bot_its_least_taken_seat() -> None:
    history = History(3)
    history.seat_counts = {"x": [5, 0, 0], "y": [0, 5, 0], "z": [0, 0, 5]}
    order = seat_order(history, ["x", "y", "z"])
    assert order[0] != "x" and order[1] != "y" and order[2] != "z"


def test_players_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        form_groups([], 0, History(1))
