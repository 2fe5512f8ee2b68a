"""What Rumble Nation registers beyond the rules (``games.contract.Hooks``): found by the server,
the built-in bots and the tools by looking the game up, imported only when used."""

from __future__ import annotations

from games.contract import Hooks

HOOKS = Hooks(
    decision_scenarios="games.rumble_nation.positions:decision_scenarios",
    greedy="games.rumble_nation.greedy:GreedyPolicy",
    rebuild="games.rumble_nation.state:RumbleNationState.from_view",
    greedy_rollout="games.rumble_nation.greedy:rollout_choice",
)
