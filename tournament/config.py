"""A tournament's settings, from a TOML file and/or command-line flags, checked up front.

Everything a run needs is validated before anything is written: the game and player count,
the game's options (by the game itself: ``Game.new``), every bot (built-in names,
``module:Class`` / ``file.py:Class`` Python bots, command lines), the format's own settings.
A problem is a ``ConfigError`` with a one-line message.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import shlex
import tempfile
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from games import GameConfig, InvalidConfig, UnknownGame, get_game
from games.contract import Game, check_config
from games.policies import POLICY_NAMES, UnknownPolicy, make_policy
from games.policies.ismcts_params import NAME as ISMCTS
from games.policies.ismcts_params import BadParams, from_mapping, is_spec
from games.policies.registry import canonical, is_builtin
from kassen import __version__
from kassen.errors import WriteFailed
from server.bot_box import DEFAULT_LIMITS, BoxLimits
from server.chance import draw_seed
from server.launch import can_start
from server.settings import MAX_OPTIONS_BYTES
from tournament.config_schema import (
    MAX_FILE_BYTES,
    MAX_MATCHES,
    MAX_NAME_CHARS,
    RUNNER,
    SECTIONS,
    config_fields,
    shown,
    unknown_keys,
)
from tournament.options import DEFAULT_DATABASE, DEFAULT_OUTPUT
from tournament.schedule import match_count


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot of the tournament: ``kind`` is builtin, python or command."""

    name: str
    kind: str
    target: str
    #: A command bot's own resource limits (``limits`` of its ``[[bots]]`` entry), over the
    #: tournament's: (key, value) pairs of ``server.bot_box.BoxLimits``.
    limits: tuple[tuple[str, int], ...] = ()

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


def default_games(players: int) -> int:
    """Two seed blocks, and at least four games: intervals and LOS are estimated from how
    results vary between blocks, which one block cannot show (a 4-player default of 4 games
    would be one block, and its table no intervals at all). Solo: four seeds."""
    return max(4, 2 * players)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    game: str = "rumble-nation"
    #: "" means the game's first variant ("base" for Rumble Nation, "autumn" for Root).
    variant: str = ""
    players: int = 2
    format: str = "round-robin"
    bots: tuple[BotEntry, ...] = ()
    name: str = "tournament"
    #: Games per group, rounded up to whole seed blocks; None (the default): ``default_games``.
    games_per_group: int | None = None
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
    #: ``[tournament.limits]``: every command bot's resource limits (server/bot_box.py).
    limit_memory_mb: int = DEFAULT_LIMITS.memory_mb
    limit_cpu_s: int = DEFAULT_LIMITS.cpu_s
    limit_open_files: int = DEFAULT_LIMITS.open_files
    limit_processes: int = DEFAULT_LIMITS.processes
    limit_address_space_mb: int = DEFAULT_LIMITS.address_space_mb
    #: The game's options (``GameConfig.options``) as text, e.g. Gnomeville's ``towns``. A
    #: content pack is held as its text under ``content``, not its path, so the stored
    #: tournament (and so resume) and every replay carry the pack they were played with.
    options: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``[runner] ray`` / ``--ray``: run the matches on this Ray cluster ("" for local
    #: processes). Where matches run changes no result, so resume may run them elsewhere.
    ray: str = ""

    @property
    def games(self) -> int:
        """Games per group: as set, or ``default_games`` for these players."""
        if self.games_per_group is None:
            return default_games(self.players)
        return self.games_per_group

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
        data["bots"] = tuple(
            BotEntry(**{**b, "limits": tuple((k, v) for k, v in b.get("limits", ()))})
            for b in data.get("bots", ())
        )
        return cls(**data)

    def bot_limits(self, bot: BotEntry) -> BoxLimits:
        """A command bot's limits: its own, over the tournament's (validated on load)."""
        tournament = BoxLimits(
            memory_mb=self.limit_memory_mb,
            cpu_s=self.limit_cpu_s,
            open_files=self.limit_open_files,
            processes=self.limit_processes,
            address_space_mb=self.limit_address_space_mb,
        )
        return tournament.merged(dict(bot.limits))

    def with_seed(self) -> TournamentConfig:
        """The config with its base seed settled: a given seed is public, a drawn one secret."""
        if self.seed is None:
            return replace(self, seed=draw_seed(), secret_seed=True)
        return replace(self, secret_seed=False)

    @property
    def solo(self) -> bool:
        """One player: no opponent, so bots are compared by score on the same seeds."""
        return self.players == 1

    @property
    def game_config(self) -> GameConfig:
        """What every match of the tournament is set up with."""
        return GameConfig(self.players, self.variant, dict(self.options))

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


#: The game option that names a content pack file; the runner stores the file's text.
CONTENT_OPTION = "content"


def check_section(found: Any, section: str, where: str) -> None:
    """A table of the file against its section of the schema (``config_schema.SECTIONS``):
    a key the file format does not have is named (with the close match of a typo), never
    silently ignored; a value of the wrong type or out of bounds is named with its key."""
    if not isinstance(found, dict):
        raise ConfigError(f"{where} must be a table, not {shown(found)}")
    unknown = unknown_keys(found, section)
    if unknown:
        raise ConfigError(f"{where}: {unknown}")
    for key, value in found.items():
        problem = SECTIONS[section][key].problem(value)
        if problem:
            raise ConfigError(f"{where}: {key} {problem}")


def parse_bot(entry: Any) -> BotEntry:
    """A bot from a TOML table or a command-line string.

    Strings: ``random`` / ``greedy`` / ``ismcts``; ``[NAME=]ismcts:KEY=VALUE,...`` (search
    parameters); ``NAME=cmd:COMMAND``; ``NAME=module:Class``; ``file.py:Class``. Tables:
    ``{name, builtin[, params]}``, ``{name, command}``, ``{name, python}``. An ismcts bot's
    target is its canonical spec (``ismcts:c=0.5,seconds=1.0``): what is stored and run.
    """
    if isinstance(entry, str):
        name, sep, rest = entry.partition("=")
        if not sep or is_spec(entry):
            name, rest = "", entry
        if rest.startswith("cmd:"):
            return BotEntry(name or rest[4:].split()[0], "command", rest[4:].strip())
        if is_builtin(rest):
            return BotEntry(name or rest, "builtin", _canonical(name or rest, rest))
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
        if kinds[0] == "builtin" and not is_builtin(target):
            raise ConfigError(f"bot {bot_name!r}: unknown built-in {target!r}")
        if kinds[0] == "builtin":
            target = _canonical(bot_name, target)
        params = entry.get("params")
        if params is not None:
            check_section(params, "bots.params", f"bot {bot_name!r}: params")
            if kinds[0] != "builtin" or not is_spec(target):
                raise ConfigError(f"bot {bot_name!r}: params apply to builtin = {ISMCTS!r} only")
            if target != ISMCTS:
                raise ConfigError(
                    f"bot {bot_name!r}: parameters both in builtin = {entry['builtin']!r} "
                    "and in params: give them in params only"
                )
            try:
                target = from_mapping(params).spec()
            except BadParams as exc:
                raise ConfigError(f"bot {bot_name!r}: params: {exc}") from None
        limits = entry.get("limits", {})
        check_section(limits, "bots.limits", f"bot {bot_name!r}: limits")
        if limits and kinds[0] != "command":
            raise ConfigError(f"bot {bot_name!r}: limits apply to command bots only")
        return BotEntry(bot_name, kinds[0], target, tuple(sorted(limits.items())))
    raise ConfigError(f"cannot read bot entry {entry!r}")


def _canonical(name: str, spec: str) -> str:
    """A built-in's canonical spec; ``ConfigError`` naming the bot and the bad parameter."""
    try:
        return canonical(spec)
    except UnknownPolicy as exc:
        raise ConfigError(f"bot {name!r}: {exc}") from None


def option_value(key: str, value: Any, where: str) -> str:
    """A game option as the wire and the replay carry it: text. TOML's ``true`` becomes
    ``"true"``, ``3`` ``"3"``, ``[1, 3]`` ``"1,3"``; the game parses the text (it must: a
    remote referee only ever gets text), so a tournament plays with exactly what its
    replays record."""
    scalar = (str, int, float, bool)
    if isinstance(value, scalar):
        return _text(value)
    if isinstance(value, list) and all(isinstance(v, scalar) for v in value):
        return ",".join(_text(v) for v in value)
    raise ConfigError(
        f"{where}: option {key} must be a string, number, boolean or array of those, "
        f"not {type(value).__name__}"
    )


def _text(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_content(value: str, base: Path, where: str) -> str:
    """The text of the content pack file ``value`` names (relative to ``base``)."""
    if not value:
        raise ConfigError(f"{where}: option content must name a content pack file")
    path = base / value
    try:
        return read_text(path, MAX_OPTIONS_BYTES)
    except OSError as exc:
        raise ConfigError(f"{where}: option content: cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: option content: {path} is not UTF-8 text") from None
    except ValueError as exc:
        raise ConfigError(f"{where}: option content: {exc}") from None


def read_text(path: Path, limit: int) -> str:
    """A regular file's UTF-8 text, read only up to ``limit`` bytes: ``/dev/zero`` or a
    pipe given by mistake is an error (``ValueError``), not a read that never ends."""
    if path.exists() and not path.is_file():
        raise ValueError(f"{path} is not a regular file")
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path} is larger than {limit:,} bytes")
    return data.decode("utf-8")


def parse_options(table: Any, base: Path, where: str) -> dict[str, str]:
    """Game options from a table (a TOML table, or ``KEY=VALUE`` flags as a dict): values as
    text, a content pack file read (``base`` resolves its path)."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    options = {str(k): option_value(str(k), v, where) for k, v in table.items()}
    if CONTENT_OPTION in options:
        options[CONTENT_OPTION] = read_content(options[CONTENT_OPTION], base, where)
    return options


def option_flags(flags: list[str]) -> dict[str, str]:
    """``--option KEY=VALUE`` flags as a dict (values stay strings: the game parses them)."""
    options: dict[str, str] = {}
    for flag in flags:
        key, sep, value = flag.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--option needs KEY=VALUE, not {flag!r}")
        options[key.strip()] = value
    return options


def load_file(path: Path) -> TournamentConfig:
    try:
        data = tomllib.loads(read_text(path, MAX_FILE_BYTES))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not a TOML file: it is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    except ValueError as exc:  # not a regular file, or too large (``read_text``)
        raise ConfigError(f"cannot read {path}: {exc}") from None
    check_section(data, "", f"{path}")
    section = data.get("tournament", {})
    check_section(section, "tournament", f"{path}: [tournament]")
    values: dict[str, Any] = {}
    for key, value in section.items():
        setting = SECTIONS["tournament"][key]
        table = f"tournament.{key}"
        if table in SECTIONS:  # e.g. [tournament.time_control]: its keys fill fields
            check_section(value, table, f"{path}: [{table}]")
            values.update({SECTIONS[table][k].field or k: v for k, v in value.items()})
        elif key == "options":
            values["options"] = parse_options(value, path.parent, f"{path}: [tournament.options]")
        else:
            values[setting.field or key] = value
    entries = data.get("bots", [])
    for number, entry in enumerate(entries, 1):
        if isinstance(entry, dict):
            label = f"[[bots]] entry {number}" + (
                f" ({entry['name']!r})" if isinstance(entry.get("name"), str) else ""
            )
            check_section(entry, "bots", f"{path}: {label}")
    values["bots"] = tuple(parse_bot(b) for b in entries)
    runner = data.get("runner", {})
    check_section(runner, "runner", f"{path}: [runner]")
    if "ray" in runner:
        values["ray"] = runner["ray"]
    try:
        return TournamentConfig(**values)
    except TypeError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def validate(config: TournamentConfig) -> None:
    """Raise ConfigError naming the first problem; nothing is started or written."""
    for field_name, (key, setting) in config_fields().items():
        value = getattr(config, field_name)
        unset = value is None and key in ("seed", "games_per_group")  # drawn / two blocks
        problem = None if unset else setting.problem(value)
        if problem:
            flag = f" ({setting.flag})" if setting.flag else ""
            raise ConfigError(f"{key} {problem}{flag}")
    for bot in config.bots:
        check_bot_entry(bot)
    check_ray(config.ray)
    try:
        game = get_game(config.game)
        check_config(game, GameConfig(config.players, config.variant))
    except (UnknownGame, InvalidConfig) as exc:
        raise ConfigError(str(exc)) from None
    check_options(game, config)
    names = [b.name for b in config.bots]
    if len(set(names)) != len(names):
        raise ConfigError(f"bot names must be unique: {names}")
    needed = config.players
    if len(names) < needed:
        raise ConfigError(
            f"{config.format} of {config.players}-player games needs at least {needed} bots, got {len(names)}"
        )
    if config.solo and config.format != "round-robin":
        raise ConfigError(
            f"a solo tournament (players = 1) is a round-robin: every bot plays the same "
            f"seeds; format {config.format!r} does not apply"
        )
    if config.solo and config.deals != "duplicate":
        raise ConfigError(
            "a solo tournament (players = 1) plays every bot on the same seeds, to compare "
            f"scores seed by seed; deals {config.deals!r} does not apply"
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
    check_match_count(config)
    for bot in config.bots:
        check_bot(bot, config.game)
    check_output(Path(config.output))


def check_ray(address: Any) -> None:
    """``[runner] ray`` / ``--ray``: text naming a cluster, and Ray installed to reach it."""
    if address == "":
        return
    problem = RUNNER["ray"].problem(address)
    if problem:
        raise ConfigError(f"ray {problem} (--ray)")
    if importlib.util.find_spec("ray") is None:
        raise ConfigError(
            f"ray = {address!r} needs Ray: pip install 'kassen[ray]' (or leave it out to run "
            "the matches in local processes)"
        )


def check_bot_entry(bot: BotEntry) -> None:
    """A bot's name and target within the bounds of a ``[[bots]]`` entry (a ``--bot`` flag
    too: the database stores the name in a column of bounded width)."""
    for key, value in (("name", bot.name), (bot.kind, bot.target)):
        problem = SECTIONS["bots"][key].problem(value)
        if problem:
            raise ConfigError(f"bot {bot.name[:MAX_NAME_CHARS]!r}: {key} {problem}")


def check_match_count(config: TournamentConfig) -> None:
    """The whole schedule within ``MAX_MATCHES``, counted before it is built (a schedule of
    10^9 matches would hold the runner for hours, growing, before the first match)."""
    count = match_count(
        config.format, len(config.bots), config.players, config.games, config.rounds
    )
    if count > MAX_MATCHES:
        what = "rounds" if config.format == "swiss" else "games_per_group (--games)"
        raise ConfigError(
            f"this tournament would play {count:,} matches, above the limit of {MAX_MATCHES:,}: "
            f"lower {what} or the number of bots"
        )


def check_output(output: Path) -> None:
    """The output folder can be created and written, checked before the first match (reports
    are written after the last one). Nothing on the way may be a file, and the nearest folder
    that exists must take a new folder: tried with a probe removed at once, since
    ``os.access`` answers yes to root even where nothing can be created (``/proc``)."""
    if "\x00" in str(output):
        raise ConfigError(f"output {str(output)!r} is not a usable path")
    place = output
    while not place.exists() and place.parent != place:
        if place.is_symlink():
            raise ConfigError(f"output {output}: {place} is a broken link")
        place = place.parent
    if not place.is_dir():
        raise ConfigError(f"output {output}: {place} is not a folder")
    try:
        tempfile.TemporaryDirectory(dir=place, prefix=".kassen-probe-").cleanup()
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # no room: a failure, not a usage error
            raise WriteFailed.of(output, exc) from None
        raise ConfigError(f"output {output}: cannot write in {place}: {exc.strerror}") from None


def check_options(game: Game, config: TournamentConfig) -> None:
    """Let the game set up one match with the options: it names an unknown option or a bad
    value (``InvalidConfig``). A game that reads no options may ignore them."""
    if not config.options:
        return
    from server.limits import InvalidSetting, checked_options

    try:  # the referee's bounds: a remote referee refuses more
        checked_options(config.options)
    except InvalidSetting as exc:
        raise ConfigError(f"game {exc}") from None
    try:
        game.new(config.game_config, 0)
    except (InvalidConfig, ValueError, TypeError, KeyError) as exc:
        text = " ".join(str(exc).split()) or type(exc).__name__
        raise ConfigError(f"game options: {text}") from None


def check_bot(bot: BotEntry, game: str) -> None:
    if bot.kind == "builtin":
        try:
            make_policy(bot.target, game)
        except UnknownPolicy as exc:  # e.g. no greedy policy for this game (yet)
            raise ConfigError(f"bot {bot.name!r}: {exc}") from None
    elif bot.kind == "command":
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
