"""What a tournament file may hold: every section's keys, each key's type and bounds, in one place.

Adding a setting is one line in a section below (plus the ``TournamentConfig`` field it fills).
The bounds are checked before anything runs or is written, for the file and the flags alike:
the clock and decision limits are the referee's own (``server/settings.py``), so a tournament
never asks the referee for a match it would refuse; the number of matches and of matches at
once are bounded so that a typo (``games_per_group = 1000000000``) is an error, not a run that
hangs while its schedule grows.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.policies.ismcts_params import PARAMS
from kassen.seeds import seed_problem
from server.bot_box import LIMIT_KEYS, MAX_LIMIT
from server.settings import MAX_DECISIONS_LIMIT, MAX_TIME_MS
from tournament.options import DEALS, FORMATS

#: At most this many matches in one tournament (all seed blocks, groups and rounds). The
#: schedule is written to the database before the first match and read back whole: at this
#: limit that takes 2.6 s and 280 MB (10^6 matches: 12 s and 1.2 GB), measured in
#: ``docs/tournaments.md``, which quotes the figure.
MAX_MATCHES = 200_000
#: At most this many matches at once (worker processes for built-in bots, command bots
#: launched side by side): beyond it a machine thrashes rather than goes faster.
MAX_CONCURRENCY = 64
#: Names (of the tournament and of bots) are stored in columns of this width.
MAX_NAME_CHARS = 200
#: A tournament file is read up to this size (one with a thousand bots is about 60 KB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Any other text setting (paths, URLs, commands).
MAX_TEXT_CHARS = 4096
FAILURE_POLICIES = ("forfeit", "void")


@dataclass(frozen=True, slots=True)
class Setting:
    """One key: its TOML type (``int``, ``str``, ``bool``, ``table`` or ``seed``), its bounds (inclusive;
    for text, its length), the ``TournamentConfig`` field it fills (default: the key) and the
    command-line flag that sets it, named in errors so a user knows where to look."""

    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    field: str = ""
    flag: str = ""

    def problem(self, value: Any) -> str | None:
        """Why ``value`` cannot be used (a phrase to follow the key's name), or None."""
        if self.kind == "seed":  # the rule of every command's --seed (kassen/seeds.py)
            return seed_problem(value)
        if self.kind == "table":
            return None if isinstance(value, dict) else f"must be a table, not {shown(value)}"
        if self.kind == "array":
            return None if isinstance(value, list) else f"must be an array, not {shown(value)}"
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"must be true or false, not {shown(value)}"
        if self.kind == "float":
            if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
                return f"must be a number, not {shown(value)}"
            if self.low is not None and value < self.low:
                return f"must be at least {self.low:g}, not {shown(value)}"
            if self.high is not None and value > self.high:
                return f"must be at most {self.high:g}, not {shown(value)}"
            return None
        if self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                return f"must be a whole number, not {shown(value)}"
            if self.low is not None and value < self.low:
                return f"must be at least {self.low:,}, not {shown(value)}"
            if self.high is not None and value > self.high:
                return f"must be at most {self.high:,}, not {shown(value)}"
            return None
        if not isinstance(value, str):
            return f"must be a string, not {shown(value)}"
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(self.choices)}, not {shown(value)}"
        if "\x00" in value:
            return "must not contain a NUL character"
        if self.low is not None and len(value) < self.low:
            return "must not be empty"
        if self.high is not None and len(value) > self.high:
            return f"must be at most {self.high} characters long, not {len(value)}"
        return None


def shown(value: Any) -> str:
    """A value as an error line quotes it: its type for a table or array, short otherwise."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(low: int, high: int, flag: str = "", field: str = "") -> Setting:
    return Setting("int", low, high, field=field, flag=flag)


def _text(high: int = MAX_TEXT_CHARS, flag: str = "", low: int = 0) -> Setting:
    return Setting("str", low, high, flag=flag)


def _choice(choices: tuple[str, ...], flag: str) -> Setting:
    return Setting("str", choices=choices, flag=flag)


#: The top level of a file: tables only.
TOP: dict[str, Setting] = {
    "tournament": Setting("table"),
    "bots": Setting("array"),
    "runner": Setting("table"),
}

#: ``[runner]``: where the matches run, not what they are. ``ray``: a Ray cluster (``auto``,
#: ``local`` or an address; tournament/ray_pool.py) instead of local processes.
RUNNER: dict[str, Setting] = {
    "ray": _text(flag="--ray", low=1),
}

#: ``[tournament]``. A key of kind ``table`` is either a section of its own in ``SECTIONS``
#: (its keys fill ``TournamentConfig`` fields) or handed whole, as a dict, to the field it
#: names (``options``: the game checks its own options; any other: its own code checks it).
TOURNAMENT: dict[str, Setting] = {
    "game": _text(64, "--game", low=1),
    "variant": _text(64, "--variant"),
    "players": _int(1, 64, "--players"),
    "format": _choice(FORMATS, "--format"),
    "name": _text(MAX_NAME_CHARS, "--name", low=1),
    "games_per_group": _int(1, MAX_MATCHES, "--games"),
    "rounds": _int(1, MAX_MATCHES, "--rounds"),
    "candidate": _text(MAX_NAME_CHARS, "--candidate"),
    "seed": Setting("seed", flag="--seed"),
    "deals": _choice(DEALS, "--deals"),
    "concurrency": _int(1, MAX_CONCURRENCY, "--concurrency"),
    "failure_policy": _choice(FAILURE_POLICIES, "--failure-policy"),
    "database": _text(flag="--db", low=1),
    "output": _text(flag="--output", low=1),
    "replays": Setting("bool", flag="--no-replays"),
    "max_decisions": _int(1, MAX_DECISIONS_LIMIT, "--max-decisions"),
    "time_control": Setting("table"),
    "options": Setting("table", flag="--option"),
    "limits": Setting("table"),
}

#: ``[tournament.time_control]``: the referee's own bounds (``server/limits.py`` refuses a
#: match outside them).
TIME_CONTROL: dict[str, Setting] = {
    "decision_ms": _int(1, MAX_TIME_MS, "--decision-ms"),
    "bank_ms": _int(0, MAX_TIME_MS, "--bank-ms"),
}

#: A ``[[bots]]`` entry: a name and one of builtin, command, python.
BOT: dict[str, Setting] = {
    "name": _text(MAX_NAME_CHARS, low=1),
    "builtin": _text(MAX_NAME_CHARS, low=1),
    "command": _text(low=1),
    "python": _text(low=1),
    "limits": Setting("table"),
    "params": Setting("table"),
}

#: A ``[[bots]]`` entry's ``params`` (the ``ismcts`` built-in only): its search parameters,
#: with their bounds, from games/policies/ismcts_params.py.
BOT_PARAMS: dict[str, Setting] = {
    key: Setting("str" if param.kind == "str" else param.kind, param.low, param.high, param.choices)
    for key, param in PARAMS.items()
}

#: ``[tournament.limits]`` (every command bot) and a ``[[bots]]`` entry's ``limits`` (that
#: bot, over the tournament's): resource limits of command bots, 0 for none (server/bot_box.py).
LIMITS: dict[str, Setting] = {key: _int(0, MAX_LIMIT, field=f"limit_{key}") for key in LIMIT_KEYS}

#: Every section with a fixed set of keys, by its name in the file ("" is the top level).
#: A ``tournament.X`` section's keys fill ``TournamentConfig`` fields directly.
SECTIONS: dict[str, dict[str, Setting]] = {
    "": TOP,
    "tournament": TOURNAMENT,
    "tournament.time_control": TIME_CONTROL,
    "tournament.limits": LIMITS,
    "bots": BOT,
    "bots.limits": LIMITS,
    "bots.params": BOT_PARAMS,
    "runner": RUNNER,
}


def config_fields() -> dict[str, tuple[str, Setting]]:
    """``TournamentConfig`` field -> (its key in the file, its setting), for every scalar key
    of ``[tournament]`` and its sections: what ``validate`` checks whatever set it."""
    fields: dict[str, tuple[str, Setting]] = {}
    for section, keys in SECTIONS.items():
        if section == "tournament" or section.startswith("tournament."):
            for key, setting in keys.items():
                if setting.kind != "table":
                    fields[setting.field or key] = (key, setting)
    return fields


def _key(key: str) -> str:
    """A key as an error line names it: bare if it could be a bare TOML key, else quoted (a
    key may hold any character, a line break included)."""
    return (
        key if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key) else repr(key)
    )


def section_label(section: str) -> str:
    """How a section is written in the file: ``[tournament]``, ``[[bots]]``."""
    return "[[bots]]" if section == "bots" else f"[{section}]"


def unknown_keys(found: Mapping[str, Any], section: str) -> str | None:
    """A phrase naming the keys of ``found`` that ``section`` does not have, with the close
    match for a typo ("did you mean [tournament]?"), or None when every key is known."""
    known = SECTIONS[section]
    unknown = sorted(str(k) for k in found if k not in known)
    if not unknown:
        return None

    def label(key: str) -> str:  # top-level keys are sections: [tournament], [[bots]]
        return section_label(key) if section == "" else key

    hints = []
    for key in unknown:
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
        if close:
            hints.append(f"did you mean {label(close[0])}?")
    named = f"key{'s' if len(unknown) > 1 else ''} {', '.join(_key(k) for k in unknown)}"
    if hints:
        return f"unknown {named} ({'; '.join(hints)})"
    return f"unknown {named} (known: {', '.join(label(k) for k in sorted(known))})"
