"""What an organiser may ask of a match: ``CreateMatchRequest`` checked field by field.

Every field has a default of its own and a bound; a value outside it is refused with the
field's name, so an organiser's typo (a join window of 10^9 ms, a million players) never
becomes a match that holds the referee's memory for days.
"""

from __future__ import annotations

from games import GameConfig, UnknownGame, get_game
from kassen.v1 import referee_pb2 as pb
from server.chance import draw_salt, draw_seed
from server.settings import (
    DEFAULT_BANK_MS,
    DEFAULT_DECISION_MS,
    DEFAULT_JOIN_TIMEOUT_MS,
    DEFAULT_MAX_DECISIONS,
    MAX_DECISIONS_LIMIT,
    MAX_JOIN_TIMEOUT_MS,
    MAX_SEED,
    MAX_TIME_MS,
    MAX_WATCH_DELAY_MS,
    FailurePolicy,
    MatchSettings,
    TimeControl,
)


class InvalidSetting(ValueError):
    """A request field outside its bounds; the message names the field."""


def _at_most(field: str, value: int, limit: int) -> int:
    if value > limit:
        raise InvalidSetting(f"{field} = {value} is above its limit {limit}")
    return value


def time_control_from(request: pb.CreateMatchRequest) -> TimeControl:
    """Each field defaults on its own: only ``decision_ms`` set keeps the default bank."""
    tc = request.time_control
    decision_ms = _at_most("time_control.decision_ms", tc.decision_ms, MAX_TIME_MS)
    bank_ms = tc.bank_ms if tc.HasField("bank_ms") else DEFAULT_BANK_MS
    return TimeControl(
        decision_ms=decision_ms or DEFAULT_DECISION_MS,
        bank_ms=_at_most("time_control.bank_ms", bank_ms, MAX_TIME_MS),
    )


def settings_from_request(request: pb.CreateMatchRequest) -> MatchSettings:
    """The match a request asks for, with defaults; raises ``InvalidSetting``/``UnknownGame``
    /``InvalidConfig`` (all answered with INVALID_ARGUMENT)."""
    game = get_game(request.game)  # UnknownGame names the game
    seed = _at_most("seed", request.seed, MAX_SEED) if request.HasField("seed") else draw_seed()
    if request.failure_policy not in (
        pb.FAILURE_POLICY_UNSPECIFIED,
        pb.FAILURE_POLICY_FORFEIT,
        pb.FAILURE_POLICY_VOID,
    ):
        raise InvalidSetting(f"failure_policy = {request.failure_policy} is not a known policy")
    watch_delay = _at_most("watch_delay_ms", request.watch_delay_ms, MAX_WATCH_DELAY_MS)
    return MatchSettings(
        game=game.name,
        config=GameConfig(players=request.players, variant=request.variant or game.variants[0]),
        seed=seed,
        salt=draw_salt(),
        time_control=time_control_from(request),
        failure_policy=FailurePolicy.VOID
        if request.failure_policy == pb.FAILURE_POLICY_VOID
        else FailurePolicy.FORFEIT,
        join_timeout_ms=_at_most("join_timeout_ms", request.join_timeout_ms, MAX_JOIN_TIMEOUT_MS)
        or DEFAULT_JOIN_TIMEOUT_MS,
        max_decisions=_at_most("max_decisions", request.max_decisions, MAX_DECISIONS_LIMIT)
        or DEFAULT_MAX_DECISIONS,
        watch_delay_ms=watch_delay,  # the referee raises it to its minimum
    )


__all__ = ["InvalidSetting", "UnknownGame", "settings_from_request", "time_control_from"]
