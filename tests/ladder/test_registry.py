"""The ladder's records: tokens stored as hashes only, names, statuses, failures, matches."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tournament.ladder_service import registry
from tournament.ladder_service.registry import NameTaken, RegistryError, SeatOutcome
from tournament.storage import connect


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = connect(f"sqlite:///{tmp_path / 'ladder.sqlite'}")
    registry.create_tables(engine)
    return engine


def register(engine: Engine, name: str, **kw: object) -> tuple[registry.BotRecord, str | None]:
    return registry.register_bot(
        engine,
        name=name,
        owner=str(kw.get("owner", "ann")),
        game=str(kw.get("game", "rumble-nation")),
        variant="base",
        player_counts=(2, 3),
        house=bool(kw.get("house", False)),
    )


def test_the_token_is_given_once_and_only_its_hash_is_stored(
    engine: Engine, tmp_path: Path
) -> None:
    bot, token = register(engine, "alpha")
    assert token and token.startswith("kbt_") and len(token) > 40
    assert registry.bot_by_token(engine, token) == bot
    assert registry.bot_by_token(engine, token + "x") is None
    raw = (tmp_path / "ladder.sqlite").read_bytes()
    for path in tmp_path.glob("ladder.sqlite*"):
        raw += path.read_bytes()
    assert token.encode() not in raw


def test_rotating_a_token_stops_the_old_one_at_once(engine: Engine) -> None:
    bot, old = register(engine, "alpha")
    assert old is not None
    new = registry.rotate_token(engine, bot.id)
    assert registry.bot_by_token(engine, old) is None
    assert registry.bot_by_token(engine, new) == bot


def test_names_are_unique_per_game_but_not_across_games(engine: Engine) -> None:
    register(engine, "alpha")
    with pytest.raises(NameTaken, match="already registered for rumble-nation"):
        register(engine, "alpha")
    other, _ = register(engine, "alpha", game="root")
    assert other.game == "root"


@pytest.mark.parametrize("name", ["ab", "x" * 33, "-lead", "sp ace", "semi;colon", "é-bot", ""])
def test_bad_names_are_refused_naming_the_rule(engine: Engine, name: str) -> None:
    with pytest.raises(RegistryError, match="3-32 characters"):
        register(engine, name)


def test_overlong_owner_is_refused(engine: Engine) -> None:
    with pytest.raises(RegistryError, match="owner is 65 characters"):
        register(engine, "alpha", owner="o" * 65)


def test_house_bots_have_no_token(engine: Engine) -> None:
    bot, token = register(engine, "house-greedy", house=True)
    assert token is None and bot.house


def test_status_changes_and_unknown_status(engine: Engine) -> None:
    bot, _ = register(engine, "alpha")
    assert registry.set_status(engine, bot.id, "paused", "testing").status == "paused"
    assert registry.set_status(engine, bot.id, "active").status_reason == ""
    with pytest.raises(RegistryError, match="not one of active, paused, revoked"):
        registry.set_status(engine, bot.id, "banned")
    with pytest.raises(RegistryError, match="no bot"):
        registry.set_status(engine, "nope", "paused")


def play(
    engine: Engine, match_id: str, a: str, b: str, failure_of_b: str = "", status: str = "done"
) -> list[str]:
    registry.start_match(engine, match_id, "rumble-nation", "base", [a, b])
    return registry.finish_match(
        engine,
        match_id,
        status=status,
        reason="FINISHED" if status == "done" else "VOIDED",
        decisions=10,
        seats=[SeatOutcome(a, 1, 30), SeatOutcome(b, 2, 10, failure_of_b)],
        replay_json='{"decisions": [1, 2]}',
        pause_after=3,
    )


def test_a_bot_failing_three_matches_in_a_row_is_paused_with_a_reason(engine: Engine) -> None:
    house, _ = register(engine, "house", house=True)
    bot, _ = register(engine, "flaky")
    assert play(engine, "m1", house.id, bot.id, "TIMEOUT") == []
    assert play(engine, "m2", house.id, bot.id, "") == []  # a clean match resets the count
    assert play(engine, "m3", house.id, bot.id, "TIMEOUT") == []
    assert play(engine, "m4", house.id, bot.id, "BOT_CRASHED") == []
    assert play(engine, "m5", house.id, bot.id, "TIMEOUT") == [bot.id]
    paused = registry.bot_by_id(engine, bot.id)
    assert paused is not None and paused.status == "paused"
    assert "3 failed matches in a row" in paused.status_reason
    assert "TIMEOUT" in paused.status_reason
    assert registry.set_status(engine, bot.id, "active").failures_in_row == 0


def test_a_voided_match_neither_counts_nor_clears_failures(engine: Engine) -> None:
    """A match voided because its referee was lost says nothing about the bot: it must not
    wipe the failures in a row of a bot that keeps failing."""
    house, _ = register(engine, "house", house=True)
    bot, _ = register(engine, "failing")
    assert play(engine, "m1", house.id, bot.id, "TIMEOUT") == []
    assert play(engine, "m2", house.id, bot.id, "TIMEOUT") == []
    assert play(engine, "m3", house.id, bot.id, "", status="voided") == []
    assert registry.bot_by_id(engine, bot.id).failures_in_row == 2  # type: ignore[union-attr]
    assert play(engine, "m4", house.id, bot.id, "NO_SHOW") == [bot.id]


def test_house_bots_are_never_paused(engine: Engine) -> None:
    house, _ = register(engine, "house", house=True)
    other, _ = register(engine, "other")
    for i in range(5):
        registry.start_match(engine, f"m{i}", "rumble-nation", "base", [other.id, house.id])
        registry.finish_match(
            engine,
            f"m{i}",
            status="done",
            reason="FINISHED",
            decisions=1,
            seats=[SeatOutcome(other.id, 1, 1), SeatOutcome(house.id, 2, 0, "TIMEOUT")],
            replay_json=None,
            pause_after=2,
        )
    assert registry.bot_by_id(engine, house.id).status == "active"  # type: ignore[union-attr]


def test_replays_round_trip_compressed(engine: Engine) -> None:
    a, _ = register(engine, "alpha")
    b, _ = register(engine, "beta")
    play(engine, "m1", a.id, b.id)
    assert registry.replay_of(engine, "m1") == '{"decisions": [1, 2]}'
    assert registry.replay_of(engine, "unknown") is None


def test_matches_left_running_are_voided_on_restart(engine: Engine) -> None:
    a, _ = register(engine, "alpha")
    b, _ = register(engine, "beta")
    registry.start_match(engine, "lost", "rumble-nation", "base", [a.id, b.id])
    play(engine, "kept", a.id, b.id)
    assert registry.void_running(engine) == 1
    with engine.connect() as conn:
        rows = dict(
            conn.execute(
                sa.select(registry.ladder_matches.c.id, registry.ladder_matches.c.status)
            ).all()
        )
    assert rows == {"lost": "voided", "kept": "done"}
