"""Rumble Nation (天下鳴動) as a registered game."""

from __future__ import annotations

from games.contract import Event, GameConfig, Hooks, check_config
from games.rumble_nation.components import PLAYER_COUNTS, VARIANTS
from games.rumble_nation.describe import describe
from games.rumble_nation.hooks import HOOKS
from games.rumble_nation.state import RumbleNationState


class RumbleNation:
    name: str = "rumble-nation"
    title: str = "Rumble Nation"
    variants: tuple[str, ...] = VARIANTS
    player_counts: tuple[int, ...] = PLAYER_COUNTS
    option_keys: tuple[str, ...] = ()
    #: Scenarios for ``kassen bot check``, the bots' pieces (``games.contract.Hooks``).
    hooks: Hooks = HOOKS

    def new(self, config: GameConfig, seed: int) -> RumbleNationState:
        check_config(self, config)
        return RumbleNationState(config, seed)

    def describe(self, event: Event) -> str:
        return describe(event)


GAME = RumbleNation()
