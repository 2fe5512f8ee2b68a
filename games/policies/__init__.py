"""Built-in decision policies, usable in-process by ``kassen play`` and as the SDK's bundled bots.

A policy sees what a bot over the wire would see - its seat, the decision and its own
observation - never the engine's state, so a policy that runs here runs the same remotely.
"""

from games.policies.base import DecisionContext, Policy
from games.policies.random_policy import RandomPolicy
from games.policies.registry import POLICY_NAMES, UnknownPolicy, make_policy

__all__ = [
    "POLICY_NAMES",
    "DecisionContext",
    "Policy",
    "RandomPolicy",
    "UnknownPolicy",
    "make_policy",
]
