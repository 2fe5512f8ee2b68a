"""Finding a bot by the name a user typed: a class that does not exist is named as missing
(with the bots the file does have), not called "not a Bot subclass"."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_sdk.builtin import PolicyBot
from client_sdk.loading import BotNotFound, load_bot

BOTS = """
from client_sdk import Bot


class Fine(Bot):
    def choose(self, request):
        return 0


class Other(Bot):
    def choose(self, request):
        return 0


NOT_A_BOT = 3
"""


def test_a_missing_class_is_named_with_the_bots_the_file_has(tmp_path: Path) -> None:
    path = tmp_path / "mybots.py"
    path.write_text(BOTS)
    assert type(load_bot(f"{path}:Fine")).__name__ == "Fine"
    with pytest.raises(BotNotFound) as missing:
        load_bot(f"{path}:NoSuchBot")
    assert str(missing.value) == "no 'NoSuchBot' in 'mybots' (its bots: Fine, Other)"
    with pytest.raises(BotNotFound, match=r"is not a client_sdk\.Bot subclass"):
        load_bot(f"{path}:NOT_A_BOT")
    with pytest.raises(BotNotFound, match="no file"):
        load_bot(f"{tmp_path / 'absent.py'}:Fine")


def test_the_search_bot_loads_with_parameters_and_a_bad_one_is_named() -> None:
    bot = load_bot("ismcts:iterations=20,c=0.5", seed=1)
    assert isinstance(bot, PolicyBot) and bot.name == "ismcts:iterations=20,c=0.5"
    with pytest.raises(BotNotFound, match="no parameter 'depht'"):
        load_bot("ismcts:depht=3")
