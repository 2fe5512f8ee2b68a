"""A tournament's settings, from a TOML file and/or command-line flags, checked up front.

Everything a run needs is validated before anything is written: the game and player count,
every bot (built-in names, ``module:Class`` / ``file.py:Class`` Python bots, command lines),
the format's own settings. A problem is a ``ConfigError`` with a one-line message.
"""

from __future__ import annotations

import hashlib
import shlex
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from games import GameConfig, InvalidConfig, UnknownGame, get_game
from games.contract import check_config
from games.policies import POLICY_NAMES
from kassen import __version__
from server.chance import draw_seed
from server.launch import can_start
from server.settings import MAX_SEED
from tournament.options import DEALS, DEFAULT_DATABASE, DEFAULT_OUTPUT, FORMATS


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot of the tournament: ``kind`` is builtin, python or command."""

    name: str
    kind: str
    target: str

    @property
    def spec(self) -> str:
        return {"builtin": self.target, "python": self.target, "command": f"cmd:{self.target}"}[
            self.kind
        ]

    def version_hash(self) -> str:
        """What identifies this version of the bot: its code where we can see it."""
        content = f"{self.kind}:{self.target}".encode()
        if self.kind == "builtin":
            content += f":kassen-{__version__}".encode()
        else:
            path = Path(
                self.target.split(":")[0] if self.kind == "python" else shlex.split(self.target)[-1]
            )
            if path.is_file() and path.stat().st_size < 50_000_000:
                content += path.read_bytes()
        return hashlib.sha256(content).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    game: str = "rumble-nation"
    #: "" means the game's first variant ("base" for Rumble Nation, "autumn" for Root).
    variant: str = ""
    players: int = 2
    format: str = "round-robin"
    bots: tuple[BotEntry, ...] = ()
    name: str = "tournament"
    games_per_group: int = 4
    rounds: int = 5
    candidate: str = ""
    #: The base seed. None: drawn secretly when the tournament starts (``with_seed``). A seed
    #: given in a file or flag makes the run reproducible, and therefore its chance public.
    seed: int | None = None
    #: True when the base seed was drawn by the runner: seeds then stay secret until their
    #: seed blocks are over (reports, replays, MatchOver).
    secret_seed: bool = True
    #: "duplicate": one seed per block in every rotation and group; "fresh": a seed per match.
    deals: str = "duplicate"
    concurrency: int = 2
    decision_ms: int = 1000
    #: Adjudicate a match after this many decisions (the game ranks the unfinished position).
    max_decisions: int = 10_000
    bank_ms: int = 10_000
    failure_policy: str = "forfeit"
    database: str = DEFAULT_DATABASE
    output: str = DEFAULT_OUTPUT
    replays: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.variant:
            try:
                first = get_game(self.game).variants[0]
            except UnknownGame:
                first = "base"  # validate() reports the unknown game
            object.__setattr__(self, "variant", first)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = [asdict(b) for b in self.bots]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        data = dict(data)
        data["bots"] = tuple(BotEntry(**b) for b in data.get("bots", ()))
        return cls(**data)

    def with_seed(self) -> TournamentConfig:
        """The config with its base seed settled: a given seed is public, a drawn one secret."""
        if self.seed is None:
            return replace(self, seed=draw_seed(), secret_seed=True)
        return replace(self, secret_seed=False)

    @property
    def base_seed(self) -> int:
        """The settled base seed (``with_seed`` has run)."""
        if self.seed is None:
            raise ValueError("the base seed is not settled yet (call with_seed)")
        return self.seed

    def with_overrides(self, **values: Any) -> TournamentConfig:
        given = {k: v for k, v in values.items() if v is not None}
        if given.get("game", self.game) != self.game and "variant" not in given:
            given["variant"] = ""  # the new game's first variant
        return replace(self, **given)


_KEYS = {
    "game",
    "variant",
    "players",
    "format",
    "name",
    "games_per_group",
    "rounds",
    "candidate",
    "seed",
    "concurrency",
    "failure_policy",
    "database",
    "output",
    "replays",
    "max_decisions",
    "deals",
}
#: Keys of the other tables of a tournament file.
_TOP_KEYS = {"tournament", "bots"}
_CLOCK_KEYS = {"decision_ms", "bank_ms"}
_BOT_KEYS = {"name", "builtin", "command", "python"}


def _unknown(found: Any, known: set[str], where: str) -> None:
    """Name every key of a table that the file format does not have (a typo is never
    silently ignored nor reported as something else)."""
    if not isinstance(found, dict):
        raise ConfigError(f"{where} must be a table")
    unknown = sorted(set(found) - known)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
            f"(known: {', '.join(sorted(known))})"
        )


def parse_bot(entry: Any) -> BotEntry:
    """A bot from a TOML table or a command-line string.

    Strings: ``random`` / ``greedy``; ``NAME=cmd:COMMAND``; ``NAME=module:Class``;
    ``file.py:Class``. Tables: ``{name, builtin}``, ``{name, command}``, ``{name, python}``.
    """
    if isinstance(entry, str):
        name, sep, rest = entry.partition("=")
        if not sep:
            name, rest = "", entry
        if rest.startswith("cmd:"):
            return BotEntry(name or rest[4:].split()[0], "command", rest[4:].strip())
        if rest in POLICY_NAMES:
            return BotEntry(name or rest, "builtin", rest)
        if ":" in rest:
            return BotEntry(name or rest.rpartition(":")[2], "python", rest)
        raise ConfigError(
            f"unknown bot {rest!r} (built-in: {', '.join(POLICY_NAMES)}; or NAME=cmd:COMMAND, module:Class)"
        )
    if isinstance(entry, dict):
        kinds = [k for k in ("builtin", "command", "python") if k in entry]
        raw_name = entry.get("name")
        if len(kinds) > 1 or not isinstance(raw_name, str) or not raw_name:
            raise ConfigError(
                f"a [[bots]] entry needs a name and one of builtin, command, python: {entry}"
            )
        bot_name: str = raw_name
        if not kinds:
            return parse_bot(bot_name)
        target = entry[kinds[0]]
        if not isinstance(target, str) or not target:
            raise ConfigError(f"bot {bot_name!r}: {kinds[0]} must be a non-empty string")
        if kinds[0] == "builtin" and target not in POLICY_NAMES:
            raise ConfigError(f"bot {bot_name!r}: unknown built-in {target!r}")
        return BotEntry(bot_name, kinds[0], target)
    raise ConfigError(f"cannot read bot entry {entry!r}")


def load_file(path: Path) -> TournamentConfig:
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    _unknown(data, _TOP_KEYS, f"{path}")
    section = data.get("tournament", {})
    _unknown(section, _KEYS | {"time_control"}, f"{path}: [tournament]")
    values: dict[str, Any] = {k: v for k, v in section.items() if k in _KEYS}
    clock = section.get("time_control", {})
    _unknown(clock, _CLOCK_KEYS, f"{path}: [tournament.time_control]")
    if clock:
        values["decision_ms"] = clock.get("decision_ms", 1000)
        values["bank_ms"] = clock.get("bank_ms", 10_000)
    entries = data.get("bots", [])
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: bots must be an array of tables ([[bots]])")
    for number, entry in enumerate(entries, 1):
        if isinstance(entry, dict):
            label = f"[[bots]] entry {number}" + (
                f" ({entry['name']!r})" if isinstance(entry.get("name"), str) else ""
            )
            _unknown(entry, _BOT_KEYS, f"{path}: {label}")
    values["bots"] = tuple(parse_bot(b) for b in entries)
    try:
        return TournamentConfig(**values)
    except TypeError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def validate(config: TournamentConfig) -> None:
    """Raise ConfigError naming the first problem; nothing is started or written."""
    for key, kind in (
        ("players", int),
        ("games_per_group", int),
        ("rounds", int),
        ("concurrency", int),
        ("decision_ms", int),
        ("max_decisions", int),
        ("bank_ms", int),
    ):
        if not isinstance(getattr(config, key), kind) or isinstance(getattr(config, key), bool):
            raise ConfigError(f"{key} must be a whole number, not {getattr(config, key)!r}")
    try:
        game = get_game(config.game)
        check_config(game, GameConfig(config.players, config.variant))
    except (UnknownGame, InvalidConfig) as exc:
        raise ConfigError(str(exc)) from None
    if config.seed is not None and (
        not isinstance(config.seed, int)
        or isinstance(config.seed, bool)
        or not 0 <= config.seed <= MAX_SEED
    ):
        raise ConfigError(f"seed must be a whole number from 0 to 2^63-1, not {config.seed!r}")
    if config.deals not in DEALS:
        raise ConfigError(f"deals must be one of {', '.join(DEALS)}, not {config.deals!r}")
    if config.format not in FORMATS:
        raise ConfigError(f"unknown format {config.format!r} (choose from {', '.join(FORMATS)})")
    if config.failure_policy not in ("forfeit", "void"):
        raise ConfigError(f"failure_policy must be forfeit or void, not {config.failure_policy!r}")
    if (
        config.games_per_group < 1
        or config.rounds < 1
        or config.concurrency < 1
        or config.decision_ms < 1
        or config.max_decisions < 1
    ):
        raise ConfigError(
            "games_per_group, rounds, concurrency, decision_ms and max_decisions must be at least 1"
        )
    names = [b.name for b in config.bots]
    if len(set(names)) != len(names):
        raise ConfigError(f"bot names must be unique: {names}")
    needed = config.players
    if len(names) < needed:
        raise ConfigError(
            f"{config.format} of {config.players}-player games needs at least {needed} bots, got {len(names)}"
        )
    if config.format == "gauntlet" and not config.candidate:
        raise ConfigError(
            "a gauntlet needs a candidate: --candidate NAME (or candidate = ... in the file), "
            f"one of the bots: {', '.join(names)}"
        )
    if config.format == "gauntlet" and config.candidate not in names:
        raise ConfigError(
            f"gauntlet candidate {config.candidate!r} is not one of the bots: {', '.join(names)}"
        )
    for bot in config.bots:
        check_bot(bot)


def check_bot(bot: BotEntry) -> None:
    if bot.kind == "command":
        try:
            argv = shlex.split(bot.target)
        except ValueError as exc:
            raise ConfigError(f"bot {bot.name!r}: cannot parse command: {exc}") from None
        if not argv or not can_start(argv[0]):
            raise ConfigError(
                f"bot {bot.name!r}: cannot start {argv[0] if argv else '(empty)'!r}: no such program"
            )
    elif bot.kind == "python":
        from client_sdk.loading import BotNotFound, load_bot

        try:
            load_bot(bot.target)
        except BotNotFound as exc:
            raise ConfigError(f"bot {bot.name!r}: {exc}") from None
