"""Files written whole or not at all.

A command's output files (reports, replays, a bot's token) are first written to a temporary
file in their own folder, then renamed into place: a reader never sees half a file, and a
write that fails (a full disk, a quota) removes its temporary and leaves the previous version
of the file as it was. Every failure is a ``WriteFailed`` naming the file and the cause.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterator, Mapping
from pathlib import Path

from kassen.errors import WriteFailed

#: Bytes reserved on disk for a secret before it is known (``new_private_file``).
RESERVED_BYTES = 4096


def temporary_name(path: Path) -> Path:
    """A hidden name next to ``path`` that no other writer picks (``.report.html.1f2e….tmp``)."""
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")


def replace_files(files: Mapping[Path, str], durable: bool = True) -> None:
    """Write every file of ``files`` (path -> text, UTF-8), then rename them all into place;
    if any cannot be written, none is replaced and no temporary is left. ``durable``: each is
    flushed to the disk first (``fsync``), so a disk that reports a full device only then
    (NFS, some quotas) fails here too; a folder made for them is removed again on failure."""
    made: list[Path] = []
    written: dict[Path, Path] = {}
    try:
        for path in files:
            made += _make_folders(path.parent)
        for path, text in files.items():
            temporary = temporary_name(path)
            written[path] = temporary
            _write(temporary, text.encode("utf-8"), 0o666, durable, path)
        for path, temporary in list(written.items()):
            try:
                os.replace(temporary, path)
            except OSError as exc:
                raise WriteFailed.of(path, exc) from None
            del written[path]
    except BaseException:
        for temporary in written.values():
            with contextlib.suppress(OSError):
                temporary.unlink()
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if still empty
        raise


def write_file(path: Path, text: str, durable: bool = True) -> None:
    """One file, written whole or not at all (``replace_files``)."""
    replace_files({path: text}, durable)


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; returns those made, outermost first."""
    missing: list[Path] = []
    for candidate in (folder, *folder.parents):
        if candidate.is_dir():
            break
        missing.append(candidate)
    made: list[Path] = []
    try:
        for candidate in reversed(missing):
            try:
                candidate.mkdir()
            except FileExistsError:
                if not candidate.is_dir():
                    raise
                continue
            made.append(candidate)
    except OSError as exc:
        for candidate in reversed(made):
            with contextlib.suppress(OSError):
                candidate.rmdir()
        raise WriteFailed.of(folder, exc) from None
    return made


def _write(temporary: Path, data: bytes, mode: int, durable: bool, shown: Path) -> None:
    """Create ``temporary`` (never an existing file) holding ``data``; errors name ``shown``."""
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except OSError as exc:
        raise WriteFailed.of(shown, exc) from None
    try:
        with open(descriptor, "wb") as handle:  # closing reports a write the disk refused
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise WriteFailed.of(shown, exc) from None


class PrivateFile:
    """A file only its owner may read, created where nothing is yet, with room reserved on the
    disk before its content is known: a bot's token, which the ladder shows once, is not lost
    to a full disk after the ladder has issued it (``new_private_file``)."""

    def __init__(self, path: Path, temporary: Path, descriptor: int) -> None:
        self.path = path
        self.temporary = temporary
        self.descriptor = descriptor

    def fill(self, text: str) -> None:
        """Write ``text`` into the reserved room and give the file its name (never replacing a
        file that appeared there meanwhile)."""
        data = text.encode("utf-8")
        try:
            written = os.pwrite(self.descriptor, data, 0)
            if written != len(data):
                raise OSError(0, f"wrote {written} of {len(data)} bytes")
            os.ftruncate(self.descriptor, len(data))
            os.fsync(self.descriptor)
            os.link(self.temporary, self.path)
        except OSError as exc:
            raise WriteFailed.of(self.path, exc) from None


@contextlib.contextmanager
def new_private_file(path: Path, reserve: int = RESERVED_BYTES) -> Iterator[PrivateFile]:
    """A ``PrivateFile`` for ``path`` (mode 600), its room taken on the disk at once: a full
    disk is a ``WriteFailed`` here, before anything else happens. Leaving the block without
    ``fill`` (an error, a refusal) leaves nothing behind."""
    temporary = temporary_name(path)
    try:
        descriptor = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise WriteFailed.of(path, exc) from None
    try:
        try:
            os.posix_fallocate(descriptor, 0, reserve)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                raise WriteFailed.of(path, exc) from None
            _reserve_by_writing(descriptor, reserve, path)  # a file system without fallocate
        yield PrivateFile(path, temporary, descriptor)
    finally:
        os.close(descriptor)
        with contextlib.suppress(OSError):
            temporary.unlink()


def _reserve_by_writing(descriptor: int, size: int, path: Path) -> None:
    try:
        os.pwrite(descriptor, b"\0" * size, 0)
        os.fsync(descriptor)
    except OSError as exc:
        raise WriteFailed.of(path, exc) from None
