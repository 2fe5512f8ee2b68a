"""Ctrl-C in a terminal during a tournament with a launched (``cmd:``) bot: the terminal sends
SIGINT to its whole foreground process group; the user must see only the interruption and
the resume line, and resuming must finish every match."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import Depth
from tests.tournament.test_cli_rough_edges import children_of, stored
from tests.tournament.test_tournament_cli import ENV, ROOT, kassen

pytestmark = pytest.mark.system


def match_rows(database: Path) -> list[tuple[int, str, str]]:
    """(idx, status, the seats' reasons) of every scheduled match."""
    with sqlite3.connect(database) as conn:
        return conn.execute(
            "SELECT m.idx, m.status, coalesce(group_concat(s.reason, ','), '') FROM matches m "
            "LEFT JOIN seat_results s ON s.tournament_id = m.tournament_id "
            "AND s.match_idx = m.idx GROUP BY m.idx ORDER BY m.idx"
        ).fetchall()


def launched_by(pid: int) -> list[tuple[int, int, int]]:
    """(pid, session, process group) of the processes ``pid`` started, once there is one
    (within 30 s; none: an empty list)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = []
        for child in children_of(pid):
            try:
                found.append((child, os.getsid(child), os.getpgid(child)))
            except ProcessLookupError:
                continue  # ended meanwhile
        if found:
            return found
        time.sleep(0.05)
    return []


def test_ctrl_c_with_a_launched_bot_prints_only_the_interruption(
    tmp_path: Path, depth: Depth
) -> None:
    database = tmp_path / "k.sqlite"
    db = f"sqlite:///{database}"
    # A searching bot against a launched one: an aborted match waits for the search's
    # decision, long enough for a match waiting for its turn to start (and launch its bot)
    # during the shutdown, as the runner once let it: that bot was killed mid-match and
    # reported as a crash.
    command = [
        *("tournament", "run", "--bot", "ismcts:seconds=0.5"),
        *("--bot", f"cmd:python {ROOT / 'examples' / 'python' / 'bot.py'}"),
        *("--games", str(depth(fast=6, slow=20)), "--seed", "5", "--no-replays"),
        *("--db", db, "--output", str(tmp_path / "out")),
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", *command],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job has
    )
    try:
        deadline = time.monotonic() + 120
        while stored(database) == 0 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is None and stored(database) > 0, "no match was stored in time"
        # The launched bots are in sessions of their own: the terminal's SIGINT reaches kassen
        # only, which stops them itself.
        bots = launched_by(process.pid)
        assert bots and all(sid != process.pid and group != process.pid for _, sid, group in bots)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    said = out + err
    assert process.returncode == 130, said
    assert "kassen: interrupted; finished matches are stored. Resume with: " in err, said
    for word in ("seat_failed", "bot_crashed", "SIGKILL", "Traceback"):
        assert word not in said, said
    rows = match_rows(database)
    total = len(rows)
    assert 0 < sum(status == "done" for _, status, _ in rows) < total, rows
    tid = err.split("resume with: kassen tournament resume ", 1)[1].split()[0]

    resumed = kassen("tournament", "resume", tid, "--db", db, cwd=tmp_path, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{total}/{total}" in resumed.stderr, resumed.stderr
    rows = match_rows(database)
    assert all(status == "done" for _, status, _ in rows), rows
    # Nothing the interruption did is recorded as a result: every seat completed its match.
    assert {reasons for _, _, reasons in rows} == {"completed,completed"}, rows
