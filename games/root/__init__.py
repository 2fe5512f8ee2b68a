"""Root (ルート): asymmetric woodland war. Part 1: Marquise de Cat vs Eyrie Dynasties, 2 players."""

from games.root.game import GAME, Root
from games.root.state import RootState

__all__ = ["GAME", "Root", "RootState"]
