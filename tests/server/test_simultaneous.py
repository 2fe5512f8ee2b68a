"""Gnomeville over real gRPC on loopback: seats that decide at the same time progress on their
own. Four SDK bots answer with very different delays, each choosing with its own seeded random
stream; the fast seat finishes its build phase while the slow one is still thinking about its
first build decision, and the game is the same one the seeds give in-process (``play_local``),
whatever the order in which the answers arrived. A seat that times out in a simultaneous phase
forfeits alone; the others finish.

Written against the engine contract: the checks grow stronger as the Gnomeville engine fills in
(more decisions per phase), and never assume a particular number of them.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from client_sdk import AsyncBot, Request, play
from games import GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.local import play_local
from games.policies.base import DecisionContext
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.match import Match
from server.replay import verify_file
from server.results import Reason
from server.settings import MatchSettings, TimeControl

T = TypeVar("T")
#: Per seat: how long its bot sleeps before each of its first ``DELAYED`` answers.
DELAYS_S = (0.0, 0.005, 0.02, 0.06)
DELAYED = 12
#: How long the slow seat waits, at most, for the fast one to finish its build phase.
GATE_S = 5.0
CLOCK = TimeControl(decision_ms=10_000, bank_ms=0)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


class Chooser:
    """A seat's own random stream; the same answers in-process and over the wire."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(seed * 100 + seat)

    def pick(self, options: int) -> int:
        return self.rng.randrange(options)


class ChooserPolicy:
    def __init__(self, seed: int, seat: int) -> None:
        self.chooser = Chooser(seed, seat)

    def choose(self, ctx: DecisionContext) -> int:
        return self.chooser.pick(len(ctx.decision.options))


class DelayedBot(AsyncBot):
    """Sleeps ``delay`` before each of its first answers, then picks with its own stream.

    ``gate``: awaited before its first build-phase answer (the slow seat waits there until the
    fast one has finished its build phase, or ``GATE_S`` passed).
    """

    def __init__(self, seed: int, seat: int, delay: float) -> None:
        self.chooser = Chooser(seed, seat)
        self.delay = delay
        self.answers = 0
        self.gate: Any = None
        self.kinds: list[str] = []
        self.events: list[pb.Event] = []
        #: A phase in which this bot stops answering (the referee's clock decides).
        self.hold_in: str | None = None

    async def choose_async(self, request: Request) -> int:
        self.kinds.append(request.kind)
        self.events.extend(request.events)
        if request.observation.phase == self.hold_in:
            await asyncio.sleep(3600)
        if self.gate is not None and request.observation.phase == "build":
            gate, self.gate = self.gate, None
            await gate()
        if self.answers < DELAYED and self.delay:
            await asyncio.sleep(self.delay)
        self.answers += 1
        return self.chooser.pick(len(request.options))

    def on_events(self, events: tuple[pb.Event, ...]) -> None:
        self.events.extend(events)


def phases_of(match: Match) -> list[tuple[int, str, int]]:
    """(round, phase, seat) of every applied decision, re-simulated from the match's record."""
    state = GAME.new(match.settings.config, match.settings.seed)
    found: list[tuple[int, str, int]] = []
    for seat, index in match.state.history:
        found.append((state.round, state.phase, seat))
        state.apply(seat, index)
    return found


def test_seats_progress_independently_and_the_game_is_the_in_process_one(
    tmp_path: Path,
) -> None:
    seed = 11
    config = GameConfig(4, "standard")

    async def scenario() -> tuple[Match, list[DelayedBot], float]:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(
                game="gnomeville", config=config, seed=seed, time_control=CLOCK
            )
            match, tickets = referee.create_match(settings)
            bots = [DelayedBot(seed, seat, delay) for seat, delay in enumerate(DELAYS_S)]
            waited = 0.0

            async def fast_seat_done_building() -> None:
                nonlocal waited
                started = time.monotonic()
                while time.monotonic() - started < GATE_S:
                    state = match.state
                    assert isinstance(state, GnomevilleState)
                    if state.phase != "build" or all(d.seat != 0 for d in state.pending()):
                        break
                    await asyncio.sleep(0.002)
                waited = time.monotonic() - started

            bots[3].gate = fast_seat_done_building
            overs = await asyncio.gather(
                *(play(bot, referee.address, tickets[i]) for i, bot in enumerate(bots))
            )
            await match.finished.wait()
            assert all(o.reason == pb.RESULT_REASON_COMPLETED for o in overs)
            assert verify_file(Path(overs[0].replay_path)).digest == match.state.digest()
            return match, bots, waited

    match, bots, waited = run(scenario())
    assert match.result is not None and match.result.reason is Reason.COMPLETED
    assert waited < GATE_S, "the fast seat could not finish its build phase before the slow one"
    # Progress independence, from the order of the history: in round 1's build phase every
    # decision of seat 0 was applied before the first one of seat 3.
    steps = phases_of(match)
    build = [seat for rnd, phase, seat in steps if (rnd, phase) == (1, "build")]
    assert 0 in build and 3 in build
    first_of_3 = build.index(3)
    assert 0 not in build[first_of_3:]
    # The answers arrived in another order than seat order, at least somewhere.
    assert match.state.history != sorted_within_phases(steps, match.state.history)
    # The same seeds and per-seat choosers played in-process give the same game.
    policies = [ChooserPolicy(seed, seat) for seat in range(4)]
    local = play_local(GAME, config, seed, policies)
    assert local.digest() == match.state.digest()
    outcome = match.state.outcome()
    assert outcome is not None and local.outcome() == outcome
    assert [r.score for r in match.result.seats] == list(outcome.scores)
    # Each seat saw its own decisions only, and the private events of its own work only.
    for seat, bot in enumerate(bots):
        assert len(bot.kinds) == sum(1 for s, _ in match.state.history if s == seat)
        for event in bot.events:
            data = json.loads(event.data_json)
            if isinstance(data, dict) and "seat" in data and event.kind == "drew":
                assert data["seat"] == seat, event


def sorted_within_phases(
    steps: list[tuple[int, str, int]], history: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The history with each phase's answers in seat order (what a seat-order referee gives)."""
    keyed = sorted(range(len(history)), key=lambda i: (phase_number(steps, i), steps[i][2], i))
    return [history[i] for i in keyed]


def phase_number(steps: list[tuple[int, str, int]], index: int) -> int:
    number = 0
    for i in range(1, index + 1):
        if steps[i][:2] != steps[i - 1][:2]:
            number += 1
    return number


def test_a_seat_that_times_out_in_a_simultaneous_phase_forfeits_alone(tmp_path: Path) -> None:
    seed = 4
    config = GameConfig(3, "standard")

    async def scenario() -> tuple[Match, list[pb.MatchOver]]:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(
                game="gnomeville",
                config=config,
                seed=seed,
                time_control=TimeControl(decision_ms=300, bank_ms=0),
            )
            match, tickets = referee.create_match(settings)
            bots = [DelayedBot(seed, seat, 0.0) for seat in range(3)]
            bots[2].hold_in = "build"  # never answers its first build decision
            seats = [
                asyncio.create_task(play(bot, referee.address, tickets[i]))
                for i, bot in enumerate(bots)
            ]
            overs = await asyncio.gather(*seats[:2])
            await match.finished.wait()
            seats[2].cancel()
            return match, list(overs)

    match, overs = run(scenario())
    result = match.result
    assert result is not None and result.reason is Reason.COMPLETED
    late = result.seats[2]
    assert late.forfeited and late.reason is Reason.TIMEOUT and late.rank == 3
    assert not result.seats[0].forfeited and not result.seats[1].forfeited
    assert overs[0].reason == pb.RESULT_REASON_COMPLETED
    assert verify_file(Path(overs[0].replay_path)).digest == match.state.digest()
    # The seat timed out in the build phase, which the others played at the same time: they
    # went on deciding while it thought, and its fallback answered at once afterwards.
    steps = phases_of(match)
    timed_out = next(i for i, (_, phase, seat) in enumerate(steps) if (phase, seat) == ("build", 2))
    phase = steps[timed_out][:2]
    others = [seat for (rnd, ph, seat) in steps[:timed_out] if (rnd, ph) == phase]
    assert 0 in others and 1 in others


@pytest.mark.parametrize(
    ("players", "variant"),
    [(4, "standard"), (3, "master-build"), (2, "turn-by-turn"), (1, "standard")],
)
def test_any_order_of_arrival_gives_the_game_of_seat_order(players: int, variant: str) -> None:
    """What the referee relies on: answers applied in any interleaving (each seat's in its own
    order) give the game ``play_local`` plays in seat order, bit for bit."""
    config = GameConfig(players, variant)
    for seed in range(5):
        policies = [ChooserPolicy(seed, seat) for seat in range(players)]
        reference = play_local(GAME, config, seed, policies)
        for order in range(2):
            state = GAME.new(config, seed)
            choosers = [Chooser(seed, seat) for seat in range(players)]
            rng = random.Random(order)
            while state.pending():
                decision = rng.choice(state.pending())
                state.apply(decision.seat, choosers[decision.seat].pick(len(decision.options)))
            assert state.digest() == reference.digest(), (seed, order)
            assert state.outcome() == reference.outcome()
