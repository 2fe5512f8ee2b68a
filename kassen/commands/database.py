"""How every command opens and reads a database: one verdict for one problem.

A database that cannot be used as given is a usage error (exit code 2, nothing written): a
SQLite file that is not there (for commands that only read or resume), one that is not a
database, is damaged (SQLite's ``quick_check`` when it is opened, or a stored row that no
longer parses while the command reads its input), holds no Kassen tables or a newer schema,
a URL that is malformed or whose driver is missing, a server that cannot be reached. A
database that fails while the command works, after it has started (a match stored, a line
printed), is a failure of the run (exit code 1, ``database_failures``): what was stored before
stays stored. So is a database without room to grow (a full disk), found when it is made or
later: a failure, never a usage error, and a SQLite file the command was creating is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.errors import UsageError, WriteFailed

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

#: The exit code of a failure (``kassen/cli.py``).
FAILURE = 1


def open_database(
    url: str, *, looking_for: str | None = None, create_folder: bool = False
) -> Engine:
    """Open (and create or migrate) the database at ``url``, or a ``UsageError`` naming the
    problem. ``looking_for`` (a tournament id, or "" for the latest): the command only reads
    or resumes, so a SQLite file that is not there, or a database without Kassen's tables, is
    refused and never created. ``create_folder``: make the folder of a SQLite file first."""
    from tournament import storage

    if looking_for is not None and not storage.exists(url):
        wanted = f"{looking_for} " if looking_for else ""
        raise UsageError(f"no tournament {wanted}in {url} (there is no database there)")
    new_file = None if storage.exists(url) else storage.sqlite_file(url)
    try:
        with reading_database():
            return storage.connect(url, create_folder=create_folder, create=looking_for is None)
    except storage.DatabaseFull as exc:  # no room for the tables: a failure, not a usage error
        _remove(new_file)
        raise WriteFailed(exc.url, exc.reason) from None
    except storage.StorageError as exc:  # damaged, not ours, unreachable, bad URL
        _remove(new_file)
        raise UsageError(str(exc)) from None
    except BaseException:
        _remove(new_file)
        raise


def _remove(new_file: Path | None) -> None:
    """A SQLite file this command was creating when it failed, with its journals: nothing of
    a failed start is left behind."""
    if new_file is None:
        return
    for path in (new_file, *(Path(f"{new_file}{end}") for end in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(OSError):
            path.unlink()


@contextmanager
def reading_database() -> Iterator[None]:
    """The command reads its input from the database in here: damage found now (a page SQLite
    cannot read, a stored row that no longer parses) means the database given is not one the
    command can read, a ``UsageError``. Anything else the database says (locked, gone) stays
    a failure for ``database_failures``."""
    from sqlalchemy import exc as sa_exc

    from tournament import storage

    try:
        yield
    except storage.DamagedDatabase as exc:
        raise UsageError(str(exc)) from None
    except sa_exc.DBAPIError as exc:
        if not storage.is_damage(exc):
            raise
        reason = " ".join(str(storage.orig_of(exc)).split()) or type(exc).__name__
        raise UsageError(f"the database is damaged: {reason}") from None


def database_failures(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """A command whose database fails while it works (damage found mid-run, a server that goes
    away, a disk that fills) reports it as one line and exit code 1, not a traceback."""

    @functools.wraps(command)
    def guarded(args: argparse.Namespace) -> int:
        from sqlalchemy import exc as sa_exc

        from tournament import storage

        try:
            return command(args)
        except storage.DamagedDatabase as exc:
            print(f"kassen: {exc}", file=sys.stderr)
        except sa_exc.DBAPIError as exc:
            reason = " ".join(str(storage.orig_of(exc)).split()) or type(exc).__name__
            if storage.is_full(exc):
                print(f"kassen: cannot write the database: {reason}", file=sys.stderr)
            else:
                what = "is damaged" if storage.is_damage(exc) else "failed"
                print(f"kassen: the database {what}: {reason}", file=sys.stderr)
        return FAILURE

    return guarded
