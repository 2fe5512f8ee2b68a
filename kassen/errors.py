"""Errors the command line reports as one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class UsageError(Exception):
    """A bad argument or input: one line on stderr, exit code 2, nothing half-written."""


class WriteFailed(Exception):
    """A file could not be written (a full disk, a quota, a folder that vanished): one line on
    stderr naming the file and the cause, exit code 1. Files are written whole or not at all
    (``kassen/files.py``), so nothing half-written is left, and a previous version stays."""

    def __init__(self, path: Path | str, reason: str) -> None:
        """``path``: the file, or a database by its URL."""
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason

    @classmethod
    def of(cls, path: Path, exc: OSError) -> WriteFailed:
        """``exc`` told as the system words it (``No space left on device``)."""
        return cls(path, exc.strerror or " ".join(str(exc).split()) or type(exc).__name__)


class NumericalError(Exception):
    """A computation on stored results failed (no finite fit, a singular matrix, a non-finite
    LLR): one line on stderr, exit code 1. The results themselves are kept."""


@contextmanager
def numerical_failures(what: str) -> Iterator[None]:
    """Report an ``ArithmeticError`` raised inside (``RatingsError``, ``OverflowError``, ...)
    as a ``NumericalError`` "``what``: reason", instead of a traceback."""
    try:
        yield
    except ArithmeticError as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise NumericalError(f"{what}: {reason}") from None
