"""Build Rumble Nation positions by hand and drive them by option keys, for rule tests."""

from __future__ import annotations

from games.rumble_nation import RumbleNationState
from games.rumble_nation.board import AREA_INDEX
from games.rumble_nation.positions import LAYOUT, position

__all__ = ["LAYOUT", "choose", "count", "keys", "kind", "position", "set_dice"]


def keys(state: RumbleNationState) -> list[str]:
    """Option keys of the (single) pending decision."""
    pending = state.pending()
    assert pending, "the game is over"
    return [option.key for option in pending[0].options]


def kind(state: RumbleNationState) -> str:
    return state.pending()[0].kind


def choose(state: RumbleNationState, key: str) -> None:
    """Answer the pending decision with the option whose key is ``key``."""
    pending = state.pending()
    assert pending, "the game is over"
    decision = pending[0]
    found = [i for i, option in enumerate(decision.options) if option.key == key]
    assert found, f"{key!r} is not offered for {decision.kind}: {[o.key for o in decision.options]}"
    state.apply(decision.seat, found[0])


def count(state: RumbleNationState, area: str, seat: int) -> int:
    return state.soldiers[AREA_INDEX[area]][seat]


def set_dice(state: RumbleNationState, dice: tuple[int, int, int]) -> None:
    """Put the current player in the after-roll step with these dice (as if just rolled)."""
    state.dice = dice
    state.step = "after_roll"
    state._settle()
