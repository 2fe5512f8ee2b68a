"""Print, at the end of ``tox``, which suites every environment skipped and how to enable them.

Each test environment's pytest writes its skips to ``FOLDER/<env>.json`` (tests/conftest.py,
``KASSEN_SKIPPED_REPORT``); tox's last environment runs this over that folder, so the list is
the last thing above tox's own summary instead of a few ``s`` lost in thousands of dots.

    python tools/skipped_report.py .tox/skip-reports
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def report(folder: Path, now: float) -> list[str]:
    """The lines to print: per environment, its skips (or that it skipped nothing)."""
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return ["No test environment has recorded its skips yet (run tox's test environments)."]
    lines = ["What the test environments skipped, and how to run it:"]
    for file in files:
        try:
            body = json.loads(file.read_text())
            groups = list(body["groups"])
            age = max(0.0, now - float(body["written"]))
        except (OSError, ValueError, KeyError, TypeError):
            lines.append(f"  {file.stem}: its record {file} cannot be read")
            continue
        when = f"{age / 60:.0f} min ago" if age >= 60 else "just now"
        if not groups:
            lines.append(f"  {file.stem} ({when}): nothing skipped")
            continue
        total = sum(int(g["tests"]) for g in groups)
        lines.append(f"  {file.stem} ({when}): {total} skipped")
        for group in groups:
            lines.append(f"    {group['file']} ({group['tests']}): {group['reason']}")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/skipped_report.py FOLDER", file=sys.stderr)
        return 2
    print("\n".join(report(Path(argv[0]), time.time())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
