"""Component counts and setup tables of Rumble Nation, by player count (data, not logic)."""

from __future__ import annotations

PLAYER_COUNTS = (2, 3, 4)
VARIANTS = ("base", "advanced")

#: Soldiers per player: 18 in the base game; the advanced game returns 2 and adds a daimyo.
SOLDIERS_BASE = 18
SOLDIERS_ADVANCED = 16

#: Large castle tokens 2..12; the small token of an area is worth large // 2 (1..6).
CASTLE_NUMBERS = tuple(range(2, 13))

#: Sword chips in play, highest first (2 players: no 3 and 4; 3 players: no 4).
SWORD_CHIPS = {2: (2, 1), 3: (3, 2, 1), 4: (4, 3, 2, 1)}

#: Small castle tokens are used with 3-4 players only.
USES_SMALL_TOKENS = {2: False, 3: True, 4: True}

#: White reinforcements placed per eligible area: 1 with 2 players, 2 with 3-4.
REINFORCEMENTS_PER_AREA = {2: 1, 3: 2, 4: 2}
REINFORCEMENT_POOL = 30

#: Face-up tactic cards (and, advanced, daimyo cards): players + 1.
DISPLAY_EXTRA = 1

#: The single die gives the number of soldiers: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3.
SOLDIERS_FOR_DIE = (0, 1, 1, 2, 2, 3, 3)

#: A daimyo counts 2 in the war phase (1 piece when deployed).
DAIMYO_POWER = 2
