"""Suite-wide options: the depth of the property runs and simulations.

The heavy tests (thousands of random games, leagues or simulated SPRTs) check every property at
a fast default depth, fewer games or runs with the same assertions, and at full depth with
``--slow``, which CI runs (``tox`` passes it when ``PYTEST_SLOW=--slow``; see tox.ini).
"""

from __future__ import annotations

import os
import signal
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
    """The depth for code that runs at import (the fuzz tests' case counts, tests/fuzz)."""
    os.environ["KASSEN_TEST_DEPTH"] = "slow" if config.getoption("slow") else "fast"


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
