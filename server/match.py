"""One refereed match: wait for the seats, ask each decision, enforce clocks and answers,
publish events, and end with a result every seat and spectator learns.

A match runs as one asyncio task. It never trusts a seat: every way a seat can fail has a
named ``Reason``, and the failure policy decides what follows (forfeit: the random policy
plays the seat and it ranks below every seat that did not fail; void: the match ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog

from games.contract import Decision, Event, Game, GameState, Outcome
from games.policies import RandomPolicy
from games.policies.base import DecisionContext
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.wire import assemble
from server.chance import commitment_of
from server.load import DECISION_TIMES
from server.replay import options_text, reveal_in_file, write_replay
from server.results import MatchResult, Reason, SeatResult
from server.seats import Incoming, LocalSeat, RemoteSeat, Seat, describe_exit
from server.settings import FailurePolicy, MatchSettings

if TYPE_CHECKING:
    from server.public_record import PublicRecord

log = structlog.get_logger("kassen.match")

#: How long a request still in flight when the match ends may take to be withdrawn.
WITHDRAW_S = 1.0
#: How long writing MatchOver to one seat may take (a bot that stopped reading must not hold
#: the end of its match, nor a shutdown, any longer).
ANNOUNCE_WRITE_S = 2.0


def fallback_seed(seed: int, seat: int) -> int:
    """The seed of the random policy that answers for ``seat`` once it failed."""
    digest = hashlib.sha256(f"{seed}:fallback:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _cancelling() -> bool:
    """Whether the running task is being cancelled (the referee shuts down)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class MatchVoided(Exception):
    """Raised inside the match when a failure voids it."""


class MatchAborted(Exception):
    """Raised inside the match when the referee stops it (shutdown): it ends ``ABORTED``
    and every seat still hears MatchOver."""


class Match:
    def __init__(
        self,
        match_id: str,
        game: Game,
        settings: MatchSettings,
        seats: list[Seat],
        replay_dir: Path | None = None,
        state: GameState | None = None,
        ping_interval_ms: int = 0,
    ) -> None:
        self.id = match_id
        self.game = game
        self.settings = settings
        self.seats = seats
        #: A prepared position may be given (the conformance kit starts matches mid-game);
        #: such a match has no replay, since a replay starts from the seed.
        self.state: GameState = (
            state if state is not None else game.new(settings.config, settings.seed)
        )
        #: Spectators replay the match from here (a prepared position cannot be re-dealt).
        self._prepared = state.clone() if state is not None else None
        self.replay_dir = replay_dir if state is None else None
        #: (seat, decision kind) of every request sent to a remote seat.
        self.asked: list[tuple[int, str]] = []
        self.status = "waiting"
        self.request_id = 0
        self.decisions = 0
        self.result: MatchResult | None = None
        self.finished = asyncio.Event()
        #: When each decision was applied (monotonic): spectators replay them this late.
        self.decided_at: list[float] = []
        self.finished_at: float | None = None
        #: What its spectators share (server/public_record.py); None while nobody watches.
        self.public_record: PublicRecord | None = None
        self._progress: asyncio.Future[None] | None = None
        #: Whether MatchOver and the replay may reveal the seed (see ``reveal_seed``).
        self.seed_revealed = settings.reveal_seed
        self._remote = any(isinstance(seat, RemoteSeat) for seat in seats)
        self.ping_interval_s = ping_interval_ms / 1000
        for seat in seats:
            if isinstance(seat, RemoteSeat):
                seat.undelivered = []
                # The history's own length, not a method of the match: a seat holding the
                # match would make every finished match a cycle for the garbage collector
                # (a full collection of them paused every match for up to 150 ms).
                seat.decisions_applied = self.state.history.__len__
        # Setup events go the same way as all others: a private one (e.g. a starting hand)
        # only to its seat.
        if self._remote:
            self._route(tuple(getattr(self.state, "setup_events", ())))
        self._fallbacks = [RandomPolicy(fallback_seed(settings.seed, seat.index)) for seat in seats]
        self.server_time_us: list[int] = []
        self.log = log.bind(match_id=match_id, game=game.name)
        #: Called when the result is decided (before MatchOver is sent), then when the match
        #: has ended, and when its seed is revealed.
        self.on_result: list[Callable[[Match], None]] = []
        self.on_finish: list[Callable[[Match], None]] = []
        self.on_reveal: list[Callable[[Match], None]] = []
        self.created_at = time.time()
        self._aborting = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle

    async def run(self) -> MatchResult:
        reason = Reason.COMPLETED
        pinger = (
            asyncio.get_running_loop().create_task(self._ping_seats())
            if self._remote and self.ping_interval_s > 0
            else None
        )
        try:
            await self._wait_for_seats()
            self.status = "running"
            # The seed stays out of the logs while it is secret (logs are often shared).
            self.log.info(
                "match_start",
                seats=[s.bot_name for s in self.seats],
                seed_commitment=self.commitment,
            )
            reason = await self._play()
        except MatchVoided:
            reason = Reason.VOIDED
        except MatchAborted:
            reason = Reason.ABORTED
        except asyncio.CancelledError:
            self._finish(Reason.ABORTED)  # the referee is shutting down: no one to tell
            self._conclude()
            raise
        except Exception:  # a bug of ours must end this match cleanly, never hang its seats
            self.log.exception("match_failed")
            reason = Reason.ABORTED
        try:
            self._finish(reason)
            await self._announce()
        except Exception:
            self.log.exception("match_end_failed")
            if self.result is None:
                self.result = MatchResult(self.id, Reason.ABORTED, [])
        finally:
            if pinger is not None:
                pinger.cancel()
            self._conclude()
        assert self.result is not None
        return self.result

    async def _wait_for_seats(self) -> None:
        """Wait until every remote seat joined, its bot process died, or the join window ended."""
        remote = [s for s in self.seats if isinstance(s, RemoteSeat)]
        if not remote:
            return
        timeout = self.settings.join_timeout_ms / 1000
        waits = [asyncio.ensure_future(_joined_or_exited(s)) for s in remote]
        aborted = asyncio.ensure_future(self._aborting.wait())
        try:
            every = asyncio.ensure_future(asyncio.wait(waits))
            await asyncio.wait(
                {every, aborted}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            every.cancel()
            aborted.cancel()
            for each in waits:
                each.cancel()
            # Nothing left pending: a referee stopping does not hear of these waits again.
            await asyncio.gather(every, aborted, *waits, return_exceptions=True)
        self._check_aborted()
        for seat in remote:
            if seat.joined:
                continue
            # Every absent seat is named, also when the first one voids the match.
            if seat.exited.is_set():
                code = seat.process.returncode if seat.process else None
                detail = describe_exit(code, seat.stderr_tail)
                self._fail(seat, Reason.BOT_CRASHED, f"before joining: {detail}", void=False)
            else:
                self._fail(seat, Reason.NO_SHOW, f"did not join within {timeout:g} s", void=False)
        absent = [seat.failed for seat in remote if seat.failed is not None]
        if absent and self.settings.failure_policy is FailurePolicy.VOID:
            raise MatchVoided(absent[0])
        if all(seat.failed is not None for seat in self.seats):
            raise MatchVoided("no seat joined")  # nobody played: nothing to rank

    def abort(self) -> None:
        """The referee stops: the match ends ``ABORTED`` at its next step and every seat
        hears MatchOver (a seat that is thinking is told at once)."""
        if self._aborting.is_set() or self.result is not None:
            return
        self._aborting.set()
        now = time.monotonic()
        for seat in self.seats:
            if isinstance(seat, RemoteSeat):
                seat.inbox.put_nowait(Incoming("aborted", now))

    def _check_aborted(self) -> None:
        if self._aborting.is_set():
            raise MatchAborted()

    def _apply_violations(self) -> None:
        """Fail the seats whose stream reader saw a violation while they were not asked
        (a flood, a stale answer): they take no further part."""
        for seat in self.seats:
            if isinstance(seat, RemoteSeat) and seat.violation and seat.failed is None:
                self._fail(seat, *seat.violation)

    async def _play(self) -> Reason:
        state = self.state
        while True:
            self._check_aborted()
            self._apply_violations()
            pending = state.pending()
            if not pending:
                return Reason.COMPLETED
            if self.decisions >= self.settings.max_decisions:
                return Reason.ADJUDICATED
            if len(pending) == 1:
                decision = pending[0]
                self._apply(decision, await self._decide(decision))
                continue
            reason = await self._play_simultaneous()
            if reason is not None:
                return reason

    async def _play_simultaneous(self) -> Reason | None:
        """Several seats decide at once: each progresses on its own.

        Every seat with a pending decision and no request in flight is asked; each answer is
        applied as it arrives (``state.history`` records that order, which is the replay's),
        and that seat is asked its next decision at once if it has one, whoever else is still
        thinking. The engine guarantees the game does not depend on the order (docs/engine.md).
        A phase's barrier needs nothing here: the next decisions simply appear in ``pending()``
        after the last answer. Local and forfeited seats answer on the spot. Returns once the
        game waits for one seat again (None), or the reason the match ends.
        """
        state = self.state
        inflight: dict[int, tuple[Decision, asyncio.Task[None]]] = {}
        arrivals: asyncio.Queue[tuple[Decision, int | Exception]] = asyncio.Queue()
        ended = False
        try:
            while True:
                self._check_aborted()
                self._apply_violations()
                pending = state.pending()
                if not pending:
                    reason: Reason | None = Reason.COMPLETED
                    break
                if self.decisions >= self.settings.max_decisions:
                    reason = Reason.ADJUDICATED
                    break
                if len(pending) == 1 and not inflight:
                    reason = None
                    break
                asked_now = self._ask_idle(pending, inflight, arrivals)
                if asked_now:  # a local or forfeited seat answered on the spot
                    continue
                decision, answer = await arrivals.get()
                del inflight[decision.seat]
                if isinstance(answer, Exception):
                    raise answer  # MatchVoided (the failure policy) or a bug of ours
                current = next((d for d in state.pending() if d.seat == decision.seat), None)
                if current != decision:
                    # Not expected of any engine (a seat's decision changes only by its own
                    # answer); ask again rather than apply an answer to another question.
                    self.log.warning(
                        "answer_not_pending",
                        seat=decision.seat,
                        kind=decision.kind,
                        now=current.kind if current is not None else None,
                    )
                    continue
                self._apply(decision, answer)
            ended = True
            return reason
        finally:
            if inflight:
                await self._withdraw(inflight, graceful=ended or not _cancelling())

    def _ask_idle(
        self,
        pending: tuple[Decision, ...],
        inflight: dict[int, tuple[Decision, asyncio.Task[None]]],
        arrivals: asyncio.Queue[tuple[Decision, int | Exception]],
    ) -> bool:
        """Ask every pending seat that has no request in flight. A local or forfeited seat
        answers at once: its answer is applied and True returned (``pending`` is then stale)."""
        loop = asyncio.get_running_loop()
        for decision in pending:
            if decision.seat in inflight:
                continue
            seat = self.seats[decision.seat]
            thinking = isinstance(seat, LocalSeat) and seat.thinks
            if (isinstance(seat, RemoteSeat) or thinking) and seat.failed is None:
                task = loop.create_task(self._ask(decision, arrivals))
                inflight[decision.seat] = (decision, task)
                continue
            self._apply(decision, self._decide_now(decision))
            return True
        return False

    async def _ask(
        self, decision: Decision, arrivals: asyncio.Queue[tuple[Decision, int | Exception]]
    ) -> None:
        """One remote seat's request in a simultaneous phase; its answer joins ``arrivals``."""
        try:
            answer: int | Exception = await self._decide(decision)
        except Exception as exc:  # the match task re-raises it (MatchVoided or a bug)
            answer = exc
        arrivals.put_nowait((decision, answer))

    async def _withdraw(
        self, inflight: dict[int, tuple[Decision, asyncio.Task[None]]], graceful: bool
    ) -> None:
        """Cancel the requests still in flight (the match ends: void, adjudication, shutdown).

        Gracefully, each seat's wait is told to stop (no task is cancelled in the middle of a
        write to its stream); a wait that does not stop within a second is cancelled.
        """
        tasks = [task for _, task in inflight.values()]
        if graceful:
            now = time.monotonic()
            for decision, task in inflight.values():
                seat = self.seats[decision.seat]
                if not task.done() and isinstance(seat, RemoteSeat):
                    seat.inbox.put_nowait(Incoming("withdrawn", now))
            _, stuck = await asyncio.wait(tasks, timeout=WITHDRAW_S)
        else:
            stuck = set(tasks)
        for task in stuck:
            task.cancel()
        if stuck and graceful:
            await asyncio.gather(*stuck, return_exceptions=True)
        for decision, _ in inflight.values():
            seat = self.seats[decision.seat]
            if isinstance(seat, RemoteSeat):
                seat.open_request = None
        inflight.clear()

    def _apply(self, decision: Decision, index: int) -> None:
        started = time.perf_counter()
        events = self.state.apply(decision.seat, index)
        self._decided()
        self._publish(events)
        self._took(started)

    def _took(self, started: float) -> None:
        """Record the server time of a step begun at ``started`` (``perf_counter``)."""
        elapsed = int((time.perf_counter() - started) * 1e6)
        self.server_time_us.append(elapsed)
        DECISION_TIMES.record(elapsed)

    def _decided(self) -> None:
        self.decisions += 1
        self.decided_at.append(time.monotonic())
        if self._progress is not None:
            self._wake_watchers()

    def _wake_watchers(self) -> None:
        progress, self._progress = self._progress, None
        if progress is not None and not progress.done():
            progress.set_result(None)

    async def next_progress(self) -> None:
        """Wait for the next decision or the end of the match (spectators wait on this)."""
        if self._progress is None:
            self._progress = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._progress)

    async def _ping_seats(self) -> None:
        """Ping every connected remote seat now and then (round trips; a bot need not answer)."""
        nonce = 0
        while True:
            await asyncio.sleep(self.ping_interval_s)
            for seat in self.seats:
                if isinstance(seat, RemoteSeat) and seat.connected:
                    nonce += 1
                    seat.sent_ping(nonce, time.monotonic())
                    await seat.send(pb.PlayResponse(ping=pb.Ping(nonce=nonce)))

    # ------------------------------------------------------------------ deciding

    async def _decide(self, decision: Decision) -> int:
        seat = self.seats[decision.seat]
        if seat.failed is None and isinstance(seat, RemoteSeat):
            index = await self._decide_remote(seat, decision)
            if index is not None:
                return index
        elif seat.failed is None and isinstance(seat, LocalSeat) and seat.thinks:
            index = await self._decide_local_off_loop(seat, decision)
            if index is not None:
                return index
        return self._decide_now(decision)

    def _decide_now(self, decision: Decision) -> int:
        """A local seat's answer, or the fallback's for a seat that failed."""
        seat = self.seats[decision.seat]
        if seat.failed is None and isinstance(seat, LocalSeat):
            index = self._decide_local(seat, decision)
            if index is not None:
                return index
        # Each seat has its own fallback stream: its answers do not depend on the order in
        # which seats answer in a simultaneous phase.
        return self._fallbacks[decision.seat].choose(self._context(decision))

    def _context(self, decision: Decision) -> DecisionContext:
        """What a policy is given; a local seat's budget is its clock's free time per
        decision (a searching policy stops inside it; the fallback ignores it)."""
        state = self.state
        return DecisionContext(
            self.game.name,
            decision.seat,
            decision,
            lambda: state.observe(decision.seat),
            budget_s=self.seats[decision.seat].clock.decision_ms / 1000.0,
        )

    def _decide_local(self, seat: LocalSeat, decision: Decision) -> int | None:
        started = time.monotonic()
        try:
            index = seat.policy.choose(self._context(decision))
        except Exception as exc:  # a policy bug must not take the referee down
            self._fail(seat, Reason.BOT_CRASHED, f"{type(exc).__name__}: {exc}")
            return None
        return self._judge_local(seat, decision, index, time.monotonic() - started)

    async def _decide_local_off_loop(self, seat: LocalSeat, decision: Decision) -> int | None:
        """A local policy that thinks (a search) runs in a worker thread: meanwhile the event
        loop serves the other seats and matches, whose clocks would otherwise be charged for
        its thinking. It gets its observation taken here, before it starts: the state may
        change while it thinks (another seat's answer in a simultaneous phase)."""
        context = self._context(decision)
        _ = context.observation
        started = time.monotonic()
        try:
            index = await asyncio.to_thread(seat.policy.choose, context)
        except Exception as exc:  # a policy bug must not take the referee down
            self._fail(seat, Reason.BOT_CRASHED, f"{type(exc).__name__}: {exc}")
            return None
        return self._judge_local(seat, decision, index, time.monotonic() - started)

    def _judge_local(
        self, seat: LocalSeat, decision: Decision, index: object, elapsed_s: float
    ) -> int | None:
        """A local policy's answer, if it came within the clock and is an option."""
        if not seat.clock.charge(elapsed_s):
            self._fail(seat, Reason.TIMEOUT, "exceeded its clock")
            return None
        if not isinstance(index, int) or not 0 <= index < len(decision.options):
            self._fail(
                seat,
                Reason.ILLEGAL_ANSWER,
                f"option {index!r} out of range (0..{len(decision.options) - 1})",
            )
            return None
        return index

    def _request(self, seat: RemoteSeat, decision: Decision) -> bytes:
        """The seat's DecisionRequest for ``decision``, encoded: options and events were
        encoded once, the observation is patched in place (kassen.wire.assemble)."""
        self.request_id += 1
        started = time.perf_counter()
        seat.encoder.encode(self.state.observe(decision.seat))
        message = assemble.decision_message(
            self.request_id,
            decision,
            assemble.options_field(self.game.name, decision),
            seat.observation.SerializeToString(),
            seat.clock.decision_ms,
            max(0, int(seat.clock.bank_ms)),
            seat.undelivered,
        )
        seat.undelivered = []
        self._took(started)
        return message

    async def _decide_remote(self, seat: RemoteSeat, decision: Decision) -> int | None:
        message = self._request(seat, decision)
        self.asked.append((seat.index, decision.kind))
        request_id = self.request_id
        seat.open_request = seat.last_request = message
        seat.open_request_id = request_id
        sent_on = seat.stream_generation  # before the write: a takeover during it re-sends
        # The clock starts before the write: a quick bot's answer can arrive before it returns.
        sent_at = time.monotonic()
        await seat.send(message)
        deadline = sent_at + seat.clock.budget_s()
        reconnect_s = self.settings.reconnect_ms / 1000
        gone_since = None if seat.connected else sent_at
        while True:
            now = time.monotonic()
            wait = deadline - now
            if gone_since is not None:
                wait = min(wait, gone_since + reconnect_s - now)
            if wait <= 0:
                if gone_since is not None:
                    self._fail(
                        seat,
                        Reason.DISCONNECTED,
                        _disconnected(now, gone_since, deadline, reconnect_s, sent_at),
                    )
                else:
                    self._fail(
                        seat, Reason.TIMEOUT, f"no answer within {seat.clock.budget_s():.3f} s"
                    )
                return None
            item: Incoming | None = await seat.inbox.get(wait)
            if item is None:
                continue
            if item.kind == "aborted":
                seat.open_request = None
                raise MatchAborted()
            if item.kind == "answer":
                answer = item.answer
                assert answer is not None
                if answer.request_id == request_id:
                    seat.open_request = None
                    seat.last_answered_id = request_id
                    # The referee's clock charges everything; what the bot says it spent
                    # thinking tells the network's share apart.
                    seat.record_round_trip(item.at - sent_at, answer.think_time_us)
                    if not seat.clock.charge(item.at - sent_at):
                        self._fail(seat, Reason.TIMEOUT, "answered after its clock ran out")
                        return None
                    if answer.option_index >= len(decision.options):
                        self._fail(
                            seat,
                            Reason.ILLEGAL_ANSWER,
                            f"option {answer.option_index} out of range (0..{len(decision.options) - 1})",
                        )
                        return None
                    return int(answer.option_index)
                # The stream reader queues only answers to the open request and answers a
                # duplicate itself; one queued otherwise is judged here the same way.
                if answer.request_id == seat.last_answered_id and answer.request_id != 0:
                    seat.duplicates += 1
                    await seat.send(
                        pb.PlayResponse(
                            notice=pb.Notice(
                                code="duplicate_answer",
                                message=f"request {answer.request_id} was already answered; ignored",
                            )
                        )
                    )
                    continue
                self._fail(
                    seat,
                    Reason.STALE_REQUEST,
                    f"answered request {answer.request_id}; the open request is {request_id}",
                )
                return None
            if item.kind == "withdrawn":  # the match ends while this seat thinks
                seat.open_request = None
                return None
            if item.kind == "violation":
                self._fail(seat, item.reason or Reason.MALFORMED_MESSAGE, item.detail)
                return None
            if item.kind == "detached":
                gone_since = item.at
            elif item.kind == "attached":
                gone_since = None
                if item.generation > sent_on:  # a rejoined stream gets the pending request again
                    await seat.send(message)
                    sent_on = item.generation
            elif item.kind == "exited":
                self._fail(seat, Reason.BOT_CRASHED, item.detail)
                return None

    def _fail(self, seat: Seat, reason: Reason, detail: str, void: bool = True) -> None:
        """``seat`` failed; under the VOID policy the match ends here (unless ``void`` is
        False: the caller marks several seats first, then voids)."""
        if seat.failed is not None:
            return
        seat.failed = reason
        seat.failure_detail = detail
        self.log.warning("seat_failed", seat=seat.index, reason=reason.value, detail=detail)
        if isinstance(seat, RemoteSeat):
            seat.open_request = None
        if void and self.settings.failure_policy is FailurePolicy.VOID:
            raise MatchVoided(reason)

    # ------------------------------------------------------------------ events and spectators

    def _publish(self, events: tuple[Event, ...]) -> None:
        if events and self._remote:  # spectators replay the match themselves (public_record.py)
            self._route(events)

    def _route(self, events: tuple[Event, ...]) -> None:
        """Queue each event for the seats allowed to see it."""
        for event in events:
            message = assemble.event_bytes(wire.event_to_proto(self.game, event))
            if event.private_to is None:
                for seat in self.seats:
                    if isinstance(seat, RemoteSeat):
                        seat.undelivered.append(message)
            else:
                seat = self.seats[event.private_to]
                if isinstance(seat, RemoteSeat):
                    seat.undelivered.append(message)

    def initial_state(self) -> GameState:
        """A fresh copy of the position the match started from (for spectators' replays)."""
        if self._prepared is not None:
            return self._prepared.clone()
        return self.game.new(self.settings.config, self.settings.seed)

    # ------------------------------------------------------------------ the end

    def _ranking(self, reason: Reason) -> tuple[dict[int, int], tuple[int, ...]]:
        """Each seat's place (1 = best) and the scores."""
        outcome: Outcome | None = self.state.outcome()
        if outcome is None:
            adjudicate = getattr(self.state, "adjudicate", None)
            outcome = adjudicate() if adjudicate is not None else None
        if outcome is None:
            order = list(range(len(self.seats)))
            scores = tuple(0 for _ in self.seats)
            shared: tuple[tuple[int, ...], ...] = ()
        else:
            order, scores, shared = list(outcome.ranking), outcome.scores, outcome.shared
        # Seats that failed rank below every seat that did not (forfeit policy).
        ranked = [p for p in order if self.seats[p].failed is None] + [
            p for p in order if self.seats[p].failed is not None
        ]
        places = {seat: position + 1 for position, seat in enumerate(ranked)}
        # Seats that win together (a Root coalition) share their place, unless one failed.
        for group in shared:
            if all(self.seats[s].failed is None for s in group):
                place = min(places[s] for s in group)
                places.update({s: place for s in group})
        return places, scores

    def _finish(self, reason: Reason) -> None:
        if self.result is not None:
            return
        for seat in self.seats:
            if isinstance(seat, RemoteSeat):
                # From here on no stream can take the seat: a rejoin racing MatchOver is
                # answered by its own handler (tickets die with the match, atomically).
                seat.close()
                if seat.violation is not None and seat.failed is None:
                    seat.failed, seat.failure_detail = seat.violation
        places, scores = self._ranking(reason)
        results: list[SeatResult] = []
        for seat in self.seats:
            results.append(
                SeatResult(
                    seat=seat.index,
                    rank=0 if reason in (Reason.VOIDED, Reason.ABORTED) else places[seat.index],
                    score=int(scores[seat.index]),
                    forfeited=seat.failed is not None,
                    reason=seat.failed or _unfailed_reason(seat),
                    detail=seat.failure_detail or _unfailed_detail(seat),
                    bot_name=seat.bot_name,
                    decisions=seat.clock.decisions,
                    think_time_us=seat.clock.think_time_us,
                    mean_round_trip_us=seat.mean_round_trip_us,
                    takeovers=list(seat.takeovers) if isinstance(seat, RemoteSeat) else [],
                )
            )
        self.result = MatchResult(self.id, reason, results)
        if self.replay_dir is not None:
            try:
                self.result.replay_path = str(write_replay(self.replay_dir, self))
            except OSError as exc:
                self.log.error("replay_not_written", error=str(exc))
        for callback in self.on_result:
            callback(self)
        self.log.info(
            "match_end",
            reason=reason.value,
            decisions=self.decisions,
            ranking=[r.rank for r in results],
            failures={r.seat: r.reason.value for r in results if r.forfeited},
            **({"takeovers": taken} if (taken := _takeovers(results)) else {}),
        )

    async def _announce(self) -> None:
        """Every seat and spectator learns the result; streams may then close."""
        assert self.result is not None
        result = self.result_proto()
        for seat in self.seats:
            if isinstance(seat, RemoteSeat):
                over = assemble.match_over_message(result, seat.undelivered)
                seat.undelivered = []
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(seat.send(over), ANNOUNCE_WRITE_S)
                seat.end_stream()

    def _conclude(self) -> None:
        """The match has ended: free what its seats hold (queues, request messages, streams)
        and tell whoever waits."""
        self.status = "finished"
        self.finished_at = time.monotonic()
        for seat in self.seats:
            if isinstance(seat, RemoteSeat):
                seat.release()
        self._fallbacks = []
        self._wake_watchers()
        self.finished.set()
        for callback in self.on_finish:
            callback(self)

    def summary(self) -> pb.MatchSummary:
        summary = pb.MatchSummary(
            match_id=self.id,
            setup=self.setup_proto(),
            status=self.status,
            joined=[s.joined for s in self.seats],
            decisions=self.decisions,
            watch_delay_ms=self.settings.watch_delay_ms,
        )
        if self.result is not None:
            summary.result.CopyFrom(self.result_proto())
        return summary

    @property
    def commitment(self) -> str:
        return commitment_of(self.settings.seed, self.settings.salt)

    def setup_proto(self) -> pb.MatchSetup:
        """The setup every seat and spectator may know: the seed only as a commitment."""
        config = self.settings.config
        return pb.MatchSetup(
            game=self.game.name,
            variant=config.variant,
            players=config.players,
            seed_commitment=self.commitment,
            options=options_text(config.options),
        )

    def result_proto(self) -> pb.MatchOver:
        """The result as everyone learns it; the seed only once it is revealed."""
        assert self.result is not None
        over = result_to_proto(self.result)
        if self.seed_revealed:
            over.seed_reveal.seed = self.settings.seed
            over.seed_reveal.salt = self.settings.salt
        return over

    def reveal_seed(self) -> None:
        """Chance no longer matters (the seed block is over): publish seed and salt, also in
        the replay file if one was written."""
        if self.seed_revealed:
            return
        self.seed_revealed = True
        if self.result is not None and self.result.replay_path:
            reveal_in_file(Path(self.result.replay_path), self.settings.seed, self.settings.salt)
        for callback in self.on_reveal:
            callback(self)


def _disconnected(
    now: float, gone_since: float, deadline: float, reconnect_s: float, sent_at: float
) -> str:
    """What happened to a seat whose stream dropped: its clock ran out first, or the
    reconnect window did."""
    if deadline <= gone_since + reconnect_s:
        if gone_since <= sent_at:
            return (
                f"the stream was down when the request was sent and the clock ran out "
                f"{now - sent_at:.1f} s later, before a rejoin"
            )
        return (
            f"the clock ran out {now - gone_since:.1f} s after the stream dropped, before a rejoin"
        )
    return f"the stream dropped and no rejoin came within the {reconnect_s:g} s reconnect window"


async def _joined_or_exited(seat: RemoteSeat) -> None:
    joined = asyncio.ensure_future(seat.ever_joined.wait())
    exited = asyncio.ensure_future(seat.exited.wait())
    try:
        await asyncio.wait({joined, exited}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        joined.cancel()
        exited.cancel()


def _unfailed_reason(seat: Seat) -> Reason:
    """The reason of a seat that did not fail: ``NOT_JOINED`` when the match ended (aborted)
    before its bot joined, so no one reads an absent seat as one that played."""
    if isinstance(seat, RemoteSeat) and not seat.ever_joined.is_set():
        return Reason.NOT_JOINED
    return Reason.COMPLETED


def _unfailed_detail(seat: Seat) -> str:
    if _unfailed_reason(seat) is Reason.NOT_JOINED:
        return "the match ended before this seat joined"
    return ""


def _takeovers(results: list[SeatResult]) -> dict[int, int]:
    """Seats taken over, and how often (for the log)."""
    return {r.seat: len(r.takeovers) for r in results if r.takeovers}


def result_to_proto(result: MatchResult) -> pb.MatchOver:
    return pb.MatchOver(
        match_id=result.match_id,
        reason=reason_to_proto(result.reason),
        replay_path=result.replay_path,
        seats=[
            pb.SeatResult(
                seat=r.seat,
                rank=r.rank,
                score=r.score,
                forfeited=r.forfeited,
                reason=reason_to_proto(r.reason),
                detail=r.detail,
                bot_name=r.bot_name,
                decisions=r.decisions,
                think_time_us=r.think_time_us,
                mean_round_trip_us=r.mean_round_trip_us,
                takeovers=len(r.takeovers),
            )
            for r in result.seats
        ],
    )


def reason_to_proto(reason: Reason) -> Any:
    return pb.ResultReason.Value("RESULT_REASON_" + reason.name)
