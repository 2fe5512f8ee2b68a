"""``kassen replay verify FILE``: re-simulate a replay and check it against its record.

A FILE that is not a replay (missing, unreadable, not JSON, not a ``kassen-replay/1`` object)
is a usage error, exit 2, like any bad argument; a replay that does not verify (a seed that
does not match its commitment, a decision the rules refuse, a different final state, a seed
still secret) is a failure, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kassen.errors import UsageError

#: The format tag of server.replay.FORMAT (not imported: it loads the games).
REPLAY_FORMAT = "kassen-replay/1"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = sub.add_parser("replay", help="check replay files")
    actions = replay.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="re-simulate a replay and check it")
    verify.add_argument(
        "file",
        type=Path,
        help="a replay file, e.g. the 'Replay:' path kassen match prints (runs/replays/*.json)",
    )
    verify.set_defaults(run=run_verify)


def read_replay(path: Path) -> dict[str, Any]:
    """The record in ``path``; UsageError if it is not a replay file at all."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"replay {path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"replay {path}: is a folder, not a replay file") from None
    except OSError as exc:
        raise UsageError(f"replay {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"replay {path}: not a text file") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"replay {path}: not JSON ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != REPLAY_FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise UsageError(f"replay {path}: not a {REPLAY_FORMAT} file (format: {found!r})")
    return record


def run_verify(args: argparse.Namespace) -> int:
    record = read_replay(args.file)
    from server.replay import ReplayError, verify_record

    try:
        verified = verify_record(record)
    except ReplayError as exc:
        print(f"kassen: replay {args.file} does not verify: {exc}", file=sys.stderr)
        return 1
    scores = ", ".join(map(str, verified.scores)) if verified.scores else "unfinished"
    seed = "seed matches its commitment, " if verified.commitment_checked else ""
    print(
        f"ok: {verified.game}, {seed}{verified.decisions} decisions re-simulated, scores {scores}, digest {verified.digest}"
    )
    for seat, before, at in verified.takeovers:
        print(
            f"seat {seat} (player {seat + 1}) was taken over before decision {before} ({at}):"
            " another stream"
            " joined with its ticket while its own still held it"
        )
    return 0
