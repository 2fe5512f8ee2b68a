"""Tournament input is checked before anything runs: each bad setting is one line
on stderr naming it, exit code 2, no database and no output; a damaged database is one line
and exit code 2 for every command that opens it (a database the command cannot read), exit
code 1 when it fails while a run stores its results, never a traceback.

The command line runs in-process (``kassen.cli.main``: the same parsing, checks and exit
codes as ``python -m kassen``) except where a real process is the point."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from kassen.cli import main
from server.settings import MAX_SEED, MAX_TIME_MS
from tests.tournament.test_tournament_cli import kassen
from tournament.config import ConfigError, TournamentConfig, parse_bot, validate
from tournament.config_schema import MAX_CONCURRENCY, MAX_MATCHES
from tournament.schedule import gauntlet, match_count, round_robin, swiss_round

BOTS = '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "greedy"\n'


def one_line(stderr: str) -> str:
    """The only line of ``stderr``, which must start with ``kassen:``."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("kassen:") and "Traceback" not in stderr, stderr
    return lines[0]


def run_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    *flags: str,
) -> tuple[int, str]:
    """``kassen tournament run t.toml FLAGS`` in ``tmp_path`` (database and output there);
    returns the exit code and the one error line, after checking nothing else appeared."""
    (tmp_path / "t.toml").write_text(text)
    before = sorted(tmp_path.iterdir())
    code = main(
        [
            "tournament",
            "run",
            str(tmp_path / "t.toml"),
            "--db",
            f"sqlite:///{tmp_path / 'k.sqlite'}",
            "--output",
            str(tmp_path / "out"),
            "--quiet",
            *flags,
        ]
    )
    line = one_line(capsys.readouterr().err)
    assert sorted(tmp_path.iterdir()) == before, "nothing is written before the checks pass"
    return code, line


@pytest.mark.parametrize(
    ("section", "flags", "named"),
    [
        ("[tournament.time_control]\nbank_ms = -1\n", [], "bank_ms must be at least 0, not -1"),
        ("", ["--bank-ms", "-5"], "bank_ms must be at least 0, not -5 (--bank-ms)"),
        (
            f"[tournament.time_control]\ndecision_ms = {MAX_TIME_MS + 1}\n",
            [],
            f"decision_ms must be at most {MAX_TIME_MS:,}",
        ),
        ("", ["--decision-ms", "99999999999"], f"decision_ms must be at most {MAX_TIME_MS:,}"),
        ("[tournament]\ngames_per_group = 1000000000\n", [], "games_per_group must be at most"),
        ("", ["--games", "1000000000"], "games_per_group must be at most"),
        ("", ["--concurrency", "100000"], f"concurrency must be at most {MAX_CONCURRENCY}"),
        ("[tournament]\nconcurrency = 0\n", [], "concurrency must be at least 1"),
        (
            "[tournament]\nseed = 18446744073709551616\n",
            [],
            f"seed must be a whole number from 0 to {MAX_SEED:,}, not 18446744073709551616",
        ),
        (
            "",
            ["--seed", str(2**64)],
            f"--seed must be a whole number from 0 to {MAX_SEED:,}, not 18446744073709551616",
        ),
        ("[tournament]\ntime_control = 5\n", [], "time_control must be a table, not 5"),
        ("[tournament]\nfailure_policy = 'explode'\n", [], "failure_policy must be one of"),
        ("[tournament]\nreplays = 'yes'\n", [], "replays must be true or false"),
        ("[tournament]\nplayers = '2'\n", [], "players must be a whole number, not '2'"),
        ("[tournament]\nname = ''\n", [], "name must not be empty"),
        (f"[tournament]\nname = '{'x' * 201}'\n", [], "name must be at most 200 characters"),
        ("[tournament]\nmax_decisions = 10000000\n", [], "max_decisions must be at most"),
    ],
)
def test_a_bad_setting_is_named_before_anything_runs(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    section: str,
    flags: list[str],
    named: str,
) -> None:
    code, line = run_file(tmp_path, capsys, section + BOTS, *flags)
    assert code == 2 and named in line, line


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("[tournamnet]\nplayers = 2\n", "unknown key tournamnet (did you mean [tournament]?)"),
        ("[[bot]]\nname = 'c'\n", "unknown key bot (did you mean [[bots]]?)"),
        (
            "[tournament]\nconcurency = 2\n",
            "[tournament]: unknown key concurency (did you mean concurrency?)",
        ),
        (
            "[tournament.time_control]\nbank = 5\n",
            "[tournament.time_control]: unknown key bank (did you mean bank_ms?)",
        ),
        ("[tournament]\nzzz = 1\n", "unknown key zzz (known: "),
    ],
)
def test_a_misspelt_section_or_key_names_its_close_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, hint: str
) -> None:
    code, line = run_file(tmp_path, capsys, text + BOTS)
    assert code == 2 and hint in line, line


def test_a_file_that_is_not_text_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "t.toml").write_bytes(random.Random(3).randbytes(300))
    assert main(["tournament", "run", str(tmp_path / "t.toml"), "--quiet"]) == 2
    assert "t.toml is not a TOML file: it is not UTF-8 text" in one_line(capsys.readouterr().err)


def test_files_are_read_within_bounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/dev/zero`` given as the file or as a content pack used to be read until memory ran
    out; a pack beyond the referee's options bound is refused as a remote referee would."""
    monkeypatch.chdir(tmp_path)
    bots = ["--bot", "random", "--bot", "greedy", "--quiet"]
    assert main(["tournament", "run", "/dev/zero", "--quiet"]) == 2
    assert "cannot read /dev/zero: /dev/zero is not a regular file" in one_line(
        capsys.readouterr().err
    )
    gnomeville = ["--game", "gnomeville", "--players", "1"]
    assert main(["tournament", "run", *gnomeville, "--option", "content=/dev/zero", *bots]) == 2
    assert "/dev/zero is not a regular file" in one_line(capsys.readouterr().err)
    (tmp_path / "big.toml").write_text("# " + "x" * 300_000 + "\n")
    assert main(["tournament", "run", *gnomeville, "--option", "content=big.toml", *bots]) == 2
    assert "big.toml is larger than 262,144 bytes" in one_line(capsys.readouterr().err)
    many = [f"--option=k{i}=1" for i in range(100)]
    assert main(["tournament", "run", *many, *bots]) == 2
    assert "100 keys, above the limit of 64" in one_line(capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.toml"]


def test_a_bad_key_in_a_bot_entry_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = run_file(tmp_path, capsys, BOTS + '[[bots]]\nname = "c"\nbuiltin = 3\n')
    assert code == 2 and "[[bots]] entry 3 ('c'): builtin must be a string, not 3" in line, line


def test_too_many_matches_are_refused_before_the_schedule_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 30 bots, 2 players: 435 pairs x 2 seatings x 500 blocks = 435,000 matches.
    bots = "".join(f'[[bots]]\nname = "b{i}"\nbuiltin = "random"\n' for i in range(30))
    code, line = run_file(tmp_path, capsys, "[tournament]\ngames_per_group = 1000\n" + bots)
    assert code == 2 and f"would play 435,000 matches, above the limit of {MAX_MATCHES:,}" in line


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_match_count_is_the_schedule_length(players: int) -> None:
    names = [f"b{i}" for i in range(6)]
    for games in (1, 3, 4, 9):
        assert match_count("round-robin", 6, players, games, 1) == len(
            round_robin(names, players, games, 7)
        )
        assert match_count("gauntlet", 6, players, games, 1) == len(
            gauntlet(names[0], names[1:], players, games, 7)
        )
    one_round = swiss_round(names[:5], players, 0, {}, set(), 7, 0)
    assert match_count("swiss", 5, players, 1, 3) == 3 * len(one_round)


def test_an_unwritable_output_folder_is_refused_before_the_first_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("")
    code, line = run_file(tmp_path, capsys, BOTS, "--output", str(tmp_path / "afile" / "out"))
    assert code == 2 and "afile is not a folder" in line, line
    if Path("/proc").is_dir():  # nothing can be created there, even by root
        code, line = run_file(tmp_path, capsys, BOTS, "--output", "/proc/kassen-out")
        assert code == 2 and "output /proc/kassen-out: cannot write in /proc" in line, line


def test_the_output_check_creates_nothing(tmp_path: Path) -> None:
    config = TournamentConfig(
        bots=(parse_bot("random"), parse_bot("greedy")), output=str(tmp_path / "a" / "b")
    )
    validate(config)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ConfigError, match="cannot write in /proc"):
        validate(TournamentConfig(bots=config.bots, output="/proc/x/y"))


def test_bad_input_from_a_real_process_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text("[tournament.time_control]\nbank_ms = -1\n" + BOTS)
    result = kassen("tournament", "run", "t.toml", "--quiet", cwd=tmp_path)
    assert result.returncode == 2
    assert "bank_ms must be at least 0" in one_line(result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_ladder_show_on_a_missing_database_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for flags in ([], ["--db", f"sqlite:///{tmp_path / 'nothere.sqlite'}"]):
        assert main(["ladder", "show", *flags]) == 2
        assert "there is no database there" in one_line(capsys.readouterr().err)
    assert list(tmp_path.iterdir()) == []


def test_reading_commands_leave_a_database_that_is_not_ours_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ladder show`` or ``resume`` on an empty file or another program's database used to
    create Kassen's tables in it."""
    (tmp_path / "empty.sqlite").write_bytes(b"")
    with sqlite3.connect(tmp_path / "other.sqlite") as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    for name in ("empty.sqlite", "other.sqlite"):
        before = (tmp_path / name).read_bytes()
        db = ["--db", f"sqlite:///{tmp_path / name}"]
        for command in (["ladder", "show", *db], ["tournament", "resume", "t1", *db]):
            assert main(command) == 2
            assert "holds no Kassen tournaments" in one_line(capsys.readouterr().err)
        assert (tmp_path / name).read_bytes() == before


# ------------------------------------------------------------------------- damaged databases


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A small finished tournament's database (a real run) and its id."""
    folder = tmp_path_factory.mktemp("finished")
    result = kassen(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "r2=random",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{folder / 'k.sqlite'}",
        "--output",
        str(folder / "out"),
        cwd=folder,
    )
    assert result.returncode == 0, result.stderr
    return folder / "k.sqlite", result.stderr.split("tournament ", 1)[1].split(":", 1)[0]


def commands(database: Path, tournament_id: str) -> list[list[str]]:
    """Every command that opens a tournament database."""
    db = ["--db", f"sqlite:///{database}"]
    return [
        ["ladder", "show", *db],
        ["ladder", "show", "--tournament", tournament_id, "--format", "json", *db],
        ["ladder", "show", "--format", "csv", *db],
        ["tournament", "resume", tournament_id, "--quiet", *db],
        ["tournament", "run", "--bot", "random", "--bot", "greedy", "--games", "2", "--quiet"]
        + ["--concurrency", "1", "--no-replays", "--output", str(database.parent / "o"), *db],
    ]


def damaged(source: Path, target: Path, start: int, size: int, seed: int) -> None:
    """A copy of ``source`` with ``size`` random bytes written at ``start``."""
    data = bytearray(source.read_bytes())
    noise = random.Random(seed).randbytes(size)
    data[start : start + size] = noise[: max(0, len(data) - start)]
    target.write_bytes(bytes(data))


@pytest.mark.parametrize("where", ["header", "middle"])
def test_a_damaged_database_is_one_line_and_exit_2_for_every_command(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    finished: tuple[Path, str],
    where: str,
) -> None:
    source, tournament_id = finished
    size = source.stat().st_size
    start, length = (0, 100) if where == "header" else (size // 4, size // 2)
    for command in commands(tmp_path / "k.sqlite", tournament_id):
        damaged(source, tmp_path / "k.sqlite", start, length, seed=1)
        before = (tmp_path / "k.sqlite").read_bytes()
        assert main(command) == 2, command
        line = one_line(capsys.readouterr().err)
        assert "damaged" in line, line
        assert (tmp_path / "k.sqlite").read_bytes() == before, "nothing is written"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["k.sqlite"], command


def test_random_damage_anywhere_never_gives_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], finished: tuple[Path, str]
) -> None:
    """Bytes changed at random places: a command either still works (the damage hit space
    SQLite does not use) or fails with one line: exit code 2 where the damage is found as the
    command reads its input, 1 where ``resume`` finds it when it reads the results back for
    its reports."""
    source, tournament_id = finished
    size = source.stat().st_size
    failures = 0
    for seed in range(12):
        rng = random.Random(seed)
        start, length = rng.randrange(size), rng.choice([8, 64, 512])
        for command in commands(tmp_path / "k.sqlite", tournament_id)[:4]:
            damaged(source, tmp_path / "k.sqlite", start, length, seed)
            code = main(command)
            err = capsys.readouterr().err
            assert "Traceback" not in err
            if code != 0:
                assert code in (1, 2), err
                one_line(err)
                failures += 1
    assert failures > 0, "some of the damage must be noticed, or this test shows nothing"


def test_a_damaged_database_in_a_real_process(tmp_path: Path, finished: tuple[Path, str]) -> None:
    source, tournament_id = finished
    size = source.stat().st_size
    damaged(source, tmp_path / "k.sqlite", size // 4, size // 2, seed=2)
    copy = tmp_path / "copy.sqlite"
    shutil.copy(tmp_path / "k.sqlite", copy)
    for command in (["ladder", "show"], ["tournament", "resume", tournament_id, "--quiet"]):
        result = kassen(*command, "--db", f"sqlite:///{tmp_path / 'k.sqlite'}", cwd=tmp_path)
        assert result.returncode == 2
        assert "damaged" in one_line(result.stderr)
        assert copy.read_bytes() == (tmp_path / "k.sqlite").read_bytes(), "nothing is written"


def test_a_stored_row_that_no_longer_parses_is_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], finished: tuple[Path, str]
) -> None:
    """A page SQLite still reads, with text that is not what was written."""
    source, tournament_id = finished
    shutil.copy(source, tmp_path / "k.sqlite")
    with sqlite3.connect(tmp_path / "k.sqlite") as conn:
        conn.execute("UPDATE matches SET seats_json = '[\"a\x01' WHERE idx = 1")
    assert main(["ladder", "show", "--db", f"sqlite:///{tmp_path / 'k.sqlite'}"]) == 2
    assert "the seating of match 1 is not readable" in one_line(capsys.readouterr().err)
    with sqlite3.connect(tmp_path / "k.sqlite") as conn:
        conn.execute("UPDATE tournaments SET config_json = '{\"na'")
    resume = ["tournament", "resume", tournament_id, "--db", f"sqlite:///{tmp_path / 'k.sqlite'}"]
    assert main(resume) == 2
    assert f"the configuration of tournament {tournament_id}" in one_line(capsys.readouterr().err)
