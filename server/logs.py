"""structlog setup: one JSON object per line on stderr, with match id and seat bound."""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any

import structlog


class StderrLogger:
    """Writes each line to ``sys.stderr`` as it is when the line is written, whole.

    A logger that keeps the stream it was configured with writes to a closed file once that
    stream is replaced and closed (a test's captured stderr, a redirected one), and the
    ``ValueError`` would fail the gRPC call that logged. Logging never fails the caller: a
    line that cannot be written (a closed or full stderr) is dropped.
    """

    _lock = threading.Lock()  # whole lines from the threads that log (database writers)

    def msg(self, message: str) -> None:
        try:
            with self._lock:
                stream = sys.stderr
                stream.write(message + "\n")
                stream.flush()
        except (OSError, ValueError, AttributeError):
            pass

    debug = info = warning = warn = error = err = critical = fatal = exception = failure = msg
    log = msg


def _stderr_logger(*_args: Any) -> StderrLogger:
    return StderrLogger()


def configure(level: str = "info", json: bool = True) -> None:
    processors: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        # ``log.exception(...)``: the traceback as text in the line, not ``exc_info: true``.
        structlog.processors.format_exc_info,
    ]
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper())),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
