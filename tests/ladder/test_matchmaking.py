"""Matchmaking: fair over time, close ratings, no immediate rematches, seats rotated."""

from __future__ import annotations

import random
from collections import Counter, deque

import pytest

from tournament.ladder_service.matchmaking import (
    Candidate,
    Group,
    History,
    _left_waiting,
    form_groups,
    pair_cost,
    seat_order,
)


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
    players: int,
    steps: int,
    seed: int,
    churn: bool,
    lengths: tuple[int, int] = (2, 2),
    gather: float = 0.0,
) -> tuple[Counter[str], dict[str, int]]:
    """Bots with concurrency 1 play matches lasting ``lengths`` steps (inclusive range); with
    ``churn`` one bot leaves and another joins every 50 steps; a bot that would need house
    bots waits up to ``gather`` steps for a busy one, as the service runs it.

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
            bot(n, ratings[n], games[n], waiting_since=float(busy_until.get(n, now)))
            for n in sorted(present)
            if busy_until.get(n, -1) <= now
        ] + [bot(n, r, games[n], free_slots=100, house=True) for n, r in house.items()]
        coming = sum(1 for n in present if busy_until.get(n, -1) > now)
        # The server starts at most two matches a step: who plays is matchmaking's choice.
        groups = form_groups(
            candidates, players, history, limit=2, now=now, gather_s=gather, coming=coming
        )
        for group in groups:
            length = rng.randint(*lengths)
            for name in group.seats:
                games[name] += 1
                if name in ratings:
                    busy_until[name] = now + length
    return games, dict(presence)


@pytest.mark.parametrize("gather", [0.0, 3.0], ids=["at-once", "gathering"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_counts_of_bots_always_present_stay_within_a_bound(
    players: int, gather: float
) -> None:
    games, _ = simulate(players, steps=2000, seed=players, churn=False, gather=gather)
    always = [f"b{i}" for i in range(8)]
    counts = [games[name] for name in always]
    assert min(counts) > 200  # they really played (a match lasts 2 steps)
    assert max(counts) - min(counts) <= 3, counts


@pytest.mark.parametrize("gather", [0.0, 3.0], ids=["at-once", "gathering"])
def test_play_counts_follow_time_present_when_bots_join_and_leave(gather: float) -> None:
    games, presence = simulate(4, steps=3000, seed=11, churn=True, lengths=(1, 4), gather=gather)
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


def test_authors_bots_come_before_house_bots_even_just_after_meeting() -> None:
    history = History(2)
    field = [bot("a"), bot("b", waiting_since=1), bot("h", house=True, free_slots=9)]
    for _ in range(4):  # b is a's last opponent from the second round on: still not h
        (group,) = form_groups(field, 2, history, limit=1)
        assert set(group.seats) == {"a", "b"}


def test_a_bot_needing_house_bots_waits_for_a_busy_author_within_the_window() -> None:
    field = [bot("a", waiting_since=10.0), bot("h1", house=True, free_slots=9)]

    def groups(now: float, coming: int) -> int:
        return len(form_groups(field, 2, History(2), now=now, gather_s=5.0, coming=coming))

    assert groups(now=14.0, coming=1) == 0  # someone will be free soon: wait for it
    assert groups(now=15.0, coming=1) == 1  # waited the whole window: house bots now
    assert groups(now=10.0, coming=0) == 1  # nobody to wait for: at once


def test_authors_seated_in_this_round_count_as_coming() -> None:
    field = [bot("a"), bot("b"), bot("c"), bot("h", house=True, free_slots=9)]
    groups = form_groups(field, 2, History(2), now=1.0, gather_s=5.0, coming=0)
    # Two of them play each other; the third waits for them rather than play a house bot.
    assert len(groups) == 1 and "h" not in groups[0].seats
    groups = form_groups(field, 2, History(2), now=6.0, gather_s=5.0, coming=0)
    assert [len(set(g.seats) & {"a", "b", "c"}) for g in groups] == [2, 1]


def test_bots_with_several_free_slots_partner_every_author_at_once() -> None:
    field = [bot(name, free_slots=4) for name in "abc"] + [bot("h", house=True, free_slots=9)]
    groups = form_groups(field, 2, History(2), limit=3, now=1.0, gather_s=5.0, coming=0)
    # Nobody is left waiting: c, one too many for tables of two, is a's partner at once.
    assert len(groups) == 3 and all("h" not in g.seats for g in groups)
    assert any("c" in g.seats for g in groups)


def test_a_group_with_an_author_that_waited_long_enough_is_formed() -> None:
    field = [bot("a", waiting_since=0.0), bot("b", waiting_since=9.0), bot("h1", house=True)]
    field[2] = bot("h1", house=True, free_slots=9)
    (group,) = form_groups(field, 3, History(3), now=9.5, gather_s=5.0, coming=1)
    assert set(group.seats) == {"a", "b", "h1"}  # a waited 9.5 s: b does not hold it back


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


def sorting_everyone(
    candidates: list[Candidate],
    players: int,
    history: History,
    limit: int | None,
    now: float,
    gather_s: float,
    coming: int,
) -> list[Group]:
    """``form_groups`` as its docstring says it, written the plain way: each group sorts
    every free bot by (house, cost, id). The service's version must give the same groups."""
    slots = {c.bot_id: c for c in candidates if c.free_slots > 0}
    free = {b: c.free_slots for b, c in slots.items()}
    for b in _left_waiting(slots.values(), players, now, gather_s, coming):
        free[b] = 0
    groups: list[Group] = []
    while limit is None or len(groups) < limit:
        anchors = [c for c in slots.values() if free[c.bot_id] > 0 and not c.house]
        if not anchors:
            break
        anchor = min(anchors, key=lambda c: (c.games, c.waiting_since, c.bot_id))
        others = [c for c in slots.values() if c.bot_id != anchor.bot_id and free[c.bot_id] > 0]
        if len(others) < players - 1:
            break
        others.sort(key=lambda c: (c.house, pair_cost(history, anchor, c), c.bot_id))
        members = [anchor, *others[: players - 1]]
        authors = [m for m in members if not m.house]
        waiting = all(now - m.waiting_since < gather_s for m in authors)
        if coming and len(authors) < len(members) and waiting:
            break
        group = Group(seat_order(history, [m.bot_id for m in members]))
        for b in group.seats:
            free[b] -= 1
            if free[b] == 0 and not slots[b].house:
                coming += 1
        history.record(group)
        groups.append(group)
    return groups


@pytest.mark.parametrize("seed", range(300))
def test_form_groups_gives_the_groups_of_sorting_every_bot_for_each_group(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice((1, 2, 2, 3, 4))
    count = rng.randrange(0, 60)
    step = rng.choice((1.0, 25.0, 100.0))  # coarse ratings: many equal costs, ties by id
    candidates = [
        bot(
            f"b{rng.randrange(10_000):04d}",
            1500 + step * round(rng.gauss(0, 200) / step),
            rng.choice((0, 0, rng.randrange(30))),
            free_slots=rng.choice((0, 1, 1, 1, 2, 3)),
            waiting_since=rng.choice((0.0, rng.uniform(0, 10))),
        )
        for _ in range(count)
    ] + [
        bot(f"h{i}", 1500 + 100 * i, rng.randrange(50), free_slots=rng.choice((1, 64)), house=True)
        for i in range(rng.choice((0, 1, 3)))
    ]
    history = History(players)
    names = [c.bot_id for c in candidates]
    for _ in range(rng.randrange(40)):  # earlier matches: rematches cost, seats rotate
        history.record(Group(tuple(rng.sample(names, min(players, len(names))))))
    copy = History(
        players, copy_of_recent(history), {b: list(s) for b, s in history.seat_counts.items()}
    )
    arguments = dict(
        limit=rng.choice((None, 1, 5)),
        now=10.0,
        gather_s=rng.choice((0.0, 5.0)),
        coming=rng.choice((0, 0, 2)),
    )
    expected = sorting_everyone(candidates, players, copy, **arguments)  # type: ignore[arg-type]
    assert form_groups(candidates, players, history, **arguments) == expected  # type: ignore[arg-type]
    assert history.recent == copy.recent and history.seat_counts == copy.seat_counts


def copy_of_recent(history: History) -> dict[str, deque[str]]:
    return {b: deque(d, maxlen=d.maxlen) for b, d in history.recent.items()}
