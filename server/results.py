"""Named result reasons and per-seat results of a match."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


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
    #: A seat's only: the match was aborted before this seat joined (its join window still
    #: open). Not a failure of the seat.
    NOT_JOINED = "not_joined"


@dataclass(frozen=True, slots=True)
class Takeover:
    """A stream joined with a seat's ticket while another stream still held the seat, and took
    it over (the other heard ``displaced``). Whoever holds a ticket can do that, so a result
    shows it: from then on the seat may have been played by someone else."""

    #: How many decisions of the match had been applied: the index, in the replay's
    #: ``decisions``, of the first one applied after the takeover.
    before_decision: int
    #: When it happened (Unix time, seconds).
    at: float


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
    takeovers: list[Takeover] = field(default_factory=list)


@dataclass(slots=True)
class MatchResult:
    match_id: str
    reason: Reason
    seats: list[SeatResult]
    replay_path: str = ""
