"""``RefereeHost`` messages to and from the hosting types (server/hosting.py), in one place
for both ends: the coordinator writes a plan and reads an end, a referee the other way."""

from __future__ import annotations

from kassen.v1 import fleet_pb2 as fpb
from kassen.v1 import referee_pb2 as pb
from server.hosting import CannotHost, MatchEnd, MatchPlan, SeatPlan
from server.limits import settings_from_request
from server.match import reason_to_proto, result_to_proto
from server.results import MatchResult, Reason, SeatResult
from server.sandbox.process import SandboxLimits
from server.settings import FailurePolicy, MatchSettings

#: The longest stderr tail a referee sends per seat (it keeps no more itself).
MAX_TAIL_BYTES = 16_384


def plan_to_proto(plan: MatchPlan) -> fpb.HostMatchRequest:
    settings = plan.settings
    match = pb.CreateMatchRequest(
        game=settings.game,
        variant=settings.config.variant,
        players=settings.config.players,
        seed=settings.seed,
        time_control=pb.TimeControl(
            decision_ms=settings.time_control.decision_ms,
            bank_ms=settings.time_control.bank_ms,
        ),
        failure_policy=pb.FAILURE_POLICY_VOID
        if settings.failure_policy is FailurePolicy.VOID
        else pb.FAILURE_POLICY_FORFEIT,
        join_timeout_ms=settings.join_timeout_ms,
        max_decisions=settings.max_decisions,
        watch_delay_ms=settings.watch_delay_ms,
        options=dict(settings.config.options),
        reconnect_ms=settings.reconnect_ms,
    )
    return fpb.HostMatchRequest(match=match, seats=[_seat_to_proto(s) for s in plan.seats])


def _seat_to_proto(seat: SeatPlan) -> fpb.HostedSeat:
    if seat.kind == "house":
        return fpb.HostedSeat(
            name=seat.name, house=fpb.HouseSeat(policy=seat.policy, seed=seat.policy_seed)
        )
    if seat.kind == "submitted":
        limits = seat.limits or SandboxLimits()
        bounds = fpb.SandboxBounds(
            memory_mb=limits.memory_mb,
            processes=limits.processes,
            cpu_seconds=limits.cpu_s,
            tmpfs_mb=limits.tmpfs_mb,
            open_files=limits.open_files,
            cpus=limits.cpus,
        )
        return fpb.HostedSeat(
            name=seat.name, submitted=fpb.SubmittedSeat(folder=seat.folder, bounds=bounds)
        )
    return fpb.HostedSeat(name=seat.name, joining=fpb.JoiningSeat())


def plan_from_proto(request: fpb.HostMatchRequest) -> MatchPlan:
    """The plan a request asks for. Raises what ``settings_from_request`` raises for the
    match, ``CannotHost`` for its seats."""
    settings: MatchSettings = settings_from_request(request.match)
    seats = []
    for index, seat in enumerate(request.seats):
        kind = seat.WhichOneof("kind")
        if kind == "house":
            seats.append(SeatPlan(seat.name, "house", seat.house.policy, seat.house.seed))
        elif kind == "submitted":
            if not seat.submitted.folder.startswith("/"):
                raise CannotHost(f"seat {index}: a submitted bot's folder must be absolute")
            seats.append(
                SeatPlan(
                    seat.name,
                    "submitted",
                    folder=seat.submitted.folder,
                    limits=_limits(seat.submitted.bounds),
                )
            )
        elif kind == "joining":
            seats.append(SeatPlan(seat.name))
        else:
            raise CannotHost(f"seat {index} says neither joining, house nor submitted")
    return MatchPlan(settings, tuple(seats))


def _limits(bounds: fpb.SandboxBounds) -> SandboxLimits:
    default = SandboxLimits()
    return SandboxLimits(
        memory_mb=bounds.memory_mb or default.memory_mb,
        processes=bounds.processes or default.processes,
        cpu_s=bounds.cpu_seconds or default.cpu_s,
        tmpfs_mb=bounds.tmpfs_mb or default.tmpfs_mb,
        open_files=bounds.open_files or default.open_files,
        cpus=bounds.cpus if bounds.cpus > 0 else default.cpus,
    )


def end_to_proto(end: MatchEnd) -> fpb.HostedMatchEnded:
    tails = {
        seat: text.encode()[-MAX_TAIL_BYTES:].decode("utf-8", "replace")
        for seat, text in end.stderr_tails.items()
    }
    return fpb.HostedMatchEnded(
        result=result_to_proto(end.result),
        decisions=end.decisions,
        replay_json=end.replay_json or "",
        stderr_tails=tails,
    )


def end_from_proto(message: fpb.HostedMatchEnded) -> MatchEnd:
    over = message.result
    seats = [
        SeatResult(
            seat=seat.seat,
            rank=seat.rank,
            score=seat.score,
            forfeited=seat.forfeited,
            reason=reason_from_proto(seat.reason),
            detail=seat.detail,
            bot_name=seat.bot_name,
            decisions=seat.decisions,
            think_time_us=seat.think_time_us,
            mean_round_trip_us=seat.mean_round_trip_us,
        )
        for seat in over.seats
    ]
    result = MatchResult(over.match_id, reason_from_proto(over.reason), seats)
    return MatchEnd(
        result,
        message.decisions,
        message.replay_json or None,
        dict(message.stderr_tails),
    )


def reason_from_proto(value: int) -> Reason:
    """The reason a message names; an unknown one (a newer referee) reads as ABORTED."""
    known = {int(v): n for n, v in pb.ResultReason.items()}
    name = known.get(value, "")
    return Reason.__members__.get(name.removeprefix("RESULT_REASON_"), Reason.ABORTED)


__all__ = [
    "end_from_proto",
    "end_to_proto",
    "plan_from_proto",
    "plan_to_proto",
    "reason_from_proto",
    "reason_to_proto",
]
