"""Suite-wide options: the depth of the property runs and simulations.

The heavy tests (thousands of random games, leagues or simulated SPRTs) check every property at
a fast default depth, fewer games or runs with the same assertions, and at full depth with
``--slow``, which CI runs (``tox`` passes it when ``PYTEST_SLOW=--slow``; see tox.ini).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.skipped_suites import terminal_summary


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="run the property tests and simulations at full depth (CI does); the default "
        "depth checks the same properties on fewer games, leagues or runs",
    )


def pytest_configure(config: pytest.Config) -> None:
    """The depth for code that runs at import (the fuzz tests' case counts, tests/fuzz); and
    Ctrl-C as a terminal gives it (``sigint_as_in_a_terminal``)."""
    os.environ["KASSEN_TEST_DEPTH"] = "slow" if config.getoption("slow") else "fast"
    sigint_as_in_a_terminal()


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # no hook without pytest-xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` with ``KASSEN_WORKERS_PER_CORE`` set: that many pytest-xdist workers per core.

    Most quick tests wait rather than compute (gRPC on loopback, bot subprocesses, paced
    clocks), so one worker per core leaves the cores half idle; tox's quick suite asks for two
    per core. Without the variable (or with ``PYTEST_XDIST_AUTO_NUM_WORKERS``) pytest-xdist
    decides as usual.
    """
    per_core = os.environ.get("KASSEN_WORKERS_PER_CORE")
    if not per_core or os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        factor = int(per_core)
    except ValueError:
        raise pytest.UsageError(
            f"KASSEN_WORKERS_PER_CORE must be a whole number, not {per_core!r}"
        ) from None
    if factor < 1:
        raise pytest.UsageError(f"KASSEN_WORKERS_PER_CORE must be at least 1, not {factor}")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return factor * (cores or 1)


def sigint_as_in_a_terminal() -> None:
    """Handle SIGINT in the test process even when it was started with SIGINT ignored.

    A shell without job control starts a background command (``tox &`` in a script; some CI
    and agent runners) with SIGINT ignored, every process it starts inherits that, and Python
    keeps an inherited SIG_IGN: the commands the tests interrupt (``kassen tournament run``
    with Ctrl-C) then ignored the tests' SIGINT and ran to their end. A handled signal is
    reset to its default in a new program, so with a handler here every command a test
    starts gets SIGINT as it would from a terminal, and the pytest-xdist workers with it.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("slow"):
        return "depth: slow (full property runs)"
    return "depth: fast (--slow for the full property runs)"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name what this run skipped and how to enable it (tests/skipped_suites.py)."""
    if not hasattr(terminalreporter.config, "workerinput"):  # xdist workers report to the main
        terminal_summary(terminalreporter)


@dataclass(frozen=True)
class Depth:
    """How deep the heavy tests go: ``depth(fast=200, slow=1000)`` is 1000 with ``--slow``."""

    slow: bool

    def __call__(self, fast: int, slow: int) -> int:
        assert 0 < fast <= slow
        return slow if self.slow else fast


@pytest.fixture(scope="session")
def depth(pytestconfig: pytest.Config) -> Depth:
    return Depth(bool(pytestconfig.getoption("slow")))


def _sigint_state() -> tuple[object, bool, bool]:
    """Python's SIGINT handler, and whether the kernel has SIGINT ignored for this process or
    blocked in this thread (a C library may change those without Python knowing)."""
    status = Path("/proc/thread-self/status")  # Linux; elsewhere Python's view alone
    text = status.read_text() if status.exists() else ""
    fields = dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGINT - 1)
    ignored = bool(int(fields.get("SigIgn", "0"), 16) & bit)
    blocked = bool(int(fields.get("SigBlk", "0"), 16) & bit)
    return signal.getsignal(signal.SIGINT), ignored, blocked


@pytest.fixture(autouse=True)
def _sigint_left_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that leaves Ctrl-C ignored or blocked in the test process: every process the
    later tests start would inherit it (the ctrl-C tests of the CLIs then see a lost SIGINT)."""
    before = _sigint_state()
    yield
    after = _sigint_state()
    if after != before:
        signal.signal(signal.SIGINT, before[0])  # type: ignore[arg-type]
        if after[2] and not before[2]:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        pytest.fail(
            f"{request.node.nodeid} changed SIGINT in the test process: "
            f"(handler, ignored, blocked) {before} -> {after}",
            pytrace=False,
        )


# ------------------------------------------------------------------ the working tree stays clean

#: The working tree the tests must leave as they found it (another folder only for the test of
#: this check itself, tests/test_suite_guards.py).
ROOT = Path(os.environ.get("KASSEN_TEST_WORKING_TREE") or Path(__file__).resolve().parents[1])
#: Folders that tools write while the tests run (caches, environments, VCS), not the tests.
TOOL_FOLDERS = frozenset(
    {".git", ".venv", ".tox", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
)
Snapshot = dict[str, tuple[int, int]]
_TREE_KEY = pytest.StashKey[Snapshot]()


def working_tree() -> Snapshot:
    """Every file of the working tree outside tool folders: path -> (size, mtime in ns)."""
    files: Snapshot = {}
    for folder, folders, names in os.walk(ROOT):
        folders[:] = [
            name
            for name in folders
            if name not in TOOL_FOLDERS and name != "__pycache__" and not name.endswith(".egg-info")
        ]
        for name in names:
            path = os.path.join(folder, name)
            try:
                status = os.stat(path, follow_symlinks=False)
            except OSError:
                continue  # gone meanwhile
            files[os.path.relpath(path, ROOT)] = (status.st_size, status.st_mtime_ns)
    return files


def tree_changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed between two snapshots, one phrase a file, minus the example bots' build
    outputs (what an example's own .gitignore lists: its build.sh makes them there)."""
    changed = {path: "new" for path in after.keys() - before.keys()}
    changed |= {path: "changed" for path in before if path in after and after[path] != before[path]}
    changed |= {path: "removed" for path in before.keys() - after.keys()}
    outputs = _build_outputs([path for path in changed if path.startswith("examples" + os.sep)])
    return [f"{path} ({what})" for path, what in sorted(changed.items()) if path not in outputs]


def _build_outputs(paths: list[str]) -> set[str]:
    """Those of ``paths`` that a .gitignore inside examples/ ignores (one call to git for all:
    a build can make thousands of files)."""
    if not paths:
        return set()
    try:
        found = subprocess.run(
            ["git", "check-ignore", "--verbose", "--non-matching", "--no-index", "--stdin", "-z"],
            input="\0".join(paths) + "\0",
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    # With -z: source, line number, pattern and path, each ended by NUL ("" x3 when none).
    fields = found.stdout.split("\0")
    return {
        fields[i + 3]
        for i in range(0, len(fields) - 3, 4)
        if fields[i].startswith("examples/") and fields[i + 2] and not fields[i + 2].startswith("!")
    }


def _controller(config: pytest.Config) -> bool:
    """True in the process that runs the session (not in a pytest-xdist worker): the one that
    sees it whole, from before any test to after the last."""
    return not hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if _controller(session.config):
        session.config.stash[_TREE_KEY] = working_tree()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run when the tests wrote into the working tree: a test must write only to
    its tmp_path (a database or replay left in runs/ would also be read by the next run)."""
    before = session.config.stash.get(_TREE_KEY, None)
    if before is None:
        return
    changes = tree_changes(before, working_tree())
    if not changes:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = (
        f"the tests wrote into the working tree {ROOT} (tests must write only to their "
        f"tmp_path): {', '.join(changes)}"
    )
    if reporter is not None:
        reporter.write("\n")
        reporter.write_line(message, red=True, bold=True)
    else:
        print(message, file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def passable() -> Iterator[Path]:
    """A fresh folder the sandbox's unprivileged user may pass through (mode 711), removed
    after the test: what a sandbox binds must be reachable by that user, and pytest's own
    temporary folders (mode 700) are not. Skipped, saying why, in a checkout that user cannot
    reach (the Python runtime binds its proto folder), e.g. a clone inside a mode-700 folder."""
    from server.sandbox.runtimes import unreachable

    problem = unreachable(Path(__file__).resolve().parents[1] / "proto")
    if problem:
        pytest.skip(
            f"the sandbox user cannot reach this checkout: {problem}; clone it where others may pass"
        )
    parent = Path(tempfile.mkdtemp(prefix="kassen-passable-"))
    os.chmod(parent, 0o711)
    try:
        yield parent
    finally:
        shutil.rmtree(parent, ignore_errors=True)
