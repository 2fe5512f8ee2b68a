"""A run that skips tests says at its end which ones and how to enable them, and tox's last
environment repeats every environment's list (tests/skipped_suites.py, tools/skipped_report.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import pytest

pytestmark = pytest.mark.skipif(True, reason="frobnicator is not installed (apt-get install frob)")


def test_one() -> None:
    pass


def test_two() -> None:
    pass
"""

PLAIN = """
import pytest


def test_runs() -> None:
    pass


def test_needs_widget() -> None:
    pytest.skip("widget is missing (pip install widget)")
"""


def test_a_run_names_its_skips_and_records_them_for_tox(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytester.makeconftest(
        "from tests.skipped_suites import terminal_summary\n\n"
        "def pytest_terminal_summary(terminalreporter):\n"
        "    terminal_summary(terminalreporter)\n"
    )
    pytester.makepyfile(test_probe=PROBE, test_plain=PLAIN)
    record = tmp_path / "skipped" / "py311.json"
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("KASSEN_SKIPPED_REPORT", str(record))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=3)
    result.stdout.fnmatch_lines(
        [
            "*skipped suites*",
            "Skipped here: 3 tests; to run them:",
            "  test_probe.py (2): frobnicator is not installed (apt-get install frob)",
            "  test_plain.py (1): widget is missing (pip install widget)",
        ]
    )
    body = json.loads(record.read_text())
    assert body["groups"][0] == {
        "file": "test_probe.py",
        "reason": "frobnicator is not installed (apt-get install frob)",
        "tests": 2,
    }
    (tmp_path / "skipped" / "ray.json").write_text(json.dumps({"written": 0, "groups": []}))
    printed = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "skipped_report.py"), str(tmp_path / "skipped")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert printed[0] == "What the test environments skipped, and how to run it:"
    assert printed[1] == "  py311 (just now): 3 skipped"
    assert "    test_plain.py (1): widget is missing (pip install widget)" in printed
    assert printed[-1].startswith("  ray (") and printed[-1].endswith("): nothing skipped")


def test_a_run_that_skips_nothing_prints_no_section(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(
        "from tests.skipped_suites import terminal_summary\n\n"
        "def pytest_terminal_summary(terminalreporter):\n"
        "    terminal_summary(terminalreporter)\n"
    )
    pytester.makepyfile(test_ok="def test_ok() -> None:\n    pass\n")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delenv("KASSEN_SKIPPED_REPORT", raising=False)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "skipped suites" not in result.stdout.str()


def test_the_report_says_when_no_environment_recorded(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "skipped_report.py"), str(tmp_path / "none")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed.startswith("No test environment has recorded its skips yet")
