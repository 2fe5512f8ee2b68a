"""The example bots in other languages: each builds from a clean clone with its own tools,
plays real matches against the Python referee, and passes the conformance kit.

Marked ``crosslang`` (``pytest -m "not crosslang"`` skips them); a missing toolchain skips a
language with a message naming it. Build caches: cargo's target folder is shared in
~/.cache/kassen/ so that CI runs on the same machine reuse it; Maven, Go and npm keep their
own caches.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games import GameConfig
from games.policies import make_policy
from server.app import running_server
from server.referee import CommandBot, LocalBot
from server.results import Reason
from server.settings import MatchSettings, TimeControl

pytestmark = pytest.mark.crosslang

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CACHE = Path.home() / ".cache" / "kassen" / "examples"
BUILD_TIMEOUT_S = 900

#: language -> programs its build needs
TOOLCHAINS = {
    "go": ["go", "protoc"],
    "typescript": ["node", "npm"],
    "rust": ["cargo", "protoc"],
    "java": ["java", "mvn"],
    "cpp": ["cmake", "g++", "protoc", "grpc_cpp_plugin", "pkg-config"],
}
LANGUAGES = sorted(TOOLCHAINS)


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CARGO_TARGET_DIR": str(CACHE / "rust-target"),
    }


def missing_tools(language: str) -> list[str]:
    return [tool for tool in TOOLCHAINS[language] if shutil.which(tool) is None]


_built: dict[str, str] = {}


def built(language: str) -> Path:
    """Build the example once per test session (or skip, naming what is missing)."""
    absent = missing_tools(language)
    if absent:
        pytest.skip(f"{language}: toolchain not installed ({', '.join(absent)})")
    if language not in _built:
        done = subprocess.run(
            ["bash", str(EXAMPLES / language / "build.sh")],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            env=environment(),
        )
        _built[language] = "" if done.returncode == 0 else (done.stdout + done.stderr)[-3000:]
    if _built[language]:
        pytest.fail(f"{language} example did not build:\n{_built[language]}")
    return EXAMPLES / language / "run.sh"


async def _match(
    commands: dict[int, list[str]],
    players: int,
    variant: str,
    seed: int,
    game: str = "rumble-nation",
) -> list[tuple[Reason, bool, int]]:
    os.environ["CARGO_TARGET_DIR"] = environment()["CARGO_TARGET_DIR"]
    async with running_server() as referee:
        settings = MatchSettings(
            game=game,
            config=GameConfig(players, variant),
            seed=seed,
            time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
            join_timeout_ms=60_000,
        )
        local = {
            p: LocalBot(make_policy("random", game, p), "random")
            for p in range(players)
            if p not in commands
        }
        bots = {p: CommandBot(command=c, name=Path(c[0]).parent.name) for p, c in commands.items()}
        match, _ = referee.create_match(settings, local, bots)
        await asyncio.wait_for(match.finished.wait(), 300)
        assert match.result is not None and match.result.reason is Reason.COMPLETED
        return [(s.reason, s.forfeited, s.decisions) for s in match.result.seats]


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_builds_and_plays_full_matches(language: str) -> None:
    run = built(language)
    for players, variant, seat in ((2, "base", 0), (4, "advanced", 2)):
        seats = asyncio.run(_match({seat: [str(run)]}, players, variant, seed=7))
        reason, forfeited, decisions = seats[seat]
        assert reason is Reason.COMPLETED and not forfeited and decisions > 0, seats


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_passes_the_conformance_kit(language: str) -> None:
    run = built(language)
    result = subprocess.run(
        [sys.executable, "-m", "kassen", "bot", "check", "--", str(run)],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment(),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failed" in result.stdout


def test_four_languages_in_one_game() -> None:
    available = [language for language in LANGUAGES if not missing_tools(language)]
    if len(available) < 4:
        pytest.skip(f"only {len(available)} toolchains installed: {', '.join(available)}")
    chosen = available[:4]
    commands = {seat: [str(built(language))] for seat, language in enumerate(chosen)}
    seats = asyncio.run(_match(commands, 4, "advanced", seed=11))
    assert all(
        reason is Reason.COMPLETED and not forfeited and decisions > 0
        for reason, forfeited, decisions in seats
    ), (chosen, seats)


def test_two_languages_play_a_root_contest() -> None:
    """The examples know nothing of Root: options and keys are enough to play it."""
    available = [language for language in LANGUAGES if not missing_tools(language)]
    if len(available) < 2:
        pytest.skip(f"only {len(available)} toolchains installed: {', '.join(available)}")
    chosen = available[-2:]
    commands = {seat: [str(built(language))] for seat, language in enumerate(chosen)}
    seats = asyncio.run(_match(commands, 2, "winter", seed=3, game="root"))
    assert all(
        reason is Reason.COMPLETED and not forfeited and decisions > 0
        for reason, forfeited, decisions in seats
    ), (chosen, seats)
