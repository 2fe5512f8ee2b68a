"""``kassen ladder submit`` and ``kassen match --seat sub:`` given bad input: one line naming
the problem, exit status 2, nothing uploaded or started."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli import kassen, one_line

pytestmark = pytest.mark.system  # whole CLIs as subprocesses


@pytest.fixture
def token(tmp_path: Path) -> Path:
    path = tmp_path / "bot.token"
    path.write_text("a-token-of-a-bot\n")
    return path


def test_submit_names_each_problem_in_one_line(tmp_path: Path, token: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    cases: list[tuple[list[str], str]] = [
        ([str(tmp_path / "missing"), "--token-file", str(token)], "is not a folder"),
        ([str(bot), "--token-file", str(token)], "no kassen-bot.toml at its top level"),
        ([str(bot), "--token-file", str(tmp_path / "none")], "--token-file"),
    ]
    for args, words in cases:
        done = kassen("ladder", "submit", *args)
        assert done.returncode == 2, done.stderr
        assert words in one_line(done.stderr)
    (bot / "kassen-bot.toml").write_text('[bot]\nruntime = "cobol"\nrun = "x"\n')
    done = kassen("ladder", "submit", str(bot), "--token-file", str(token))
    assert done.returncode == 2 and "runtime must be one of" in one_line(done.stderr)
    (bot / "kassen-bot.toml").write_text('[bot]\nruntime = "python"\nrun = "python bot.py"\n')
    done = kassen(
        "ladder", "submit", str(bot), "--token-file", str(token), "--address", "127.0.0.1:1"
    )
    assert done.returncode == 2
    assert "cannot reach the ladder at 127.0.0.1:1" in done.stderr.strip().splitlines()[-1]


def test_a_sub_seat_names_its_problem(tmp_path: Path) -> None:
    done = kassen("match", "rumble-nation", "--seat", f"sub:{tmp_path}", "--seat", "random")
    assert done.returncode == 2
    assert "no kassen-bot.toml" in one_line(done.stderr)
    (tmp_path / "kassen-bot.toml").write_text('[bot]\nruntime = "python"\nrun = "python b.py"\n')
    done = kassen(
        "match",
        "rumble-nation",
        "--seat",
        f"sub:{tmp_path}",
        "--seat",
        "random",
        "--server",
        "127.0.0.1:1",
    )
    assert done.returncode == 2
    assert "sub: seats play on the embedded referee" in one_line(done.stderr)
