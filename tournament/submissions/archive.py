"""Unpack an uploaded archive (tar, compressed or not, or zip) into a new folder, safely.

An upload is hostile until shown otherwise, so every member is checked before a byte of it is
written: no absolute path, no ``..``, no device file or FIFO, no hard link, a symbolic link
only to a place inside the folder, at most ``max_files`` members, and no more than
``max_bytes`` written in all, counted as the bytes come out of the decompressor (a member's
declared size is not trusted, so a zip bomb stops at the limit instead of filling the disk).
Permissions are normalised (rw-r--r--, or rwxr-xr-x for executables; never set-user-ID). The
folder appears whole or not at all: members go to a staging folder beside it, renamed into
place at the end and deleted on any refusal.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

CHUNK = 65_536


class ArchiveError(ValueError):
    """An archive refused; the message is one line naming the member and the reason."""


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 200 * 1024 * 1024
    max_files: int = 20_000


@dataclass(frozen=True)
class _Member:
    """One archive member, whatever the format: what it is and how to read its bytes."""

    name: str
    kind: str  # "file", "dir" or "symlink"
    executable: bool
    link: str  # a symlink's target
    open: object  # a callable returning a binary stream, for files


def unpack(archive: Path, destination: Path, limits: Limits = Limits()) -> int:
    """Unpack ``archive`` into the new folder ``destination``; the number of bytes written."""
    if destination.exists():
        raise ArchiveError(f"{destination} already exists")
    staging = destination.with_name(f".{destination.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        written = _unpack_into(archive, staging, limits)
        staging.rename(destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return written


def _unpack_into(archive: Path, root: Path, limits: Limits) -> int:
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zipped:
            return _write_all(_zip_members(zipped), root, limits)
    try:
        with tarfile.open(archive, mode="r:*") as tarred:
            return _write_all(_tar_members(tarred), root, limits)
    except (tarfile.TarError, EOFError, OSError) as error:
        if isinstance(error, ArchiveError):
            raise
        raise ArchiveError(f"not a tar or zip archive, or a damaged one ({error})") from None


def _tar_members(tarred: tarfile.TarFile) -> Iterator[_Member]:
    for info in tarred:  # streamed: a huge member list is refused at max_files, not read whole
        if info.isdir():
            kind = "dir"
        elif info.isreg():
            kind = "file"
        elif info.issym():
            kind = "symlink"
        elif info.islnk():
            raise ArchiveError(
                f"{info.name}: hard links are not accepted (archive the file itself)"
            )
        else:
            raise ArchiveError(f"{info.name}: device files, FIFOs and sockets are not accepted")
        yield _Member(
            info.name,
            kind,
            bool(info.mode & 0o111),
            info.linkname,
            lambda info=info: tarred.extractfile(info),
        )


def _zip_members(zipped: zipfile.ZipFile) -> Iterator[_Member]:
    for info in zipped.infolist():
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            with zipped.open(info) as stream:
                target = stream.read(4096).decode("utf-8", "replace")
            yield _Member(info.filename, "symlink", False, target, None)
            continue
        # No type bits (Windows zips, Python's own) means a plain file or folder.
        if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise ArchiveError(f"{info.filename}: device files, FIFOs and sockets are not accepted")
        kind = "dir" if info.is_dir() else "file"
        yield _Member(
            info.filename,
            kind,
            bool(mode & 0o111),
            "",
            lambda info=info: zipped.open(info),
        )


#: A member's name is cut to this many characters in a refusal.
SHOWN_NAME_CHARS = 120


def _write_all(members: Iterator[_Member], root: Path, limits: Limits) -> int:
    written = 0
    for count, member in enumerate(members, start=1):
        if count > limits.max_files:
            raise ArchiveError(f"more than {limits.max_files:,} files")
        try:
            written = _write_member(member, root, limits, written)
        except OSError as error:
            # Said by the member's name, never by our folder's path (the ladder's layout).
            reason = error.strerror or type(error).__name__
            raise ArchiveError(f"{_shown(member.name)}: cannot be unpacked ({reason})") from None
    return written


def _shown(name: str) -> str:
    return name if len(name) <= SHOWN_NAME_CHARS else name[:SHOWN_NAME_CHARS] + "…"


def _write_member(member: _Member, root: Path, limits: Limits, written: int) -> int:
    """Write one member; the bytes written so far, this one's included."""
    relative = _safe_path(member.name)
    if relative is None:  # the archive's own top folder, "." or "./"
        return written
    target = root.joinpath(*relative.parts)
    if member.kind == "dir":
        target.mkdir(parents=True, exist_ok=True)
        target.chmod(0o755)
        return written
    _no_link_on_the_way(root, relative)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() or target.is_symlink():
        raise ArchiveError(f"{_shown(member.name)}: appears twice")
    if member.kind == "symlink":
        _check_link(member.name, relative, member.link)
        os.symlink(member.link, target)
        return written
    opener = member.open
    assert callable(opener)
    stream: IO[bytes] | None = opener()
    if stream is None:
        raise ArchiveError(f"{_shown(member.name)}: cannot be read")
    with stream, open(target, "xb") as out:
        while chunk := stream.read(CHUNK):
            written += len(chunk)
            if written > limits.max_bytes:
                raise ArchiveError(
                    f"{_shown(member.name)}: the unpacked submission is over "
                    f"{limits.max_bytes:,} bytes"
                )
            out.write(chunk)
    target.chmod(0o755 if member.executable else 0o644)
    return written


def _safe_path(name: str) -> PurePosixPath | None:
    """The member's path inside the folder, or a refusal naming what is wrong with it."""
    if "\x00" in name or "\\" in name:
        raise ArchiveError(f"{name!r}: a path with a NUL or a backslash")
    path = PurePosixPath(name)
    if path.is_absolute():
        raise ArchiveError(f"{name}: an absolute path")
    parts = [p for p in path.parts if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"{name}: a path that leaves the folder ('..')")
    return PurePosixPath(*parts) if parts else None


def _no_link_on_the_way(root: Path, relative: PurePosixPath) -> None:
    """A member may not be written through a symbolic link unpacked before it."""
    current = root
    for part in relative.parts[:-1]:
        current = current / part
        if current.is_symlink():
            raise ArchiveError(f"{relative}: written through the symbolic link {part}")


def _check_link(name: str, relative: PurePosixPath, link: str) -> None:
    """A symbolic link must be relative and resolve inside the folder (node_modules/.bin has
    many); one pointing at /etc/passwd or ../../ would let the bot's files name the host's."""
    target = PurePosixPath(link)
    if not link or target.is_absolute():
        raise ArchiveError(f"{name}: a symbolic link to an absolute path ({link!r})")
    depth = len(relative.parts) - 1
    for part in target.parts:
        if part == "..":
            depth -= 1
            if depth < 0:
                raise ArchiveError(f"{name}: a symbolic link that leaves the folder ({link})")
        elif part not in ("", "."):
            depth += 1
