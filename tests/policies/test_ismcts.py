"""The ``ismcts`` search bot: legal in every game and player count, reproducible with
a fixed iteration count, inside the referee's clock, given nothing but its seat's view (over
real gRPC, and blind to another seat's hidden cards), and clearly stronger than ``random``."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path
from typing import Any

import pytest

from client_sdk import Request, play
from client_sdk.builtin import PolicyBot
from games import GameConfig, get_game
from games.contract import GameState
from games.policies import UnknownPolicy, make_policy
from games.policies.base import DecisionContext, Policy
from games.policies.ismcts import IsmctsPolicy
from games.policies.ismcts_params import IsmctsParams, parse_spec
from games.root.view import RootView
from server.app import running_server
from server.referee import LocalBot
from server.results import Reason
from server.settings import MatchSettings, TimeControl
from tests.conftest import Depth

#: A search small enough for a test: a few determinizations, short rollouts.
SMALL = "ismcts:iterations=6,depth=8"


def cases() -> list[tuple[str, int, str]]:
    found = []
    for name in ("rumble-nation", "root", "gnomeville"):
        game = get_game(name)
        found.extend((name, players, game.variants[0]) for players in game.player_counts)
    found.append(("rumble-nation", 3, "advanced"))  # the draft (greedy) then hidden daimyo
    return found


def play_until(
    state: GameState, game: str, policies: list[Policy], searcher: int, decisions: int
) -> list[tuple[Any, int]]:
    """Play until ``searcher`` has made ``decisions`` decisions (or the game ends); the
    (view, choice) of each of its decisions."""
    made: list[tuple[Any, int]] = []
    for _ in range(5000):
        pending = state.pending()
        if not pending or len(made) >= decisions:
            break
        for decision in pending:
            seat = decision.seat
            view = state.observe(seat)
            index = policies[seat].choose(DecisionContext(game, seat, decision, lambda v=view: v))
            assert 0 <= index < len(decision.options)
            if seat == searcher:
                made.append((view, index))
            state.apply(seat, index)
    return made


@pytest.mark.parametrize(("game", "players", "variant"), cases())
def test_ismcts_answers_every_game_and_player_count_legally(
    game: str, players: int, variant: str
) -> None:
    state = get_game(game).new(GameConfig(players, variant), 7)
    searcher = players - 1
    policies = [make_policy("random", game, s) for s in range(players)]
    policies[searcher] = make_policy(SMALL, game, 1)
    made = play_until(state, game, policies, searcher, 5)
    assert len(made) == 5


def test_fixed_iterations_and_seed_reproduce_the_game() -> None:
    def one() -> list[tuple[int, int]]:
        state = get_game("rumble-nation").new(GameConfig(2), 11)
        policies = [
            make_policy("ismcts:iterations=40", "rumble-nation", 5),
            make_policy("greedy", "rumble-nation", 6),
        ]
        play_until(state, "rumble-nation", policies, 0, 100)
        return list(state.history)

    assert one() == one()


@pytest.mark.timing
@pytest.mark.parametrize("game", ["rumble-nation", "root"])
def test_the_search_stops_inside_the_clock(game: str) -> None:
    state = get_game(game).new(GameConfig(2, get_game(game).variants[0]), 3)
    policy = IsmctsPolicy(game, 1, parse_spec("ismcts:iterations=1000000"))
    while state.pending()[0].seat != 0 or len(state.pending()[0].options) < 2:
        state.apply(state.pending()[0].seat, 0)
    decision = state.pending()[0]
    view = state.observe(0)
    started = time.perf_counter()
    index = policy.choose(DecisionContext(game, 0, decision, lambda: view, budget_s=0.3))
    elapsed = time.perf_counter() - started
    assert 0 <= index < len(decision.options)
    assert elapsed < 0.3, elapsed  # it aims at 80% of the budget less 20 ms: 0.22 s
    assert policy.last["iterations"] > 1


def test_seconds_bound_the_search_without_a_clock() -> None:
    state = get_game("rumble-nation").new(GameConfig(2), 3)
    decision = state.pending()[0]
    view = state.observe(decision.seat)
    policy = make_policy("ismcts:seconds=0.1,iterations=1000000", "rumble-nation", 1)
    assert isinstance(policy, IsmctsPolicy)
    started = time.perf_counter()
    policy.choose(DecisionContext("rumble-nation", decision.seat, decision, lambda: view))
    assert time.perf_counter() - started < 0.3
    assert 1 < policy.last["iterations"] < 1_000_000


def test_the_tree_stays_within_its_node_bound_and_is_reused_for_own_follow_ups() -> None:
    state = get_game("root").new(GameConfig(2, "autumn"), 5)
    policy = IsmctsPolicy(
        "root", 1, IsmctsParams(iterations=150, depth=4, nodes=120, rollout="random", verify=0)
    )
    policies: list[Policy] = [policy, make_policy("random", "root", 2)]
    reused = 0
    for _ in range(6):
        play_until(state, "root", policies, 0, 1)
        assert policy.last["nodes"] <= 120
        reused += policy.last["reused_visits"] > 0
    assert reused  # the Marquise's setup and turn are runs of her own decisions


def test_bad_parameters_are_named() -> None:
    with pytest.raises(UnknownPolicy, match="parameter c must be at most 10"):
        make_policy("ismcts:c=11", "root")
    with pytest.raises(UnknownPolicy, match="no parameter 'speed'"):
        make_policy("ismcts:speed=2", "root")
    with pytest.raises(UnknownPolicy, match="rollout must be one of random, greedy"):
        make_policy("ismcts:rollout=smart", "root")
    assert parse_spec("ismcts:seconds=1,c=0.7,rollout=greedy").spec() == (
        "ismcts:seconds=1.0,rollout=greedy"
    )


def test_parameters_left_to_the_game_take_its_defaults() -> None:
    """``ismcts`` alone is one spec for every game; each game fills in its own defaults, and a
    value given is kept (``verify=0`` included: no paired rollouts)."""
    assert IsmctsParams().spec() == "ismcts"
    gnomeville = IsmctsParams().resolved("gnomeville")
    assert (gnomeville.rollout, gnomeville.leaf) == ("greedy", "stage")
    assert gnomeville.verify > 0 and gnomeville.iterations > 0
    rumble = IsmctsParams().resolved("rumble-nation")
    assert (rumble.iterations, rumble.rollout, rumble.leaf, rumble.verify) == (
        200,
        "random",
        "adjudicate",
        0,
    )
    given = parse_spec("ismcts:iterations=7,verify=0,rollout=random").resolved("gnomeville")
    assert (given.iterations, given.verify, given.rollout, given.leaf) == (7, 0, "random", "stage")


def test_gnomeville_projection_counts_what_adjudication_cannot_see() -> None:
    """The projection of a finished game is its outcome; before the end it adds to the VP so
    far (at least the goals as they stand, never negative), and ``stage`` counts scorings."""
    from games.gnomeville import evaluate

    state = get_game("gnomeville").new(GameConfig(2, get_game("gnomeville").variants[0]), 3)
    policies = [make_policy("greedy", "gnomeville", s) for s in range(2)]
    stages = []
    while state.pending():
        decision = state.pending()[0]
        if len(stages) % 25 == 0:
            projected = evaluate.projected(state)  # type: ignore[arg-type]
            assert all(p >= t.vp for p, t in zip(projected, state.towns, strict=True))  # type: ignore[attr-defined]
        stages.append(evaluate.stage(state))  # type: ignore[arg-type]
        view = state.observe(decision.seat)
        choice = policies[decision.seat].choose(
            DecisionContext("gnomeville", decision.seat, decision, lambda v=view: v)
        )
        state.apply(decision.seat, choice)
    assert stages == sorted(stages) and stages[0] == 0 and stages[-1] == 4
    outcome = state.outcome()
    assert outcome is not None
    assert evaluate.projected(state) == tuple(float(v) for v in outcome.scores)  # type: ignore[arg-type]
    assert evaluate.stage(state) == 5  # type: ignore[arg-type]


def test_root_projection_adds_the_map_to_the_vp_and_stages_are_turns() -> None:
    from games.root import evaluate

    state = get_game("root").new(GameConfig(2, "autumn"), 5)
    policies = [make_policy("greedy", "root", s) for s in range(2)]
    stages = []
    for _ in range(120):
        decision = state.pending()[0]
        stages.append(evaluate.stage(state))  # type: ignore[arg-type]
        view = state.observe(decision.seat)
        choice = policies[decision.seat].choose(
            DecisionContext("root", decision.seat, decision, lambda v=view: v)
        )
        state.apply(decision.seat, choice)
    assert stages == sorted(stages) and stages[-1] > stages[0]
    projected = evaluate.projected(state)  # type: ignore[arg-type]
    assert len(projected) == 2 and projected != tuple(float(v) for v in state.totals())  # type: ignore[attr-defined]


def test_paired_rollouts_check_the_search_before_it_overrules_greedy() -> None:
    """With ``verify``, a Gnomeville decision compares greedy's choice with the search's
    best on paired rollouts; the result is legal and reproducible from the seed."""
    state = get_game("gnomeville").new(GameConfig(2, get_game("gnomeville").variants[0]), 4)
    while len(state.pending()[0].options) < 3:
        decision = state.pending()[0]
        state.apply(decision.seat, 0)
    decision = state.pending()[0]
    view = state.observe(decision.seat)
    ctx = DecisionContext("gnomeville", decision.seat, decision, lambda: view)
    spec = "ismcts:iterations=6,verify=3,trust=0.5"
    first, second = make_policy(spec, "gnomeville", 2), make_policy(spec, "gnomeville", 2)
    assert isinstance(first, IsmctsPolicy)
    choice = first.choose(ctx)
    assert 0 <= choice < len(decision.options)
    assert second.choose(ctx) == choice
    assert first.last["verified"] in (0, 3)  # none when the search agreed with greedy


# ------------------------------------------------------------------ hidden information


def hidden_hands_differ(first: GameState, second: GameState, seat: int) -> bool:
    return first.observe(seat) == second.observe(seat) and first.canonical() != second.canonical()


def test_another_seats_hidden_cards_do_not_change_a_choice() -> None:
    """Two Root positions equal in all the Marquise sees, the Eyrie's hand and the deck dealt
    differently: the same seeded search makes the same choices while her views agree."""
    real = get_game("root").new(GameConfig(2, "autumn"), 9)
    other = real.determinize(0, 1234)
    assert hidden_hands_differ(real, other, 0)
    made = []
    for state in (real, other):
        policies: list[Policy] = [
            make_policy("ismcts:iterations=12,depth=6,verify=3", "root", 3),
            make_policy("random", "root", 4),
        ]
        made.append(play_until(state, "root", policies, 0, 6))
    same = 0
    for (view_a, choice_a), (view_b, choice_b) in zip(*made, strict=True):
        if view_a != view_b:
            break
        assert choice_a == choice_b
        same += 1
    assert same >= 3


class ViewOnlyBot(PolicyBot):
    """The SDK's built-in bot, checking that its policy gets the decoded view and no more."""

    def __init__(self, spec: str, seed: int) -> None:
        super().__init__(spec, seed)
        self.requests: list[Request] = []
        self.given: list[DecisionContext] = []

    def choose(self, request: Request) -> int:
        self.requests.append(request)
        if self._policy is None:
            policy = make_policy(self.name, request.game, self._seed)
            self._policy = _Recording(policy, self.given)
        return super().choose(request)


class _Recording:
    def __init__(self, policy: Policy, given: list[DecisionContext]) -> None:
        self.policy = policy
        self.given = given

    def choose(self, ctx: DecisionContext) -> int:
        self.given.append(ctx)
        return self.policy.choose(ctx)


def test_over_grpc_the_search_sees_its_view_only(tmp_path: Path) -> None:
    """Root over real gRPC: the search plays seat 0 through the SDK; every context its policy
    got carries the observation decoded from the wire (no other hand in it), and the budget
    is the clock's free time per decision."""
    config = GameConfig(2, "autumn")
    clock = TimeControl(decision_ms=2000, bank_ms=0)

    async def scenario() -> ViewOnlyBot:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(
                game="root", config=config, seed=21, time_control=clock, max_decisions=60
            )
            match, tickets = referee.create_match(
                settings, local={1: LocalBot(make_policy("random", "root", 2), "random")}
            )
            bot = ViewOnlyBot("ismcts:iterations=6,depth=4", 8)
            await play(bot, referee.address, tickets[0])
            await match.finished.wait()
            assert match.result is not None
            assert match.result.reason in (Reason.COMPLETED, Reason.ADJUDICATED)
            assert not any(s.forfeited for s in match.result.seats)
            return bot

    bot = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert len(bot.given) == len(bot.requests) > 5
    for ctx, request in zip(bot.given, bot.requests, strict=True):
        assert ctx.observation is request.observation
        assert ctx.budget_s == 2.0
        view = ctx.observation
        assert isinstance(view, RootView) and view.viewer == 0
        assert all(p.hand == () for p in view.players if p.seat != 0)


# ------------------------------------------------------------------ strength


def first_place_needed(games: int, alpha: float = 0.01) -> int:
    """The fewest first places out of ``games`` that two equal bots reach with probability
    below ``alpha`` (one-sided binomial test at p = 1/2)."""
    for k in range(games + 1):
        if sum(math.comb(games, j) for j in range(k, games + 1)) / 2**games < alpha:
            return k
    return games + 1


def test_ismcts_beats_random_at_rumble_nation(depth: Depth) -> None:
    """The search alone (``trust=0``: it never defers to the greedy bot's choice), 60
    determinizations a decision, seats alternating, fixed seeds: at least the number of first
    places two equal bots reach with probability below 1% (14 of 16; 40 of 60 with --slow)."""
    games = depth(fast=16, slow=60)
    won = 0
    for number in range(games):
        seat = number % 2
        state = get_game("rumble-nation").new(GameConfig(2), 100 + number // 2)
        policies = [make_policy("random", "rumble-nation", 200 + number) for _ in range(2)]
        policies[seat] = make_policy("ismcts:iterations=60,trust=0", "rumble-nation", number)
        play_until(state, "rumble-nation", policies, seat, 1000)
        outcome = state.outcome()
        assert outcome is not None
        won += outcome.rank_of(seat) == 1
    assert won >= first_place_needed(games), (won, games)
