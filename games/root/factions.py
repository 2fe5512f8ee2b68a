"""The factions by name, and which ones a two-player contest uses (seed 003: Marquise vs Eyrie)."""

from __future__ import annotations

from collections.abc import Mapping

from games.root.eyrie import Eyrie
from games.root.faction import Faction
from games.root.marquise import Marquise
from games.root.woodland import EYRIE, MARQUISE

FACTION_RULES: Mapping[str, Faction] = {MARQUISE: Marquise(), EYRIE: Eyrie()}

#: Seed 003's two-player pairing ("2人：[猫野候国]＋[鷲巣王朝]").
TWO_PLAYER_FACTIONS: tuple[str, ...] = (MARQUISE, EYRIE)
