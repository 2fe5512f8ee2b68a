"""Solo tournaments end to end (in-process, one worker: fast): every bot plays the same seeds,
and the report's figures are the ones the stored scores give."""

from __future__ import annotations

import io
import json
import math
import sqlite3
import statistics
from contextlib import redirect_stderr, redirect_stdout
from importlib import resources
from pathlib import Path

import pytest

from games import GameConfig, get_game, replay
from games.policies import UnknownPolicy
from kassen.cli import main
from tournament.config import TournamentConfig, parse_bot, validate
from tournament.solo import rank_index, rank_table

SEEDS = 4
PACK = resources.files("games.gnomeville").joinpath("content").joinpath("standard.toml")
#: Student t 0.975 quantile for SEEDS - 1 degrees of freedom (printed tables).
T975_3 = 3.182446


def solo_bots() -> list[str]:
    """Built-in bots for a solo field: greedy and two randoms (their randomness differs: it
    derives from the bot's name)."""
    return ["random", "r2=random", "greedy"]


def run(*args: str) -> int:
    return main(["tournament", *args])


def tournament_id(err: str) -> str:
    return err.split("tournament ", 1)[1].split(":", 1)[0]


@pytest.fixture(scope="module")
def solo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """One solo tournament with a secret base seed: (folder, id, stderr)."""
    folder = tmp_path_factory.mktemp("solo")
    bot_flags = [flag for bot in solo_bots() for flag in ("--bot", bot)]
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        code = run(
            "run",
            "--game",
            "gnomeville",
            "--players",
            "1",
            *bot_flags,
            "--games",
            str(SEEDS),
            "--concurrency",
            "1",
            "--db",
            f"sqlite:///{folder / 'k.sqlite'}",
            "--output",
            str(folder / "out"),
            "--quiet",
        )
    assert code == 0, err.getvalue()
    (folder / "stdout.txt").write_text(out.getvalue())
    return folder, tournament_id(err.getvalue()), err.getvalue()


def stored_scores(db: Path) -> list[tuple[str, int, int, int]]:
    """(bot, seed, score, forfeited) of every stored game (every one played to its end)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT s.bot, m.seed, s.score, s.forfeited, m.reason, s.rank FROM matches m "
            "JOIN seat_results s ON s.tournament_id = m.tournament_id AND s.match_idx = m.idx "
            "WHERE m.status = 'done'"
        ).fetchall()
    assert {(reason, rank) for *_, reason, rank in rows} == {("completed", 1)}
    return [(bot, seed, score, forfeited) for bot, seed, score, forfeited, _, _ in rows]


def test_every_bot_plays_exactly_the_same_seeds_once(solo_run: tuple[Path, str, str]) -> None:
    folder, _, err = solo_run
    assert "gnomeville standard solo" in err
    rows = stored_scores(folder / "k.sqlite")
    names = [parse_bot(b).name for b in solo_bots()]
    seeds = {bot: [seed for b, seed, _, _ in rows if b == bot] for bot in names}
    assert len(rows) == SEEDS * len(names)
    first = sorted(seeds[names[0]])
    assert len(set(first)) == SEEDS
    for bot in names:
        assert sorted(seeds[bot]) == first  # the same seeds, each once


def test_reported_means_and_intervals_are_those_of_the_stored_scores(
    solo_run: tuple[Path, str, str],
) -> None:
    folder, tid, _ = solo_run
    rows = stored_scores(folder / "k.sqlite")
    report = json.loads((folder / "out" / tid / "ladder.json").read_text())
    assert report["kind"] == "solo" and report["elo"] is None and "no Elo" in report["note"]
    assert report["games"] == len(rows)
    means = []
    for row in report["ladder"]:
        scores = [0 if forfeited else score for b, _, score, forfeited in rows if b == row["bot"]]
        mean, sd = statistics.mean(scores), statistics.stdev(scores)
        half = T975_3 * sd / math.sqrt(SEEDS)
        assert row["games"] == SEEDS
        assert row["mean"] == pytest.approx(mean, abs=0.006)
        assert row["ci_low"] == pytest.approx(mean - half, abs=0.006)
        assert row["ci_high"] == pytest.approx(mean + half, abs=0.006)
        means.append(row["mean"])
    assert means == sorted(means, reverse=True)  # best mean first


def test_paired_comparisons_are_the_per_seed_differences(solo_run: tuple[Path, str, str]) -> None:
    folder, tid, _ = solo_run
    rows = stored_scores(folder / "k.sqlite")
    by_seed = {(b, seed): score for b, seed, score, _ in rows}
    seeds = sorted({seed for _, seed, _, _ in rows})
    report = json.loads((folder / "out" / tid / "ladder.json").read_text())
    assert len(report["paired"]) == 3  # every pair of the three bots
    for pair in report["paired"]:
        diffs = [by_seed[(pair["bot"], s)] - by_seed[(pair["opponent"], s)] for s in seeds]
        mean, half = statistics.mean(diffs), T975_3 * statistics.stdev(diffs) / math.sqrt(SEEDS)
        assert pair["seeds"] == SEEDS
        assert pair["mean_diff"] == pytest.approx(mean, abs=0.006)
        assert pair["ci_low"] == pytest.approx(mean - half, abs=0.006)
        assert pair["ci_high"] == pytest.approx(mean + half, abs=0.006)
        assert pair["excludes_zero"] == (mean - half > 0.005 or mean + half < -0.005)


def test_rank_table_counts_add_up_to_the_games_played(solo_run: tuple[Path, str, str]) -> None:
    folder, tid, _ = solo_run
    report = json.loads((folder / "out" / tid / "ladder.json").read_text())
    game = get_game("gnomeville")
    table = rank_table(game, TournamentConfig(game="gnomeville", players=1).game_config)
    titles = [r["title"] for r in report["rank_table"]]
    assert titles == [*(title for _, title in table), "no rank"]
    headers = [*(f"{a}+" for a, _ in table), "no rank"]
    for row in report["ladder"]:
        assert sum(row[h] for h in headers) == row["games"]


def test_rank_counts_agree_with_the_engines_own_rank_titles(
    solo_run: tuple[Path, str, str],
) -> None:
    """Re-simulate every replay: the title the engine gives the final score (its outcome's
    tiebreak) is the row of the rank table the report counted the game in."""
    folder, tid, _ = solo_run
    game = get_game("gnomeville")
    counted: dict[str, list[str]] = {}
    for path in (folder / "out" / tid / "replays").glob("*.json"):
        record = json.loads(path.read_text())
        config = GameConfig(1, record["variant"], record.get("options") or {})
        decisions = [(int(seat), int(index)) for seat, index in record["decisions"]]
        outcome = replay(game, config, int(record["seed"]), decisions).outcome()
        assert outcome is not None and list(outcome.scores) == record["scores"]
        table = rank_table(game, config)
        index = rank_index(outcome.scores[0], table)
        title = outcome.tiebreak.get("solo_rank", outcome.tiebreak.get("rank"))
        if isinstance(title, str):  # the engine's title ("" for no rank)
            assert (table[index][1] if index < len(table) else "") == title
        header = f"{table[index][0]}+" if index < len(table) else "no rank"
        counted.setdefault(record["result"]["seats"][0]["bot"], []).append(header)
    report = json.loads((folder / "out" / tid / "ladder.json").read_text())
    for row in report["ladder"]:
        for header in ("no rank", *(f"{a}+" for a, _ in rank_table(game, GameConfig(1)))):
            assert row[header] == counted[row["bot"]].count(header)


def test_a_content_pack_brings_its_own_rank_table() -> None:
    from games.gnomeville import GAME

    text = PACK.read_text(encoding="utf-8").replace("at_least = 80", "at_least = 95")
    standard = rank_table(GAME, GameConfig(1, "standard"))
    custom = rank_table(GAME, GameConfig(1, "standard", {"content": text}))
    assert [a for a, _ in standard] == [80, 70, 60, 50, 40]
    assert [a for a, _ in custom] == [95, 70, 60, 50, 40]


def test_text_csv_and_ladder_show_report_the_same_tournament(
    solo_run: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, tid, _ = solo_run
    text = (folder / "stdout.txt").read_text()
    assert "no Elo" in text and "Paired by seed" in text and "95% interval" in text
    out = folder / "out" / tid
    assert (out / "ladder.csv").read_text().startswith("rank,bot,mean,ci_low,ci_high,sd,games")
    assert (out / "paired.csv").read_text().startswith("bot,opponent,seeds,mean_diff")
    assert len((out / "scores.csv").read_text().splitlines()) == 1 + 3 * SEEDS
    assert "Paired by seed" in (out / "report.html").read_text()
    db = f"sqlite:///{folder / 'k.sqlite'}"
    assert main(["ladder", "show", "--db", db, "--tournament", tid, "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["ladder"] == json.loads((out / "ladder.json").read_text())["ladder"]


def test_secret_seeds_are_revealed_in_every_replay_once_over(
    solo_run: tuple[Path, str, str],
) -> None:
    folder, tid, err = solo_run
    assert "was given" not in err  # no seed given: the base seed was drawn secretly
    replays = list((folder / "out" / tid / "replays").glob("*.json"))
    assert len(replays) == 3 * SEEDS
    assert all(json.loads(p.read_text())["seed"] is not None for p in replays)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--format", "swiss"], "a solo tournament (players = 1) is a round-robin"),
        (["--format", "gauntlet", "--candidate", "random"], "format 'gauntlet' does not apply"),
        (["--deals", "fresh"], "deals 'fresh' does not apply"),
        (["--game", "rumble-nation"], "rumble-nation is for 2, 3, 4 players, not 1"),
    ],
)
def test_what_a_solo_tournament_cannot_be_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    args = ["run", "--game", "gnomeville", "--players", "1", "--bot", "random"]
    code = run(*args, "--bot", "r2=random", *extra, "--db", f"sqlite:///{tmp_path / 'k.sqlite'}")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and message in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_sprt_refuses_a_solo_game_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--candidate", "random", "--baseline", "r2=random", "--game", "gnomeville"]
    assert run("sprt", *args, "--players", "1") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "solo game" in err[0] and "--players 1" in err[0]


def test_a_builtin_the_game_lacks_is_refused_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.policies import registry

    def greedy_for(game: str) -> object:
        raise UnknownPolicy(f"no greedy policy for {game}")

    monkeypatch.setattr(registry, "_greedy", greedy_for)
    config = TournamentConfig(
        game="gnomeville", players=1, bots=(parse_bot("random"), parse_bot("x=greedy"))
    )
    with pytest.raises(ValueError, match="bot 'x': no greedy policy for gnomeville"):
        validate(config)
