"""Suite-wide options: the depth of the property runs and simulations.

The heavy tests (thousands of random games, leagues or simulated SPRTs) check every property at
a fast default depth, fewer games or runs with the same assertions, and at full depth with
``--slow``, which CI runs (``tox`` passes it when ``PYTEST_SLOW=--slow``; see tox.ini).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="run the property tests and simulations at full depth (CI does); the default "
        "depth checks the same properties on fewer games, leagues or runs",
    )


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("slow"):
        return "depth: slow (full property runs)"
    return "depth: fast (--slow for the full property runs)"


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
