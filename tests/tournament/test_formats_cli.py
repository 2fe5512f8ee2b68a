"""Gauntlet, Swiss, 4-player round-robins and SPRT through the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.tournament.test_tournament_cli import done_matches, kassen

pytestmark = pytest.mark.system


def _ladder(tmp_path: Path, stdout_err: str) -> dict[str, object]:
    tournament_id = stdout_err.split("tournament ", 1)[1].split(":", 1)[0]
    return json.loads((tmp_path / "out" / tournament_id / "ladder.json").read_text())


def test_gauntlet_plays_only_the_candidates_matches(tmp_path: Path) -> None:
    result = kassen(
        "tournament",
        "run",
        "--format",
        "gauntlet",
        "--candidate",
        "greedy",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--bot",
        "r2=random",
        "--bot",
        "r3=random",
        "--games",
        "2",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    rows = done_matches(tmp_path / "k.sqlite")
    assert len(rows) == 3 * 2 and all("greedy:" in outcome for _, _, outcome in rows)


def test_swiss_runs_all_rounds_and_four_player_round_robin_uses_sandwich_intervals(
    tmp_path: Path,
) -> None:
    swiss = kassen(
        "tournament",
        "run",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--bot",
        "r2=random",
        "--bot",
        "r3=random",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert swiss.returncode == 0, swiss.stderr
    rows = done_matches(tmp_path / "k.sqlite")
    assert len(rows) == 3 * 2 * 2  # 3 rounds x 2 pairs x 2 seatings
    four = kassen(
        "tournament",
        "run",
        "--players",
        "4",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--bot",
        "r2=random",
        "--bot",
        "r3=random",
        "--bot",
        "r4=random",
        "--games",
        "8",
        "--no-replays",
        "--quiet",
        "--db",
        f"sqlite:///{tmp_path / 'k4.sqlite'}",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert four.returncode == 0, four.stderr
    ladder = _ladder(tmp_path, four.stderr)
    assert ladder["method"] == "sandwich" and ladder["matches"] == 5 * 4 * 2
    assert ladder["seed_blocks"] == 2  # each block: every group, every rotation, one deal
    assert "clustered by seed block (2)" in " ".join(four.stdout.split())


def test_sprt_accepts_h1_for_a_clearly_better_candidate_and_h0_for_an_equal_one(
    tmp_path: Path,
) -> None:
    better = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "50",
        cwd=tmp_path,
    )
    assert better.returncode == 0, better.stderr
    assert "accepted H1" in better.stdout
    games = int(re.search(r"games (\d+), LLR", better.stdout).group(1))  # type: ignore[union-attr]
    assert games < 200 and "LLR trajectory:" in better.stdout
    equal = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "a=random",
        "--baseline",
        "b=random",
        "--elo0",
        "0",
        "--elo1",
        "150",
        # A given seed: with a secret one, an equal pair is accepted as better 5% of the time
        # by design (alpha), which made this test fail now and then; the error rates
        # themselves are checked in test_sprt_blocks.py.
        "--seed",
        "7",
        cwd=tmp_path,
    )
    assert equal.returncode == 0, equal.stderr
    assert "accepted H0" in equal.stdout


def test_sprt_with_four_players_fills_seats_from_the_field(tmp_path: Path) -> None:
    result = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--players",
        "4",
        "--field",
        "f1=random",
        "--field",
        "f2=random",
        "--elo0",
        "0",
        "--elo1",
        "80",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "accepted H1" in result.stdout
    missing = kassen(
        "tournament",
        "sprt",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--players",
        "3",
        cwd=tmp_path,
    )
    assert missing.returncode == 2 and "--field" in missing.stderr
