"""How a match is refereed: time control, failure policy, windows and limits (with defaults)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from games.contract import GameConfig
from server.chance import draw_salt

#: Defaults, documented in docs/protocol.md.
DEFAULT_DECISION_MS = 1_000
DEFAULT_BANK_MS = 10_000
DEFAULT_JOIN_TIMEOUT_MS = 30_000
DEFAULT_RECONNECT_MS = 5_000
DEFAULT_MAX_DECISIONS = 10_000
#: Largest message a bot may send; answers are a few bytes, so this is generous.
MAX_MESSAGE_BYTES = 64 * 1024
DEFAULT_PING_INTERVAL_MS = 5_000
DEFAULT_MAX_LIVE_MATCHES = 1_000
#: Matches still in their join window (each holds its position and seats, up to 10 minutes).
DEFAULT_MAX_WAITING_MATCHES = 1_000
#: The same, per caller (the organiser with a token, otherwise the client's host): one
#: caller cannot take all of a referee, and 500 matches at once still fit.
DEFAULT_MAX_LIVE_PER_CALLER = 600
DEFAULT_MAX_WAITING_PER_CALLER = 600
#: Spectators (``Watch`` streams) at once: in one referee process, of one match, of one caller
#: (the client's host). Each costs the loop one message per coalescing interval and some
#: memory for its stream (docs/security.md, "Spectators", has the measurements).
DEFAULT_MAX_WATCHERS = 2_000
DEFAULT_MAX_WATCHERS_PER_MATCH = 1_000
DEFAULT_MAX_WATCHERS_PER_CALLER = 100
#: Finished matches kept in memory (older ones are answered from the store).
DEFAULT_RECENT_MATCHES = 64
#: How long a stopping referee lets its matches tell their seats MatchOver(ABORTED).
DEFAULT_SHUTDOWN_GRACE_S = 5.0

#: Bounds on what an organiser may ask for (absurd values are refused, naming the field).
MAX_TIME_MS = 3_600_000
MAX_JOIN_TIMEOUT_MS = 600_000
MAX_RECONNECT_MS = 600_000
MAX_DECISIONS_LIMIT = 1_000_000
MAX_WATCH_DELAY_MS = 3_600_000
MAX_SEED = 2**63 - 1
MESSAGE_BYTES_RANGE = (1024, 16 * 1024 * 1024)
LIVE_MATCHES_RANGE = (1, 100_000)
WATCHERS_RANGE = (1, 100_000)
RECENT_MATCHES_RANGE = (0, 100_000)
PING_INTERVAL_RANGE_MS = (100, 600_000)
#: Game options (``CreateMatchRequest.options``): how many keys, how long a key, and the bytes
#: of all keys and values together (a Gnomeville content pack travels as text in ``content``).
MAX_OPTIONS = 64
MAX_OPTION_KEY_BYTES = 64
MAX_OPTIONS_BYTES = 256 * 1024


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
    """One match. ``seed`` is secret while it runs: seats and spectators see only the
    commitment to ``seed`` and ``salt``; ``reveal_seed`` says whether MatchOver reveals them
    (False for a tournament match whose seed block has matches still to play)."""

    game: str
    config: GameConfig
    seed: int
    time_control: TimeControl = field(default_factory=TimeControl)
    failure_policy: FailurePolicy = FailurePolicy.FORFEIT
    join_timeout_ms: int = DEFAULT_JOIN_TIMEOUT_MS
    reconnect_ms: int = DEFAULT_RECONNECT_MS
    max_decisions: int = DEFAULT_MAX_DECISIONS
    salt: str = field(default_factory=draw_salt)
    reveal_seed: bool = True
    watch_delay_ms: int = 0


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What the organiser sets for a whole referee (``kassen serve`` flags).

    ``admin_token``: with it, CreateMatch (and every management call) needs it; without it
    the server listens on loopback only. TLS is on when both PEM byte strings are given;
    ``tls_ca_file`` then names the PEM file launched bots are told to trust (KASSEN_TLS_CA).
    ``relay_token``: a ``Watch`` presenting it (metadata ``x-kassen-relay``) comes from a
    trusted relay (the ladder's web page, which fans one stream out to many viewers) and is
    not counted per caller; it still counts per match and per process.
    """

    admin_token: str | None = None
    tls_cert_chain: bytes | None = None
    tls_private_key: bytes | None = None
    tls_ca_file: str | None = None
    ping_interval_ms: int = DEFAULT_PING_INTERVAL_MS
    min_watch_delay_ms: int = 0
    max_live_matches: int = DEFAULT_MAX_LIVE_MATCHES
    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_waiting_matches: int = DEFAULT_MAX_WAITING_MATCHES
    max_live_per_caller: int = DEFAULT_MAX_LIVE_PER_CALLER
    max_waiting_per_caller: int = DEFAULT_MAX_WAITING_PER_CALLER
    max_watchers: int = DEFAULT_MAX_WATCHERS
    max_watchers_per_match: int = DEFAULT_MAX_WATCHERS_PER_MATCH
    max_watchers_per_caller: int = DEFAULT_MAX_WATCHERS_PER_CALLER
    relay_token: str | None = None
    recent_matches: int = DEFAULT_RECENT_MATCHES
    shutdown_grace_s: float = DEFAULT_SHUTDOWN_GRACE_S
    #: Seconds between ``referee_load`` log lines (``server.load``; the commands that serve
    #: start the monitor once they serve); 0: none.
    load_report_s: float = 0.0
    #: Runtimes of the submitted bots this referee runs beside itself for a ladder (none: it
    #: hosts matches with house and connected bots only), and the folder its sandboxes'
    #: area is made in (``tournament.submissions.runner``).
    submitted_runtimes: tuple[str, ...] = ()
    sandbox_folder: str = ""
