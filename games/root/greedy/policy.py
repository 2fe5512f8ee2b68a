"""The greedy policy: score every option of a decision and take the best.

Which rules score a decision is looked up by its kind (``battle.clearing``, ``eyrie.order``...)
in the tables of the rule modules; a kind with no rules scores every option alike. Ties are
broken by the policy's own seeded generator, so it is deterministic given its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.contract import Option
from games.policies.base import DecisionContext
from games.root.dominance import is_dominance
from games.root.greedy import alliance, battle, cards, eyrie, marquise, moves, vagabond
from games.root.greedy.turn import Scorer, Turn
from games.root.view import RootView
from games.root.woodland import VAGABOND

#: Decision kind -> the rule that scores its options.
SCORERS: dict[str, Scorer] = {
    **cards.SCORERS,
    **battle.SCORERS,
    **moves.SCORERS,
    **marquise.SCORERS,
    **eyrie.SCORERS,
    **alliance.SCORERS,
    **vagabond.SCORERS,
}
#: (faction, decision kind) -> the rule that faction scores a shared kind with instead.
OVERRIDES: dict[tuple[str, str], Scorer] = {
    (alliance.ALLIANCE, kind): scorer for kind, scorer in alliance.OVERRIDES.items()
}


#: Dominance and coalition options (RT17, RT22) beside a faction's actions are left to the
#: Daylight card windows (whose scorer never takes them either: the greedy plays for VP), except
#: for the Vagabond, who takes dominance cards and forms coalitions by ``vagabond.dominance_score``
#: wherever they are offered.
_DOMINANCE_VERBS = frozenset({"activate", "take", "coalition"})
_LEFT_TO_WINDOWS = -1000.0


def is_dominance_option(option: Option) -> bool:
    """An ``activate``, ``take:<dominance>:<spent>`` or ``coalition`` option (RT17, RT20, RT22);
    not the Vagabond's ``take`` of an item offered by Aid (``vagabond.aid_take``)."""
    verb = option.value[0]
    if verb == "take":
        return len(option.value) == 3 and is_dominance(str(option.value[1]))
    return verb in _DOMINANCE_VERBS


def scores(turn: Turn, kind: str, options: Sequence[Option]) -> list[float]:
    """One score per option (all 0.0 for a kind without rules)."""
    scorer = OVERRIDES.get((turn.me, kind)) or SCORERS.get(kind)
    if scorer is None:
        return [0.0] * len(options)
    if turn.me == VAGABOND and any(is_dominance_option(o) for o in options):
        rest = iter(
            float(v) for v in scorer(turn, [o for o in options if not is_dominance_option(o)])
        )
        return [
            vagabond.dominance_score(turn, o) if is_dominance_option(o) else next(rest)
            for o in options
        ]
    if not kind.startswith("cards.") and any(is_dominance_option(o) for o in options):
        rest = iter(
            float(v) for v in scorer(turn, [o for o in options if not is_dominance_option(o)])
        )
        return [_LEFT_TO_WINDOWS if is_dominance_option(o) else next(rest) for o in options]
    return [float(v) for v in scorer(turn, options)]


class GreedyPolicy:
    """Rule-based play for both factions (see the package docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, ctx: DecisionContext) -> int:
        decision = ctx.decision
        options = decision.options
        if len(options) == 1:
            return 0
        view: RootView = ctx.observation
        values = scores(Turn(view, ctx.seat), decision.kind, options)
        best = max(values)
        ties = [i for i, v in enumerate(values) if v >= best - 1e-9]
        return ties[0] if len(ties) == 1 else self._rng.choice(ties)
