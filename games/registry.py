"""The games Kassen can referee, by name."""

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
