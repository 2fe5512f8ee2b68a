"""The referee's scheduling of simultaneous decisions, isolated with a toy game and an
in-memory transport (no gRPC): each seat progresses on its own, answers are applied as they
arrive, the barrier needs nothing special, and failures, voiding and adjudication end cleanly.

The toy game (``Toy``) has phases; in each phase seat ``s`` makes ``s + 1`` decisions of two
options, and every decision adds ``(index + 1) * (phase + 1)`` to the seat's score. The next
phase opens when every seat is done (a barrier), as in Gnomeville's build phase.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.contract import (
    Decision,
    Event,
    GameConfig,
    GameState,
    IllegalDecision,
    Option,
    Outcome,
    replay,
)
from kassen.v1 import referee_pb2 as pb
from server.clock import SeatClock
from server.match import Match
from server.referee import LocalBot
from server.results import MatchResult, Reason
from server.seats import Incoming, LocalSeat, RemoteSeat, Seat
from server.settings import FailurePolicy, MatchSettings, TimeControl

T = TypeVar("T")
ROOMY = TimeControl(decision_ms=1000, bank_ms=0)
OPTIONS = (Option("low", "low", ("low",)), Option("high", "high", ("high",)))


class ToyState(GameState):
    def __init__(self, config: GameConfig, seed: int, phases: int, fickle: bool) -> None:
        self.config = config
        self.seed = seed
        self.history: list[tuple[int, int]] = []
        self.players = config.players
        self.phases = phases
        #: A contract breaker: seat 0's answer changes seat 1's pending decision.
        self.fickle = fickle
        self.phase = 0
        self.scores = [0] * self.players
        self.todo = [seat + 1 for seat in range(self.players)]
        self.flavour = [0] * self.players

    def pending(self) -> tuple[Decision, ...]:
        if self.phase >= self.phases:
            return ()
        return tuple(
            Decision(seat, f"toy.p{self.phase}.f{self.flavour[seat]}", OPTIONS)
            for seat in range(self.players)
            if self.todo[seat]
        )

    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        if self.phase >= self.phases or not self.todo[seat]:
            raise IllegalDecision(f"seat {seat} has nothing to decide")
        if not 0 <= option_index < len(OPTIONS):
            raise IllegalDecision("out of range")
        self.history.append((seat, option_index))
        self.scores[seat] += (option_index + 1) * (self.phase + 1)
        self.todo[seat] -= 1
        events = [Event("pick", {"seat": seat, "index": option_index}, private_to=seat)]
        if self.fickle and seat == 0 and self.players > 1:
            self.flavour[1] += 1
        if not any(self.todo):
            self.phase += 1
            self.todo = [s + 1 for s in range(self.players)]
            events.append(Event("barrier", {"phase": self.phase}))
        return tuple(events)

    def observe(self, seat: int | None) -> Any:
        return (seat, self.phase, tuple(self.scores))

    def outcome(self) -> Outcome | None:
        if self.phase < self.phases:
            return None
        return self.adjudicate()

    def adjudicate(self) -> Outcome:
        ranking = tuple(sorted(range(self.players), key=lambda s: (-self.scores[s], s)))
        return Outcome(tuple(self.scores), ranking)

    def clone(self) -> ToyState:
        raise NotImplementedError

    def determinize(self, seat: int, seed: int) -> ToyState:
        raise NotImplementedError

    def canonical(self) -> tuple[Any, ...]:
        return (self.phase, tuple(self.scores), tuple(self.todo))


@dataclass
class Toy:
    phases: int = 3
    fickle: bool = False
    name: str = "toy"
    title: str = "Toy"
    variants: tuple[str, ...] = ("base",)
    player_counts: tuple[int, ...] = (1, 2, 3, 4)

    def new(self, config: GameConfig, seed: int) -> ToyState:
        return ToyState(config, seed, self.phases, self.fickle)

    def describe(self, event: Event) -> str:
        return event.kind


class NoObservation:
    """The toy game has no wire observation; the scheduling does not need one."""

    def encode(self, view: Any) -> None:
        pass


@dataclass
class FakeBot:
    """The far end of an in-memory stream: answers each request after ``delay`` seconds with
    its own seeded random choice (``None``: never answers)."""

    seat: int
    delay: float | None
    rng: random.Random = field(init=False)
    requests: list[pb.DecisionRequest] = field(default_factory=list)
    others: list[pb.PlayResponse] = field(default_factory=list)
    #: (request id, monotonic time) of every answer sent.
    answered: list[tuple[int, float]] = field(default_factory=list)
    target: RemoteSeat | None = None
    #: At its ``at``-th request (1-based) the bot does one bad thing: "duplicate" (answers,
    #: then repeats that answer), "stale" (answers an old request id instead) or "drop" (its
    #: stream breaks and it never rejoins).
    misbehave: str = ""
    at: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(1000 + self.seat)

    async def write(self, message: pb.PlayResponse | bytes) -> None:
        if isinstance(message, bytes):  # the match writes its requests encoded
            message = pb.PlayResponse.FromString(message)
        if message.WhichOneof("message") != "decision":
            self.others.append(message)
            return
        request = pb.DecisionRequest()
        request.CopyFrom(message.decision)
        self.requests.append(request)
        loop = asyncio.get_running_loop()
        if len(self.requests) == self.at and self.misbehave:
            assert self.target is not None
            if self.misbehave == "drop":
                self.target.detach(self.target.stream_generation)
                return
            if self.misbehave == "stale":
                loop.call_later(0.001, self._answer, request.request_id - 1, 0)
                return
        if self.delay is not None:
            index = self.rng.randrange(len(request.options))
            loop.call_later(self.delay, self._answer, request.request_id, index)
            if len(self.requests) == self.at and self.misbehave == "duplicate":
                loop.call_later(self.delay + 0.001, self._answer, request.request_id, index)

    def _answer(self, request_id: int, index: int) -> None:
        assert self.target is not None
        now = time.monotonic()
        self.answered.append((request_id, now))
        answer = pb.Answer(request_id=request_id, option_index=index)
        self.target.inbox.put_nowait(Incoming("answer", now, answer=answer))


def choices(seat: int, count: int) -> list[int]:
    """What ``FakeBot(seat)`` answers to its first ``count`` requests (two options each)."""
    rng = random.Random(1000 + seat)
    return [rng.randrange(2) for _ in range(count)]


def run(scenario: Callable[[], Awaitable[T]], timeout: float = 10) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), timeout)

    return asyncio.run(bounded())


async def play_toy(
    game: Toy,
    delays: Sequence[float | str | None],
    *,
    policy: FailurePolicy = FailurePolicy.FORFEIT,
    clock: TimeControl = ROOMY,
    max_decisions: int = 10_000,
    misbehave: tuple[int, str, int] | None = None,
) -> tuple[Match, MatchResult, list[FakeBot | None]]:
    """Play the toy game; a delay per seat (``"local"``: an in-process random policy)."""
    players = len(delays)
    settings = MatchSettings(
        game="toy",
        config=GameConfig(players),
        seed=3,
        time_control=clock,
        failure_policy=policy,
        max_decisions=max_decisions,
        join_timeout_ms=1000,
        reconnect_ms=100,
    )
    seats: list[Seat] = []
    bots: list[FakeBot | None] = []
    for index, delay in enumerate(delays):
        if delay == "local":
            from games.policies import RandomPolicy

            local = LocalBot(RandomPolicy(index), "random")
            seats.append(LocalSeat(index, SeatClock(clock), local.policy, local.name))
            bots.append(None)
            continue
        assert not isinstance(delay, str)
        seat = RemoteSeat(index, SeatClock(clock), "toy")
        seat.encoder = NoObservation()  # type: ignore[assignment]
        bot = FakeBot(index, delay, target=seat)
        if misbehave is not None and misbehave[0] == index:
            bot.misbehave, bot.at = misbehave[1], misbehave[2]
        seat.attach(bot)
        seats.append(seat)
        bots.append(bot)
    match = Match("toy", game, settings, seats)
    result = await match.run()
    return match, result, bots


def phase_of(match: Match, step: int) -> int:
    """The phase the ``step``-th applied decision belonged to (replayed from the history)."""
    state = Toy(phases=10**6).new(match.settings.config, 0)
    for seat, index in match.state.history[:step]:
        state.apply(seat, index)
    return state.phase


def test_a_fast_seat_finishes_its_phase_before_a_slow_one_answers_at_all() -> None:
    async def scenario() -> None:
        game = Toy(phases=3)
        match, result, bots = await play_toy(game, [0.0, 0.002, 0.005, 0.06])
        assert result.reason is Reason.COMPLETED
        assert all(not r.forfeited for r in result.seats)
        history = match.state.history
        # Seat 0 (1 decision a phase), 1 (2) and 2 (3) answered their whole first phase before
        # seat 3's first answer was applied; nobody waited for the slowest seat.
        seats = [seat for seat, _ in history]
        before = seats[: seats.index(3)]
        assert before.count(0) == 1 and before.count(1) == 2 and before.count(2) == 3
        # Each seat answered with its own random stream, in its own order.
        for seat, bot in enumerate(bots):
            assert bot is not None
            mine = [index for s, index in history if s == seat]
            assert mine == choices(seat, len(mine)) and len(mine) == 3 * (seat + 1)
            assert len(bot.requests) == len(mine)
        # The barrier: no decision of the next phase before the last of this one.
        kinds = [r.kind for bot in bots if bot is not None for r in bot.requests]
        assert {k.split(".")[1] for k in kinds} == {"p0", "p1", "p2"}
        for step in range(len(history)):
            assert phase_of(match, step) <= phase_of(match, step + 1)
        # The applied order re-simulates to the same game as seat order would.
        again = replay(game, match.settings.config, 3, history)
        by_seat = sorted(range(len(history)), key=lambda i: (phase_of(match, i), history[i][0], i))
        in_seat_order = replay(game, match.settings.config, 3, [history[i] for i in by_seat])
        assert again.digest() == match.state.digest() == in_seat_order.digest()
        # One decided_at per applied decision (spectators replay the history with them).
        assert len(match.decided_at) == len(history) == match.decisions

    run(scenario)


def test_private_events_reach_only_their_seat_and_public_ones_everyone() -> None:
    async def scenario() -> None:
        _, result, bots = await play_toy(Toy(phases=2), [0.0, 0.01])
        assert result.reason is Reason.COMPLETED
        for seat, bot in enumerate(bots):
            assert bot is not None
            events = [e for r in bot.requests for e in r.events]
            over = [m for m in bot.others if m.WhichOneof("message") == "match_over"]
            assert len(over) == 1
            events += list(over[0].match_over.events)
            picks = [e for e in events if e.kind == "pick"]
            assert picks and all(f'"seat":{seat}' in e.data_json for e in picks)
            assert len(picks) == 2 * (seat + 1)
            assert [e.kind for e in events].count("barrier") == 2

    run(scenario)


def test_local_seats_answer_on_the_spot_next_to_remote_ones() -> None:
    async def scenario() -> None:
        match, result, _ = await play_toy(Toy(phases=2), ["local", 0.005, "local"])
        assert result.reason is Reason.COMPLETED
        assert [match.state.history[i][0] for i in range(4)] == [0, 2, 2, 2]

    run(scenario)


def test_a_seat_that_times_out_forfeits_alone_and_does_not_hold_the_others() -> None:
    async def scenario() -> None:
        clock = TimeControl(decision_ms=150, bank_ms=0)
        started = time.monotonic()
        match, result, bots = await play_toy(Toy(phases=3), [0.0, 0.0, None], clock=clock)
        assert result.reason is Reason.COMPLETED
        seat2 = result.seats[2]
        assert seat2.forfeited and seat2.reason is Reason.TIMEOUT
        assert [r.forfeited for r in result.seats[:2]] == [False, False]
        assert [r.rank for r in result.seats][2] == 3
        # The fallback answered for seat 2 at once after its one timeout: no later waits.
        assert time.monotonic() - started < 1.0
        bot2 = bots[2]
        assert bot2 is not None and len(bot2.requests) == 1
        # Seats 0 and 1 finished their first phase while seat 2 was still thinking.
        seats = [seat for seat, _ in match.state.history]
        before = seats[: seats.index(2)]
        assert before.count(0) == 1 and before.count(1) == 2
        assert len(seats) == 3 * (1 + 2 + 3)

    run(scenario)


def test_the_fallback_of_each_seat_does_not_depend_on_the_order_of_arrival() -> None:
    async def scenario() -> list[int]:
        clock = TimeControl(decision_ms=100, bank_ms=0)
        match, result, _ = await play_toy(Toy(phases=2), [0.0, None, None], clock=clock)
        assert [r.forfeited for r in result.seats] == [False, True, True]
        return [i for s, i in match.state.history if s == 2]

    first = run(scenario)
    assert run(scenario) == first


def test_void_withdraws_the_other_requests_in_flight() -> None:
    async def scenario() -> None:
        clock = TimeControl(decision_ms=100, bank_ms=0)
        match, result, bots = await play_toy(
            Toy(phases=3), [5.0, None, 5.0], clock=clock, policy=FailurePolicy.VOID
        )
        assert result.reason is Reason.VOIDED
        assert match.state.history == []
        for seat, bot in zip(match.seats, bots, strict=True):
            assert isinstance(seat, RemoteSeat) and seat.open_request is None
            assert bot is not None
            over = [m for m in bot.others if m.WhichOneof("message") == "match_over"]
            assert len(over) == 1 and over[0].match_over.reason == pb.RESULT_REASON_VOIDED
        await asyncio.sleep(0)
        asking = [t for t in asyncio.all_tasks() if "_ask" in repr(t.get_coro())]
        assert asking == []  # no request left waiting

    run(scenario)


def test_the_decision_limit_stops_a_simultaneous_phase_and_adjudicates() -> None:
    async def scenario() -> None:
        started = time.monotonic()
        match, result, _ = await play_toy(Toy(phases=5), [0.0, 0.02, 0.5], max_decisions=2)
        assert result.reason is Reason.ADJUDICATED
        # Seat 0's one decision and seat 1's first; seat 1's second and seat 2's first were in
        # flight, and were withdrawn rather than waited for.
        assert match.state.history == [(0, choices(0, 1)[0]), (1, choices(1, 1)[0])]
        assert match.decisions == 2 and time.monotonic() - started < 0.4
        assert all(
            seat.open_request is None for seat in match.seats if isinstance(seat, RemoteSeat)
        )

    run(scenario)


def test_an_answer_to_a_decision_no_longer_pending_is_asked_again() -> None:
    async def scenario() -> None:
        game = Toy(phases=1, fickle=True)
        match, result, bots = await play_toy(game, [0.0, 0.03])
        assert result.reason is Reason.COMPLETED
        bot1 = bots[1]
        assert bot1 is not None
        # Seat 1 was asked f0, seat 0's answer changed it to f1: asked again, then answered.
        kinds = [r.kind for r in bot1.requests]
        assert kinds[0] == "toy.p0.f0" and "toy.p0.f1" in kinds
        assert len([s for s, _ in match.state.history if s == 1]) == 2
        assert not result.seats[1].forfeited

    run(scenario)


def test_a_repeated_answer_is_ignored_with_a_notice_while_others_decide() -> None:
    async def scenario() -> None:
        match, result, bots = await play_toy(
            Toy(phases=2), [0.0, 0.003, 0.01], misbehave=(1, "duplicate", 1)
        )
        assert result.reason is Reason.COMPLETED
        assert not any(r.forfeited for r in result.seats)
        bot1 = bots[1]
        assert bot1 is not None
        notices = [m.notice.code for m in bot1.others if m.WhichOneof("message") == "notice"]
        assert notices == ["duplicate_answer"]
        assert len(match.state.history) == 2 * (1 + 2 + 3)

    run(scenario)


def test_a_stale_answer_forfeits_only_that_seat() -> None:
    async def scenario() -> None:
        match, result, _ = await play_toy(
            Toy(phases=2), [0.0, 0.002, 0.01], misbehave=(2, "stale", 2)
        )
        assert result.reason is Reason.COMPLETED
        assert [r.reason for r in result.seats] == [
            Reason.COMPLETED,
            Reason.COMPLETED,
            Reason.STALE_REQUEST,
        ]
        assert len(match.state.history) == 2 * (1 + 2 + 3)

    run(scenario)


def test_a_seat_that_drops_and_does_not_rejoin_forfeits_alone() -> None:
    async def scenario() -> None:
        started = time.monotonic()
        match, result, _ = await play_toy(
            Toy(phases=2), [0.0, 0.002, 0.01], misbehave=(1, "drop", 2)
        )
        assert result.reason is Reason.COMPLETED
        assert result.seats[1].reason is Reason.DISCONNECTED and result.seats[1].rank == 3
        assert not result.seats[0].forfeited and not result.seats[2].forfeited
        # Seat 2 went on deciding during seat 1's reconnect window (100 ms).
        seats = [seat for seat, _ in match.state.history]
        assert seats[: seats.index(1, seats.index(1) + 1)].count(2) >= 1
        assert time.monotonic() - started < 1.0

    run(scenario)
