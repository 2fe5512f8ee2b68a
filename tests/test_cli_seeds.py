"""One rule for a seed, wherever a user gives one: every command's ``--seed`` and a tournament
file's ``seed`` refuse a negative number, a number beyond 2**63 - 1 and a word with the same
one line and exit code 2, and write nothing (real processes: what the user sees)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from server.settings import MAX_SEED
from tests.test_cli import kassen

ROOT = Path(__file__).resolve().parents[1]
RULE = f"must be a whole number from 0 to {MAX_SEED:,}"
BOTS = '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "greedy"\n'

#: Every command that takes a seed, as a user would type it (``--seed`` goes last).
COMMANDS = {
    "play": ["play", "rumble-nation", "--players", "2", "--quiet"],
    "match": ["match", "rumble-nation", "--seat", "random", "--seat", "greedy"],
    "tournament run": ["tournament", "run", "--bot", "random", "--bot", "greedy"],
    "tournament sprt": ["tournament", "sprt", "--candidate", "greedy", "--baseline", "random"],
    "bot run": ["bot", "run", "random", "--address", "127.0.0.1:9", "--ticket", "t"],
}
#: (as typed on the command line, as written in a tournament file, as the error quotes it)
BAD = [
    ("-1", "-1", "-1"),
    ("99999999999999999999999", "99999999999999999999999", "99999999999999999999999"),
    ("abc", '"abc"', "'abc'"),
]


def refused(result: subprocess.CompletedProcess[str], folder: Path) -> str:
    """The one error line of a refused command that wrote nothing; exit code 2."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert [p.name for p in folder.iterdir()] in ([], ["t.toml"]), "nothing is written"
    return lines[0]


@pytest.mark.parametrize(("typed", "written", "quoted"), BAD, ids=["negative", "huge", "word"])
@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_every_seed_flag_refuses_with_the_same_line(
    tmp_path: Path, command: str, typed: str, written: str, quoted: str
) -> None:
    result = kassen(*COMMANDS[command], f"--seed={typed}", cwd=tmp_path)
    assert refused(result, tmp_path) == f"kassen: error: --seed {RULE}, not {quoted}"


@pytest.mark.parametrize(("typed", "written", "quoted"), BAD, ids=["negative", "huge", "word"])
def test_a_tournament_file_seed_refuses_with_the_same_words(
    tmp_path: Path, typed: str, written: str, quoted: str
) -> None:
    (tmp_path / "t.toml").write_text(f"[tournament]\nseed = {written}\n{BOTS}")
    result = kassen("tournament", "run", "t.toml", cwd=tmp_path)
    line = refused(result, tmp_path)
    assert line == f"kassen: error: t.toml: [tournament]: seed {RULE}, not {quoted}"


def test_the_bounds_themselves_are_seeds(tmp_path: Path) -> None:
    for seed in ("0", str(MAX_SEED)):
        result = kassen(*COMMANDS["play"], "--seed", seed, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert f"seed {seed}" in result.stdout
