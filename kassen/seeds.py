"""A seed as a user gives it: ``--seed`` of every command and ``seed`` in a tournament file.

One rule and one message everywhere: a whole number from 0 to ``MAX_SEED`` (2**63 - 1), the
range the referee accepts, the database stores and the replay format records. A command that
took a seed no other command would take (``kassen play --seed -1``) would print a game that
``kassen match`` and a tournament cannot reproduce.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from kassen.errors import UsageError
from server.settings import MAX_SEED

#: What a seed must be, as every error about one says it.
RULE = f"must be a whole number from 0 to {MAX_SEED:,}"
#: A whole number as typed (ASCII digits and a sign: ``int`` also takes ``1_000``, `` 7``
#: and digits of other scripts, which no seed should be written with).
_WHOLE = re.compile(r"[+-]?[0-9]+")


def seed_problem(value: Any) -> str | None:
    """Why ``value`` (from a file: any TOML value) cannot be a seed, a phrase to follow the
    word ``seed``; None when it can."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED:
        return None
    return f"{RULE}, not {_short(repr(value))}"


def seed_flag(text: str) -> int:
    """``--seed``'s type: the seed, or a ``UsageError`` "--seed must be ...". (Raised, not
    argparse's ``ArgumentTypeError``, so the line reads the same as a file's.) A number is
    quoted as typed, anything else as a string."""
    if not _WHOLE.fullmatch(text):
        raise UsageError(f"--seed {RULE}, not {_short(repr(text))}")
    # Longer than any seed: out of range without converting (``int`` refuses 4,300 digits).
    value = int(text) if len(text) <= 40 else None
    if value is None or seed_problem(value) is not None:
        raise UsageError(f"--seed {RULE}, not {_short(text)}")
    return value


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def add_seed_flag(parser: argparse.ArgumentParser, what: str) -> None:
    """``--seed N`` on a command's parser; ``what`` says what the seed seeds, and its default."""
    parser.add_argument("--seed", type=seed_flag, default=None, metavar="N", help=what)
