"""The records of submitted bots' versions, on SQLite and on PostgreSQL: numbering, states,
the playing version (pinned, else the newest ready), versions left unfinished by a stop, and
the bounded stderr tails kept for a bot's author."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine

from tests.tournament import postgres
from tournament.ladder_service import registry, versions
from tournament.ladder_service.registry import RegistryError
from tournament.storage import connect

#: Every test on both databases; PostgreSQL (one server for the module: it takes seconds to
#: start) with the end-to-end tests (tox -e system).
pytestmark = pytest.mark.parametrize(
    "engine",
    ["sqlite", pytest.param("postgresql", marks=pytest.mark.system)],
    indirect=True,
    scope="module",
)


@pytest.fixture(scope="module")
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    """One database of each kind for the module; each test registers bots of its own."""
    if request.param == "sqlite":
        made = connect(f"sqlite:///{tmp_path_factory.mktemp('db') / 'ladder.sqlite'}")
        registry.create_tables(made)
        yield made
        return
    if postgres.missing() is not None:
        pytest.skip(str(postgres.missing()))
    with postgres.postgres_server() as url:
        made = connect(url)
        registry.create_tables(made)
        yield made
        made.dispose()


def bot(engine: Engine, name: str = "uploaded") -> str:
    record, _ = registry.register_bot(
        engine,
        name=f"{name}-{uuid.uuid4().hex[:8]}",
        owner="me",
        game="rumble-nation",
        variant="base",
        player_counts=[2],
    )
    return record.id


def test_versions_are_numbered_per_bot_and_the_newest_ready_one_plays(engine: Engine) -> None:
    mine, other = bot(engine), bot(engine, "another")
    first = versions.add_version(engine, mine, "python", "a" * 64, 100, "first", "bot-1")
    second = versions.add_version(engine, mine, "go", "b" * 64, 200, "", "bot-2")
    theirs = versions.add_version(engine, other, "node", "c" * 64, 300, "", "bot-3")
    assert (first.number, second.number, theirs.number) == (1, 2, 1)
    assert first.state == "building" and versions.playing(versions.versions(engine, mine)) is None
    versions.set_state(engine, mine, 1, "ready", "validated", build_log="made it")
    versions.set_state(engine, mine, 2, "validation_failed", "TIMEOUT", validation_log="slow")
    found = versions.versions(engine, mine)
    assert [v.number for v in found] == [2, 1]
    assert versions.playing(found) == found[1]
    assert versions.logs(engine, mine, 1) == ("made it", "")
    assert versions.logs(engine, mine, 2) == ("", "slow")
    with pytest.raises(RegistryError):
        versions.logs(engine, mine, 3)
    with pytest.raises(RegistryError):
        versions.add_version(engine, mine, "python", "d" * 64, 1, "x" * 201, "bot-4")


def test_a_pinned_version_plays_whatever_is_newer_and_only_a_ready_one_is_pinned(
    engine: Engine,
) -> None:
    mine = bot(engine)
    for number in (1, 2, 3):
        versions.add_version(engine, mine, "python", "a" * 64, 1, "", f"bot-{number}")
        versions.set_state(engine, mine, number, "ready", "validated")
    versions.set_state(engine, mine, 3, "build_failed", "exit status 2")
    assert versions.playing(versions.versions(engine, mine)).number == 2  # type: ignore[union-attr]
    versions.pin(engine, mine, 1)
    assert versions.playing(versions.versions(engine, mine)).number == 1  # type: ignore[union-attr]
    with pytest.raises(RegistryError, match="build_failed, not ready"):
        versions.pin(engine, mine, 3)
    with pytest.raises(RegistryError, match="no version 9"):
        versions.pin(engine, mine, 9)
    versions.pin(engine, mine, 0)
    assert versions.playing(versions.versions(engine, mine)).number == 2  # type: ignore[union-attr]


def test_versions_a_stop_interrupted_are_marked_stopped_for_the_next_start(engine: Engine) -> None:
    mine = bot(engine)
    for number in (1, 2, 3):
        versions.add_version(engine, mine, "python", "a" * 64, 1, "", f"bot-{number}")
    versions.set_state(engine, mine, 1, "ready", "validated")
    versions.set_state(engine, mine, 2, "validating", "built; validating")
    stopped = [v for v in versions.stop_unfinished(engine) if v.bot_id == mine]
    assert sorted(v.number for v in stopped) == [2, 3]
    assert {v.number: v.state for v in versions.versions(engine, mine)}[1] == "ready"


def test_only_the_newest_stderr_tails_of_a_bot_are_kept(engine: Engine) -> None:
    mine, other = bot(engine), bot(engine, "another")
    versions.keep_tail(engine, other, "theirs", 1, "not yours")
    for index in range(versions.KEPT_TAILS + 5):
        versions.keep_tail(engine, mine, f"match-{index:03d}", 1, f"line {index}\n" * 3)
    kept = versions.tail_matches(engine, mine)
    assert len(kept) == versions.KEPT_TAILS
    assert kept[0] == f"match-{versions.KEPT_TAILS + 4:03d}" and "match-000" not in kept
    assert versions.tail(engine, mine, kept[0]).startswith(f"line {versions.KEPT_TAILS + 4}")
    assert versions.tail_matches(engine, other) == ["theirs"]
    with pytest.raises(RegistryError):
        versions.tail(engine, mine, "theirs")  # another bot's match is not this bot's
    versions.keep_tail(engine, mine, "huge", 1, "x" * (versions.MAX_TAIL_CHARS * 3))
    assert len(versions.tail(engine, mine, "huge")) == versions.MAX_TAIL_CHARS


def test_a_public_page_reads_three_versions_at_most_however_many_there_are(
    engine: Engine,
) -> None:
    mine = bot(engine)
    for number in range(1, 31):
        versions.add_version(engine, mine, "python", "a" * 64, 1, "", f"bot-{number}")
        versions.set_state(engine, mine, number, "build_failed", "exit status 1")
    versions.set_state(engine, mine, 7, "ready", "validated")
    versions.set_state(engine, mine, 12, "ready", "validated")
    versions.pin(engine, mine, 7)
    shown = versions.shown(engine, mine)
    assert [v.number for v in shown] == [30, 12, 7]
    assert versions.playing(shown) == versions.playing(versions.versions(engine, mine))
