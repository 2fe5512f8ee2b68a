"""How a match is refereed: time control, failure policy, windows and limits (with defaults)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from games.contract import GameConfig

#: Defaults, documented in docs/protocol.md.
DEFAULT_DECISION_MS = 1_000
DEFAULT_BANK_MS = 10_000
DEFAULT_JOIN_TIMEOUT_MS = 30_000
DEFAULT_RECONNECT_MS = 5_000
DEFAULT_MAX_DECISIONS = 10_000
#: Largest message a bot may send; answers are a few bytes, so this is generous.
MAX_MESSAGE_BYTES = 64 * 1024


class FailurePolicy(enum.Enum):
    """What happens when a seat fails: it forfeits (random play, ranked last) or the match is void."""

    FORFEIT = "forfeit"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Free time per decision, plus a bank for decisions that take longer."""

    decision_ms: int = DEFAULT_DECISION_MS
    bank_ms: int = DEFAULT_BANK_MS


@dataclass(frozen=True, slots=True)
class MatchSettings:
    game: str
    config: GameConfig
    seed: int
    time_control: TimeControl = field(default_factory=TimeControl)
    failure_policy: FailurePolicy = FailurePolicy.FORFEIT
    join_timeout_ms: int = DEFAULT_JOIN_TIMEOUT_MS
    reconnect_ms: int = DEFAULT_RECONNECT_MS
    max_decisions: int = DEFAULT_MAX_DECISIONS
