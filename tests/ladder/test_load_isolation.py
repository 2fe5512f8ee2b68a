"""Nothing a web visitor does may delay a decision: a real ``kassen ladder serve`` on a ladder
grown large (100,000 stored matches and 1,000,000 rating-history points with ``--slow``; a
fifth of that by default), connected bots playing on a clock without a bank, and web clients
in other processes hammering its heaviest pages, half the time with queries that no cache
has seen. The ladder's own ``referee_load`` reports (``server.load``) give the decisions'
server time and the loop's lag; the bots' results give every seat's reason."""

from __future__ import annotations

import calendar
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Depth
from tests.ladder.big_ladder import LadderProcess, heavy_paths, played_replay, seed_database

pytestmark = pytest.mark.timing

#: Bots playing while the page is hammered (two-player matches against house bots).
BOTS = 6
#: Web client processes.
HAMMERS = 2


def run_clients(role: str, target: str, seconds: float, args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ladder.load_clients", role, target, str(seconds), *args],
        stdout=subprocess.PIPE,
        text=True,
    )


def result(process: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    out, _ = process.communicate(timeout=timeout)
    assert process.returncode == 0, out
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def window(ladder: LadderProcess, began: float, ended: float) -> list[dict[str, Any]]:
    """The load reports logged between two wall-clock times (ISO timestamps in UTC)."""
    found = []
    for line in ladder.events("referee_load"):
        at = calendar.timegm(time.strptime(line["timestamp"][:19], "%Y-%m-%dT%H:%M:%S"))
        if began + 1 <= at <= ended:
            found.append(line)
    return found


def test_web_clients_never_delay_a_decision_on_a_big_ladder(tmp_path: Path, depth: Depth) -> None:
    """Two phases of the same length on the same ladder: the bots alone, then the bots while
    the page is hammered. On an idle machine the decisions' server time stays within 1 ms at
    p99 in both; on a machine busy with other work (a parallel test run) both phases suffer
    alike, so the hammered phase is also compared with the quiet one."""
    database = tmp_path / "ladder.sqlite"
    seeded = seed_database(
        database, depth(20_000, 100_000), depth(200_000, 1_000_000), played_replay()
    )
    ladder = LadderProcess(tmp_path, database, decision_ms=500).start()
    seconds = depth(6, 15)
    try:
        paths = heavy_paths(seeded)
        phases = []
        for hammered in (False, True):
            tokens = list(seeded.author_tokens[BOTS * hammered : BOTS * (hammered + 1)])
            began = time.time()
            players = run_clients("bots", ladder.address, seconds, tokens)
            hammers = [
                run_clients("web", f"http://{ladder.web_address}", seconds, paths)
                for _ in range(HAMMERS if hammered else 0)
            ]
            served = [result(h, seconds + 120) for h in hammers]
            played = result(players, seconds + 120)
            phases.append((played, served, window(ladder, began, began + seconds)))
    finally:
        assert ladder.stop() == 0
    (quiet_bots, _, quiet), (loud_bots, served, loud) = phases
    answers = sum(int(n) for h in served for s, n in h["statuses"].items() if s == "200")
    errors = {s: n for h in served for s, n in h["statuses"].items() if s != "200"}
    assert answers >= 100 and not errors, (answers, errors)  # the page was really hammered
    for played in (quiet_bots, loud_bots):
        reasons: dict[str, int] = {}
        for bot in played.values():
            assert bot["ended"] == bot["assigned"], bot  # every match's MatchEnded arrived
            for reason, count in bot["reasons"].items():
                reasons[reason] = reasons.get(reason, 0) + count
        assert set(reasons) == {"RESULT_REASON_COMPLETED"} and sum(reasons.values()) >= BOTS
    figures = [summary(reports, seconds) for reports in (quiet, loud)]
    print(
        f"\n{answers} page answers while hammered; "
        + "; ".join(
            f"{name}: decision p99 {f['p99_us']} us, loop lag p99 {f['lag_p99_ms']} ms, "
            f"worst {f['lag_max_ms']} ms"
            for name, f in zip(("quiet", "hammered"), figures, strict=True)
        )
    )
    quiet_figures, loud_figures = figures
    assert loud_figures["p99_us"] <= max(1000, 1.5 * quiet_figures["p99_us"])
    # A page answer on the loop held it for 0.2-1.2 s here; now the loop is no busier.
    assert loud_figures["lag_p99_ms"] <= max(10.0, 3 * quiet_figures["lag_p99_ms"])


def summary(reports: list[dict[str, Any]], seconds: float) -> dict[str, float]:
    """The medians over one phase's one-second reports (those with decisions in them)."""
    busy = [r for r in reports if r["decisions"] >= 20]
    assert len(busy) >= seconds // 2 - 1, reports
    return {
        "p99_us": statistics.median(r["decision_p99_us"] for r in busy),
        "lag_p99_ms": statistics.median(r["lag_p99_ms"] for r in busy),
        "lag_max_ms": max(r["lag_max_ms"] for r in busy),
    }
