"""``kassen-bot.toml``: a good manifest is read; each bad one is one line naming the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.submissions.manifest import FILE_NAME, Manifest, ManifestError, read_manifest


def write(folder: Path, text: str) -> Path:
    (folder / FILE_NAME).write_text(text, encoding="utf-8")
    return folder


def test_a_manifest_names_its_runtime_build_and_run(tmp_path: Path) -> None:
    folder = write(tmp_path, '[bot]\nruntime = "go"\nbuild = "sh build.sh"\nrun = "./bin/bot"\n')
    assert read_manifest(folder) == Manifest("go", "./bin/bot", "sh build.sh")
    write(tmp_path, '[bot]\nruntime = "python"\nrun = "python3 bot.py"\n')
    assert read_manifest(tmp_path).build is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "no [bot] table"),
        ("[bot\n", "not valid TOML"),
        ('[bot]\nruntime = "cobol"\nrun = "x"\n', "runtime must be one of python, node"),
        ('[bot]\nruntime = "go"\n', "run must be a command line"),
        ('[bot]\nruntime = "go"\nrun = ["./bot"]\n', "run must be a command line"),
        ('[bot]\nruntime = "go"\nrun = "./bot"\nbuild = "  "\n', "build must be a command line"),
        ('[bot]\nruntime = "go"\nrun = "./bot"\nenv = "x"\n', "unknown key 'env'"),
        ('[bot]\nruntime = "go"\nrun = "./bot"\n[extra]\n', "unknown table or key 'extra'"),
        (f'[bot]\nruntime = "go"\nrun = "{"x" * 1001}"\n', "at most 1,000 characters"),
    ],
)
def test_a_bad_manifest_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(ManifestError, match=said.replace("[", r"\[")) as refused:
        read_manifest(write(tmp_path, text))
    assert "\n" not in str(refused.value)


def test_runtimes_the_organiser_does_not_accept_are_refused(tmp_path: Path) -> None:
    folder = write(tmp_path, '[bot]\nruntime = "binary"\nrun = "./bot"\n')
    with pytest.raises(ManifestError, match="does not accept the binary runtime"):
        read_manifest(folder, allowed=("python", "go"))


def test_a_missing_linked_or_oversized_manifest_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"has no kassen-bot\.toml"):
        read_manifest(tmp_path)
    (tmp_path / "elsewhere.toml").write_text('[bot]\nruntime = "go"\nrun = "x"\n')
    (tmp_path / FILE_NAME).symlink_to(tmp_path / "elsewhere.toml")
    with pytest.raises(ManifestError, match=r"has no kassen-bot\.toml"):
        read_manifest(tmp_path)  # a link could name a host file; the host never follows it
    (tmp_path / FILE_NAME).unlink()
    write(tmp_path, "#" * 20_000)
    with pytest.raises(ManifestError, match="larger than 16,384 bytes"):
        read_manifest(tmp_path)
    (tmp_path / FILE_NAME).write_bytes(b"\xff\xfe[bot]")
    with pytest.raises(ManifestError, match="not UTF-8"):
        read_manifest(tmp_path)
