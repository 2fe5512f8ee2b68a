"""The ``ismcts`` bot in a tournament: its parameters from a ``[[bots]]`` entry's
``params`` table or a ``--bot`` spec string, stored as one canonical spec, each bad value one
line naming the parameter; and a small fixed-iteration tournament that runs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from kassen.cli import main
from tests.tournament.test_config_validation import run_file
from tournament.config import BotEntry, ConfigError, TournamentConfig, load_file, parse_bot
from tournament.runner import play_builtin
from tournament.schedule import ScheduledMatch

TOURNAMENT = '[tournament]\ngame = "rumble-nation"\nseed = 1\n'


def bots(params: str) -> str:
    return (
        '[[bots]]\nname = "g"\nbuiltin = "greedy"\n'
        f'[[bots]]\nname = "search"\nbuiltin = "ismcts"\nparams = {params}\n'
    )


def test_a_params_table_becomes_the_canonical_spec(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT + bots('{seconds = 1, c = 0.5, rollout = "greedy"}'))
    search = load_file(path).bots[1]
    assert (search.kind, search.target) == ("builtin", "ismcts:seconds=1.0,c=0.5,rollout=greedy")


def test_spec_strings_on_the_command_line() -> None:
    assert parse_bot("ismcts").target == "ismcts"
    named = parse_bot("fast=ismcts:iterations=50,c=0.70")
    assert (named.name, named.target) == ("fast", "ismcts:iterations=50")
    bare = parse_bot("ismcts:depth=20")
    assert (bare.name, bare.kind, bare.target) == ("ismcts:depth=20", "builtin", "ismcts:depth=20")
    with pytest.raises(ConfigError, match=r"^bot 'x': ismcts parameter c must be at most 10"):
        parse_bot("x=ismcts:c=12")


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ("{c = -1}", "c must be at least 0"),
        ('{iterations = "many"}', "iterations must be a whole number"),
        ("{iterations = 0}", "iterations must be at least 1"),
        ('{rollout = "smart"}', "rollout must be one of random, greedy"),
        ("{secnds = 1}", "unknown key secnds (did you mean seconds?)"),
        ("{reuse = 1}", "reuse must be true or false"),
    ],
)
def test_a_bad_parameter_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], params: str, named: str
) -> None:
    code, line = run_file(tmp_path, capsys, TOURNAMENT + bots(params))
    assert code == 2
    assert "'search'" in line and named in line, line


def test_params_belong_to_ismcts_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TOURNAMENT + '[[bots]]\nname = "g"\nbuiltin = "greedy"\nparams = {c = 1}\n'
    text += '[[bots]]\nname = "r"\nbuiltin = "random"\n'
    code, line = run_file(tmp_path, capsys, text)
    assert code == 2 and "params apply to builtin = 'ismcts' only" in line


def test_a_small_ismcts_tournament_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "run",
            "--bot",
            "ismcts:iterations=20",
            "--bot",
            "random",
            "--game",
            "rumble-nation",
            "--games",
            "1",
            "--seed",
            "3",
            "--concurrency",
            "1",
            "--db",
            f"sqlite:///{tmp_path / 'k.sqlite'}",
            "--output",
            str(tmp_path / "out"),
            "--quiet",
        ]
    )
    assert code == 0, capsys.readouterr().err


@pytest.mark.timing
def test_in_process_the_search_keeps_to_the_clock() -> None:
    """No bank (any overrun forfeits) and 100 ms a decision: Root's default search (200
    determinizations, far more than 100 ms) is told the budget and stops inside it."""
    config = TournamentConfig(
        game="root",
        bots=(BotEntry("search", "builtin", "ismcts"), BotEntry("r", "builtin", "random")),
        decision_ms=100,
        bank_ms=0,
        max_decisions=40,
        seed=5,
        secret_seed=False,
    )
    bots = {b.name: b for b in config.bots}
    spec = ScheduledMatch(0, 0, 5, ("search", "r"))
    record, seats = asyncio.run(play_builtin(config, bots, spec, None, "ismcts-clock"))
    assert record.decisions == 40
    assert not any(s.forfeited for s in seats), [(s.reason, s.detail) for s in seats]


def test_the_sprt_gives_a_search_bot_its_clock(capsys: pytest.CaptureFixture[str]) -> None:
    """``kassen tournament sprt --decision-ms``: a search with no iteration bound plans on the
    clock it is given (60 ms: a few games in seconds; at the default 1,000 ms they would take
    about a minute)."""
    started = time.monotonic()
    code = main(
        [
            "tournament",
            "sprt",
            "--candidate",
            "s=ismcts:iterations=1000000",
            "--baseline",
            "random",
            "--decision-ms",
            "60",
            "--max-games",
            "4",
            "--seed",
            "1",
            "--concurrency",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "blocks 2, games 4" in out, out
    assert time.monotonic() - started < 30
