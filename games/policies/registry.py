"""Built-in policies by name: ``random`` for every game, ``greedy`` per game."""

from __future__ import annotations

from collections.abc import Callable

from games.policies.base import Policy
from games.policies.random_policy import RandomPolicy

POLICY_NAMES = ("random", "greedy")


class UnknownPolicy(LookupError):
    pass


def _greedy(game: str) -> Callable[[int], Policy]:
    if game == "rumble-nation":
        from games.rumble_nation.greedy import GreedyPolicy

        return GreedyPolicy
    if game == "root":
        from games.root.greedy import GreedyPolicy as RootGreedyPolicy

        return RootGreedyPolicy
    if game == "gnomeville":
        from games.gnomeville.greedy import GreedyPolicy as GnomevilleGreedyPolicy

        return GnomevilleGreedyPolicy
    raise UnknownPolicy(f"no greedy policy for {game}")


def make_policy(name: str, game: str, seed: int = 0) -> Policy:
    """A fresh built-in policy; ``seed`` makes its random choices reproducible."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return _greedy(game)(seed)
    raise UnknownPolicy(f"unknown bot {name!r} (built-in: {', '.join(POLICY_NAMES)})")
