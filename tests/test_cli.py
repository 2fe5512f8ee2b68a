"""The ``kassen`` command line as a user runs it (a real subprocess)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def kassen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args], capture_output=True, text=True, timeout=120
    )


def test_play_prints_a_readable_log_with_war_and_ranking() -> None:
    result = kassen(
        "play",
        "rumble-nation",
        "--players",
        "4",
        "--seed",
        "7",
        "--bots",
        "random,greedy,random,greedy",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Rumble Nation, 4 players, base rules, seed 7" in out
    assert "Castles:" in out and "Tactic cards on display:" in out
    assert "rolls" in out and "places" in out
    assert "War phase" in out and "Castle 2 " in out and "Castle 12 " in out
    assert "takes sword chip 4" in out
    assert "Final scores:" in out and "  4. Player" in out


def test_play_is_reproducible_from_the_seed() -> None:
    a = kassen("play", "rumble-nation", "--players", "3", "--seed", "3", "--advanced")
    b = kassen("play", "rumble-nation", "--players", "3", "--seed", "3", "--advanced")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert "Daimyo cards on display" in a.stdout and "takes a daimyo card (face down)" in a.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "rumble-nation", "--players", "5"], "2, 3, 4 players, not 5"),
        (
            ["play", "rumble-nation", "--players", "2", "--bots", "random,robot"],
            "unknown bot 'robot'",
        ),
        (["play", "rumble-nation", "--players", "2", "--bots", "random"], "1 bots for 2 players"),
        (["play", "rumble-nation", "--seed", "x"], "invalid int value"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = kassen(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error:") and message in lines[0]
