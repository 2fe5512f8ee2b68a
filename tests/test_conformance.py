"""The conformance kit passes a good bot and names each fault of deliberately broken ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "conformance_bots" / "broken.py"


def check(*args: str) -> subprocess.CompletedProcess[str]:
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
    assert "4 passed, 0 failed" in result.stdout


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
    assert "--" in failed[0] or fault == "answers-stale"  # a reason follows the check's name


def test_check_without_a_program_is_a_usage_error() -> None:
    assert check("--", "/no/such/bot").returncode == 2
    assert check().returncode == 2
    assert check("--only", "everything", "--", sys.executable).returncode == 2
