"""The ladder's configuration: which pools run, the house bots, clocks and limits.

``kassen ladder serve`` runs with ``default_settings()`` when no file is given: every game's
first variant at every player count, and three house bots per game (greedy twice and random,
so that a lone new bot finds a full four-player table at once). A TOML file overrides it::

    [ladder]
    pools = ["rumble-nation/base/2", "root/autumn/4"]
    decision_ms = 1000          # free time per decision
    bank_ms = 10000             # the bank for longer decisions
    join_timeout_ms = 10000     # a bot that does not join in time is NO_SHOW
    pause_after_failures = 5    # failed matches in a row before a bot is paused (0: never)
    max_live_matches = 100
    gather_ms = 5000            # how long a bot waits for a busy author's bot before house bots

    [[ladder.house]]
    name = "house-greedy"
    policy = "greedy"           # a built-in bot: greedy, random, ismcts or "ismcts:seconds=0.5"
    game = "rumble-nation"      # variant: the game's first; players: every pool of the game

    [submissions]               # submitted bots, built and run in a sandbox (docs/ladder.md)
    enabled = true
    folder = "runs/submissions" # passable by other users (the sandbox runs as nobody)
    runtimes = ["python", "go"] # default: every runtime
    max_upload_mb = 64          # the archive
    max_unpacked_mb = 512
    max_files = 20000
    concurrency = 2             # matches one submitted bot plays at once
    build_time_s = 600
    build_memory_mb = 4096
    memory_mb = 512             # per running bot (all its processes)
    processes = 64
    cpu_s = 900                 # CPU seconds per process of a running bot
    tmpfs_mb = 64               # its /tmp (and /dev/shm)
    open_files = 512            # descriptors of each of its processes
    cpus = 1.0                  # cores all its processes use together (cgroup cpu quota)
    rust_sysroot = "/opt/rust"  # a Rust toolchain the sandbox user can reach

    [referees]                  # where matches are played (default: the ladder's own referee)
    addresses = ["10.0.0.5:50051"]  # kassen serve referees (--workers N: N processes)
    tls = false                 # they speak TLS, checked with tls_ca (else the system's roots)
    tls_ca = "ca.pem"
    token_file = "referee.token"    # their organiser token (default: the ladder's own)
    ray = "auto"                # also start referee actors on this Ray cluster ("local": a
    ray_referees = 2            #   private one on this machine), this many
    embedded = false            # the ladder's own referee plays too (default: only when
                                #   nothing else is listed)

    [challenges]                # unrated matches: authors' challenges, people on the page
    per_client_at_once = 2      # a bot, or a visitor's address
    per_client_per_hour = 20
    per_bot_at_once = 1         # challenges a challenged bot plays at once
    people_at_once = 8          # games with a person on the whole ladder
    wait_ms = 30000             # how long a challenge waits for a busy bot
    person_decision_ms = 60000  # a person's clock
    person_bank_ms = 600000
    person_reconnect_ms = 15000 # a person away longer (a reload) fails DISCONNECTED

Every mistake is a ``LadderConfigError`` naming the key, before anything starts.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games import UnknownGame, games, get_game
from games.policies.ismcts_params import BadParams, is_spec, parse_spec
from games.policies.registry import POLICY_NAMES
from server.sandbox.build import BuildLimits
from server.sandbox.process import SandboxLimits
from server.settings import MAX_JOIN_TIMEOUT_MS, MAX_TIME_MS, TimeControl
from tournament.ladder_service.challenges import ChallengeSettings
from tournament.ladder_service.fleet import FleetSettings
from tournament.ladder_service.referees import is_address
from tournament.ladder_service.registry import NAME_PATTERN
from tournament.ladder_service.service import MAX_CONCURRENCY, HouseBot, LadderSettings, PoolKey
from tournament.ladder_service.submitted import SubmissionSettings
from tournament.submissions.manifest import RUNTIMES

LADDER_KEYS = {
    "pools",
    "decision_ms",
    "bank_ms",
    "join_timeout_ms",
    "pause_after_failures",
    "max_live_matches",
    "gather_ms",
    "house",
}
#: The longest wait for another author's bot that a configuration may ask for.
MAX_GATHER_MS = 600_000
HOUSE_KEYS = {"name", "policy", "game", "variant", "players"}
CHALLENGE_KEYS = {
    "per_client_at_once",
    "per_client_per_hour",
    "per_bot_at_once",
    "people_at_once",
    "wait_ms",
    "person_decision_ms",
    "person_bank_ms",
    "person_reconnect_ms",
}
REFEREE_KEYS = {"addresses", "tls", "tls_ca", "token_file", "ray", "ray_referees", "embedded"}
SUBMISSION_KEYS = {
    "enabled",
    "folder",
    "runtimes",
    "max_upload_mb",
    "max_unpacked_mb",
    "max_files",
    "concurrency",
    "build_time_s",
    "build_memory_mb",
    "memory_mb",
    "processes",
    "cpu_s",
    "tmpfs_mb",
    "open_files",
    "cpus",
    "rust_sysroot",
}
MAX_LIVE_MATCHES = 10_000


class LadderConfigError(ValueError):
    pass


def default_settings() -> LadderSettings:
    pools: list[PoolKey] = []
    house: list[HouseBot] = []
    for name in games():
        game = get_game(name)
        variant = game.variants[0]
        pools += [PoolKey(game.name, variant, n) for n in game.player_counts]
        for bot, policy in (("greedy-1", "greedy"), ("greedy-2", "greedy"), ("random", "random")):
            house.append(HouseBot(f"house-{bot}", policy, game.name, variant, game.player_counts))
    return LadderSettings(pools=tuple(pools), house_bots=tuple(house))


def load_settings(path: Path) -> LadderSettings:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise LadderConfigError(f"cannot read {path}: {reason}") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LadderConfigError(f"{path} is not valid TOML: {exc}") from None
    return settings_from(document, str(path))


def settings_from(document: Mapping[str, Any], source: str) -> LadderSettings:
    _known(document, {"ladder", "submissions", "referees", "challenges"}, source, "section")
    section = document.get("ladder", {})
    if not isinstance(section, dict):
        raise LadderConfigError(f"{source}: [ladder] must be a table")
    _known(section, LADDER_KEYS, source, "key in [ladder]")
    defaults = default_settings()
    pools = tuple(_pool(p, source) for p in _list(section, "pools", source)) or defaults.pools
    if len(set(pools)) != len(pools):
        raise LadderConfigError(f"{source}: ladder.pools lists a pool twice")
    house_tables = section.get("house")
    house = (
        tuple(_house(h, i, pools, source) for i, h in enumerate(_tables(house_tables, source)))
        if house_tables is not None
        else tuple(h for h in defaults.house_bots if any(h.game == p.game for p in pools))
    )
    names = [(h.game, h.name) for h in house]
    if len(set(names)) != len(names):
        raise LadderConfigError(f"{source}: two house bots of one game share a name")
    time_control = TimeControl(
        decision_ms=_int(section, "decision_ms", 1, MAX_TIME_MS, 1000, source),
        bank_ms=_int(section, "bank_ms", 0, MAX_TIME_MS, 10_000, source),
    )
    return LadderSettings(
        pools=pools,
        house_bots=house,
        time_control=time_control,
        join_timeout_ms=_int(section, "join_timeout_ms", 1, MAX_JOIN_TIMEOUT_MS, 10_000, source),
        pause_after_failures=_int(section, "pause_after_failures", 0, 1000, 5, source),
        max_live_matches=_int(section, "max_live_matches", 1, MAX_LIVE_MATCHES, 100, source),
        gather_s=_int(section, "gather_ms", 0, MAX_GATHER_MS, 5000, source) / 1000,
        submissions=submissions_from(document.get("submissions"), source),
        referees=referees_from(document.get("referees"), source),
        challenges=challenges_from(document.get("challenges"), source),
    )


def challenges_from(section: Any, source: str) -> ChallengeSettings:
    """``[challenges]``: the defaults when absent."""
    if section is None:
        return ChallengeSettings()
    if not isinstance(section, dict):
        raise LadderConfigError(f"{source}: [challenges] must be a table")
    _known(section, CHALLENGE_KEYS, source, "key in [challenges]")

    def number(key: str, low: int, high: int, default: int) -> int:
        return _int(section, key, low, high, default, source, "challenges")

    base = ChallengeSettings()
    return ChallengeSettings(
        per_client_at_once=number("per_client_at_once", 0, 1000, base.per_client_at_once),
        per_client_per_hour=number("per_client_per_hour", 0, 100_000, base.per_client_per_hour),
        per_bot_at_once=number("per_bot_at_once", 0, MAX_CONCURRENCY, base.per_bot_at_once),
        people_at_once=number("people_at_once", 0, MAX_LIVE_MATCHES, base.people_at_once),
        wait_s=number("wait_ms", 0, 600_000, int(base.wait_s * 1000)) / 1000,
        person_time=TimeControl(
            decision_ms=number(
                "person_decision_ms", 1000, MAX_TIME_MS, base.person_time.decision_ms
            ),
            bank_ms=number("person_bank_ms", 0, MAX_TIME_MS, base.person_time.bank_ms),
        ),
        person_reconnect_ms=number(
            "person_reconnect_ms", 1000, MAX_TIME_MS, base.person_reconnect_ms
        ),
    )


def referees_from(section: Any, source: str) -> FleetSettings:
    """``[referees]``: the ladder's own referee alone when absent."""
    if section is None:
        return FleetSettings()
    if not isinstance(section, dict):
        raise LadderConfigError(f"{source}: [referees] must be a table")
    _known(section, REFEREE_KEYS, source, "key in [referees]")
    addresses = section.get("addresses", [])
    if not isinstance(addresses, list) or not all(
        isinstance(a, str) and is_address(a) for a in addresses
    ):
        raise LadderConfigError(f"{source}: referees.addresses must list host:port addresses")
    for key in ("tls", "embedded"):
        if key in section and not isinstance(section[key], bool):
            raise LadderConfigError(f"{source}: referees.{key} must be true or false")
    for key in ("tls_ca", "token_file", "ray"):
        if key in section and (not isinstance(section[key], str) or not section[key]):
            raise LadderConfigError(f"{source}: referees.{key} must be a text")
    if len(set(addresses)) != len(addresses):
        raise LadderConfigError(f"{source}: referees.addresses lists an address twice")
    return FleetSettings(
        addresses=tuple(addresses),
        tls=section.get("tls", False),
        tls_ca=Path(section["tls_ca"]) if "tls_ca" in section else None,
        token_file=Path(section["token_file"]) if "token_file" in section else None,
        ray=section.get("ray"),
        ray_referees=_int(section, "ray_referees", 1, 1024, 2, source, "referees"),
        embedded=section.get("embedded"),
    )


def submissions_from(section: Any, source: str) -> SubmissionSettings | None:
    """``[submissions]``: None when absent (connected bots only)."""
    if section is None:
        return None
    if not isinstance(section, dict):
        raise LadderConfigError(f"{source}: [submissions] must be a table")
    _known(section, SUBMISSION_KEYS, source, "key in [submissions]")
    enabled = section.get("enabled", False)
    if not isinstance(enabled, bool):
        raise LadderConfigError(f"{source}: submissions.enabled must be true or false")
    folder = section.get("folder", "runs/submissions")
    if not isinstance(folder, str) or not folder:
        raise LadderConfigError(f"{source}: submissions.folder must be a path")
    runtimes = section.get("runtimes", list(RUNTIMES))
    if not isinstance(runtimes, list) or not runtimes or any(r not in RUNTIMES for r in runtimes):
        raise LadderConfigError(
            f"{source}: submissions.runtimes must list some of {', '.join(RUNTIMES)}"
        )
    sysroot = section.get("rust_sysroot")
    if sysroot is not None and not isinstance(sysroot, str):
        raise LadderConfigError(f"{source}: submissions.rust_sysroot must be a path")

    def number(key: str, low: int, high: int, default: int) -> int:
        return _int(section, key, low, high, default, source, "submissions")

    return SubmissionSettings(
        enabled=enabled,
        folder=Path(folder),
        runtimes=tuple(runtimes),
        max_upload_mb=number("max_upload_mb", 1, 4096, 64),
        max_unpacked_mb=number("max_unpacked_mb", 1, 65_536, 512),
        max_files=number("max_files", 1, 1_000_000, 20_000),
        concurrency=number("concurrency", 1, MAX_CONCURRENCY, 2),
        build=BuildLimits(
            time_s=number("build_time_s", 1, 86_400, 600),
            memory_mb=number("build_memory_mb", 64, 1_048_576, 4096),
        ),
        run=SandboxLimits(
            memory_mb=number("memory_mb", 16, 1_048_576, 512),
            processes=number("processes", 1, 100_000, 64),
            cpu_s=number("cpu_s", 1, 86_400, 900),
            tmpfs_mb=number("tmpfs_mb", 1, 1_048_576, 64),
            open_files=number("open_files", 16, 1_048_576, 512),
            cpus=_cpus(section.get("cpus", 1.0), source),
        ),
        rust_sysroot=Path(sysroot) if sysroot else None,
    )


def _cpus(value: Any, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.01 <= value <= 1024:
        raise LadderConfigError(
            f"{source}: submissions.cpus must be a number of cores from 0.01 to 1024, not {value!r}"
        )
    return float(value)


def _known(table: Mapping[str, Any], allowed: set[str], source: str, what: str) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(key, sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise LadderConfigError(f"{source}: unknown {what} {key!r}{hint}")


def _list(section: Mapping[str, Any], key: str, source: str) -> list[Any]:
    value = section.get(key, [])
    if not isinstance(value, list):
        raise LadderConfigError(f"{source}: ladder.{key} must be a list")
    return value


def _tables(value: Any, source: str) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise LadderConfigError(f"{source}: ladder.house must be [[ladder.house]] tables")
    return value


def _int(
    section: Mapping[str, Any],
    key: str,
    low: int,
    high: int,
    default: int,
    source: str,
    table: str = "ladder",
) -> int:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LadderConfigError(
            f"{source}: {table}.{key} must be a whole number from {low} to {high}, not {value!r}"
        )
    return value


def _pool(text: Any, source: str) -> PoolKey:
    parts = text.split("/") if isinstance(text, str) else []
    if len(parts) != 3 or not parts[2].isdigit():
        raise LadderConfigError(
            f"{source}: pool {text!r} must be written game/variant/players, e.g. "
            "'rumble-nation/base/2'"
        )
    game_name, variant, players = parts[0], parts[1], int(parts[2])
    try:
        game = get_game(game_name)
    except UnknownGame as exc:
        raise LadderConfigError(f"{source}: pool {text!r}: {exc}") from None
    if variant not in game.variants:
        raise LadderConfigError(
            f"{source}: pool {text!r}: {game.name} has no variant {variant!r} "
            f"(choose from {', '.join(game.variants)})"
        )
    if players not in game.player_counts:
        raise LadderConfigError(
            f"{source}: pool {text!r}: {game.name} is played by "
            f"{', '.join(map(str, game.player_counts))} players"
        )
    return PoolKey(game.name, variant, players)


def _house(
    table: Mapping[str, Any], index: int, pools: tuple[PoolKey, ...], source: str
) -> HouseBot:
    where = f"{source}: ladder.house[{index}]"
    _known(table, HOUSE_KEYS, where, "key")
    name, policy, game_name = (table.get(k) for k in ("name", "policy", "game"))
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise LadderConfigError(f"{where}: name must be 3-32 letters, digits, '.', '_' or '-'")
    if not isinstance(policy, str) or (policy not in POLICY_NAMES and not is_spec(policy)):
        raise LadderConfigError(
            f"{where}: policy must be one of {', '.join(POLICY_NAMES)} "
            "(ismcts with parameters: 'ismcts:seconds=0.5,...')"
        )
    if is_spec(policy):
        try:
            policy = parse_spec(policy).spec()
        except BadParams as exc:
            raise LadderConfigError(f"{where}: policy: {exc}") from None
    try:
        game = get_game(str(game_name))
    except UnknownGame as exc:
        raise LadderConfigError(f"{where}: {exc}") from None
    variant = table.get("variant", game.variants[0])
    mine = [p.players for p in pools if (p.game, p.variant) == (game.name, variant)]
    players = table.get("players", mine)
    if not isinstance(players, list) or not players or not set(players) <= set(mine):
        raise LadderConfigError(
            f"{where}: players must list pools this ladder runs for {game.name}/{variant} "
            f"({', '.join(map(str, mine)) or 'none'})"
        )
    return HouseBot(name, str(policy), game.name, str(variant), tuple(sorted(players)))
