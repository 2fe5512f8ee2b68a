"""Tournament seeds: secret by default, public only when their seed block is over; a seed
written in the file makes the run reproducible and is said to be public."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from server.chance import check_commitment
from server.replay import verify_file
from tests.tournament.test_tournament_cli import kassen
from tournament import storage
from tournament.config import BotEntry, TournamentConfig
from tournament.reports import ladder_json
from tournament.runner import play_builtin
from tournament.schedule import ScheduledMatch, round_robin
from tournament.seed_blocks import SeedBlocks, match_salt

BOTS = (BotEntry("r", "builtin", "random"), BotEntry("g", "builtin", "greedy"))


def test_a_block_reveals_its_seed_only_when_its_last_match_is_over(tmp_path: Path) -> None:
    config = TournamentConfig(bots=BOTS, games_per_group=4).with_seed()
    assert config.secret_seed and config.seed is not None
    scheduled = round_robin(["r", "g"], 2, 4, config.base_seed)  # 2 blocks x 2 rotations
    records = [storage.MatchRecord(m.idx, m.round, m.seed, m.seats, "pending") for m in scheduled]
    blocks = SeedBlocks(config, records)
    bots = {b.name: b for b in BOTS}

    def play(spec: ScheduledMatch) -> Path:
        record, _ = asyncio.run(play_builtin(config, bots, spec, tmp_path, f"m{spec.idx}"))
        assert record.replay_path is not None
        return Path(record.replay_path)

    def seed_in(path: Path) -> int | None:
        value = json.loads(path.read_text())["seed"]
        return None if value is None else int(value)

    first, second, third, fourth = scheduled
    assert first.seed == second.seed != third.seed == fourth.seed
    paths = {}
    for spec in (first, third, second):
        paths[spec.idx] = play(spec)
        blocks.finished(spec.idx, spec.seed, str(paths[spec.idx]))
        if spec is first:
            # Block 0 has a match to play: the seed of its deal stays secret.
            assert seed_in(paths[first.idx]) is None
            assert not blocks.is_public(first.seed)
    # Block 0 is over: both of its replays now reveal the seed; block 1's does not.
    for spec in (first, second):
        assert seed_in(paths[spec.idx]) == spec.seed
        record = json.loads(paths[spec.idx].read_text())
        assert check_commitment(spec.seed, match_salt(config, spec.idx), record["seed_commitment"])
        assert verify_file(paths[spec.idx]).commitment_checked
    assert seed_in(paths[third.idx]) is None and not blocks.is_public(third.seed)
    # A resumed run reveals a block whose last result was stored before it could reveal it.
    paths[fourth.idx] = play(fourth)
    done = [
        storage.MatchRecord(m.idx, m.round, m.seed, m.seats, "done", replay_path=str(paths[m.idx]))
        for m in (third, fourth)
    ]
    SeedBlocks(config, done)
    assert seed_in(paths[third.idx]) == third.seed


def test_without_a_seed_the_run_is_secret_and_reports_hide_the_base_seed_until_the_end(
    tmp_path: Path,
) -> None:
    db = tmp_path / "k.sqlite"
    common = ["--bot", "random", "--bot", "greedy", "--games", "4", "--quiet"]
    result = kassen(
        "tournament",
        "run",
        *common,
        "--db",
        f"sqlite:///{db}",
        "--output",
        str(tmp_path / "o"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "not secret" not in result.stderr
    with sqlite3.connect(db) as conn:
        (tid, base_seed, config_json) = conn.execute(
            "SELECT id, base_seed, config_json FROM tournaments"
        ).fetchone()
    assert json.loads(config_json)["secret_seed"] is True
    replays = sorted((tmp_path / "o" / tid / "replays").glob("*.json"))
    assert len(replays) == 4
    for path in replays:  # every block is over: every replay verifies against its commitment
        assert verify_file(path).commitment_checked
    report = json.loads((tmp_path / "o" / tid / "ladder.json").read_text())
    assert report["tournament"]["base_seed"] == base_seed
    # While a tournament is unfinished, its base seed (every block's deal) is not shown.
    engine = storage.connect(f"sqlite:///{db}")
    storage.set_status(engine, tid, "interrupted")
    assert json.loads(ladder_json(engine, tid))["tournament"]["base_seed"] is None

    given = kassen(
        "tournament",
        "run",
        *common,
        "--seed",
        "7",
        "--db",
        f"sqlite:///{tmp_path / 'g.sqlite'}",
        "--output",
        str(tmp_path / "g"),
        cwd=tmp_path,
    )
    assert given.returncode == 0, given.stderr
    notes = [line for line in given.stderr.splitlines() if "not secret" in line]
    assert notes == ["seed 7 was given: this run is reproducible, so its chance is not secret"]
