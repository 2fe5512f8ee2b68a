"""Hostile archives are refused with a line naming the member, and leave nothing behind;
a submission's own folder structure (nested folders, executables, node_modules/.bin links)
comes out whole."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from tournament.submissions.archive import ArchiveError, Limits, unpack


def tar_of(path: Path, members: list[tuple[tarfile.TarInfo, bytes]], mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode) as tarred:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tarred.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return path


def entry(
    name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644, link: str = ""
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.linkname = link
    return info


def test_a_submission_comes_out_whole_with_its_executables_and_inner_links(tmp_path: Path) -> None:
    archive = tar_of(
        tmp_path / "bot.tar.gz",
        [
            (entry("kassen-bot.toml"), b'[bot]\nruntime = "binary"\nrun = "./bin/bot"\n'),
            (entry("bin", tarfile.DIRTYPE, 0o755), b""),
            (entry("bin/bot", mode=0o4755), b"\x7fELF..."),
            (entry("node_modules/pkg/cli.js", mode=0o755), b"#!/usr/bin/env node\n"),
            (entry("node_modules/.bin/pkg", tarfile.SYMTYPE, link="../pkg/cli.js"), b""),
        ],
    )
    written = unpack(archive, tmp_path / "out")
    out = tmp_path / "out"
    assert written == len(b'[bot]\nruntime = "binary"\nrun = "./bin/bot"\n') + 7 + 20
    assert stat.S_IMODE((out / "bin" / "bot").stat().st_mode) == 0o755  # set-user-ID dropped
    assert stat.S_IMODE((out / "kassen-bot.toml").stat().st_mode) == 0o644
    assert (out / "node_modules" / ".bin" / "pkg").read_bytes() == b"#!/usr/bin/env node\n"
    assert not list(tmp_path.glob(".*partial"))


@pytest.mark.parametrize(
    ("member", "said"),
    [
        (entry("../evil.sh"), "leaves the folder"),
        (entry("ok/../../evil.sh"), "leaves the folder"),
        (entry("/etc/cron.d/evil"), "an absolute path"),
        (entry("out", tarfile.SYMTYPE, link="/etc/passwd"), "symbolic link to an absolute path"),
        (entry("a/out", tarfile.SYMTYPE, link="../../secret"), "symbolic link that leaves"),
        (entry("hard", tarfile.LNKTYPE, link="/etc/shadow"), "hard links are not accepted"),
        (entry("null", tarfile.CHRTYPE), "device files"),
        (entry("fifo", tarfile.FIFOTYPE), "device files"),
    ],
)
def test_a_hostile_tar_member_is_refused_by_name(
    tmp_path: Path, member: tarfile.TarInfo, said: str
) -> None:
    archive = tar_of(tmp_path / "bot.tar.gz", [(entry("kassen-bot.toml"), b"x"), (member, b"")])
    with pytest.raises(ArchiveError, match=said) as refused:
        unpack(archive, tmp_path / "out")
    assert member.name in str(refused.value) or repr(member.name) in str(refused.value)
    assert "\n" not in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.tar.gz"]  # nothing half-written


def test_a_member_written_through_an_inner_link_is_refused(tmp_path: Path) -> None:
    """The link itself stays inside, but writing through it must not be followed."""
    archive = tar_of(
        tmp_path / "bot.tar",
        [
            (entry("d", tarfile.DIRTYPE, 0o755), b""),
            (entry("l", tarfile.SYMTYPE, link="d"), b""),
            (entry("l/file"), b"x"),
        ],
        mode="w",
    )
    with pytest.raises(ArchiveError, match="through the symbolic link"):
        unpack(archive, tmp_path / "out")


def test_a_zip_bomb_stops_at_the_limit_without_filling_the_disk(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    with (
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zipped,
        zipped.open("zeros", "w", force_zip64=True) as out,
    ):
        for _ in range(64):  # 64 MiB of zeros in about 64 KiB
            out.write(bytes(1024 * 1024))
    assert bomb.stat().st_size < 200_000
    with pytest.raises(ArchiveError, match="over 4,194,304 bytes"):
        unpack(bomb, tmp_path / "out", Limits(max_bytes=4 * 1024 * 1024))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bomb.zip"]


def test_a_tar_bomb_of_declared_sizes_and_of_many_files_is_refused(tmp_path: Path) -> None:
    many = tar_of(tmp_path / "many.tar.gz", [(entry(f"f{i}"), b"") for i in range(50)])
    with pytest.raises(ArchiveError, match="more than 40 files"):
        unpack(many, tmp_path / "out", Limits(max_files=40))
    big = tar_of(tmp_path / "big.tar.gz", [(entry("big"), bytes(3 * 1024 * 1024))])
    with pytest.raises(ArchiveError, match="big: the unpacked submission is over"):
        unpack(big, tmp_path / "out2", Limits(max_bytes=1024 * 1024))


def test_zip_links_and_devices_are_checked_like_tar_ones(tmp_path: Path) -> None:
    def zip_with(name: str, mode: int, data: bytes) -> Path:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.zip"
        with zipfile.ZipFile(path, "w") as zipped:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            zipped.writestr(info, data)
        return path

    with pytest.raises(ArchiveError, match="symbolic link to an absolute path"):
        unpack(zip_with("link", stat.S_IFLNK | 0o777, b"/etc/passwd"), tmp_path / "a")
    with pytest.raises(ArchiveError, match="device files"):
        unpack(zip_with("dev", stat.S_IFCHR | 0o666, b""), tmp_path / "b")
    with pytest.raises(ArchiveError, match="leaves the folder"):
        unpack(zip_with("../../x", stat.S_IFREG | 0o644, b"x"), tmp_path / "c")
    unpack(zip_with("bot/run", stat.S_IFREG | 0o755, b"#!/bin/sh\n"), tmp_path / "d")
    assert stat.S_IMODE((tmp_path / "d" / "bot" / "run").stat().st_mode) == 0o755


def test_what_is_not_an_archive_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not an archive at all" * 10)
    with pytest.raises(ArchiveError, match="not a tar or zip archive"):
        unpack(junk, tmp_path / "out")
    assert not (tmp_path / "out").exists()
