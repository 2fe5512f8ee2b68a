"""The suite's own guards (tests/conftest.py), each checked on a small pytest run of its own:
commands a test starts get SIGINT as from a terminal even when the suite was started with
SIGINT ignored, and a run that wrote into the working tree fails naming the file; with and
without pytest-xdist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: pytest started as a shell without job control starts a background command: SIGINT ignored.
IGNORING_SIGINT = (
    "import signal, sys, pytest; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "sys.exit(pytest.main(sys.argv[1:]))"
)


def pytest_run(
    folder: Path, test: str, *flags: str, tree: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``test`` (a test module's text) run by pytest with this suite's conftest, in ``folder``,
    with SIGINT ignored from the start; ``tree``: the working tree the run must not change."""
    (folder / "test_probe.py").write_text(test)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KASSEN_TEST_WORKING_TREE": str(tree or "")}
    return subprocess.run(
        [sys.executable, "-c", IGNORING_SIGINT, "-q", "-p", "tests.conftest"]
        + ["-p", "no:cacheprovider", "--rootdir", str(folder), *flags, "test_probe.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


XDIST = pytest.mark.parametrize("flags", [[], ["-n", "1"]], ids=["alone", "xdist"])


@XDIST
def test_commands_started_by_tests_get_sigint_even_if_the_suite_ignores_it(
    tmp_path: Path, flags: list[str]
) -> None:
    probe = """
import signal, subprocess, sys

def test_a_command_would_stop_on_ctrl_c():
    child = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    said = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout
    assert said.strip() == "True"
"""
    result = pytest_run(tmp_path, probe, *flags)
    assert result.returncode == 0, result.stdout + result.stderr


@XDIST
def test_a_run_that_writes_into_the_working_tree_fails_naming_the_file(
    tmp_path: Path, flags: list[str]
) -> None:
    tree = tmp_path / "tree"
    (tree / "runs").mkdir(parents=True)
    (tree / "kept.txt").write_text("as it was")
    probe = f"""
from pathlib import Path

def test_that_leaves_a_database_behind():
    Path({str(tree / "runs" / "referee.sqlite")!r}).write_bytes(b"SQLite")

def test_that_edits_a_file():
    Path({str(tree / "kept.txt")!r}).write_text("changed")
"""
    result = pytest_run(tmp_path, probe, *flags, tree=tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "2 passed" in result.stdout
    assert (
        f"the tests wrote into the working tree {tree} (tests must write only to their "
        "tmp_path): kept.txt (changed), runs/referee.sqlite (new)"
    ) in result.stdout
    clean = pytest_run(tmp_path, "def test_nothing():\n    pass\n", *flags, tree=tree)
    assert clean.returncode == 0, clean.stdout + clean.stderr
