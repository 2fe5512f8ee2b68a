"""The factions by name (their rules), and which ones a two-player contest uses (the Japanese
rules summary: Marquise vs Eyrie; three and four players add others, ``lineup.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from games.root.alliance import Alliance
from games.root.eyrie import Eyrie
from games.root.faction import Faction
from games.root.marquise import Marquise
from games.root.vagabond import Vagabond
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, VAGABOND

FACTION_RULES: Mapping[str, Faction] = {
    MARQUISE: Marquise(),
    EYRIE: Eyrie(),
    ALLIANCE: Alliance(),
    VAGABOND: Vagabond(),
}

#: The Japanese rules summary's two-player pairing ("2人：[猫野候国]＋[鷲巣王朝]").
TWO_PLAYER_FACTIONS: tuple[str, ...] = (MARQUISE, EYRIE)
