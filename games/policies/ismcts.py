"""``ismcts``: information-set Monte Carlo tree search over determinizations, for every game.

Single-observer ISMCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) with one tree per
decision, shared by all seats:

* every iteration rebuilds a playable state from the seat's own observation with the game's
  ``from_view(view, seed)`` (its ``rebuild`` hook, ``ismcts_games.rebuild_for``): what the
  seat cannot see (other hands, hidden cards, future chance) is sampled there, so the search
  never reads hidden state and plays the same in-process and over the wire;
* nodes are keyed by the acting seat and the option's stable ``key``; an option legal in some
  determinizations only is judged with its availability count (UCB over the times it was
  offered, not over the parent's visits); each node's acting seat maximizes its own reward
  (multi-player: "paranoid"-free, every seat for itself);
* below the tree, a rollout by the ``random`` or ``greedy`` policy for at most ``depth``
  decisions (``leaf=stage``: or until the game's next scoring stage), then the finished
  game's outcome or, for an unfinished position, the game's ``adjudicate()`` (``leaf=
  adjudicate``) or its projection of the final scores (``evaluate``, ``stage``: the
  ``evaluation`` hook); a seat's reward is its place (1 for first, 0 for last, shared places
  share) with a tenth for its score against the others', or with ``margin`` its score against
  the best other's;
* with ``trust`` the greedy bot's choice is the prior; with ``verify`` the search's most
  visited options are compared with it on paired rollouts (the same determinizations and
  rollout seeds) before it is overruled;
* simultaneous phases (Gnomeville's builds): only the searching seat's own decisions are in
  the tree; the other seats' decisions, from the first simultaneous phase a descent meets
  (a seat left building alone included), are played by the rollout policy. Each seat thus
  searches its own build independently, against modelled opponents, and no node ever depends
  on a choice its seat could not have seen.

The search stops after ``iterations`` determinizations or ``seconds``, whichever first, and in
any case inside the referee's clock (``DecisionContext.budget_s``: 80% of it less 20 ms, the
rollout checks the time too). With ``seconds = 0`` and a clock that is not short it is
reproducible from its seed. At most ``nodes`` nodes are kept (memory bound); the subtree of
the option played is kept for the seat's next decision when that decision follows from it
(the new observation is exactly the one the option leads to: the seat's own compound moves),
otherwise the tree starts afresh.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.contract import Decision, GameState
from games.policies.base import DecisionContext
from games.policies.ismcts_games import (
    evaluation_for,
    greedy_policy,
    rebuild_for,
    rollout_for,
)
from games.policies.ismcts_params import IsmctsParams, Settings
from games.policies.ismcts_rewards import rewards

#: The share of the referee's per-decision time the search may use, and the margin kept.
BUDGET_SHARE = 0.8
BUDGET_SHARE_GREEDY = 0.6
BUDGET_MARGIN_S = 0.02
#: The clock is read every this many random rollout decisions (every greedy one: a greedy
#: choice may take milliseconds).
CLOCK_EVERY = 8
#: ``verify``: the search's most visited options compared with greedy's choice, and the
#: floor of the variance of a paired difference.
CANDIDATES = 2
VERIFY_FLOOR = 1e-4
#: With ``verify`` and a time bound, the share of the time the tree search may use.
SEARCH_SHARE = 0.5


class Node:
    """An information-set node: reached by ``seat`` playing the option ``key``."""

    __slots__ = ("avail", "children", "key", "seat", "squares", "total", "visits")

    def __init__(self, seat: int, key: str) -> None:
        self.seat = seat
        self.key = key
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0
        self.children: dict[tuple[int, str], Node] = {}

    def size(self) -> int:
        count, todo = 0, [self]
        while todo:
            node = todo.pop()
            count += 1
            todo.extend(node.children.values())
        return count


class IsmctsPolicy:
    """The search bot (see the module docstring)."""

    #: It takes real time per decision: a referee runs it off its event loop (base.thinks).
    thinks = True

    def __init__(self, game: str, seed: int = 0, params: IsmctsParams | None = None) -> None:
        self.game = game
        #: The parameters as given (``spec()``), and with the game's defaults filled in.
        self.given = params or IsmctsParams()
        self.params: Settings = self.given.resolved(game)
        self._rng = random.Random(seed)
        self._rebuild = rebuild_for(game)
        self._rollout = rollout_for(game, self.params.rollout, seed)
        self._fallback = greedy_policy(game, seed)
        leaf = self.params.leaf
        self._evaluation = evaluation_for(game) if leaf in ("evaluate", "stage") else None
        self._clock_every = 1 if self.params.rollout == "greedy" else CLOCK_EVERY
        self._kept: tuple[Node, Any] | None = None
        #: What the last decision did (for tests and the docs): iterations, nodes, reused.
        self.last: dict[str, Any] = {}

    # ------------------------------------------------------------------ one decision

    def choose(self, ctx: DecisionContext) -> int:
        started = time.perf_counter()
        decision = ctx.decision
        if len(decision.options) == 1:
            return 0
        view = ctx.observation
        seed = self._rng.getrandbits(63)
        try:
            self._rebuild(view, seed)
        except ValueError:  # e.g. Rumble Nation's advanced draft: no position to rebuild yet
            self._kept = None
            return self._fallback.choose(ctx)
        deadline = self._deadline(started, ctx.budget_s)
        prior = self._fallback.choose(ctx) if self.params.trust > 0 else None
        root = self._root(view)
        reused = root.visits
        searching = deadline
        if self.params.verify > 0 and prior is not None and deadline < math.inf:
            # a search bounded by time leaves the paired rollouts their share of it
            searching = started + (deadline - started) * SEARCH_SHARE
        iterations = self._search(root, view, decision, seed, searching)
        index: int | None
        verified = 0
        if self.params.verify > 0 and prior is not None:
            index, verified = self._verify(root, view, decision, prior, seed, deadline)
        else:
            index = self._best(root, decision, prior, self.params.trust)
        self._keep(root, view, decision, index, seed)
        self.last = {
            "iterations": iterations,
            "nodes": root.size(),
            "reused_visits": reused,
            "verified": verified,
            "overruled": prior is not None and index is not None and index != prior,
            "seconds": time.perf_counter() - started,
        }
        if index is None:  # no iteration finished inside the clock
            return prior if prior is not None else self._fallback.choose(ctx)
        return index

    def _deadline(self, started: float, budget_s: float | None) -> float:
        limit = self.params.seconds if self.params.seconds > 0 else math.inf
        if budget_s is not None:
            # a greedy rollout step may take milliseconds (Root): keep more of the clock back
            share = BUDGET_SHARE_GREEDY if self.params.rollout == "greedy" else BUDGET_SHARE
            limit = min(limit, max(0.0, budget_s * share - BUDGET_MARGIN_S))
        return started + limit

    def _root(self, view: Any) -> Node:
        kept, self._kept = self._kept, None
        if kept is not None and self.params.reuse and kept[1] == view:
            return kept[0]
        return Node(-1, "")

    def _keep(
        self, root: Node, view: Any, decision: Decision, index: int | None, seed: int
    ) -> None:
        """Keep the chosen option's subtree if the seat's next decision may follow from it:
        the view that option leads to, when no chance or other seat comes between."""
        if index is None or not self.params.reuse:
            return
        child = root.children.get((decision.seat, decision.options[index].key))
        if child is None or not child.children:
            return
        state = self._rebuild(view, seed)
        try:
            state.apply(decision.seat, self._local_index(state, decision, index))
        except (ValueError, LookupError):
            return
        if any(d.seat == decision.seat for d in state.pending()):
            self._kept = (child, state.observe(decision.seat))

    @staticmethod
    def _local_index(state: GameState, decision: Decision, index: int) -> int:
        key = decision.options[index].key
        for d in state.pending():
            if d.seat == decision.seat:
                for i, option in enumerate(d.options):
                    if option.key == key:
                        return i
        raise LookupError(key)

    # ------------------------------------------------------------------ the search

    def _search(self, root: Node, view: Any, decision: Decision, seed: int, deadline: float) -> int:
        me = decision.seat
        allowed = {option.key for option in decision.options}
        rng = random.Random(seed)
        nodes = root.size()
        done = 0
        last = 0.0  # how long the last iteration took: one that would not fit is not begun
        for _ in range(self.params.iterations):
            began = time.perf_counter()
            if began + last >= deadline:
                break
            state = self._rebuild(view, rng.getrandbits(63))
            nodes += self._iterate(root, state, me, allowed, rng, deadline, nodes)
            done += 1
            last = time.perf_counter() - began
        return done

    def _iterate(
        self,
        root: Node,
        state: GameState,
        me: int,
        allowed: set[str],
        rng: random.Random,
        deadline: float,
        nodes: int,
    ) -> int:
        """One determinization: select, expand, roll out, back up. Returns nodes added."""
        c = self.params.c
        path: list[Node] = []
        node = root
        added = 0
        steps = 0
        together = False
        while True:
            pending = state.pending()
            if not pending:
                break
            decision = next((d for d in pending if d.seat == me), pending[0])
            together = together or len(pending) > 1
            if together and decision.seat != me:
                # another seat's part of a simultaneous phase (or of one after it, in this
                # descent): the rollout policy plays it, so no node of that seat follows
                # choices of the searching seat it could not have seen
                state.apply(decision.seat, self._rollout(state, decision, rng))
                steps += 1
                continue
            seat = decision.seat
            legal = [
                (i, option.key)
                for i, option in enumerate(decision.options)
                if node is not root or option.key in allowed
            ]
            if not legal:
                break
            untried = []
            best, best_value = -1, -math.inf
            for i, key in legal:
                child = node.children.get((seat, key))
                if child is None:
                    untried.append((i, key))
                    continue
                child.avail += 1
                if not untried:
                    value = child.total / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best, best_value = i, value
            if untried:
                if nodes + added >= self.params.nodes:
                    break  # the tree is full: roll out from here
                i, key = untried[rng.randrange(len(untried))]
                child = Node(seat, key)
                child.avail = 1
                node.children[(seat, key)] = child
                added += 1
                path.append(child)
                state.apply(seat, i)
                break
            node = node.children[(seat, decision.options[best].key)]
            path.append(node)
            state.apply(seat, best)
        # rollout
        limit = self.params.depth
        rollout = self._rollout
        evaluation = self._evaluation
        stage = evaluation[1] if evaluation and self.params.leaf == "stage" else None
        until = stage(state) + 1 if stage else 0
        while steps < limit:
            pending = state.pending()
            if not pending or (stage and stage(state) >= until):
                break
            decision = pending[0]
            state.apply(decision.seat, rollout(state, decision, rng))
            steps += 1
            if steps % self._clock_every == 0 and time.perf_counter() >= deadline:
                break
        reward = rewards(
            state,
            self.params.margin,
            evaluation[0] if evaluation else None,
            evaluation[2] if evaluation else None,
        )
        root.visits += 1
        for child in path:
            child.visits += 1
            child.total += reward[child.seat]
            child.squares += reward[child.seat] ** 2
        return added

    def _verify(
        self, root: Node, view: Any, decision: Decision, prior: int, seed: int, deadline: float
    ) -> tuple[int, int]:
        """Paired rollouts: greedy's choice against the search's most visited others
        (``CANDIDATES``), each rolled out from the same determinizations with the same
        rollout seeds, so the luck of the draw cancels out of the differences. The search's
        choice is played only if its mean difference to greedy's is above ``trust`` standard
        errors of that difference. Returns the choice and the paired rollouts made."""
        me = decision.seat
        ranked = sorted(
            (
                (child.visits, child.total / child.visits, i)
                for i, option in enumerate(decision.options)
                if i != prior
                and (child := root.children.get((me, option.key))) is not None
                and child.visits > 0
            ),
            reverse=True,
        )
        rivals = [i for _, _, i in ranked[:CANDIDATES]]
        if not rivals:
            return prior, 0
        rng = random.Random(seed ^ 0x5EED)
        diffs: dict[int, list[float]] = {i: [] for i in rivals}
        done = 0
        last = 0.0
        for _ in range(self.params.verify):
            began = time.perf_counter()
            if began + last >= deadline:
                break
            state_seed, roll_seed = rng.getrandbits(63), rng.getrandbits(63)
            try:
                base = self._paired_rollout(view, decision, prior, state_seed, roll_seed, deadline)
                values = [
                    self._paired_rollout(view, decision, i, state_seed, roll_seed, deadline)
                    for i in rivals
                ]
                if time.perf_counter() >= deadline:
                    break  # a sample the clock cut short is not a fair comparison
                for i, value in zip(rivals, values, strict=True):
                    diffs[i].append(value - base)
            except (ValueError, LookupError):  # an option this determinization does not offer
                continue
            done += 1
            last = time.perf_counter() - began
        best, best_mean = prior, 0.0
        for i, values in diffs.items():
            n = len(values)
            if n < 2:
                continue
            mean = sum(values) / n
            var = max(sum((v - mean) ** 2 for v in values) / (n - 1), VERIFY_FLOOR)
            if mean > self.params.trust * math.sqrt(var / n) and mean > best_mean:
                best, best_mean = i, mean
        return best, done

    def _paired_rollout(
        self,
        view: Any,
        decision: Decision,
        index: int,
        state_seed: int,
        roll_seed: int,
        deadline: float,
    ) -> float:
        """The searching seat's reward after playing option ``index`` in the determinization
        ``state_seed``, then rolling out with a rollout policy and generator seeded
        ``roll_seed`` (the same for every option compared)."""
        state = self._rebuild(view, state_seed)
        me = decision.seat
        state.apply(me, self._local_index(state, decision, index))
        rollout = rollout_for(self.game, self.params.rollout, roll_seed)
        rng = random.Random(roll_seed)
        evaluation = self._evaluation
        stage = evaluation[1] if evaluation and self.params.leaf == "stage" else None
        until = stage(state) + 1 if stage else 0
        steps = 0
        while steps < self.params.depth:
            pending = state.pending()
            if not pending or (stage and stage(state) >= until):
                break
            d = pending[0]
            state.apply(d.seat, rollout(state, d, rng))
            steps += 1
            if steps % self._clock_every == 0 and time.perf_counter() >= deadline:
                break
        return rewards(
            state,
            self.params.margin,
            evaluation[0] if evaluation else None,
            evaluation[2] if evaluation else None,
        )[me]

    @staticmethod
    def _best(root: Node, decision: Decision, prior: int | None, trust: float) -> int | None:
        """The most visited option at the root (ties: the better mean, then the first); with
        a ``prior`` (the greedy bot's choice), that one unless the search's choice has a
        better mean reward by ``trust`` standard errors of the difference."""
        best: int | None = None
        best_rank: tuple[int, float] = (0, -math.inf)
        for i, option in enumerate(decision.options):
            child = root.children.get((decision.seat, option.key))
            if child is None or child.visits == 0:
                continue
            rank = (child.visits, child.total / child.visits)
            if rank > best_rank:
                best, best_rank = i, rank
        if prior is None or best is None or best == prior:
            return best
        chosen = root.children[(decision.seat, decision.options[best].key)]
        greedy = root.children.get((decision.seat, decision.options[prior].key))
        if greedy is None or greedy.visits < 2 or chosen.visits < 2:
            return prior  # too few visits to overrule it
        gain = chosen.total / chosen.visits - greedy.total / greedy.visits
        error = math.sqrt(_variance(chosen) / chosen.visits + _variance(greedy) / greedy.visits)
        return best if gain > trust * error else prior


def _variance(node: Node) -> float:
    """The sample variance of a node's rewards (a floor keeps one lucky streak from
    counting as certainty)."""
    mean = node.total / node.visits
    spread = (node.squares - node.visits * mean * mean) / (node.visits - 1)
    return max(spread, 0.01)
