"""Rules engines: pure Python, deterministic, no I/O and no gRPC. See ``games.contract``."""

from games.contract import (
    Decision,
    Event,
    Game,
    GameConfig,
    GameState,
    IllegalDecision,
    InvalidConfig,
    Option,
    Outcome,
    replay,
)
from games.registry import UnknownGame, games, get_game

__all__ = [
    "Decision",
    "Event",
    "Game",
    "GameConfig",
    "GameState",
    "IllegalDecision",
    "InvalidConfig",
    "Option",
    "Outcome",
    "UnknownGame",
    "games",
    "get_game",
    "replay",
]
