"""A damaged database given to a command is a database the command cannot read: one line,
exit code 2, no traceback, nothing written, the same for every command that takes ``--db``
(``kassen tournament sprt`` keeps no database). Damage met while a run stores its results is
a failure instead (exit code 1): the run had started, and what it stored stays stored.
Real processes, except the last test, which makes the database fail in the middle of a run."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import exc as sa_exc

from kassen.cli import main
from tests.conftest import Depth
from tests.tournament.test_tournament_cli import kassen
from tournament import storage

KINDS = ["random-bytes", "truncated"]
COMMANDS = {
    "ladder show": ["ladder", "show"],
    "ladder show json": ["ladder", "show", "--tournament", "{id}", "--format", "json"],
    "tournament resume": ["tournament", "resume", "{id}", "--quiet"],
    "tournament run": ["tournament", "run", "--bot", "random", "--bot", "greedy"]
    + ["--games", "2", "--concurrency", "1", "--quiet", "--output", "out"],
    "demo": ["demo", "--quiet"],
    "ladder serve": ["ladder", "serve", "--address", "127.0.0.1:0", "--web", "none"],
}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A small finished tournament's database (a real run, checkpointed: one file) and its id."""
    folder = tmp_path_factory.mktemp("finished")
    result = kassen(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{folder / 'k.sqlite'}",
        "--output",
        str(folder / "out"),
        cwd=folder,
    )
    assert result.returncode == 0, result.stderr
    assert not Path(f"{folder / 'k.sqlite'}-wal").exists()
    return folder / "k.sqlite", result.stderr.split("tournament ", 1)[1].split(":", 1)[0]


def damage(kind: str, source: Path, target: Path) -> None:
    """``random-bytes``: a file that is not SQLite at all; ``truncated``: the first half of
    a real database (a copy cut short, a disk that filled while it was copied)."""
    data = source.read_bytes()
    if kind == "random-bytes":
        target.write_bytes(random.Random(3).randbytes(len(data)))
    else:
        target.write_bytes(data[: len(data) // 2])


def check_refused(code: int, stderr: str, stdout: str, db: Path, before: bytes) -> None:
    """Exit code 2, the one line naming the database and its damage, nothing else written."""
    assert code == 2, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert lines[0].startswith(f"kassen: error: database sqlite:///{db} is damaged: "), lines
    assert stdout == ""
    assert db.read_bytes() == before
    assert [p.name for p in db.parent.iterdir()] == [db.name], "no -wal, -shm or output"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "ladder serve"])
def test_a_damaged_database_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    finished: tuple[Path, str],
    kind: str,
    command: str,
) -> None:
    """Every command with each kind of damage, in this process (``kassen.cli.main``);
    ``ladder serve`` (which sets up the process for serving first) only as a real process."""
    source, tournament_id = finished
    db = tmp_path / "damaged.sqlite"
    damage(kind, source, db)
    before = db.read_bytes()
    monkeypatch.chdir(tmp_path)
    args = [a.replace("{id}", tournament_id) for a in COMMANDS[command]]
    code = main([*args, "--db", f"sqlite:///{db}"])
    captured = capsys.readouterr()
    check_refused(code, captured.err, captured.out, db, before)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_damaged_database_in_a_real_process(
    tmp_path: Path, finished: tuple[Path, str], command: str, depth: Depth
) -> None:
    """The same from ``python -m kassen``: one kind of damage per command, taken in turn
    (both with ``--slow``, and always for ``ladder serve``)."""
    source, tournament_id = finished
    index = list(COMMANDS).index(command)
    for kind in KINDS if depth.slow or command == "ladder serve" else [KINDS[index % 2]]:
        db = tmp_path / kind / "damaged.sqlite"
        db.parent.mkdir()
        damage(kind, source, db)
        before = db.read_bytes()
        args = [a.replace("{id}", tournament_id) for a in COMMANDS[command]]
        result = subprocess.run(
            [sys.executable, "-m", "kassen", *args, "--db", f"sqlite:///{db}"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=db.parent,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        )
        check_refused(result.returncode, result.stderr, result.stdout, db, before)


def test_damage_met_while_a_run_stores_its_results_is_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database reads well when the run starts and fails when results are stored: exit
    code 1, one line, and the run's database is left for ``resume``."""

    def malformed(*_: object, **__: object) -> None:
        orig = sqlite3.DatabaseError("database disk image is malformed")
        raise sa_exc.DatabaseError("UPDATE matches ...", {}, orig)

    monkeypatch.setattr(storage, "record_results", malformed)
    db = f"sqlite:///{tmp_path / 'k.sqlite'}"
    code = main(
        ["tournament", "run", "--bot", "random", "--bot", "greedy", "--games", "2"]
        + ["--concurrency", "1", "--no-replays", "--quiet", "--db", db]
        + ["--output", str(tmp_path / "out")]
    )
    err = capsys.readouterr().err
    assert code == 1, err
    errors = [line for line in err.splitlines() if line.startswith("kassen:")]
    assert errors == ["kassen: the database is damaged: database disk image is malformed"], err
    assert "Traceback" not in err
