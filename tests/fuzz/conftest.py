"""One ``kassen serve`` per test session (per xdist worker) for the fuzz tests, checked when the
session ends; the run's seed printed with every failure."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import pytest

from tests.fuzz.harness import FUZZ_SEED, Served, serving


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("fuzz-referee")
    with serving(folder, "--replays", str(folder / "replays")) as referee:
        yield referee


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[Any]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        report.sections.append(
            ("fuzz seed", f"KASSEN_FUZZ_SEED={FUZZ_SEED} replays this run's cases")
        )
    return report
