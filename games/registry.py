"""The games Kassen can referee, by name: the one list of them.

Each game registers with its ``GAME`` object everything the rest of Kassen needs from it: the
rules (``games.contract.Game``) and, as its ``hooks`` (``games.contract.Hooks``), prepared
positions and the built-in bots' pieces. Code outside a game's folder finds them here, by
looking the game up, and never names a game.
"""

from __future__ import annotations

from games.contract import Game


class UnknownGame(LookupError):
    pass


def _load() -> dict[str, Game]:
    from games.gnomeville import GAME as GNOMEVILLE
    from games.root import GAME as ROOT
    from games.rumble_nation import GAME as RUMBLE_NATION

    return {RUMBLE_NATION.name: RUMBLE_NATION, ROOT.name: ROOT, GNOMEVILLE.name: GNOMEVILLE}


_GAMES: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    """All registered games by name."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def get_game(name: str) -> Game:
    """The game called ``name``; UnknownGame (with the known names) otherwise."""
    found = games().get(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(games()))})")
    return found
