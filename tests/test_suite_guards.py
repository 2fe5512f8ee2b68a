"""The suite's own guards (tests/conftest.py), each checked on a small pytest run of its own:
commands a test starts get SIGINT as from a terminal even when the suite was started with
SIGINT ignored, and a run that wrote into the working tree fails naming the file; with and
without pytest-xdist."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.system

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


#: One probe run serves both guards' tests (a pytest run with xdist takes seconds to start).
PROBE = """
import signal, subprocess, sys
from pathlib import Path

def test_a_command_would_stop_on_ctrl_c():
    child = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    said = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout
    assert said.strip() == "True"

def test_that_leaves_a_database_behind():
    Path({database!r}).write_bytes(b"SQLite")

def test_that_edits_a_file():
    Path({kept!r}).write_text("changed")
"""


@dataclass(frozen=True)
class ProbeRun:
    tree: Path
    folder: Path
    flags: list[str]
    result: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module", params=[[], ["-n", "1"]], ids=["alone", "xdist"])
def probe_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> ProbeRun:
    """The probe module run once with pytest alone and once with xdist, SIGINT ignored, in a
    working tree of its own that two of its tests write into."""
    flags: list[str] = request.param
    folder = tmp_path_factory.mktemp("guards")
    tree = folder / "tree"
    (tree / "runs").mkdir(parents=True)
    (tree / "kept.txt").write_text("as it was")
    probe = PROBE.format(
        database=str(tree / "runs" / "referee.sqlite"), kept=str(tree / "kept.txt")
    )
    return ProbeRun(tree, folder, flags, pytest_run(folder, probe, "-rA", *flags, tree=tree))


def test_commands_started_by_tests_get_sigint_even_if_the_suite_ignores_it(
    probe_run: ProbeRun,
) -> None:
    output = probe_run.result.stdout + probe_run.result.stderr
    assert "PASSED test_probe.py::test_a_command_would_stop_on_ctrl_c" in output, output
    assert "failed" not in probe_run.result.stdout, output


def test_a_run_that_writes_into_the_working_tree_fails_naming_the_file(
    probe_run: ProbeRun,
) -> None:
    result, tree = probe_run.result, probe_run.tree
    assert result.returncode == 1, result.stdout + result.stderr
    assert "3 passed" in result.stdout
    assert (
        f"the tests wrote into the working tree {tree} (tests must write only to their "
        "tmp_path): kept.txt (changed), runs/referee.sqlite (new)"
    ) in result.stdout
    clean_folder = probe_run.folder / "clean"
    clean_folder.mkdir()
    clean = pytest_run(clean_folder, "def test_nothing():\n    pass\n", *probe_run.flags, tree=tree)
    assert clean.returncode == 0, clean.stdout + clean.stderr
