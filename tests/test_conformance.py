"""The conformance kit passes a good bot and names each fault of deliberately broken ones."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.root.lineup import unavailable
from kassen.commands.check import Report
from server.conformance import Check, kinds_check

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "conformance_bots" / "broken.py"


@functools.cache
def check(*args: str) -> subprocess.CompletedProcess[str]:
    """``kassen bot check`` with these arguments, run once per test process: tests asking for
    the same run (the bad-exit bot's games) share it."""
    return subprocess.run(
        [sys.executable, "-m", "kassen", "bot", "check", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_the_example_python_bot_passes_every_check() -> None:
    result = check("--", sys.executable, str(ROOT / "examples" / "python" / "bot.py"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout and "7 passed, 0 failed" in result.stdout


def test_the_example_python_bot_passes_the_root_checks_and_meets_rare_kinds() -> None:
    result = check(
        "--game",
        "root",
        "--only",
        "games,kinds",
        "--",
        sys.executable,
        str(ROOT / "examples" / "python" / "bot.py"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "plays a 2-player autumn game" in result.stdout
    assert "plays a 2-player winter game" in result.stdout
    passed = 4
    for players in (3, 4):  # once their factions (Alliance, Vagabond) are in the engine
        if unavailable(players) is None:
            assert f"plays a {players}-player autumn game" in result.stdout
            passed += 1
    assert f"{passed} passed, 0 failed" in result.stdout


def test_the_example_python_bot_passes_the_gnomeville_checks_and_meets_every_kind() -> None:
    """Simultaneous decisions, solo and 4 players, both variants with their own build phase,
    and the prepared positions of every rare kind (games/gnomeville/positions.py)."""
    result = check(
        "--game",
        "gnomeville",
        "--only",
        "games,kinds",
        "--",
        sys.executable,
        str(ROOT / "examples" / "python" / "bot.py"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "plays a 1-player standard game" in result.stdout
    assert "plays a 4-player turn-by-turn game" in result.stdout
    assert "answers every kind of decision (16 kinds met)" in result.stdout
    assert "FAIL" not in result.stdout


@pytest.mark.parametrize(
    ("fault", "group", "failing"),
    [
        ("answers-stale", "probe", "ignores a stale"),
        ("no-rejoin", "probe", "rejoins after its stream is dropped"),
        ("slow", "deadline", "answers within a 300 ms deadline"),
        ("bad-exit", "games", "exits with code 0 after MatchOver"),
        ("card-crash", "kinds", "answers every kind of decision"),
    ],
)
def test_each_broken_bot_fails_its_check_with_a_reason(
    fault: str, group: str, failing: str
) -> None:
    result = check("--only", group, "--", sys.executable, str(BROKEN), fault)
    assert result.returncode == 1, result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if line.strip().startswith("FAIL")]
    assert failed and failing in failed[0], result.stdout
    assert "--" in failed[0]  # a reason follows the check's name


def test_exit_failures_are_said_in_words() -> None:
    # Both at once: the lingering bot's run is mostly waiting (5 s after each game).
    with ThreadPoolExecutor(2) as pool:
        bad_exit, lingers = pool.map(
            lambda fault: check("--only", "games", "--", sys.executable, str(BROKEN), fault),
            ("bad-exit", "lingers"),
        )
    assert "exits with code 0 after MatchOver  -- exited with code 3" in bad_exit.stdout
    assert lingers.returncode == 1, lingers.stdout + lingers.stderr
    assert (
        "FAIL  exits with code 0 after MatchOver  -- still running 5 s after MatchOver"
        in lingers.stdout
    )
    assert "None" not in bad_exit.stdout + lingers.stdout


def test_a_bot_that_never_starts_passes_nothing_and_its_error_is_shown_once(
    tmp_path: Path,
) -> None:
    """``python missing.py`` used to PASS "ignores a stale request" (it never got one) and
    repeated python's complaint 21 times on the kinds line."""
    result = check("--", sys.executable, str(tmp_path / "missing.py"))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    checks = [line for line in lines if line.startswith("  ")]
    assert len(checks) == 7 and all(line.startswith("  FAIL  ") for line in checks), lines
    assert lines[-1] == "0 passed, 7 failed"
    complaint = "No such file or directory"
    assert result.stdout.count(complaint) == 1, result.stdout  # once, in the first failure
    assert complaint in checks[0]
    by_name = {line.split("  -- ")[0].strip(): line.split("  -- ", 1)[1] for line in checks}
    assert by_name["FAIL  exits with code 0 after MatchOver"].startswith(
        "not checked: it never reached MatchOver"
    )
    for probe in ("ignores a stale (already answered) request", "rejoins after its stream"):
        (detail,) = [d for name, d in by_name.items() if probe in name]
        assert detail.startswith("not checked: the probe comes after 3 answers, it gave 0")
    (kinds,) = [d for name, d in by_name.items() if "every kind of decision" in name]
    assert kinds.startswith("failed in ") and " positions (" in kinds
    assert kinds.endswith("bot_crashed, as above")


def test_the_report_shows_an_error_in_full_once() -> None:
    report = Report()
    error = "bot_crashed: bot process exited with code 1: Traceback | ValueError: boom"
    first = report.line(Check("plays a game", False, error=error))
    again = report.line(Check("plays another game", False, "5 decisions", error))
    assert first == f"  FAIL  plays a game  -- {error}"
    assert again == "  FAIL  plays another game  -- 5 decisions; bot_crashed, as above"
    assert report.line(Check("passes", True, "a\nb")) == "  PASS  passes  -- a b"


def test_the_kinds_check_is_one_line_however_many_positions_fail() -> None:
    crash = "bot_crashed: exit code 1"
    results = [(f"p{i}", crash) for i in range(21)] + [("ok", ""), ("late", "timeout: slow")]
    verdict = kinds_check(5, results)
    assert not verdict.passed and verdict.error == crash
    assert verdict.detail == (
        "failed in 22 of 23 positions (p0, p1, p2 and 19 more); 1 other error besides the first"
    )
    assert kinds_check(5, [("a", ""), ("b", "")]).passed


def test_a_check_that_passes_with_every_failure_is_impossible() -> None:
    """A check whose precondition never happened cannot pass: with ``true`` as the bot (it
    exits at once, with code 0) nothing passes, not even the clean exit."""
    result = check("--only", "games,probe", "--", "true")
    assert result.returncode == 1
    assert "PASS" not in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--", "/no/such/bot"], "no such program"),
        ([], "give the bot's command after --"),
        (["--only", "everything", "--", sys.executable], "unknown check group(s) everything"),
        (["--game", "chess", "--", sys.executable], "unknown game 'chess'"),
        (["--decision-ms", "0", "--", sys.executable], "--decision-ms must be positive"),
        (["--deadline-ms", "-5", "--", sys.executable], "--deadline-ms must be positive"),
    ],
)
def test_bad_check_arguments_are_a_usage_error(args: list[str], message: str) -> None:
    result = check(*args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error:") and message in lines[0]
