"""What an organiser may ask of a match: ``CreateMatchRequest`` checked field by field.

Every field has a default of its own and a bound; a value outside it is refused with the
field's name, so an organiser's typo (a join window of 10^9 ms, a million players) never
becomes a match that holds the referee's memory for days.
"""

from __future__ import annotations

from collections.abc import Mapping

from games import GameConfig, UnknownGame, get_game
from games.contract import check_config
from kassen.v1 import referee_pb2 as pb
from server.chance import draw_salt, draw_seed
from server.settings import (
    DEFAULT_BANK_MS,
    DEFAULT_DECISION_MS,
    DEFAULT_JOIN_TIMEOUT_MS,
    DEFAULT_MAX_DECISIONS,
    DEFAULT_RECONNECT_MS,
    MAX_DECISIONS_LIMIT,
    MAX_JOIN_TIMEOUT_MS,
    MAX_OPTION_KEY_BYTES,
    MAX_OPTIONS,
    MAX_OPTIONS_BYTES,
    MAX_RECONNECT_MS,
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


def checked_options(options: Mapping[str, str]) -> dict[str, str]:
    """Game options within their bounds (count, key length, total size); ``InvalidSetting``
    names the bound. What the keys and values mean is the game's to check (``Game.new``)."""
    if len(options) > MAX_OPTIONS:
        raise InvalidSetting(f"options: {len(options)} keys, above the limit of {MAX_OPTIONS}")
    total = 0
    for key, value in options.items():
        size = len(key.encode())
        if not key or size > MAX_OPTION_KEY_BYTES:
            raise InvalidSetting(
                f"options: key {key[:MAX_OPTION_KEY_BYTES]!r} must have 1 to "
                f"{MAX_OPTION_KEY_BYTES} bytes"
            )
        total += size + len(value.encode())
    if total > MAX_OPTIONS_BYTES:
        raise InvalidSetting(
            f"options: {total} bytes of keys and values, above the limit of {MAX_OPTIONS_BYTES}"
        )
    return dict(options)


def settings_from_request(request: pb.CreateMatchRequest) -> MatchSettings:
    """The match a request asks for, with defaults; raises ``InvalidSetting``/``UnknownGame``
    /``InvalidConfig`` (all answered with INVALID_ARGUMENT). The game's options are checked by
    the game itself: it sets up a game with them once (an unknown key, a bad value or an
    invalid content pack is ``InvalidConfig`` naming it)."""
    game = get_game(request.game)  # UnknownGame names the game
    config = GameConfig(
        players=request.players,
        variant=request.variant or game.variants[0],
        options=checked_options(request.options),
    )
    check_config(game, config)
    seed = _at_most("seed", request.seed, MAX_SEED) if request.HasField("seed") else draw_seed()
    game.new(config, seed)  # InvalidConfig names a bad option before a match exists
    if request.failure_policy not in (
        pb.FAILURE_POLICY_UNSPECIFIED,
        pb.FAILURE_POLICY_FORFEIT,
        pb.FAILURE_POLICY_VOID,
    ):
        raise InvalidSetting(f"failure_policy = {request.failure_policy} is not a known policy")
    watch_delay = _at_most("watch_delay_ms", request.watch_delay_ms, MAX_WATCH_DELAY_MS)
    return MatchSettings(
        game=game.name,
        config=config,
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
        reconnect_ms=_at_most("reconnect_ms", request.reconnect_ms, MAX_RECONNECT_MS)
        or DEFAULT_RECONNECT_MS,
    )


__all__ = [
    "InvalidSetting",
    "UnknownGame",
    "checked_options",
    "settings_from_request",
    "time_control_from",
]
