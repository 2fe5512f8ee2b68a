"""A referee hosting matches for a ladder: the match, its house and submitted seats, its end.

The ladder (the coordinator) plans a match — its settings and, for each seat, who sits in
it — and hands the plan to a referee. ``Hosting.host`` creates it on this process's referee
with the house policies in-process and the submitted bots launched beside it (in their
sandboxes, through ``SubmittedSeats``), and gives back a ``Hosted`` whose ``ended`` future
holds how the match ended, with what the coordinator keeps of it: the decisions, the replay
record and the submitted seats' stderr tails. The same class serves the ladder's own
(embedded) referee directly and a remote one behind ``RefereeHost/HostMatch``
(server/hosting_service.py), so a match plays the same wherever it is placed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import structlog

from games.policies.registry import UnknownPolicy, make_policy
from kassen.v1 import referee_pb2 as pb
from server.match import Match
from server.referee import CommandBot, LocalBot, Referee
from server.replay import replay_record
from server.results import MatchResult, Reason, SeatResult
from server.sandbox.process import SandboxLimits
from server.seats import RemoteSeat
from server.settings import MatchSettings

log = structlog.get_logger("kassen.hosting")


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """Who sits in one seat: a bot that joins with its ticket ("joining"), a built-in policy
    played in the referee ("house"), or a submitted bot run beside it ("submitted")."""

    name: str
    kind: str = "joining"
    policy: str = ""
    policy_seed: int = 0
    folder: str = ""
    limits: SandboxLimits | None = None
    #: The submitted bot's runtime (where it may be placed; the referee reads its manifest).
    runtime: str = ""


@dataclass(frozen=True, slots=True)
class MatchPlan:
    settings: MatchSettings
    seats: tuple[SeatPlan, ...]

    def needs_sandbox(self) -> bool:
        return any(seat.kind == "submitted" for seat in self.seats)


@dataclass(slots=True)
class MatchEnd:
    """How a hosted match ended, as the coordinator records it."""

    result: MatchResult
    decisions: int = 0
    replay_json: str | None = None
    stderr_tails: dict[int, str] = field(default_factory=dict)


@dataclass(slots=True)
class Hosted:
    """A match a referee hosts: what its bots need to join it, and its end to come."""

    match_id: str
    tickets: list[str]
    setup: pb.MatchSetup
    ended: asyncio.Future[MatchEnd]
    abort: Callable[[], None]
    #: Decisions made so far (a remote referee's ``alive`` messages keep it current).
    decisions: Callable[[], int] = lambda: 0


class CannotHost(ValueError):
    """A plan this referee cannot play (a seat it cannot run); the message says why."""


class RefereeUnavailable(RuntimeError):
    """The referee cannot take the match now (unreachable, stopping, full, or refusing)."""


class NoSandboxHere(CannotHost):
    """A submitted seat planned on a referee that runs no submitted bots."""


#: Makes the launched seat of a submitted bot (raises ``CannotHost`` naming why it cannot).
SubmittedSeats = Callable[[SeatPlan], CommandBot]


def lost(match_id: str, players: int, why: str, reason: Reason = Reason.VOIDED) -> MatchEnd:
    """The end of a match whose referee was lost (or that the ladder aborted): voided,
    nobody failed, nobody rated."""
    seats = [SeatResult(seat=index, detail=why) for index in range(players)]
    return MatchEnd(MatchResult(match_id, reason, seats))


class Hosting:
    """Hosts planned matches on ``referee``; ``submitted``: how this process runs submitted
    bots (None: it runs none, and a plan with one is refused)."""

    def __init__(
        self,
        referee: Referee,
        submitted: SubmittedSeats | None = None,
        runtimes: Sequence[str] = (),
    ) -> None:
        self.referee = referee
        self.submitted: SubmittedSeats | None = None
        self.runtimes: tuple[str, ...] = ()
        if submitted is not None:
            self.run_submitted(submitted, runtimes)

    def run_submitted(self, seats: SubmittedSeats, runtimes: Sequence[str]) -> None:
        """From now on, run submitted seats with ``seats`` (the runtimes it offers)."""
        self.submitted = seats
        self.runtimes = tuple(runtimes)

    def host(self, plan: MatchPlan, caller: str | None = None) -> Hosted:
        """Create and start the match. Raises what ``Referee.create_match`` raises, and
        ``CannotHost`` for a seat this referee cannot run."""
        players = plan.settings.config.players
        if len(plan.seats) != players:
            raise CannotHost(f"{len(plan.seats)} seats planned for {players} players")
        local: dict[int, LocalBot] = {}
        commands: dict[int, CommandBot] = {}
        for index, seat in enumerate(plan.seats):
            if seat.kind == "house":
                try:
                    policy = make_policy(seat.policy, plan.settings.game, seat.policy_seed)
                except UnknownPolicy as exc:
                    raise CannotHost(f"seat {index}: {exc}") from None
                local[index] = LocalBot(policy, seat.name)
            elif seat.kind == "submitted":
                if self.submitted is None:
                    raise NoSandboxHere("this referee runs no submitted bots")
                commands[index] = self.submitted(seat)
            elif seat.kind != "joining":
                raise CannotHost(f"seat {index}: unknown kind {seat.kind!r}")
        match, tickets = self.referee.create_match(
            plan.settings, local=local, commands=commands, caller=caller
        )
        for index, seat in enumerate(plan.seats):
            if seat.kind != "house" and seat.name:
                # Results name the seat as the plan does, not as its program names itself.
                match.seats[index].bot_name = seat.name
        ended: asyncio.Future[MatchEnd] = asyncio.get_running_loop().create_future()

        def finished(done: Match) -> None:
            if not ended.done():
                ended.set_result(end_of(done, plan))

        match.on_finish.append(finished)
        return Hosted(
            match.id,
            tickets,
            match.setup_proto(),
            ended,
            match.abort,
            lambda: len(match.state.history),
        )


def end_of(match: Match, plan: MatchPlan) -> MatchEnd:
    result = match.result or MatchResult(match.id, Reason.ABORTED, [])
    tails = {}
    for index, seat in enumerate(plan.seats):
        found = match.seats[index]
        if seat.kind == "submitted" and isinstance(found, RemoteSeat):
            tails[index] = found.stderr_tail.decode("utf-8", "replace")
    # A voided or aborted match is not kept (nobody is rated by it): no replay to make.
    kept = result.reason not in (Reason.VOIDED, Reason.ABORTED)
    replay = _replay_json(match) if kept else None
    return MatchEnd(result, len(match.state.history), replay, tails)


def _replay_json(match: Match) -> str | None:
    try:
        return json.dumps(replay_record(match), separators=(",", ":"))
    except Exception:  # a replay that cannot be written must not lose the result
        log.exception("replay not recorded", match=match.id)
        return None
