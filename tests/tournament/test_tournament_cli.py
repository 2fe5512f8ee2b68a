"""``kassen tournament`` and ``kassen ladder`` as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import Depth

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def kassen(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=ENV,
    )


def done_matches(db: Path) -> list[tuple[int, float, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT m.idx, m.finished_at, group_concat(s.bot || ':' || s.rank, ',') FROM matches m "
            "JOIN seat_results s ON s.tournament_id = m.tournament_id AND s.match_idx = m.idx "
            "WHERE m.status = 'done' GROUP BY m.idx ORDER BY m.idx"
        ).fetchall()


def test_round_robin_from_flags_stores_everything_and_writes_reports(tmp_path: Path) -> None:
    result = kassen(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "other=random",
        "--players",
        "2",
        "--games",
        "6",
        "--seed",
        "3",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        "--quiet",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "greedy" in result.stdout and "95% interval" in result.stdout
    tournament_id = result.stderr.split("tournament ", 1)[1].split(":", 1)[0]
    folder = tmp_path / "out" / tournament_id
    ladder = json.loads((folder / "ladder.json").read_text())
    assert ladder["ladder"][0]["bot"] == "greedy"
    assert ladder["matches"] == 3 * 6  # 3 pairs x 3 seed blocks x 2 seatings
    for row in ladder["ladder"]:
        assert row["ci_low"] < row["elo"] < row["ci_high"]
    # Each bot's likelihood of being stronger than the next, as the fit's matrix has it.
    first, second, last = ladder["ladder"]
    matrix = ladder["likelihood_of_superiority"]
    assert first["los_next"] == pytest.approx(matrix["greedy"][second["bot"]], abs=1e-4)
    assert 0.5 <= first["los_next"] <= 1 and 0.5 <= second["los_next"] <= 1
    assert last["los_next"] is None
    assert "LOS" in result.stdout and "stronger than the next" in " ".join(result.stdout.split())
    assert (folder / "ladder.csv").read_text().startswith("rank,bot,elo,ci_low,ci_high")
    assert "opponent" in (folder / "head_to_head.csv").read_text()
    html = (folder / "report.html").read_text()
    assert "<svg" in html and "Likelihood of superiority" in html and "greedy" in html
    assert len(list((folder / "replays").glob("*.json"))) == 18
    shown = kassen(
        "ladder",
        "show",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--format",
        "csv",
        cwd=tmp_path,
    )
    assert shown.returncode == 0 and shown.stdout.splitlines()[1].startswith("1,greedy,")


def test_the_same_file_and_seed_reproduce_the_same_results(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(
        '[tournament]\nname = "repro"\nplayers = 3\ngames_per_group = 3\nseed = 42\nreplays = false\n'
        '[[bots]]\nname = "random"\n[[bots]]\nname = "greedy"\n[[bots]]\nname = "r2"\nbuiltin = "random"\n'
    )
    results = []
    for n in range(2):
        db = tmp_path / f"run{n}.sqlite"
        run = kassen(
            "tournament", "run", "t.toml", "--db", f"sqlite:///{db}", "--quiet", cwd=tmp_path
        )
        assert run.returncode == 0, run.stderr
        results.append([(idx, outcome) for idx, _, outcome in done_matches(db)])
    assert results[0] == results[1] and len(results[0]) == 3


@pytest.mark.parametrize(
    ("files", "args", "message"),
    [
        ({"bad.toml": "[tournament\nplayers = 2"}, ["bad.toml"], "is not valid TOML"),
        ({}, ["nothere.toml"], "cannot read nothere.toml"),
        ({}, ["--bot", "random", "--bot", "alphago"], "unknown bot 'alphago'"),
        ({}, ["--bot", "random", "--bot", "x=cmd:/no/such/bot"], "no such program"),
        (
            {},
            ["--bot", "random", "--bot", "greedy", "--db", "postgresql+psycopg://u@127.0.0.1:1/x"],
            "cannot open database",
        ),
        ({}, ["--bot", "random", "--bot", "greedy", "--format", "ladder"], "invalid choice"),
        ({}, ["--bot", "random", "--bot", "greedy", "--players", "5"], "2, 3, 4 players"),
        (
            {"t.toml": "[tournament]\nplayers = 2\nspeed = 3\n"},
            ["t.toml"],
            "[tournament]: unknown key speed",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, files: dict[str, str], args: list[str], message: str
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = kassen("tournament", "run", *args, "--quiet", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)  # no database, no output


def test_kill_9_then_resume_finishes_without_replaying_finished_matches(
    tmp_path: Path, depth: Depth
) -> None:
    # Killed after ``finished`` matches of 6 x ``games`` (a few seconds of play either way).
    games, finished = depth(fast=100, slow=400), depth(fast=30, slow=100)
    db = tmp_path / "k.sqlite"
    args = [
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "b=random",
        "--bot",
        "c=greedy",
        "--players",
        "2",
        "--games",
        str(games),
        "--concurrency",
        "1",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{db}",
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", *args],
        cwd=tmp_path,
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    before: list[tuple[int, float, str]] = []
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists():
            try:
                before = done_matches(db)
            except sqlite3.OperationalError:
                continue
            if len(before) >= finished:
                break
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    total = 6 * games
    assert finished <= len(before) < total, "the run must be killed part-way"
    stderr = process.stderr.read() if process.stderr else ""
    tournament_id = stderr.split("tournament ", 1)[1].split(":", 1)[0]
    resumed = kassen(
        "tournament", "resume", tournament_id, "--db", f"sqlite:///{db}", "--quiet", cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    after = done_matches(db)
    assert len(after) == total and len({idx for idx, _, _ in after}) == total
    # Matches finished before the kill were not played again: same result, same finish time.
    assert set(before) <= set(after)


def test_a_command_line_bot_plays_in_a_tournament(tmp_path: Path) -> None:
    bot = f"ex=cmd:{sys.executable} {ROOT / 'examples' / 'python' / 'bot.py'}"
    result = kassen(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        bot,
        "--games",
        "2",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    rows = done_matches(tmp_path / "k.sqlite")
    assert len(rows) == 2 and all("ex:" in outcome for _, _, outcome in rows)
    with sqlite3.connect(tmp_path / "k.sqlite") as conn:
        reasons = {r for (r,) in conn.execute("SELECT reason FROM seat_results")}
    assert reasons == {"completed"}
