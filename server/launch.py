"""Starting bot programs: which interpreter a ``python ...`` command means, and whether a
command can start at all (checked before anything is written)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

#: Command names that mean "a Python interpreter": they run with kassen's own.
PYTHON_NAMES = frozenset({"python", "python3", f"python3.{sys.version_info.minor}"})


def with_our_python(command: Sequence[str]) -> list[str]:
    """A command that starts with ``python`` runs with the interpreter kassen runs in, so a bot
    written against client_sdk finds it without an activated virtual environment."""
    argv = list(command)
    if argv and argv[0] in PYTHON_NAMES:
        argv[0] = sys.executable
    return argv


def can_start(program: str) -> bool:
    """True if ``program`` (a command's first word) names something that can be run."""
    return program in PYTHON_NAMES or shutil.which(program) is not None or Path(program).is_file()
