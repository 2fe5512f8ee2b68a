"""A launched bot that reads its ticket but keeps the inherited descriptor open:
``python ticket_keeper.py REPORT GO``.

Before anything else it lists its open descriptors; then it reads its ticket (the file named by
``KASSEN_TICKET_FILE``, else ``KASSEN_TICKET``) without closing the descriptor it inherited,
writes a JSON report (what it was given and its descriptors) to REPORT, waits until the file GO
exists, and plays its seat with the SDK's random bot.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def descriptors() -> dict[str, str]:
    """Open descriptors and what they are (the listing's own, closed by then, is left out)."""
    found = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            found[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
    return found


def main(report: Path, go: Path) -> int:
    fds = descriptors()
    path = os.environ.get("KASSEN_TICKET_FILE")
    if path:
        with open(path, encoding="ascii") as file:  # a new descriptor; the inherited one stays
            ticket = file.read().strip()
    else:
        ticket = os.environ.get("KASSEN_TICKET", "")
    given = {"file": path, "env_ticket": "KASSEN_TICKET" in os.environ, "fds": fds}
    partial = report.with_suffix(".part")
    partial.write_text(json.dumps(given))
    partial.replace(report)
    deadline = time.monotonic() + 60
    while not go.exists():
        if time.monotonic() > deadline:
            return 4
        time.sleep(0.02)

    from client_sdk import RandomBot, run_bot

    run_bot(RandomBot(3), ticket=ticket)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
