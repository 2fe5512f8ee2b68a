"""A greedy Rumble Nation player: picks the option that most improves a board evaluation.

The evaluation values each unresolved castle by how firmly the player holds first (or, with
3-4 players, second) place there, minus the same for the average opponent. Splits are judged
by trying the placement; a card is judged by searching its whole resolution (it is a short
sequence of small decisions); rolling is worth the typical gain of a good placement.
It sees only its own view, so it plays the same in-process and over the wire.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.contract import Decision, Option
from games.policies.base import DecisionContext
from games.rumble_nation.components import DAIMYO_POWER, USES_SMALL_TOKENS
from games.rumble_nation.state import AFTER_ROLL, TURN, RumbleNationState

#: What a roll is worth compared with standing still: about one well-placed soldier pair.
ROLL_VALUE = 2.5
#: A reroll is taken when the best split gains less than this.
REROLL_BELOW = 1.0
#: At most this many states are examined to judge one card.
SEARCH_BUDGET = 48
#: Daimyo cards in the order this player likes them.
DAIMYO_PREFERENCE = ("mori", "otomo", "uesugi", "chosokabe", "takeda", "oda")


def _hold(margin: int) -> float:
    """How firmly a lead of ``margin`` pieces holds to the end of deployment (0..1)."""
    if margin > 0:
        return min(1.0, 0.55 + 0.15 * margin)
    if margin == 0:
        return 0.35
    return max(0.0, 0.25 + 0.1 * margin)


def evaluate(s: RumbleNationState, seat: int) -> float:
    """Expected castle value of ``seat`` minus the opponents' average."""
    n = s.n
    small = USES_SMALL_TOKENS[n]
    values = [0.0] * n
    daimyo_at = s.daimyo_at
    for a in range(len(s.soldiers)):
        if s.resolved[a]:
            continue
        soldiers, extra = s.soldiers[a], s.reinforcements[a]
        powers = [
            soldiers[p] + extra[p] + (DAIMYO_POWER if daimyo_at[p] == a else 0) for p in range(n)
        ]
        if not any(powers):
            continue
        castle = s.castle_of[a]
        ranked = sorted(powers, reverse=True)
        for p in range(n):
            mine = powers[p]
            if not mine:
                continue
            best_other = ranked[1] if mine == ranked[0] else ranked[0]
            share = _hold(mine - best_other)
            if small and len(ranked) > 2:
                third = ranked[2] if mine >= ranked[1] else ranked[1]
                share += 0.5 * (1 - share) * _hold(mine - third)
            values[p] += castle * share
    others = (sum(values) - values[seat]) / (n - 1)
    return values[seat] - others


class GreedyPolicy:
    """One-decision lookahead with a board evaluation (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, ctx: DecisionContext) -> int:
        decision = ctx.decision
        options = decision.options
        if decision.kind == "daimyo_draft":
            return _daimyo_pick(options)
        state = RumbleNationState.from_view(ctx.observation, self._rng.getrandbits(32))
        return _best_option(state, ctx.seat, options, self._rng)


def _daimyo_pick(options: Sequence[Option]) -> int:
    """The most preferred daimyo on offer."""
    return min(range(len(options)), key=lambda i: DAIMYO_PREFERENCE.index(options[i].value[1]))


def _best_option(
    state: RumbleNationState, seat: int, options: Sequence[Option], rng: random.Random
) -> int:
    """The option whose best completion evaluates highest (ties drawn from ``rng``)."""
    base = evaluate(state, seat)
    scores: list[float] = []
    for index, option in enumerate(options):
        what = option.value[0]
        if what == "roll":
            scores.append(base + ROLL_VALUE)
        elif what == "reroll":
            scores.append(base + REROLL_BELOW)
        else:
            trial = state.clone()
            trial.apply(seat, index)
            scores.append(_best_completion(trial, seat, [SEARCH_BUDGET]))
    best = max(scores)
    ties = [i for i, v in enumerate(scores) if v >= best - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _best_completion(s: RumbleNationState, seat: int, budget: list[int]) -> float:
    """Best evaluation reachable while ``seat`` is still resolving the same card."""
    pending = s.pending()
    if (
        not pending
        or pending[0].seat != seat
        or pending[0].kind in (TURN, AFTER_ROLL)
        or budget[0] <= 0
    ):
        return evaluate(s, seat)
    best = float("-inf")
    for index in range(len(pending[0].options)):
        budget[0] -= 1
        trial = s.clone()
        trial.apply(seat, index)
        best = max(best, _best_completion(trial, seat, budget))
        if budget[0] <= 0:
            break
    return best


def rollout_choice(state: RumbleNationState, decision: Decision, rng: random.Random) -> int:
    """The greedy choice on a search rollout's determinized state itself (the policy would
    rebuild the state from an observation first: the same choice, ten times slower)."""
    if decision.kind == "daimyo_draft":
        return _daimyo_pick(decision.options)
    return _best_option(state, decision.seat, decision.options, rng)
