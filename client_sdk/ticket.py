"""Where a bot finds its seat's ticket: the file named by ``KASSEN_TICKET_FILE``, else
``KASSEN_TICKET``.

A bot the referee launches gets its ticket on an inherited pipe (``KASSEN_TICKET_FILE`` =
``/dev/fd/3``), never in its environment, where every process of the same user could read it
from ``/proc/<pid>/environ`` for as long as the bot runs. A pipe can be read once: after this
module has read it, nothing is left in it for anyone. A bot a person starts by hand may be given
the ticket (from CreateMatch) in ``KASSEN_TICKET``, or in a file named by ``KASSEN_TICKET_FILE``.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Mapping

TICKET_FILE_ENV = "KASSEN_TICKET_FILE"
TICKET_ENV = "KASSEN_TICKET"
#: More than any ticket: a file this long is not one.
MAX_TICKET_BYTES = 4096
_INHERITED = re.compile(r"/(?:dev|proc/self)/fd/(\d+)")
#: What each file named by KASSEN_TICKET_FILE gave, so that a second ``run_bot`` in the same
#: process still has its ticket (the pipe itself is empty after the first read).
_read: dict[str, str] = {}


class TicketError(RuntimeError):
    """No seat ticket could be found; the message says where it was looked for."""


def seat_ticket(environ: Mapping[str, str] | None = None) -> str:
    """The seat's ticket: read from the file named by ``KASSEN_TICKET_FILE`` if it is set
    (once; a pipe inherited as ``/dev/fd/N`` is closed after), else ``KASSEN_TICKET``.
    Raises :class:`TicketError` with one line naming the problem."""
    env = os.environ if environ is None else environ
    path = env.get(TICKET_FILE_ENV, "")
    if path:
        return _from_file(path)
    ticket = env.get(TICKET_ENV, "").strip()
    if not ticket:
        raise TicketError(
            f"no seat ticket: set {TICKET_FILE_ENV} (a file holding it; a bot the referee "
            f"launches has it) or {TICKET_ENV}"
        )
    return ticket


def _from_file(path: str) -> str:
    if path in _read:
        return _read[path]
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_TICKET_BYTES + 1)
            _close_inherited(path, os.fstat(file.fileno()))
    except OSError as exc:
        raise TicketError(
            f"cannot read the seat ticket from {TICKET_FILE_ENV}={path}: {exc.strerror or exc}"
        ) from None
    try:
        ticket = data.decode("ascii").strip()
    except UnicodeDecodeError:
        ticket = ""
    if not ticket or len(data) > MAX_TICKET_BYTES or any(c.isspace() for c in ticket):
        raise TicketError(
            f"{TICKET_FILE_ENV}={path} holds no seat ticket"
            + (" (a launched bot's ticket can be read only once)" if not data else "")
        )
    _read[path] = ticket
    return ticket


def _close_inherited(path: str, opened: os.stat_result) -> None:
    """Close descriptor N of a ``/dev/fd/N`` path once read (it holds nothing more), if it is
    the very pipe just read and not stdin, stdout or stderr."""
    inherited = _INHERITED.fullmatch(path)
    if inherited is None or int(inherited.group(1)) <= 2:
        return
    fd = int(inherited.group(1))
    with contextlib.suppress(OSError):
        held = os.fstat(fd)
        if stat.S_ISFIFO(held.st_mode) and (held.st_dev, held.st_ino) == (
            opened.st_dev,
            opened.st_ino,
        ):
            os.close(fd)
