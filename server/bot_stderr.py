"""A launched bot's stderr, read at a bounded rate into a bounded tail.

A bot may write gigabytes to stderr. The referee keeps only the last ``TAIL_BYTES`` (they
explain a crash), logs at most ``LOGGED_LINES`` lines of it, and reads at most ``RATE_BYTES_S``
bytes per second after a ``BURST_BYTES`` allowance: when the allowance is spent it stops
reading for a while, the pipe fills and the bot's own writes block. So a flood costs the
referee neither memory nor more than a bounded share of CPU; it only slows the bot down.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

import structlog

log = structlog.get_logger("kassen.bot")

TAIL_BYTES = 8192
LOGGED_LINES = 50
LINE_CHARS = 300
READ_BYTES = 65536
RATE_BYTES_S = 1 << 20
BURST_BYTES = 4 << 20


class StderrReader:
    """Reads the non-blocking pipe ``fd`` from the event loop and owns it (``close``).

    ``on_tail`` is called with the new tail after each read (the seat keeps it).
    """

    def __init__(
        self,
        fd: int,
        on_tail: Callable[[bytes], None] | None = None,
        rate: int = RATE_BYTES_S,
        burst: int = BURST_BYTES,
        label: str = "",
    ) -> None:
        self._fd: int | None = fd
        self._on_tail = on_tail
        self._rate = rate
        self._burst = burst
        self._label = label
        self._loop = asyncio.get_running_loop()
        self._allowance = float(burst)
        self._refilled = self._loop.time()
        self._resume: asyncio.TimerHandle | None = None
        self._partial = b""
        self.tail = b""
        #: Bytes read so far, lines logged, and lines not logged (over ``LOGGED_LINES``).
        self.received = 0
        self.logged = 0
        self.unlogged = 0
        self.eof = asyncio.Event()
        os.set_blocking(fd, False)
        self._loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        now = self._loop.time()
        self._allowance = min(
            float(self._burst), self._allowance + (now - self._refilled) * self._rate
        )
        self._refilled = now
        want = min(READ_BYTES, self._burst)
        if self._allowance < want:  # wait for a whole read's worth: no trickle of tiny reads
            self._pause((want - self._allowance) / self._rate)
            return
        self.read_available(want)

    def read_available(self, budget: int) -> None:
        """Read what the pipe holds now, up to ``budget`` bytes (charged to the allowance)."""
        while budget > 0 and self._fd is not None:
            try:
                chunk = os.read(self._fd, min(budget, READ_BYTES))
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.close()
                return
            budget -= len(chunk)
            self._allowance -= len(chunk)
            self._take(chunk)

    def _pause(self, seconds: float) -> None:
        if self._fd is None or self._resume is not None:
            return
        self._loop.remove_reader(self._fd)
        self._resume = self._loop.call_later(seconds, self._unpause)

    def _unpause(self) -> None:
        self._resume = None
        if self._fd is not None:
            self._loop.add_reader(self._fd, self._readable)

    def _take(self, chunk: bytes) -> None:
        self.received += len(chunk)
        self.tail = (self.tail + chunk)[-TAIL_BYTES:]
        lines = (self._partial + chunk).split(b"\n")
        self._partial = lines.pop()[:LINE_CHARS]
        for line in lines:
            self._log(line)
        if self._on_tail is not None:
            self._on_tail(self.tail)

    def _log(self, line: bytes) -> None:
        if self.logged < LOGGED_LINES:
            self.logged += 1
            text = line[:LINE_CHARS].decode("utf-8", "replace")
            log.debug("bot_stderr", bot=self._label, line=text)
        else:
            self.unlogged += 1

    def note(self, text: str) -> None:
        """Add a line of the referee's own to the tail (why the bot ended, when known)."""
        self._take(b"\n" + text.encode() + b"\n")

    def close(self) -> None:
        """Stop reading and close the pipe (idempotent); says how much was not logged."""
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        if self._fd is not None:
            self._loop.remove_reader(self._fd)
            os.close(self._fd)
            self._fd = None
            if self._partial:
                self._log(self._partial)
                self._partial = b""
            if self.unlogged:
                log.debug(
                    "bot_stderr_truncated",
                    bot=self._label,
                    lines_not_logged=self.unlogged,
                    bytes_read=self.received,
                )
        self.eof.set()
