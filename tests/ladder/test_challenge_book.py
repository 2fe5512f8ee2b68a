"""The challenge limits on their own: at once and per hour per client, at once per
challenged bot, people on the whole ladder; a challenge that ends frees its places."""

from __future__ import annotations

import pytest

from tournament.ladder_service.challenges import (
    ChallengeBook,
    ChallengeError,
    ChallengeLimited,
    ChallengeSettings,
    seat_order,
)


def test_per_client_at_once_and_freed_when_one_ends() -> None:
    book = ChallengeBook(ChallengeSettings(per_client_at_once=2, per_bot_at_once=5))
    book.admit("ann", ["b1"], person=False, now=0)
    book.admit("ann", ["b1"], person=False, now=1)
    with pytest.raises(ChallengeLimited, match="per_client_at_once"):
        book.admit("ann", ["b1"], person=False, now=2)
    book.admit("bob", ["b1"], person=False, now=2)  # another client is counted apart
    book.done("ann", ["b1"], person=False)
    book.admit("ann", ["b1"], person=False, now=3)


def test_per_client_per_hour_says_when_to_come_back() -> None:
    book = ChallengeBook(ChallengeSettings(per_client_at_once=10, per_client_per_hour=3))
    for at in (0, 10, 20):
        book.admit("ann", [], person=True, now=at)
        book.done("ann", [], person=True)
    with pytest.raises(ChallengeLimited, match=r"per_client_per_hour\); try again in 3\d\d1 s"):
        book.admit("ann", [], person=True, now=100)
    book.admit("ann", [], person=True, now=3600.5)  # the first start left the hour


def test_a_bot_is_not_flooded_and_people_are_bounded() -> None:
    book = ChallengeBook(ChallengeSettings(per_bot_at_once=1, people_at_once=2))
    book.admit("ann", ["target"], person=True, now=0)
    with pytest.raises(ChallengeLimited, match="per_bot_at_once"):
        book.admit("bob", ["target"], person=False, now=0)
    with pytest.raises(ChallengeLimited, match=r"^bot target-bot is already playing 1 "):
        book.admit("bob", ["target"], person=False, now=0, names={"target": "bot target-bot"})
    book.admit("bob", [], person=True, now=0)
    with pytest.raises(ChallengeLimited, match="people_at_once"):
        book.admit("cat", [], person=True, now=0)
    book.admit("cat", [], person=False, now=0)  # a bot's challenge is not a person's game
    book.done("ann", ["target"], person=True)
    book.admit("dan", ["target"], person=True, now=1)


def test_a_refused_challenge_counts_nothing() -> None:
    book = ChallengeBook(ChallengeSettings(per_client_at_once=1, per_bot_at_once=1))
    book.admit("ann", ["t1"], person=False, now=0)
    with pytest.raises(ChallengeLimited):
        book.admit("bob", ["t2", "t1"], person=False, now=0)
    assert "t2" not in book.bots and "bob" not in book.clients


def test_idle_clients_are_forgotten() -> None:
    book = ChallengeBook(ChallengeSettings())
    book.admit("ann", [], person=False, now=0)
    book.done("ann", [], person=False)
    book.forget_idle(now=100)
    assert "ann" in book.clients  # its start still counts for the hour
    book.forget_idle(now=3601)
    assert book.clients == {}


def test_seats() -> None:
    assert seat_order(4, None, ["a", "b", "c"], pick=9) == 1
    assert seat_order(4, 3, ["a", "b", "c"], pick=0) == 3
    with pytest.raises(ChallengeError, match="needs 3"):
        seat_order(4, None, ["a"], pick=0)
    with pytest.raises(ChallengeError, match="seat: 4"):
        seat_order(4, 4, ["a", "b", "c"], pick=0)
