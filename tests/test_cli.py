"""The ``kassen`` command line as a user runs it (a real subprocess)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import GameConfig, get_game
from games.local import play_local
from games.policies import make_policy
from kassen.cli import build_parser
from server.chance import commitment_of

ROOT = Path(__file__).resolve().parents[1]


def kassen(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


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
        (["play", "rumble-nation", "--seed", "x"], "--seed must be a whole number from 0 to"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = kassen(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error:") and message in lines[0]


def walk(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser and every subcommand's parser below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from walk(sub)


def test_every_option_of_every_command_has_a_help_text() -> None:
    bare = [
        f"{parser.prog} {'/'.join(action.option_strings) or action.dest}"
        for parser in walk(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)
        and not action.help
    ]
    assert bare == []


def test_no_parser_matches_option_prefixes() -> None:
    assert [p.prog for p in walk(build_parser()) if p.allow_abbrev] == []


@pytest.mark.parametrize(
    ("args", "unrecognized"),
    [
        (["play", "rumble-nation", "--player", "4"], "--player 4"),
        (["match", "rumble-nation", "--sea", "random", "--seat", "random"], "--sea random"),
        (["ladder", "show", "--form", "json"], "--form json"),
        (
            ["tournament", "sprt", "--candidate", "greedy", "--baseline", "random", "--max", "9"],
            "unrecognized arguments: --max 9",
        ),
    ],
)
def test_a_prefix_of_an_option_is_an_error_not_the_option(
    args: list[str], unrecognized: str, tmp_path: Path
) -> None:
    result = kassen(*args, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    line = one_line(result.stderr)
    assert line.startswith("kassen: error:") and unrecognized in line, line
    assert list(tmp_path.iterdir()) == []


def test_kassen_without_a_command_lists_the_commands_and_exits_2() -> None:
    result = kassen()
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "kassen: error: kassen needs a command, one of:"
    listed = [line.split()[0] for line in lines[1:-1]]
    assert listed == ["demo", "play", "match", "serve", "bot", "replay", "tournament", "ladder"]
    assert all(len(line.split()) > 1 for line in lines[1:-1])  # each with what it does
    assert "--help" in lines[-1]


def test_a_command_without_its_action_lists_the_actions() -> None:
    result = kassen("bot")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "kassen: error: kassen bot needs a command, one of:"
    assert [line.split()[0] for line in lines[1:-1]] == ["run", "ladder", "check"]


def test_help_exits_0_and_names_the_exit_codes() -> None:
    result = kassen("--help")
    assert result.returncode == 0 and result.stderr == ""
    assert "2 usage error" in " ".join(result.stdout.split())


def finished_replay() -> dict[str, Any]:
    """A verifiable replay record of a short game, made in-process."""
    game = get_game("rumble-nation")
    config = GameConfig(players=2, variant="base")
    seed, salt = 7, "ab" * 16
    policies = [make_policy("random", game.name, seed + seat) for seat in range(2)]
    state = play_local(game, config, seed, policies)
    outcome = state.outcome()
    assert outcome is not None
    return {
        "format": "kassen-replay/1",
        "match_id": "m1",
        "game": game.name,
        "variant": config.variant,
        "players": config.players,
        "seed_commitment": commitment_of(seed, salt),
        "seed": seed,
        "salt": salt,
        "decisions": [list(d) for d in state.history],
        "finished": True,
        "scores": list(outcome.scores),
        "ranking": list(outcome.ranking),
        "digest": state.digest(),
        "result": {"reason": "completed", "seats": []},
    }


def test_replay_verify_exit_codes(tmp_path: Path) -> None:
    """Not a replay file at all: a usage error (2). A replay that does not verify: a failure (1)."""
    record = finished_replay()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    verified = kassen("replay", "verify", str(good))
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("ok: rumble-nation, seed matches its commitment")

    not_replays = {
        "missing.json": (None, "no such file"),
        "folder": ("", "is a folder"),
        "text.json": ("{not json", "not JSON"),
        "list.json": ("[1, 2]", "not a kassen-replay/1 file"),
        "other.json": ('{"format": "something/2"}', "not a kassen-replay/1 file"),
    }
    for name, (text, message) in not_replays.items():
        path = tmp_path / name
        if name == "folder":
            path.mkdir()
        elif text is not None:
            path.write_text(text)
        result = kassen("replay", "verify", str(path))
        assert result.returncode == 2, (name, result.stderr)
        line = one_line(result.stderr)
        assert line.startswith("kassen: error: replay") and message in line, line

    tampered = dict(record, decisions=[*record["decisions"][:-1], [0, 99]])
    lying = dict(record, seed=8)
    secret = dict(record, seed=None, salt=None)
    for name, bad, message in [
        ("tampered", tampered, "re-simulation failed"),
        ("lying", lying, "does not match the commitment"),
        ("secret", secret, "not revealed yet"),
    ]:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad))
        result = kassen("replay", "verify", str(path))
        assert result.returncode == 1, (name, result.stderr)
        line = one_line(result.stderr)
        assert line.startswith(f"kassen: replay {path} does not verify:") and message in line


def test_ladder_of_an_unknown_tournament_is_a_usage_error(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite'}"
    result = kassen("ladder", "show", "--db", db, "--tournament", "t0000", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert one_line(result.stderr).startswith("kassen: error: no tournament t0000")


def test_ladder_of_a_database_that_does_not_exist_writes_nothing(tmp_path: Path) -> None:
    for args in (["--db", f"sqlite:///{tmp_path / 'none.sqlite'}"], []):
        result = kassen("ladder", "show", *args, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert one_line(result.stderr).startswith("kassen: error: no tournament")
        assert list(tmp_path.iterdir()) == []  # no empty database left behind
