"""Bot programs started by the referee: ``python ...`` means kassen's own interpreter, so a bot
written against client_sdk runs without an activated virtual environment."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from games import GameConfig
from server.app import running_server
from server.launch import PYTHON_NAMES, can_start, with_our_python
from server.referee import CommandBot
from server.results import Reason
from server.settings import MatchSettings

ROOT = Path(__file__).resolve().parents[2]


def test_python_commands_run_with_our_interpreter() -> None:
    assert with_our_python(["python", "bot.py"]) == [sys.executable, "bot.py"]
    assert with_our_python(["python3", "-m", "x"]) == [sys.executable, "-m", "x"]
    assert with_our_python(["./bot", "python"]) == ["./bot", "python"]
    assert all(can_start(name) for name in PYTHON_NAMES)
    assert not can_start("no-such-program-kassen")


def test_the_example_bot_plays_with_a_path_that_has_no_virtual_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Neither kassen's venv nor any "python" on PATH: only the system's own directories.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)

    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=5)
            bot = CommandBot(["python", str(ROOT / "examples" / "python" / "bot.py")], "example")
            other = CommandBot(["python3", "-m", "kassen", "bot", "run", "random"], "random")
            match, _ = referee.create_match(settings, commands={0: bot, 1: other})
            await asyncio.wait_for(match.finished.wait(), 60)
            assert match.result is not None
            assert match.result.reason is Reason.COMPLETED, match.result
            assert not any(s.forfeited for s in match.result.seats), match.result.seats

    assert os.environ["PATH"] == "/usr/bin:/bin"
    asyncio.run(scenario())
