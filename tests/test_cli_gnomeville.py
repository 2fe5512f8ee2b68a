"""``kassen play`` and ``kassen match`` with Gnomeville: variants, solo, and game options
(``--option KEY=VALUE``, ``--content FILE``) in-process, on an embedded referee and with
``--server``; a bad option or pack is one line, exit 2, nothing printed before."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import games.gnomeville
from kassen.cli import main
from tests.test_cli_serve import serving

ROOT = Path(__file__).resolve().parents[1]
PACK = Path(games.gnomeville.__file__).parent / "content" / "standard.toml"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_turn_by_turn_with_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["play", "gnomeville", "--players", "3", "--variant", "turn-by-turn", "--seed", "4"],
        capsys,
    )
    assert code == 0, err
    assert out.startswith("Gnomeville, 3 players, turn-by-turn rules, seed 4\n")
    assert "Game over" in out


def test_play_solo_prints_a_solo_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "gnomeville", "--players", "1", "--seed", "2", "--quiet"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Gnomeville, 1 player (solo), standard rules, seed 2"
    assert lines[-1].startswith("Solo: Player 1 (random) scored ") and " points" in lines[-1]
    assert not any(line.startswith("1. ") for line in lines)


def test_play_with_options_and_a_content_pack(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "gnomeville", "--players", "2", "--seed", "1", "--quiet"]
    code, plain, _ = run(args, capsys)
    code2, packed, err = run(
        [*args, "--content", str(PACK), "--option", "turn_by_turn=1,2"], capsys
    )
    assert code == code2 == 0, err
    header = packed.splitlines()[0]
    assert "options: content=<pack, " in header and "turn_by_turn=1,2" in header
    assert plain.splitlines()[1:] != [] and packed.splitlines()[1] == plain.splitlines()[1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--content", "missing.toml"], "--content missing.toml: no such file"),
        (["--content", "."], "--content .: is a folder"),
        (["--content", "bad.toml"], "content pack bad.toml: not valid TOML"),
        (["--content", "wrong.toml"], "content pack wrong.toml: unknown section"),
        (["--option", "content=bad.toml"], "content pack bad.toml: not valid TOML"),
        (["--option", "nope=1"], "gnomeville has no option 'nope'"),
        (["--option", "turn_by_turn"], "--option needs KEY=VALUE"),
        (["--option", "master_build=1", "--option", "master_build=0"], "given twice"),
        (["--content", "bad.toml", "--option", "content=x"], "give the content pack once"),
        (["--option", "master_build=maybe"], "master_build must be true or false"),
    ],
)
@pytest.mark.parametrize("command", ["play", "match"])
def test_a_bad_option_or_pack_is_one_line_exit_2_and_nothing_printed(
    command: str,
    extra: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text("this is [not a pack")
    (tmp_path / "wrong.toml").write_text("x = 1\n")
    seats = ["--players", "2"] if command == "play" else ["--seat", "random", "--seat", "random"]
    code, out, err = run([command, "gnomeville", *seats, *extra], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error:") and message in lines[0], err


def test_match_solo_with_a_content_pack_records_it_in_a_verifiable_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replays = tmp_path / "replays"
    code, out, err = run(
        [
            "match",
            "gnomeville",
            "--seat",
            "greedy",
            "--seed",
            "6",
            "--content",
            str(PACK),
            "--option",
            "master_build=true",
            "--replays",
            str(replays),
        ],
        capsys,
    )
    assert code == 0, err
    assert out.startswith("Gnomeville, 1 player (solo), standard rules, seed 6; options: ")
    assert "Result: completed" in out
    (path,) = replays.glob("*.json")
    record = json.loads(path.read_text())
    assert record["options"] == {"content": PACK.read_text(), "master_build": "true"}
    code, out, err = run(["replay", "verify", str(path)], capsys)
    assert code == 0 and out.startswith("ok: gnomeville"), err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_match_on_a_server_sends_the_options(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "kassen"]
    # ``serving`` waits for the referee's "serving" line: no race with its start-up.
    with serving(tmp_path, "--replays", str(tmp_path)) as (address, _):
        played = subprocess.run(
            [
                *command,
                "match",
                "gnomeville",
                "--server",
                address,
                *("--seat", "random", "--seat", "greedy", "--seat", "random"),
                *("--variant", "turn-by-turn", "--option", "turn_by_turn=1"),
                *("--content", str(PACK)),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("Gnomeville, 3 players, turn-by-turn rules; options: ")
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    assert record["options"] == {"content": PACK.read_text(), "turn_by_turn": "1"}
    assert record["variant"] == "turn-by-turn" and record["players"] == 3
