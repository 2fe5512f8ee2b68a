"""``kassen replay verify FILE``: re-simulate a replay and check it against its record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from server.replay import ReplayError, verify_file


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = sub.add_parser("replay", help="work with replay files")
    actions = replay.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="re-simulate a replay and check it")
    verify.add_argument("file", type=Path)
    verify.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    try:
        verified = verify_file(args.file)
    except ReplayError as exc:
        print(f"kassen: replay {args.file}: {exc}", file=sys.stderr)
        return 1
    scores = ", ".join(map(str, verified.scores)) if verified.scores else "unfinished"
    seed = "seed matches its commitment, " if verified.commitment_checked else ""
    print(
        f"ok: {verified.game}, {seed}{verified.decisions} decisions re-simulated, scores {scores}, digest {verified.digest}"
    )
    return 0
