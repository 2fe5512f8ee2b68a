"""The Python SDK for bot authors: implement ``Bot.choose`` and call ``run_bot``.

See docs/writing-a-bot.md. The bundled bots (``RandomBot``, ``GreedyBot``) reuse the
in-process policies of ``games.policies``.
"""

from client_sdk.bot import AsyncBot, Bot, Request
from client_sdk.builtin import BUNDLED, GreedyBot, PolicyBot, RandomBot
from client_sdk.runner import BotError, open_channel, play, run_bot

__all__ = [
    "BUNDLED",
    "AsyncBot",
    "Bot",
    "BotError",
    "GreedyBot",
    "PolicyBot",
    "RandomBot",
    "Request",
    "open_channel",
    "play",
    "run_bot",
]
