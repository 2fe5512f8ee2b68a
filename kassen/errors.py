"""Errors the command line reports as one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class UsageError(Exception):
    """A bad argument or input: one line on stderr, exit code 2, nothing half-written."""


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
