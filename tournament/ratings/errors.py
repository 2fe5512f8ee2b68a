"""The one exception the ratings raise for a computation that failed numerically."""

from __future__ import annotations


class RatingsError(ArithmeticError):
    """A fit that found no finite answer, a singular matrix, a non-finite LLR.

    An ``ArithmeticError`` (like ``OverflowError``), so a caller can tell a numerical failure
    from bad input (``ValueError``); the command line reports it in one line with exit code 1.
    """
