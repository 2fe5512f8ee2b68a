"""Rumble Nation (天下鳴動): 2-4 warlords, dice and domino logic, base and daimyo rules."""

from games.rumble_nation.game import GAME, RumbleNation
from games.rumble_nation.state import RumbleNationState

__all__ = ["GAME", "RumbleNation", "RumbleNationState"]
