"""Errors the command line reports as one line."""


class UsageError(Exception):
    """A bad argument or input: one line on stderr, exit code 2, nothing half-written."""
