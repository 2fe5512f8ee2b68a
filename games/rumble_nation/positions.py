"""Hand-built Rumble Nation positions: for rule tests, and for the conformance kit, which
starts matches from them so that a bot meets every kind of decision, rare cards included."""

from __future__ import annotations

from collections.abc import Mapping

from games import GameConfig
from games.rumble_nation.board import AREA_COUNT, AREA_INDEX
from games.rumble_nation.components import SOLDIERS_ADVANCED, SOLDIERS_BASE
from games.rumble_nation.daimyo import DAIMYO_EFFECTS
from games.rumble_nation.game import GAME
from games.rumble_nation.state import DEPLOY, EFFECT, OFF_MAP, TURN, RumbleNationState
from games.rumble_nation.tactics import TACTIC_EFFECTS

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


#: Where the kit's bot (seat 0) and two opponents stand: two soldiers each in six linked
#: areas, so every step of every card offers a real choice.
_CROWDED = ("kyo", "oko", "yoshida", "inabayama", "kiyosu", "kasugayama")


def crowded(
    display: tuple[str, ...] = (), daimyo_card: str | None = None, seed: int = 0
) -> RumbleNationState:
    """A 3-player advanced position, seat 0 to move, its daimyo in Kyo."""
    return position(
        3,
        advanced=True,
        soldiers={area: {0: 2, 1: 2, 2: 2} for area in _CROWDED},
        stock={0: 4, 1: 4, 2: 4},
        display=display,
        daimyo_at={0: "kyo", 1: "kiyosu", 2: "oko"},
        daimyo_cards={0: daimyo_card} if daimyo_card else None,
        seed=seed,
    )


def decision_scenarios(seed: int = 0) -> dict[str, RumbleNationState]:
    """One position per kind of decision, each with seat 0 to decide and at least two
    options: the turn, the roll, the daimyo draft, and the first step of every card (the
    later steps of a card follow from the bot's own choices)."""
    scenarios: dict[str, RumbleNationState] = {}
    scenarios["turn"] = crowded(display=("scout", "ninja"), daimyo_card="mori", seed=seed)
    roll = crowded(seed=seed)
    roll.dice, roll.step = (1, 3, 5), "after_roll"
    roll._settle()
    scenarios["after_roll"] = roll
    draft = GAME.new(GameConfig(3, "advanced"), seed)
    draft.draft_order = (0, 1, 2)
    draft._settle()
    scenarios["daimyo_draft"] = draft
    for card, effect_cls in {**TACTIC_EFFECTS, **DAIMYO_EFFECTS}.items():
        state = crowded(seed=seed)
        if card in DAIMYO_EFFECTS:
            state.daimyo_card[0] = card
            state.daimyo_revealed[0] = True
            effect = effect_cls(seat=0, origin=state.daimyo_at[0])  # type: ignore[call-arg]
        else:
            state.tactic_used[0] = card
            effect = effect_cls(seat=0)
        state.effect, state.step, state.current = effect, EFFECT, 0
        state._settle()
        scenarios[card] = state
    return scenarios
