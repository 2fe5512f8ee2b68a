"""Gnomeville (ノームヴィル): simultaneous bag-building, solo to 4 players, five towns."""

from games.gnomeville.game import GAME, Gnomeville
from games.gnomeville.state import GnomevilleState

__all__ = ["GAME", "Gnomeville", "GnomevilleState"]
