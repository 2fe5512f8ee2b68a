"""Named result reasons and per-seat results of a match."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Reason(enum.Enum):
    """Why a match or a seat ended as it did. Names match ``kassen.v1.ResultReason``."""

    COMPLETED = "completed"
    TIMEOUT = "timeout"
    ILLEGAL_ANSWER = "illegal_answer"
    MALFORMED_MESSAGE = "malformed_message"
    STALE_REQUEST = "stale_request"
    DISCONNECTED = "disconnected"
    BOT_CRASHED = "bot_crashed"
    NO_SHOW = "no_show"
    ADJUDICATED = "adjudicated"
    VOIDED = "voided"
    ABORTED = "aborted"
    FLOODED = "flooded"


@dataclass(slots=True)
class SeatResult:
    seat: int
    rank: int = 0
    score: int = 0
    forfeited: bool = False
    reason: Reason = Reason.COMPLETED
    detail: str = ""
    bot_name: str = ""
    decisions: int = 0
    think_time_us: int = 0
    mean_round_trip_us: int = 0


@dataclass(slots=True)
class MatchResult:
    match_id: str
    reason: Reason
    seats: list[SeatResult]
    replay_path: str = ""
