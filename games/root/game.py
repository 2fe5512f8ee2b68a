"""Root as a registered game: Marquise de Cat vs Eyrie Dynasties (two players, a two-game
contest), any three of the four factions (three players, one game; the Woodland Alliance by
default) or all four with the Vagabond (four players, one game), either map."""

from __future__ import annotations

from games.contract import Event, GameConfig, Hooks, InvalidConfig, check_config
from games.root.describe import describe
from games.root.hooks import HOOKS
from games.root.lineup import contest_games, named_factions, unavailable
from games.root.state import MAPS, RootState


class Root:
    name: str = "root"
    title: str = "Root"
    #: The map: Autumn (the base map) or Winter.
    variants: tuple[str, ...] = MAPS
    player_counts: tuple[int, ...] = (2, 3, 4)
    #: ``games``: a two-player contest of 1 or 2 games (default 2; three or four players play 1).
    #: ``factions``: the factions in seat order (a comma list), else dealt at random.
    option_keys: tuple[str, ...] = ("games", "factions")
    #: Scenarios for ``kassen bot check``, the bots' pieces (``games.contract.Hooks``).
    hooks: Hooks = HOOKS

    def new(self, config: GameConfig, seed: int) -> RootState:
        check_config(self, config)
        contest_games(config.players, config.options.get("games"))
        named = named_factions(config.players, config.options.get("factions"))
        why = unavailable(config.players, None, named)
        if why is not None:
            raise InvalidConfig(why)
        return RootState(config, seed)

    def describe(self, event: Event) -> str:
        return describe(event)


GAME = Root()
