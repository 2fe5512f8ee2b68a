"""Built-in policies by name: ``random`` for every game, ``greedy`` per game, and ``ismcts``
(a search over the seat's view, for every game whose positions rebuild from a view) with
optional parameters: ``ismcts:seconds=1,c=0.7,rollout=greedy`` (games/policies/ismcts_params.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from games.policies.base import Policy
from games.policies.ismcts_params import BadParams, is_spec, parse_spec
from games.policies.random_policy import RandomPolicy

POLICY_NAMES = ("random", "greedy", "ismcts")


class UnknownPolicy(LookupError):
    pass


def _greedy(game: str) -> Callable[[int], Policy]:
    """The game's registered ``greedy`` bot (``games.contract.Hooks``)."""
    from games.contract import hooks_of, load_hook
    from games.registry import games

    ref = hooks_of(games().get(game)).greedy
    if ref is None:
        raise UnknownPolicy(f"no greedy policy for {game}")
    return cast(Callable[[int], Policy], load_hook(ref))


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names a built-in policy (``ismcts`` with parameters included)."""
    return spec in POLICY_NAMES or is_spec(spec)


def canonical(spec: str) -> str:
    """The one spelling of a built-in spec (``ismcts:c=0.70`` is ``ismcts:c=0.7``);
    ``UnknownPolicy`` names a bad parameter."""
    if not is_spec(spec):
        return spec
    try:
        return parse_spec(spec).spec()
    except BadParams as exc:
        raise UnknownPolicy(str(exc)) from None


def make_policy(name: str, game: str, seed: int = 0) -> Policy:
    """A fresh built-in policy; ``seed`` makes its random choices reproducible."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return _greedy(game)(seed)
    if is_spec(name):
        from games.policies.ismcts import IsmctsPolicy
        from games.policies.ismcts_games import NoRebuild

        try:
            params = parse_spec(name)
            return IsmctsPolicy(game, seed, params)
        except (BadParams, NoRebuild) as exc:
            raise UnknownPolicy(str(exc)) from None
    raise UnknownPolicy(f"unknown bot {name!r} (built-in: {', '.join(POLICY_NAMES)})")
