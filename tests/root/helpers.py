"""Small helpers for Root rule tests: start a game, answer by option key, inspect decisions."""

from __future__ import annotations

from games.contract import Decision, GameConfig
from games.root.state import RootState


def new_game(seed: int = 1, board: str = "autumn", games: int = 1) -> RootState:
    """A two-player Root game (one game unless ``games=2``)."""
    return RootState(GameConfig(2, board, {"games": games}), seed)


def decision(g: RootState) -> Decision:
    pending = g.pending()
    assert pending, "the game is over"
    return pending[0]


def keys(g: RootState) -> list[str]:
    """Keys of the options of the pending decision."""
    return [o.key for o in decision(g).options]


def choose(g: RootState, key: str) -> None:
    """Answer the pending decision with the option whose key is ``key`` (AssertionError if
    there is no such option, listing those there are)."""
    d = decision(g)
    for i, option in enumerate(d.options):
        if option.key == key:
            g.apply(d.seat, i)
            return
    raise AssertionError(f"no option {key!r} in {d.kind}: {[o.key for o in d.options]}")


def seat_of(g: RootState, faction: str) -> int:
    return g.seat_of[faction]
