"""A disk that fills up while a command writes its files: one line naming the file and the
cause, exit code 1, nothing half-written, a previous version of the file left as it was, and
the results in the database intact. Real processes on a real tiny file system
(``tests/small_disk.py``); the database is kept on the ordinary disk with ``--db``, except in
the last two tests, where it is the database that runs out of room."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from server.replay import verify_file
from tests.ladder.test_cli_ladder import start_ladder
from tests.small_disk import SmallDisk, small_disk
from tournament import storage
from tournament.config import BotEntry, TournamentConfig
from tournament.runner import play_builtin
from tournament.schedule import round_robin
from tournament.seed_blocks import SeedBlocks

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
KASSEN = (sys.executable, "-m", "kassen")
NO_SPACE = "No space left on device"
REPORTS = ["head_to_head.csv", "ladder.csv", "ladder.json", "report.html"]
BOTS = (BotEntry("r", "builtin", "random"), BotEntry("g", "builtin", "greedy"))


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def kassen(disk: SmallDisk, *args: str, cwd: Path) -> tuple[int, str, str]:
    """``kassen ARGS`` where the small disk is mounted: (exit code, stdout, stderr)."""
    result = disk.run([*KASSEN, *args], cwd=cwd, env=environment(), timeout=300)
    return result.returncode, result.stdout, result.stderr


def the_error(stderr: str) -> str:
    """The one ``kassen:`` line of ``stderr`` (other lines are the run's own progress)."""
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("kassen:")]
    assert len(errors) == 1, stderr
    return errors[0]


def done_matches(db: Path, tournament_id: str) -> int:
    with sqlite3.connect(db) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM matches WHERE tournament_id = ? AND status = 'done'",
            (tournament_id,),
        ).fetchone()
    return int(count)


def tournament_id(stderr: str) -> str:
    return stderr.split("tournament ", 1)[1].split(":", 1)[0]


def run_flags(db: Path, output: Path) -> list[str]:
    """A quick tournament: two built-in bots, two matches, with replays."""
    return ["tournament", "run", "--bot", "random", "--bot", "greedy", "--games", "2"] + [
        "--concurrency", "1", "--quiet", "--db", f"sqlite:///{db}", "--output", str(output)
    ]  # fmt: skip


def test_reports_on_a_full_disk_leave_the_previous_ones_as_they_were(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with small_disk(tmp_path / "disk") as disk:
        output = disk.mount / "runs"
        code, _, err = kassen(disk, *run_flags(db, output), cwd=tmp_path)
        assert code == 0, err
        first = tournament_id(err)
        folder = output / first
        assert disk.files(folder) == sorted(REPORTS + [f"replays/{first}-{i}.json" for i in (0, 1)])
        previous = {name: disk.seen(folder / name).read_bytes() for name in REPORTS}
        resume = ["tournament", "resume", first, "--quiet", "--db", f"sqlite:///{db}"]

        # Full: writing the reports again (resume rewrites them) fails before any is replaced.
        disk.fill()
        code, _, err = kassen(disk, *resume, cwd=tmp_path)
        assert code == 1, err
        line = the_error(err)
        assert f"cannot write {folder}/" in line and NO_SPACE in line, line
        assert f"kassen ladder show --tournament {first} --db sqlite:///{db}" in line, line
        assert f"kassen tournament resume {first} --db sqlite:///{db}" in line, line
        assert [n for n in disk.files(folder) if not n.startswith("replays/")] == REPORTS
        for name, content in previous.items():
            assert disk.seen(folder / name).read_bytes() == content, name

        # Room for two of the four files: still none is replaced, no temporary is left.
        disk.free()
        disk.fill(leave=8192)
        code, _, err = kassen(disk, *resume, cwd=tmp_path)
        assert code == 1, err
        line = the_error(err)
        assert NO_SPACE in line and f"cannot write {folder}/" in line, line
        assert [n for n in disk.files(folder) if not n.startswith("replays/")] == REPORTS
        for name, content in previous.items():
            assert disk.seen(folder / name).read_bytes() == content, name


def test_a_tournament_on_a_full_disk_is_stored_and_reported_once_there_is_room(
    tmp_path: Path,
) -> None:
    db = tmp_path / "k.sqlite"
    with small_disk(tmp_path / "disk") as disk:
        output = disk.mount / "runs"
        # Played and stored; no report and no replay, not even an empty one.
        disk.fill()
        code, _, err = kassen(disk, *run_flags(db, output), cwd=tmp_path)
        assert code == 1, err
        second = tournament_id(err)
        line = the_error(err)
        assert f"cannot write {output / second}/" in line and NO_SPACE in line, line
        assert f"2 replay files in {output / second / 'replays'} could not be written" in line
        assert disk.files(output) == [], "no empty or partial file"
        assert done_matches(db, second) == 2, "the results are stored"

        # Output sent to a file on the full disk: one line too, not Python's exit message.
        shown = disk.run(
            ["sh", "-c", f'exec "$@" > {disk.mount}/ladder.json', "sh", *KASSEN]
            + ["ladder", "show", "--tournament", second, "--format", "json"]
            + ["--db", f"sqlite:///{db}"],
            cwd=tmp_path,
            env=environment(),
            timeout=120,
        )
        assert shown.returncode == 1, shown.stderr
        assert f"cannot write the output: {NO_SPACE}" in the_error(shown.stderr)

        # Once there is room: the ladder, then the reports, from the stored results.
        disk.free()
        code, out, err = kassen(
            disk, "ladder", "show", "--tournament", second, "--db", f"sqlite:///{db}", cwd=tmp_path
        )
        assert code == 0, err
        assert "greedy" in out and "random" in out
        code, _, err = kassen(
            disk, "tournament", "resume", second, "--quiet", "--db", f"sqlite:///{db}", cwd=tmp_path
        )
        assert code == 0, err
        assert disk.files(output / second) == REPORTS


def test_a_match_replay_on_a_full_disk_is_one_line_and_no_file(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        replays = disk.mount / "replays"
        disk.fill()
        code, out, err = kassen(
            disk,
            "match",
            "rumble-nation",
            "--seat",
            "random",
            "--seat",
            "greedy",
            "--replays",
            str(replays),
            cwd=tmp_path,
        )
        assert code == 1, err
        assert "Result: completed" in out and "Replay:" not in out
        line = the_error(err)
        assert f"cannot write {replays}/" in line and ".json" in line and NO_SPACE in line, line
        assert disk.files(disk.mount) == ["filler"], "no replay, no temporary"
        disk.free()
        code, out, err = kassen(
            disk, "match", "rumble-nation", "--seat", "random", "--seat", "greedy",
            "--replays", str(replays), cwd=tmp_path,
        )  # fmt: skip
        assert code == 0, err
        assert f"Replay: {replays}/" in out


def test_a_token_file_on_a_full_disk_is_refused_before_the_bot_is_registered(
    tmp_path: Path,
) -> None:
    server, address, lines = start_ladder(tmp_path)
    try:
        with small_disk(tmp_path / "disk") as disk:
            token = disk.mount / "alpha.token"
            register = ["ladder", "register", "alpha", "--game", "rumble-nation"]
            register += ["--address", address, "--token-file", str(token)]
            disk.fill()
            code, _, err = kassen(disk, *register, cwd=tmp_path)
            assert code == 1, err
            line = the_error(err)
            assert f"cannot write {token}: {NO_SPACE}" in line, line
            assert disk.files(disk.mount) == ["filler"]
            # Nothing was registered: the same name is free once there is room.
            disk.free()
            code, _, err = kassen(disk, *register, cwd=tmp_path)
            assert code == 0, err
            assert disk.files(disk.mount) == ["alpha.token"]
            assert disk.seen(token).stat().st_mode & 0o777 == 0o600
            assert len(disk.seen(token).read_text().strip()) > 16
    finally:
        server.terminate()
        server.wait(30)
    assert "Traceback" not in "".join(lines)


def test_solo_reports_on_a_full_disk_are_all_or_none(tmp_path: Path) -> None:
    """A solo tournament writes five reports of its own (scores by seed, paired differences)."""
    db = tmp_path / "k.sqlite"
    with small_disk(tmp_path / "disk") as disk:
        output = disk.mount / "runs"
        disk.fill()
        code, _, err = kassen(
            disk,
            "tournament",
            "run",
            "--game",
            "gnomeville",
            "--players",
            "1",
            "--bot",
            "random",
            "--bot",
            "greedy",
            "--games",
            "1",
            "--no-replays",
            "--quiet",
            "--db",
            f"sqlite:///{db}",
            "--output",
            str(output),
            cwd=tmp_path,
        )
        assert code == 1, err
        line = the_error(err)
        assert f"cannot write {output}/" in line and NO_SPACE in line, line
        assert disk.files(output) == []
        solo = tournament_id(err)
        assert done_matches(db, solo) == 2
        disk.free()
        code, _, err = kassen(
            disk, "tournament", "resume", solo, "--quiet", "--db", f"sqlite:///{db}", cwd=tmp_path
        )
        assert code == 0, err
        assert disk.files(output / solo) == [
            "ladder.csv", "ladder.json", "paired.csv", "report.html", "scores.csv"
        ]  # fmt: skip


def test_a_database_on_a_full_disk_is_a_failure_that_leaves_no_file(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk.mount / "k.sqlite"
        disk.fill()
        code, _, err = kassen(disk, *run_flags(db, tmp_path / "out"), cwd=tmp_path)
        assert code == 1, err
        assert the_error(err) == f"kassen: cannot write sqlite:///{db}: database or disk is full"
        assert disk.files(disk.mount) == ["filler"], "no empty database left behind"


def test_a_database_that_fills_its_disk_mid_run_keeps_what_it_stored(tmp_path: Path) -> None:
    """Room for the schedule, not for every result: the run stops with one line, exit code 1,
    and the matches stored before stay stored for ``resume``."""
    with small_disk(tmp_path / "disk", size_kib=256) as disk:
        db = disk.mount / "k.sqlite"
        flags = run_flags(db, tmp_path / "out")
        flags[flags.index("--games") + 1] = "200"
        code, _, err = kassen(disk, *flags, "--no-replays", cwd=tmp_path)
        assert code == 1, err
        line = the_error(err)
        assert line.startswith("kassen: cannot write the database: database or disk is full;")
        tid = tournament_id(err)
        assert f"Resume with: kassen tournament resume {tid} --db sqlite:///{db}" in line
        for name in disk.files(disk.mount):  # a copy, to read it where the test runs
            (tmp_path / name).write_bytes(disk.seen(disk.mount / name).read_bytes())
        assert 0 < done_matches(tmp_path / "k.sqlite", tid) < 200


def test_a_seed_revealed_on_a_full_disk_leaves_the_replay_as_it_was(tmp_path: Path) -> None:
    """The runner writes a block's seed into its replays when the block is over: on a full
    disk the replay keeps ``"seed": null``, whole, with no temporary beside it, the failure
    is counted, and a resumed run reveals it once there is room."""
    config = TournamentConfig(bots=BOTS, games_per_group=2).with_seed()
    scheduled = round_robin(["r", "g"], 2, 2, config.base_seed)  # one block, two rotations
    records = [storage.MatchRecord(m.idx, m.round, m.seed, m.seats, "pending") for m in scheduled]
    blocks = SeedBlocks(config, records)
    bots = {b.name: b for b in BOTS}
    with small_disk(tmp_path / "disk") as disk:
        replays = disk.seen(disk.mount / "replays")  # written from this process
        done = []
        for spec in scheduled:
            record, _ = asyncio.run(play_builtin(config, bots, spec, replays, f"m{spec.idx}"))
            assert record.replay_path is not None
            done.append(record)
        before = {p.name: p.read_bytes() for p in replays.iterdir()}
        assert all(json.loads(text)["seed"] is None for text in before.values())
        disk.fill()
        for record in done:
            blocks.finished(record.idx, record.seed, record.replay_path)
        assert blocks.unrevealed == [NO_SPACE, NO_SPACE]
        assert {p.name: p.read_bytes() for p in replays.iterdir()} == before
        disk.free()
        SeedBlocks(config, done)  # what resume does first
        for path in replays.iterdir():
            assert verify_file(path).commitment_checked
