"""What this run skipped, grouped by file and reason, so a run on a machine without chromium,
grpcurl, PostgreSQL or a language's toolchain says so in words at its end (a skipped test
is otherwise one ``s`` among the dots). Every skip reason in the suite names what is missing
and how to install it; this module only gathers them.

With ``KASSEN_SKIPPED_REPORT=FILE`` set (tox sets it per environment) the groups are also
written to ``FILE`` as JSON, and ``tools/skipped_report.py`` prints every environment's at the
end of ``tox``.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest

REPORT_ENV = "KASSEN_SKIPPED_REPORT"


def skip_groups(reports: list[pytest.TestReport | pytest.CollectReport]) -> list[dict[str, object]]:
    """``[{"file", "reason", "tests"}]``: how many tests each (file, reason) skipped, the
    largest groups first."""
    counts: Counter[tuple[str, str]] = Counter()
    for report in reports:
        file = report.nodeid.split("::", 1)[0] or "?"
        reason = _reason(report)
        counts[(file, reason)] += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [{"file": f, "reason": r, "tests": n} for (f, r), n in ordered]


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    # A skip's longrepr is (path, line, "Skipped: reason"); anything else is shown whole.
    text = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return text.removeprefix("Skipped: ").strip()


def summary_lines(groups: list[dict[str, object]]) -> list[str]:
    """The lines printed under the run: one per (file, reason)."""
    if not groups:
        return []
    total = sum(int(str(g["tests"])) for g in groups)
    lines = [f"Skipped here: {total} test{'s' if total != 1 else ''}; to run them:"]
    for group in groups:
        n = int(str(group["tests"]))
        lines.append(f"  {group['file']} ({n}): {group['reason']}")
    return lines


def write_report(path: Path, groups: list[dict[str, object]]) -> None:
    """Write the groups for ``tools/skipped_report.py`` (atomically: a reader never sees half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    body = {"written": time.time(), "groups": groups}
    partial.write_text(json.dumps(body, indent=1) + "\n")
    partial.replace(path)


def terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print (and, with ``KASSEN_SKIPPED_REPORT``, record) what this run skipped."""
    reports = [
        r
        for r in terminalreporter.stats.get("skipped", [])
        if isinstance(r, (pytest.TestReport, pytest.CollectReport))
    ]
    groups = skip_groups(reports)
    destination = os.environ.get(REPORT_ENV)
    if destination:
        write_report(Path(destination), groups)
    lines = summary_lines(groups)
    if lines:
        terminalreporter.section("skipped suites", sep="-")
        for line in lines:
            terminalreporter.write_line(line)
