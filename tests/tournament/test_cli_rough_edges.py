"""Rough edges a new user met in the tournament commands, each a regression test:
the resume hint after Ctrl-C, typos inside the file, a gauntlet without a candidate, a
PostgreSQL URL without its driver, and the SPRT trajectory's last point."""

from __future__ import annotations

import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kassen.commands.sprt import sampled
from tests.tournament.test_tournament_cli import ENV, ROOT, kassen

pytestmark = pytest.mark.system


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def stored(database: Path) -> int:
    """Matches stored as done so far (0 while the database is not there yet)."""
    if not database.is_file():
        return 0
    try:
        with sqlite3.connect(database) as conn:
            return int(
                conn.execute("SELECT count(*) FROM matches WHERE status = 'done'").fetchone()[0]
            )
    except sqlite3.Error:
        return 0


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its parent does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def signal_state(pid: int) -> str:
    """The kernel's signal masks of ``pid`` (what it ignores, blocks and catches)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError as exc:
        return str(exc)
    return " ".join(line.replace("\t", "") for line in lines if line.startswith("Sig"))


def stacks_of(pid: int) -> str:
    """Every thread's Python stack of ``pid`` (py-spy, when installed), for a failure message."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    try:
        done = subprocess.run(
            [spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"(no stacks: {exc})"
    return done.stdout + done.stderr


def ignores_sigint(signals: str) -> bool:
    """Whether a process ignores SIGINT, from its ``signal_state``."""
    ignored = re.search(r"SigIgn:([0-9a-f]+)", signals)
    return ignored is not None and bool(int(ignored.group(1), 16) & 1 << (signal.SIGINT - 1))


def test_the_resume_hint_after_ctrl_c_names_the_database(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite'}"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kassen",
            "tournament",
            "run",
            "--bot",
            "random",
            "--bot",
            "greedy",
            "--games",
            "20000",
            "--no-replays",
            "--quiet",
            "--db",
            db,
            "--output",
            str(tmp_path / "out"),
        ],
        cwd=tmp_path,
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    first = process.stderr.readline()  # "tournament t...: ... (resume with: ...)"
    assert "resume with: kassen tournament resume" in first and f"--db {db}" in first
    # Interrupt once some results are stored, while the run (20,000 matches) is still going.
    deadline = time.monotonic() + 60
    while stored(tmp_path / "k.sqlite") == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None and stored(tmp_path / "k.sqlite") > 0
    workers = children_of(process.pid)
    assert workers, "the built-in bots play in worker processes"
    signals = signal_state(process.pid)
    # A runner started with SIGINT ignored (inherited from a suite run in the background:
    # tests/conftest.py restores it) would play all 20,000 matches: say so at once.
    assert not ignores_sigint(signals), f"the runner ignores SIGINT: {signals}"
    process.send_signal(signal.SIGINT)
    try:
        rest = process.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:  # say where it is before waiting on
        where = stacks_of(process.pid)
        rest = process.communicate(timeout=120)[1]
        pytest.fail(f"no stop 30 s after SIGINT; signals {signals}; stacks:\n{where}\n{rest}")
    assert process.returncode == 130, f"signals before SIGINT: {signals}\n{rest}"
    # No worker outlives an interrupted runner (they used to linger, orphaned).
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if alive(pid)]
    hint = [line for line in rest.splitlines() if "interrupted" in line]
    assert len(hint) == 1 and hint[0].endswith(f"--db {db}"), rest
    tid = re.search(r"resume (t[0-9a-f]+)", hint[0]).group(1)  # type: ignore[union-attr]
    # The hinted database holds the tournament (resuming itself is tested with kill -9).
    shown = kassen("ladder", "show", "--tournament", tid, "--db", db, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr


def test_a_typo_anywhere_in_the_file_is_named(tmp_path: Path) -> None:
    cases = {
        '[[bots]]\nname = "rnd"\nbultin = "random"\n': "[[bots]] entry 1 ('rnd'): unknown key bultin",
        "[tournament]\nplayer = 3\n": "[tournament]: unknown key player",
        "[tournament.time_control]\ndecison_ms = 5\n": "[tournament.time_control]: unknown key decison_ms",
        "[tournamnet]\nplayers = 2\n": "unknown key tournamnet",
    }
    for text, expected in cases.items():
        path = tmp_path / "t.toml"
        path.write_text(text + '[[bots]]\nname = "a"\nbuiltin = "random"\n')
        result = kassen(
            "tournament",
            "run",
            str(path),
            "--db",
            f"sqlite:///{tmp_path / 'x.sqlite'}",
            cwd=tmp_path,
        )
        assert result.returncode == 2
        line = one_error_line(result.stderr)
        assert expected in line, line
        assert not (tmp_path / "x.sqlite").exists()  # nothing half-written


def test_a_gauntlet_without_a_candidate_says_so(tmp_path: Path) -> None:
    result = kassen(
        "tournament",
        "run",
        "--format",
        "gauntlet",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--db",
        f"sqlite:///{tmp_path / 'x.sqlite'}",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    line = one_error_line(result.stderr)
    assert "needs a candidate: --candidate NAME" in line and "random, greedy" in line


def test_a_postgresql_url_without_its_driver_names_the_extra(tmp_path: Path) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    # As if psycopg were not installed: importing it fails like a missing package.
    (hook / "sitecustomize.py").write_text("import sys\nsys.modules['psycopg'] = None\n")
    env = {**ENV, "PYTHONPATH": f"{hook}:{ROOT}"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kassen",
            "tournament",
            "run",
            "--bot",
            "random",
            "--bot",
            "greedy",
            "--db",
            "postgresql://kassen:secret@localhost/kassen",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    line = one_error_line(result.stderr)
    assert "driver 'psycopg' is not installed" in line
    assert "pip install 'kassen[postgres]'" in line
    assert "secret" not in line  # the password is not printed


def test_the_sprt_trajectory_ends_with_the_llr_the_verdict_quotes(tmp_path: Path) -> None:
    assert sampled([]) == []
    assert sampled([1.0, 2.0, 3.0]) == [1.0, 2.0, 3.0]
    values = [float(i) for i in range(45)]
    picked = sampled(values, 20)
    assert picked[-1] == 44.0 and picked[0] == 0.0 and len(picked) <= 22
    result = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--elo1",
        "300",
        "--max-games",
        "400",
        "--seed",
        "3",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    verdict = re.search(r"LLR ([+-]\d+\.\d+): accepted", result.stdout)
    trajectory = re.search(r"LLR trajectory: (.*)", result.stdout)
    assert verdict and trajectory, result.stdout
    last = float(trajectory.group(1).split()[-1])
    assert abs(last - float(verdict.group(1))) < 0.006


def test_a_plain_path_for_db_is_a_sqlite_file(tmp_path: Path) -> None:
    # As `kassen serve --store` takes it: a path without a scheme is a SQLite file (it used to
    # be refused as a malformed URL). Relative to where the command runs.
    command = (
        "tournament run --bot random --bot greedy --games 2 --quiet --db k.sqlite --output out"
    )
    run = kassen(*command.split(), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert stored(tmp_path / "k.sqlite") == 2
    tid = re.search(r"tournament (t[0-9a-f]+)", run.stderr).group(1)  # type: ignore[union-attr]
    shown = kassen("ladder", "show", "--tournament", tid, "--db", "k.sqlite", cwd=tmp_path)
    assert shown.returncode == 0 and "random" in shown.stdout, shown.stderr
