"""People's games over HTTP, against a real ladder and its page process: a person's seat is
played through the page's event stream and answers to the result; what the page was sent is
exactly the seat's own view (re-simulated from the stored replay), never another seat's
private events or the seed; the game is recorded unrated and moves no rating; a reload
rejoins the seat; a person who leaves is failed by the referee like a bot that leaves; and
every bad request is refused in one line. (Whole games in a real browser:
test_people_browser.py.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.ladder.people import (
    GNOMES_3,
    ROOT_2,
    RUMBLE_2,
    PeopleLadder,
    ended_row,
    events_of,
    hidden_texts,
    own_views,
    replay_of,
    secrets_of,
    settings,
    start_people_ladder,
)
from tournament.ladder_service.challenges import ChallengeSettings
from tournament.ladder_service.service import PoolKey


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PeopleLadder]:
    database = f"sqlite:///{tmp_path_factory.mktemp('people') / 'ladder.sqlite'}"
    running = start_people_ladder(
        database,
        settings(
            ChallengeSettings(
                per_client_at_once=3, per_client_per_hour=500, person_reconnect_ms=1500
            )
        ),
    )
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def http(ladder: PeopleLadder) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=ladder.url, timeout=60) as client:
        yield client


def new_game(http: httpx.Client, ladder: PeopleLadder, key: PoolKey, **extra: Any) -> str:
    body = {
        "game": key.game,
        "variant": key.variant,
        "players": key.players,
        "opponents": [ladder.house(key)] * (key.players - 1),
        **extra,
    }
    made = http.post("/api/play", json=body)
    assert made.status_code == 200, made.text
    url: str = made.json()["url"]
    assert url.startswith("/play/")
    return url.removeprefix("/play/")


def play_out(
    http: httpx.Client, key: str, rng: random.Random, log: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Answer every decision of the seat at random until the game is over; every message
    the page was sent goes to ``log``."""
    with http.stream("GET", f"/api/play/{key}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for kind, data in events_of(stream):
            log.append((kind, data))
            if kind == "decision":
                choice = rng.randrange(len(data["options"]))
                sent = http.post(
                    f"/api/play/{key}/answer",
                    json={"request_id": data["request_id"], "option": choice},
                )
                assert sent.status_code == 204, sent.text
            elif kind == "over":
                return data
            else:
                assert kind in ("seat", "joined", "events", "notice"), (kind, data)
    raise AssertionError("the stream ended before the game did")


@pytest.mark.parametrize("pool", [RUMBLE_2, GNOMES_3, ROOT_2], ids=lambda k: k.label)
def test_a_person_plays_a_whole_game_seeing_only_its_own_seat(
    ladder: PeopleLadder, http: httpx.Client, pool: PoolKey
) -> None:
    before = {r.bot_id: r.matches for r in ladder.service.pools[pool].table}
    key = new_game(http, ladder, pool)
    meta = http.get(f"/api/play/{key}").json()
    assert "ticket" not in str(meta)
    page = http.get(f"/play/{key}").text
    assert "Unrated: this game changes no rating" in page
    assert "receives your own seat's hidden information and no one else's" in page
    log: list[tuple[str, dict[str, Any]]] = []
    over = play_out(http, key, random.Random(7), log)
    assert over["reason"] == "RESULT_REASON_COMPLETED"
    assert len(over["seats"]) == pool.players
    assert all(1 <= s["rank"] <= pool.players for s in over["seats"])
    seat = meta["seat"]

    # Recorded like any match, but unrated, and no rating moved.
    row = ended_row(ladder, meta["match_id"])
    assert row.status == "unrated"
    assert row.seats[seat].bot_id == ladder.service.people[pool.game].id
    after = {r.bot_id: r.matches for r in ladder.service.pools[pool].table}
    assert after == before

    # What the page was sent: exactly the seat's own view at each of its decisions.
    record = replay_of(ladder, meta["match_id"])
    sent = [data["view"] for kind, data in log if kind == "decision"]
    assert sent and sent == own_views(record, seat)
    text = "\n".join(f"{kind} {data}" for kind, data in log)
    for secret in secrets_of(record):
        assert secret not in text
    hidden = hidden_texts(record, seat)
    assert hidden or pool.game != "root"  # Root tells a seat the cards it draws; others see a count
    for private in hidden:
        assert private not in text, private
    assert "ticket" not in text


def test_a_reload_rejoins_the_seat_and_gets_the_open_decision_again(
    ladder: PeopleLadder, http: httpx.Client
) -> None:
    key = new_game(http, ladder, RUMBLE_2, seat=0)
    first = first_decision(http, key)
    again = first_decision(http, key)  # the first stream is closed: a reload
    assert again["request_id"] == first["request_id"]
    assert again["options"] == first["options"]
    log: list[tuple[str, dict[str, Any]]] = []
    assert play_out(http, key, random.Random(1), log)["reason"] == "RESULT_REASON_COMPLETED"


def first_decision(http: httpx.Client, key: str) -> dict[str, Any]:
    with http.stream("GET", f"/api/play/{key}/events") as stream:
        for kind, data in events_of(stream):
            if kind == "decision":
                return data
    raise AssertionError("no decision")


def test_a_person_who_leaves_is_failed_like_a_bot_that_leaves(
    ladder: PeopleLadder, http: httpx.Client
) -> None:
    key = new_game(http, ladder, RUMBLE_2, seat=0)
    meta = http.get(f"/api/play/{key}").json()
    first_decision(http, key)  # then the page is closed, for good
    row = ended_row(ladder, meta["match_id"])
    assert row.status == "unrated"
    assert row.seats[0].failure == "DISCONNECTED"
    # Coming back later shows the end (the referee ended the seat).
    with http.stream("GET", f"/api/play/{key}/events") as stream:
        kinds = [kind for kind, _ in events_of(stream)]
    assert kinds[0] == "seat" and kinds[-1] in ("gone", "over")


def test_a_stale_or_foreign_answer_is_refused(ladder: PeopleLadder, http: httpx.Client) -> None:
    key = new_game(http, ladder, RUMBLE_2, seat=0)
    answer = http.post(f"/api/play/{key}/answer", json={"request_id": "1", "option": 0})
    assert answer.status_code == 409
    assert "no decision" in answer.json()["error"]
    with http.stream("GET", f"/api/play/{key}/events") as stream:
        for kind, data in events_of(stream):
            if kind != "decision":
                continue
            count = len(data["options"])
            wrong = http.post(
                f"/api/play/{key}/answer", json={"request_id": data["request_id"], "option": count}
            )
            assert wrong.status_code == 409 and "not one of" in wrong.json()["error"]
            stale = str(int(data["request_id"]) + 5)
            late = http.post(f"/api/play/{key}/answer", json={"request_id": stale, "option": 0})
            assert late.status_code == 409 and "no longer open" in late.json()["error"]
            break


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "variant": "", "players": 2, "opponents": ["x"]}, 400, "game"),
        ({"game": "root", "variant": "autumn", "players": 2, "opponents": []}, 400, "opponents"),
        (
            {"game": "root", "variant": "autumn", "players": 2, "opponents": ["nobody"]},
            400,
            "no bot",
        ),
        ({"game": "root", "variant": "summer", "players": 2, "opponents": ["x"]}, 400, "pool"),
        ({"game": "root", "players": 2, "opponents": ["x"]}, 400, "variant"),
        ({"game": "root", "variant": "autumn", "players": "2", "opponents": []}, 400, "players"),
    ],
)
def test_bad_new_games_are_refused_in_one_line(
    http: httpx.Client, body: dict[str, Any], status: int, words: str
) -> None:
    answer = http.post("/api/play", json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert words in error and "\n" not in error


def test_a_post_that_is_not_json_is_refused(http: httpx.Client) -> None:
    answer = http.post("/api/play", data={"game": "root"})
    assert answer.status_code == 415


def test_an_unknown_seat_is_404(http: httpx.Client) -> None:
    for path in ("/play/nope", "/api/play/nope", "/api/play/nope/events"):
        assert http.get(path).status_code == 404, path


def test_games_at_once_per_visitor_are_bounded(ladder: PeopleLadder, http: httpx.Client) -> None:
    """Three at once from one address (this ladder's challenges.per_client_at_once); the
    fourth is refused by name, and a game that ends frees its place."""
    ladder.call(wait_until_idle(ladder))
    keys = [new_game(http, ladder, RUMBLE_2, seat=0) for _ in range(3)]
    refused = http.post(
        "/api/play",
        json={
            "game": RUMBLE_2.game,
            "variant": RUMBLE_2.variant,
            "players": 2,
            "opponents": [ladder.house(RUMBLE_2)],
        },
    )
    assert refused.status_code == 429
    assert "per_client_at_once" in refused.json()["error"]
    log: list[tuple[str, dict[str, Any]]] = []
    for key in keys:
        play_out(http, key, random.Random(3), log)
    ladder.call(wait_until_idle(ladder))
    play_out(http, new_game(http, ladder, RUMBLE_2), random.Random(4), log)


async def wait_until_idle(ladder: PeopleLadder) -> None:
    import asyncio

    for _ in range(200):
        if not ladder.service.running:
            return
        await asyncio.sleep(0.05)
