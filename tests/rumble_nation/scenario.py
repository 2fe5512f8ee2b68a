"""Build Rumble Nation positions by hand and drive them by option keys, for rule tests."""

from __future__ import annotations

from collections.abc import Mapping

from games import GameConfig
from games.rumble_nation import GAME, RumbleNationState
from games.rumble_nation.board import AREA_COUNT, AREA_INDEX
from games.rumble_nation.components import SOLDIERS_ADVANCED, SOLDIERS_BASE
from games.rumble_nation.state import DEPLOY, OFF_MAP, TURN

#: A fixed castle layout for scenarios: area id -> castle number.
LAYOUT = {
    "usuki": 2,
    "oko": 3,
    "shuri": 4,
    "yoshida": 5,
    "kyo": 6,
    "inabayama": 7,
    "kiyosu": 8,
    "kasugayama": 9,
    "yonezawa": 10,
    "odawara": 11,
    "tokuyama": 12,
}


def position(
    players: int = 2,
    *,
    advanced: bool = False,
    soldiers: Mapping[str, Mapping[int, int]] | None = None,
    stock: Mapping[int, int] | None = None,
    display: tuple[str, ...] = (),
    current: int = 0,
    daimyo_at: Mapping[int, str] | None = None,
    daimyo_cards: Mapping[int, str] | None = None,
    layout: Mapping[str, int] = LAYOUT,
    seed: int = 0,
) -> RumbleNationState:
    """A deployment-phase position: ``soldiers[area][seat] = count``; stocks default to the
    pieces not on the map; ``display`` is the tactic display; advanced games get a daimyo per
    seat, in stock unless ``daimyo_at`` places it; ``daimyo_cards`` deals daimyo cards."""
    state = GAME.new(GameConfig(players, "advanced" if advanced else "base"), seed)
    total = SOLDIERS_ADVANCED if advanced else SOLDIERS_BASE
    state.castle_of = [0] * AREA_COUNT
    state.area_of = [OFF_MAP] * 13
    for area, castle in layout.items():
        state.castle_of[AREA_INDEX[area]] = castle
        state.area_of[castle] = AREA_INDEX[area]
    state.soldiers = [[0] * players for _ in range(AREA_COUNT)]
    for area, by_seat in (soldiers or {}).items():
        for seat, count in by_seat.items():
            state.soldiers[AREA_INDEX[area]][seat] = count
    state.on_map = [sum(row[p] for row in state.soldiers) for p in range(players)]
    state.stock = [(stock or {}).get(p, total - state.on_map[p]) for p in range(players)]
    state.tactic_display = list(display)
    state.tactic_used = [None] * players
    state.daimyo_at = [OFF_MAP] * players
    state.daimyo_in_stock = [advanced] * players
    state.daimyo_card = [None] * players
    state.daimyo_revealed = [False] * players
    if advanced:
        for seat, area in (daimyo_at or {}).items():
            state.daimyo_at[seat] = AREA_INDEX[area]
            state.daimyo_in_stock[seat] = False
        for seat, card in (daimyo_cards or {}).items():
            state.daimyo_card[seat] = card
        state.draft_order = tuple(range(players))
    state.phase, state.step, state.current = DEPLOY, TURN, current
    state.cutoff = False
    state.dice, state.rerolled = (), False
    state.history = []
    state._settle()
    return state


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
