"""Replay files written by the command line (``kassen match``, tournaments), whole or not at all.

The referee these commands run is given no replay folder; each match instead writes its
replay through ``kassen.files`` the moment its result is decided (``write_when_decided``,
before MatchOver, which names the file, is sent). A replay that cannot be written (a full
disk) then leaves no temporary file behind and no error in the referee's log: the match's
result stands, without a replay path, and the command says in one line why the file is
missing. A seed revealed when its seed block is over is written into the file the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.errors import WriteFailed
from kassen.files import write_file
from server.replay import replay_record, reveal_record

if TYPE_CHECKING:
    from server.match import Match


def write_replay(directory: Path, match: Match) -> Path:
    """Write ``match``'s replay in ``directory``; ``WriteFailed`` names it if it cannot be."""
    path = directory / f"{match.id}.json"
    write_file(path, json.dumps(replay_record(match), indent=1), durable=False)
    return path


def write_when_decided(match: Match, directory: Path) -> list[WriteFailed]:
    """Have ``match`` write its replay in ``directory`` as soon as its result is decided, and
    name it in its result; the list returned receives the failure if it could not be written."""
    problems: list[WriteFailed] = []

    def write(decided: Match) -> None:
        try:
            path = write_replay(directory, decided)
        except WriteFailed as exc:
            problems.append(exc)
            return
        if decided.result is not None:
            decided.result.replay_path = str(path)

    match.on_result.append(write)
    return problems


def reveal_in_replay(path: Path, seed: int, salt: str) -> str:
    """Write the now-public seed and salt into a replay file; "" when done (or nothing to do:
    the file is gone or revealed already), else why it could not be written."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return ""  # the file is gone or was never complete: nothing to reveal in
    if record.get("seed") is not None:
        return ""
    try:
        write_file(path, json.dumps(reveal_record(record, seed, salt), indent=1), durable=False)
    except WriteFailed as exc:
        return exc.reason
    return ""
