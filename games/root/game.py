"""Root as a registered game: two players, Marquise de Cat vs Eyrie Dynasties, either map."""

from __future__ import annotations

from games.contract import Event, GameConfig, InvalidConfig, check_config
from games.root.describe import describe
from games.root.state import MAPS, RootState


class Root:
    name: str = "root"
    title: str = "Root"
    #: The map: Autumn (the base map) or Winter.
    variants: tuple[str, ...] = MAPS
    player_counts: tuple[int, ...] = (2,)
    #: ``games``: a contest of 1 or 2 games (default 2).
    option_keys: tuple[str, ...] = ("games",)

    def new(self, config: GameConfig, seed: int) -> RootState:
        check_config(self, config)
        games = config.options.get("games", 2)
        # Options from the command line and the wire are text: "1" is 1.
        if games not in (1, 2, "1", "2") or isinstance(games, bool):
            raise InvalidConfig(f"root plays a contest of 1 or 2 games, not {games!r}")
        return RootState(config, seed)

    def describe(self, event: Event) -> str:
        return describe(event)


GAME = Root()
