"""benchmarks/all.py with tiny windows: every benchmark still runs and yields a usable figure."""

from __future__ import annotations

import math

import pytest

from benchmarks import all as bench
from benchmarks import yardstick

pytestmark = pytest.mark.system

TINY = bench.Profile(
    yardstick_seconds=0.02,
    yardstick_repeats=1,
    engine={"seconds": 0.001, "repeats": 1, "batch": 2},
    root_engine={"seconds": 0.001, "repeats": 1, "batch": 1},
    gnomeville_engine={"seconds": 0.001, "repeats": 1, "batch": 1},
    referee={"seconds": 0.4, "warmup": 0.1, "streams": 2},
    tournament={"matches": 12, "concurrency": 1},  # in-process: no spawn,
    ratings={"bots": 20, "games": 2_000, "repeats": 1, "rankings_too": False},
    load={"matches": 4, "workers": 1},  # a real kassen serve and one bot process
    search={"count": 1, "games": ("rumble-nation",), "timed_seconds": 0.05},
)


def test_yardstick_workload_is_fixed() -> None:
    assert yardstick.batch() == yardstick.BATCH_MOVES
    assert yardstick.measure(0.01, 1) > 0


def test_all_benchmarks_produce_a_table() -> None:
    results = bench.run_all(TINY)
    assert [r.name for r in results] == list(bench.NAMES)
    for result in results:
        assert result.error is None, result.error
        assert result.figures, result.name
        y = result.reading.value
        assert math.isfinite(y) and y > 0
        for figure in result.figures:
            value = figure.value if figure.kind == "ratio" else figure.ratio(y)
            assert value is not None and math.isfinite(value) and value > 0, figure
            if figure.target is not None and figure.kind != "ratio":
                target_ratio = figure.target_ratio()
                assert target_ratio is not None and math.isfinite(target_ratio)
    table = bench.rows(results)
    assert {row[0] for row in table[1:]} == {f.benchmark for r in results for f in r.figures}
    assert len(table) - 1 == sum(len(r.figures) for r in results)
    assert "met" in bench.format_table(table) and "---" in bench.format_table(table, True)


def test_the_ladder_fleet_benchmark_loses_no_match() -> None:
    """benchmarks/ladder.py --referees at a tiny size: a real coordinator, a kassen serve of
    two referee processes and one client process; every match accounted for."""
    from benchmarks.ladder_fleet import fleet_run, report

    run = fleet_run(
        bots=6, client_processes=1, seconds=3.0, workers=2, live=20, join_timeout_ms=3000
    )
    assert run.lost == 0, report(run)
    assert len(run.first) == 6 and run.after, report(run)
    assert run.stored["running"] == 0
    assert run.stored["done"] + run.stored["voided"] == sum(run.stored.values())
    assert run.completed_in_run > 0 and run.assigned > 0
    # The referee host spreads the matches over both of its processes.
    assert set(run.decisions_by_worker) == {"w0", "w1"}, report(run)
    assert {"coordinator", "referee w0", "referee w1", "clients 0"} <= set(run.cpu)
    assert "bounded by" in report(run)[-1]
