"""A Root ladder as a user runs it: ``kassen tournament run --game root`` (real subprocess)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.tournament.test_tournament_cli import kassen


def test_root_round_robin_with_an_adjudication_limit(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    result = kassen(
        "tournament",
        "run",
        "--game",
        "root",
        "--variant",
        "winter",
        "--bot",
        "a=random",
        "--bot",
        "b=random",
        "--games",
        "4",
        "--seed",
        "2",
        "--max-decisions",
        "300",
        "--db",
        f"sqlite:///{db}",
        "--output",
        str(tmp_path / "out"),
        "--quiet",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "root winter" in result.stdout
    with sqlite3.connect(db) as conn:
        reasons = {r for (r,) in conn.execute("SELECT reason FROM matches")}
        done = conn.execute("SELECT count(*) FROM matches WHERE status = 'done'").fetchone()[0]
    assert done == 4
    # 300 decisions is far too few for a two-game contest: every match was adjudicated.
    assert reasons == {"adjudicated"}
    report = next((tmp_path / "out").rglob("*.json"))
    assert json.loads(report.read_text())


def test_root_with_a_bad_max_decisions_is_a_one_line_error(tmp_path: Path) -> None:
    result = kassen(
        "tournament",
        "run",
        "--game",
        "root",
        "--bot",
        "random",
        "--bot",
        "other=random",
        "--max-decisions",
        "0",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--quiet",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "max_decisions must be at least 1" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
