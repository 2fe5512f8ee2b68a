"""Hostile archives beyond those of tests/submissions/test_archive.py, generated here: names the
host's file system cannot hold. They are refused and nothing is written; the refusal should
name the member, not the ladder's own folders."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from tournament.submissions.archive import ArchiveError, unpack


def tar_with(path: Path, name: str) -> Path:
    with tarfile.open(path, "w") as tarred:
        info = tarfile.TarInfo(name)
        info.size = 1
        tarred.addfile(info, io.BytesIO(b"x"))
    return path


@pytest.mark.parametrize(
    "name", ["a" * 300, "/".join(["d" * 200] * 30)], ids=["long-name", "deep-path"]
)
def test_a_name_too_long_for_the_disk_is_refused_and_nothing_is_left(
    tmp_path: Path, name: str
) -> None:
    archive = tar_with(tmp_path / "bot.tar", name)
    with pytest.raises(ArchiveError):
        unpack(archive, tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.tar"]


def test_a_name_too_long_is_refused_by_name_without_the_ladders_paths(tmp_path: Path) -> None:
    archive = tar_with(tmp_path / "bot.tar", "a" * 300)
    with pytest.raises(ArchiveError) as refused:
        unpack(archive, tmp_path / "out")
    said = str(refused.value)
    assert str(tmp_path) not in said and len(said) < 400, said
    assert "not a tar or zip archive" not in said, said
