"""Ladders and SPRT through the command line when the numbers are awkward (real subprocesses).

A short 3- or 4-player tournament has no more matches than free ratings, so the default
sandwich intervals cannot be computed: the ladder falls back to the Hessian and says so in the
table, the JSON and the HTML. A numerical failure (forced here through a ``sitecustomize`` hook
that breaks one routine of the ratings) is one line ``kassen: ...`` and exit code 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.test_tournament_cli import ENV
from tournament import storage
from tournament.reports import write_reports

pytestmark = pytest.mark.system

NO_BLOCKS = "the intervals need at least 2 seed blocks, got 1"

# Imported by every Python process started with this folder on PYTHONPATH (``site`` looks for
# a ``sitecustomize`` module): with KASSEN_BREAK set, one numerical routine returns NaN.
BREAK_HOOK = """
import os

_what = os.environ.get("KASSEN_BREAK")
if _what == "fit":
    import numpy as np
    import tournament.ratings.bradley_terry as bt

    bt._probabilities = lambda theta: np.full((theta.size, theta.size), np.nan)
elif _what == "sprt":
    import numpy as np
    import tournament.ratings.sprt as sprt

    sprt.log_likelihood_deficit = lambda *a, **k: (np.array(np.nan), np.array(0.0))
"""


def kassen(*args: str, cwd: Path, env: dict[str, str] = ENV) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def interrupted_tournament(tmp_path: Path, players: int) -> tuple[str, str]:
    """A ``players``-player tournament of ``players`` + 1 bots stopped after two matches, as
    ``kassen tournament run`` leaves it after Ctrl-C. Returns (database URL, tournament id)."""
    url = f"sqlite:///{tmp_path / f'short{players}.sqlite'}"
    engine = storage.connect(url)
    names = [f"b{i}" for i in range(players + 1)]
    seats = [names[:players], names[1:][::-1], names[:players]]
    storage.create_tournament(
        engine,
        "tshort",
        name="short",
        game="rumble-nation",
        variant="base",
        players=players,
        format="round-robin",
        base_seed=1,
        config={},
        bot_rows=[(n, "random", "h") for n in names],
        scheduled=[(i, 0, 7, s) for i, s in enumerate(seats)],
    )
    for idx in range(2):  # the third match never finished
        record = storage.MatchRecord(idx, 0, 7, tuple(seats[idx]), "done", "completed", 50, 1.0)
        results = [
            storage.SeatRecord(seat, bot, seat + 1, 10 - seat, False, "completed", "", 1000)
            for seat, bot in enumerate(seats[idx])
        ]
        storage.record_results(engine, "tshort", [(record, results)])
    return url, "tshort"


def one_kassen_line(stderr: str) -> str:
    """The only ``kassen:`` line of stderr, which must also be its last; no traceback."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.strip().splitlines() if line.startswith("kassen:")]
    assert len(lines) == 1 and stderr.strip().splitlines()[-1] == lines[0], stderr
    return lines[0]


@pytest.mark.parametrize("players", [3, 4])
def test_ladder_show_of_a_one_block_tournament_claims_nothing(tmp_path: Path, players: int) -> None:
    """Two matches of one seed block: the ratings are shown, the intervals and LOS are not,
    and every report says why (before: Hessian intervals that assumed independent matches)."""
    url, tid = interrupted_tournament(tmp_path, players)
    shown = kassen("ladder", "show", "--db", url, "--format", "json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    ladder = json.loads(shown.stdout)
    assert (ladder["method"], ladder["method_requested"]) == ("none", "sandwich")
    assert NO_BLOCKS in ladder["method_note"] and ladder["seed_blocks"] == 1
    assert len(ladder["ladder"]) == players + 1
    for row in ladder["ladder"]:
        assert row["ci_low"] is None and row["ci_high"] is None and row["los_next"] is None
        assert row["elo"] is not None
    table = kassen("ladder", "show", "--db", url, cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "no intervals or LOS from 1 seed block" in " ".join(table.stdout.split())
    asked = kassen(
        "ladder", "show", "--db", url, "--ci", "hessian", "--format", "json", cwd=tmp_path
    )
    assert json.loads(asked.stdout)["method_note"] == ""  # asked for, so it is given
    folder = write_reports(storage.connect(url), tid, tmp_path / "reports")
    assert NO_BLOCKS in (folder / "report.html").read_text()


@pytest.mark.parametrize("players", [3, 4])
def test_a_tournament_whose_matches_were_all_voided_still_reports(
    tmp_path: Path, players: int
) -> None:
    """One bot crashes at once and the policy voids its matches: with ``players`` bots every
    match is voided, no results at all. Before: a ValueError traceback from the sandwich."""
    (tmp_path / "crash.py").write_text("raise SystemExit(1)\n")
    bots = ["random", "greedy", "r2=random"][: players - 1]
    result = kassen(
        "tournament",
        "run",
        "--players",
        str(players),
        *[arg for bot in bots for arg in ("--bot", bot)],
        "--bot",
        f"crash=cmd:{sys.executable} {tmp_path / 'crash.py'}",
        "--failure-policy",
        "void",
        "--games",
        "1",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "no intervals" in " ".join(result.stdout.split())
    tid = result.stderr.split("tournament ", 1)[1].split(":", 1)[0]
    ladder = json.loads((tmp_path / "out" / tid / "ladder.json").read_text())
    assert ladder["method"] == "none" and "at least 2 seed blocks, got 0" in ladder["method_note"]
    assert all(row["games"] == 0 and row["ci_low"] is None for row in ladder["ladder"])


@pytest.fixture
def broken_env(tmp_path: Path) -> dict[str, str]:
    """The environment of the kassen subprocesses, with the ``sitecustomize`` hook in front."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(BREAK_HOOK)
    return {**ENV, "PYTHONPATH": f"{hook}:{ENV['PYTHONPATH']}"}


def test_a_ladder_that_cannot_be_computed_is_one_line_and_exit_1(
    tmp_path: Path, broken_env: dict[str, str]
) -> None:
    url, tid = interrupted_tournament(tmp_path, 3)
    healthy = kassen("ladder", "show", "--db", url, cwd=tmp_path, env=broken_env)
    assert healthy.returncode == 0, healthy.stderr  # the hook alone breaks nothing
    broken_env["KASSEN_BREAK"] = "fit"
    for fmt in ("table", "json", "csv"):
        shown = kassen("ladder", "show", "--db", url, "--format", fmt, cwd=tmp_path, env=broken_env)
        assert shown.returncode == 1 and shown.stdout == ""
        line = one_kassen_line(shown.stderr)
        assert line.startswith(f"kassen: cannot compute the ladder of {tid}: Bradley–Terry fit")
    ran = kassen(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--games",
        "2",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
        env=broken_env,
    )
    assert ran.returncode == 1
    line = one_kassen_line(ran.stderr)
    assert "cannot compute the ladder" in line and "results are stored" in line
    assert "non-finite" in line


def test_an_sprt_whose_llr_is_not_finite_is_one_line_and_exit_1(
    tmp_path: Path, broken_env: dict[str, str]
) -> None:
    broken_env["KASSEN_BREAK"] = "sprt"
    result = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        cwd=tmp_path,
        env=broken_env,
    )
    assert result.returncode == 1
    line = one_kassen_line(result.stderr)
    assert (
        line == "kassen: SPRT failed: SPRT: the log-likelihood ratio is not finite after 1 blocks"
    )


def test_sprt_arguments_out_of_range_are_a_usage_error(tmp_path: Path) -> None:
    """alpha + beta >= 1 used to reach the test's constructor: a ValueError traceback."""
    result = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--alpha",
        "0.6",
        "--beta",
        "0.5",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert one_kassen_line(result.stderr).startswith("kassen: error: need 0 < alpha, beta")
