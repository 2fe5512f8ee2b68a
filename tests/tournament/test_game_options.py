"""Game options in tournaments: checked by the game before anything is written, stored with
the tournament (resume plays with them, a content pack as its text) and given to every match;
and multiplayer Gnomeville on the Elo ladder."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from importlib import resources
from pathlib import Path

import pytest

from kassen.cli import main
from tournament import storage
from tournament.config import TournamentConfig, load_file, parse_bot, validate
from tournament.runner import Progress, TournamentRunner

PACK = resources.files("games.gnomeville").joinpath("content").joinpath("standard.toml")


def write_file(folder: Path, options: str, players: int = 1, games: int = 3) -> Path:
    """A solo tournament file with an options table (and the standard pack as pack.toml)."""
    shutil.copy(str(PACK), folder / "pack.toml")
    path = folder / "t.toml"
    path.write_text(
        f'[tournament]\ngame = "gnomeville"\nplayers = {players}\ngames_per_group = {games}\n'
        f'concurrency = 1\ndatabase = "sqlite:///{folder / "k.sqlite"}"\n'
        f'output = "{folder / "out"}"\n'
        f"[tournament.options]\n{options}\n"
        '[[bots]]\nname = "random"\n[[bots]]\nname = "r2"\nbuiltin = "random"\n'
    )
    return path


def stored_options(db: Path) -> dict[str, object]:
    with sqlite3.connect(db) as conn:
        (config,) = conn.execute("SELECT config_json FROM tournaments").fetchone()
    return dict(json.loads(config)["options"])


GOOD = 'towns = "1"\nturn_by_turn = "1,2"\nmaster_build = true\ncontent = "pack.toml"'


def test_options_load_with_the_pack_as_text(tmp_path: Path) -> None:
    config = load_file(write_file(tmp_path, GOOD))
    assert config.options == {
        "towns": "1",
        "turn_by_turn": "1,2",
        "master_build": "true",  # as text: what the wire and the replay carry
        "content": PACK.read_text(encoding="utf-8"),
    }
    validate(config)
    assert config.game_config.options == config.options


def test_options_are_stored_given_to_matches_and_kept_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = load_file(write_file(tmp_path, GOOD, games=4))
    validate(config)
    config = config.with_seed()
    from kassen.commands.tournament_run import start

    engine, tid = start(config)

    def interrupt(progress: Progress) -> None:
        if progress.done >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        TournamentRunner(engine, tid, config, on_progress=interrupt).run()
    db = tmp_path / "k.sqlite"

    def finished_at() -> dict[int, float]:
        with sqlite3.connect(db) as conn:
            return dict(conn.execute("SELECT idx, finished_at FROM matches WHERE status = 'done'"))

    before = finished_at()
    assert len(before) == 3
    (tmp_path / "pack.toml").unlink()  # resume needs nothing but the database
    assert main(["tournament", "resume", tid, "--db", f"sqlite:///{db}", "--quiet"]) == 0
    after = finished_at()
    assert len(after) == 8 == len(storage.load_matches(engine, tid))
    # Matches finished before the interruption were not played again.
    assert {idx: after[idx] for idx in before} == before
    assert stored_options(db) == config.options
    captured = capsys.readouterr()
    assert "options: content=<pack" in captured.err and "master_build=true" in captured.err
    report = json.loads((tmp_path / "out" / tid / "ladder.json").read_text())
    assert "towns=1" in report["options"]
    for replay in (tmp_path / "out" / tid / "replays").glob("*.json"):
        record = json.loads(replay.read_text())
        assert record["options"] == config.options  # exactly what the match was set up with


def test_option_flags_override_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_file(tmp_path, 'towns = "1"\nsides = "front"')
    code = main(["tournament", "run", str(path), "--option", "sides=choose", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert stored_options(tmp_path / "k.sqlite") == {"towns": "1", "sides": "choose"}


@pytest.mark.parametrize(
    ("options", "flags", "message"),
    [
        ('colour = "red"', [], "game options: gnomeville has no option 'colour'"),
        ('towns = "9"', [], "game options: towns: there is no town #9"),
        ('sides = "sideways"', [], "game options: sides must be one of front, back, choose"),
        ('turn_by_turn = "6"', [], "game options: turn_by_turn: there is no round 6"),
        ('content = "missing.toml"', [], "option content: cannot read"),
        ('content = "bad.toml"', [], "game options: content: not valid TOML"),
        ("towns = { a = 1 }", [], "option towns must be a string, number, boolean or array"),
        ("", ["--option", "nokey"], "--option needs KEY=VALUE, not 'nokey'"),
        ("", ["--option", "speed=3"], "gnomeville has no option 'speed'"),
    ],
)
def test_bad_options_are_one_line_naming_the_option_and_nothing_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: str,
    flags: list[str],
    message: str,
) -> None:
    path = write_file(tmp_path, options)
    (tmp_path / "bad.toml").write_text("this is [not a pack")
    code = main(["tournament", "run", str(path), *flags, "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and message in err[0], err
    assert not (tmp_path / "k.sqlite").exists() and not (tmp_path / "out").exists()


def test_options_of_a_game_are_checked_by_the_game() -> None:
    bots = (parse_bot("random"), parse_bot("r2=random"))
    with pytest.raises(ValueError, match="game options: root plays a contest of 1 or 2 games"):
        validate(TournamentConfig(game="root", bots=bots, options={"games": "3"}))


def test_option_values_are_the_text_the_wire_carries(tmp_path: Path) -> None:
    path = write_file(tmp_path, "towns = [1]\nmaster_build = false\nturn_by_turn = 3")
    assert load_file(path).options == {"towns": "1", "master_build": "false", "turn_by_turn": "3"}


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_gnomeville_round_robin_runs_and_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: int
) -> None:
    bots = ["random", "r2=random", "r3=random", "r4=random"]
    code = main(
        [
            "tournament",
            "run",
            "--game",
            "gnomeville",
            "--players",
            str(players),
            *(flag for bot in bots for flag in ("--bot", bot)),
            "--games",
            str(2 * players),
            "--concurrency",
            "1",
            "--no-replays",
            "--quiet",
            "--db",
            f"sqlite:///{tmp_path / 'k.sqlite'}",
            "--output",
            str(tmp_path / "out"),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    tid = captured.err.split("tournament ", 1)[1].split(":", 1)[0]
    report = json.loads((tmp_path / "out" / tid / "ladder.json").read_text())
    groups = {3: 4, 4: 1}[players]  # groups of 3 (or 4) from 4 bots, two seed blocks each
    assert report["matches"] == groups * players * 2
    assert report["method"] == "sandwich" and report["seed_blocks"] == 2
    assert sorted(row["bot"] for row in report["ladder"]) == ["r2", "r3", "r4", "random"]
    # A bot sits in comb(3, players - 1) groups, each played in every rotation, and each of
    # its matches is players - 1 pairwise games.
    per_bot = math.comb(3, players - 1) * players * (players - 1) * 2
    for row in report["ladder"]:
        assert row["games"] == per_bot
        assert row["elo"] is not None and row["ci_low"] <= row["elo"] <= row["ci_high"]


def test_sprt_checks_its_options_too(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--candidate", "random", "--baseline", "r2=random", "--game", "gnomeville"]
    assert main(["tournament", "sprt", *args, "--option", "towns=1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game options: towns names 1 towns for 2 players" in err[0]
