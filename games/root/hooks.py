"""What Root registers beyond the rules (``games.contract.Hooks``): found by the server, the
built-in bots and the tools by looking the game up, imported only when used."""

from __future__ import annotations

from games.contract import Game, GameConfig, Hooks

HOOKS = Hooks(
    decision_scenarios="games.root.positions:decision_scenarios",
    check_games="games.root.hooks:check_games",
    greedy="games.root.greedy:GreedyPolicy",
    rebuild="games.root.state:RootState.from_view",
    evaluation="games.root.evaluate",
    # See docs/bots.md for the runs that chose them.
    search_defaults={"iterations": 20, "rollout": "greedy", "leaf": "stage", "verify": 8},
)


def check_games(game: Game) -> list[GameConfig]:
    """The whole games ``kassen bot check`` plays: both maps with two players (the two-game
    contest), then one three-player game and one four-player game once their factions are in
    the engine (the Vagabond for four)."""
    from games.root.lineup import unavailable

    found = [GameConfig(2, v) for v in game.variants]
    found += [GameConfig(n, game.variants[0]) for n in (3, 4) if unavailable(n) is None]
    return found
