"""Which factions sit at the table: the pairings by player count of the Japanese rules summary,
and the ``factions`` option.

The Japanese rules summary (派閥の選択) recommends Marquise + Eyrie for two players, Marquise +
Eyrie + Woodland Alliance for three and all four factions (Vagabond too) for four. Two players play exactly
Marquise + Eyrie; three play the trio by default or any three of the four factions the
``factions`` option names (RT21); four play all four. The factions are dealt to the seats at
random from the seed (RT2) unless the ``factions`` option names them in seat order (a comma
list, e.g. ``"eyrie,marquise"`` or ``"vagabond,eyrie,alliance"``). Two players play the
two-game contest of the Japanese rules summary (game 2 swaps the factions, RT1-RT3); three and four play one game, as the
Law does. The factions set up in the Law's order whatever their seats (Law 5.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import InvalidConfig
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, VAGABOND

#: The pairing per player count of the Japanese rules summary (2人：[猫野候国]＋[鷲巣王朝];
#: 3人：…＋[森林連合]; 4人：…＋[ヴァガボンド]): the default lineup (RT21).
LINEUPS: dict[int, tuple[str, ...]] = {
    2: (MARQUISE, EYRIE),
    3: (MARQUISE, EYRIE, ALLIANCE),
    4: (MARQUISE, EYRIE, ALLIANCE, VAGABOND),
}
#: The factions the ``factions`` option may choose from, per player count (RT21): two players
#: play the Japanese rules summary's pair only; three any three of the four factions.
CHOICES: dict[int, tuple[str, ...]] = {
    2: LINEUPS[2],
    3: LINEUPS[4],
    4: LINEUPS[4],
}


def unavailable(
    players: int, rules: Mapping[str, Any] | None = None, factions: tuple[str, ...] | None = None
) -> str | None:
    """Why a game of ``players`` (with ``factions``, else the default lineup) cannot be set up
    yet (a faction whose rules are not registered in ``factions.FACTION_RULES``), or None."""
    if rules is None:
        from games.root.factions import FACTION_RULES

        rules = FACTION_RULES
    lineup = factions if factions is not None else LINEUPS.get(players, ())
    missing = [f for f in lineup if f not in rules]
    if not missing:
        return None
    return (
        f"a {players}-player Root game needs the {', '.join(missing)} faction, "
        "whose rules are not in this engine yet"
    )


def named_factions(players: int, value: Any) -> tuple[str, ...] | None:
    """The ``factions`` option read as seat order, or None if not given; ``InvalidConfig``
    unless it names exactly the factions of a ``players``-player game, once each."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        names = tuple(part.strip().lower() for part in value.split(","))
    elif isinstance(value, (list, tuple)):
        names = tuple(str(part).strip().lower() for part in value)
    else:
        raise InvalidConfig(f"root's factions option is a comma list, not {value!r}")
    choices = CHOICES[players]
    if len(names) != players or len(set(names)) != players or not set(names) <= set(choices):
        which = "" if len(choices) == players else f"{players} of "
        raise InvalidConfig(
            f"a {players}-player Root game seats {which}{', '.join(choices)} (once each, in any "
            f"seat order), not {','.join(names)!r}"
        )
    return names


def contest_games(players: int, value: Any) -> int:
    """Games in the contest: 1 or 2 for two players (RT1), always 1 for three or four (the Law)."""
    default = 2 if players == 2 else 1
    games = default if value is None else value
    # Options from the command line and the wire are text: "1" is 1.
    if games not in (1, 2, "1", "2") or isinstance(games, bool):
        raise InvalidConfig(f"root plays a contest of 1 or 2 games, not {games!r}")
    if players != 2 and int(games) != 1:
        raise InvalidConfig(
            f"a {players}-player Root game is one game (the two-game contest is the two-player "
            "rule of the Japanese rules summary)"
        )
    return int(games)
