"""What Gnomeville registers beyond the rules (``games.contract.Hooks``): found by the server,
the built-in bots and the tools by looking the game up, imported only when used."""

from __future__ import annotations

from games.contract import Hooks

HOOKS = Hooks(
    decision_scenarios="games.gnomeville.positions:decision_scenarios",
    greedy="games.gnomeville.greedy:GreedyPolicy",
    rebuild="games.gnomeville.state:GnomevilleState.from_view",
    evaluation="games.gnomeville.evaluate",
    # The greedy player reads only part of the observation (``SeatSight``): the same choices,
    # a rollout step about a third cheaper.
    rollout_sight="games.gnomeville.view:seat_sight",
    # See docs/bots.md for the runs that chose them.
    search_defaults={
        "iterations": 50,
        "rollout": "greedy",
        "depth": 400,
        "leaf": "stage",
        "verify": 24,
    },
)
