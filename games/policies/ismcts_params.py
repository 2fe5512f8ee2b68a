"""The ``ismcts`` bot's parameters: names, types, bounds and defaults, and the text form.

One place for them: ``make_policy`` reads a spec string (``ismcts`` or
``ismcts:seconds=1,c=0.7,rollout=greedy``), a tournament file a ``params`` table of a
``[[bots]]`` entry (``tournament/config_schema.py`` builds its ``bots.params`` section from
``PARAMS``), and both end as the same canonical spec string, which is what a tournament
stores as the bot's target (so a resumed tournament plays the same bot).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

#: The built-in name of the search bot.
NAME = "ismcts"


class Param(NamedTuple):
    """One parameter: ``kind`` is int, float, bool or str (``choices``), bounds inclusive."""

    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""


#: Every parameter. ``iterations`` and ``seconds``: the search stops at whichever comes
#: first (``seconds = 0``: iterations only, which makes the bot reproducible from its seed);
#: either way it stops inside the referee's clock (``DecisionContext.budget_s``).
PARAMS: dict[str, Param] = {
    "iterations": Param("int", 1, 1_000_000, help="determinizations searched per decision"),
    "seconds": Param("float", 0.0, 600.0, help="time per decision (0: iterations only)"),
    "c": Param("float", 0.0, 10.0, help="UCT exploration constant"),
    "rollout": Param("str", choices=("random", "greedy"), help="rollout policy"),
    "depth": Param("int", 1, 100_000, help="rollout decisions before the position is judged"),
    "leaf": Param(
        "str",
        choices=("adjudicate", "evaluate", "stage"),
        help="how an unfinished rollout is judged: adjudicate (the rules' standing), evaluate "
        "(the game's projection of final scores), stage (roll out to the game's next scoring "
        "stage, then evaluate)",
    ),
    "nodes": Param("int", 100, 2_000_000, help="tree nodes kept at most (memory bound)"),
    "reuse": Param("bool", help="keep the subtree of the option played for the next decision"),
    "margin": Param(
        "float",
        0.0,
        1000.0,
        help="unfinished positions by score difference over this scale (0: by place)",
    ),
    "verify": Param(
        "int",
        0,
        100_000,
        help="paired rollouts comparing greedy's choice with the search's best before "
        "overruling it (0: none, the search's own statistics)",
    ),
    "trust": Param(
        "float",
        0.0,
        10.0,
        help="standard errors by which the search must beat the greedy bot's choice (0: never asks it)",
    ),
}


#: The values of the parameters not given (``None`` in ``IsmctsParams``) for a game that
#: registers no ``search_defaults`` of its own (``games.contract.Hooks``; see docs/bots.md for
#: the runs that chose each game's).
FALLBACK: dict[str, Any] = {
    "iterations": 200,
    "rollout": "random",
    "depth": 60,
    "leaf": "adjudicate",
    "verify": 0,
}


def game_defaults(game: str) -> dict[str, Any]:
    """The values of the parameters not given for ``game``: ``FALLBACK``, then the game's
    registered ``search_defaults``."""
    from games.contract import hooks_of
    from games.registry import games

    return {**FALLBACK, **hooks_of(games().get(game)).search_defaults}


@dataclass(frozen=True, slots=True)
class Settings:
    """The parameters as one game's search uses them (``IsmctsParams.resolved``)."""

    iterations: int
    seconds: float
    c: float
    rollout: str
    depth: int
    leaf: str
    nodes: int
    reuse: bool
    margin: float
    trust: float
    verify: int


@dataclass(frozen=True, slots=True)
class IsmctsParams:
    """The parameters as given; ``None``: the game's default (``game_defaults``)."""

    iterations: int | None = None
    seconds: float = 0.0
    c: float = 0.7
    rollout: str | None = None
    depth: int | None = None
    leaf: str | None = None
    nodes: int = 50_000
    reuse: bool = True
    margin: float = 5.0
    trust: float = 1.0
    verify: int | None = None

    def resolved(self, game: str) -> Settings:
        """The parameters for ``game``: each one not given takes the game's default."""
        table = game_defaults(game)
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for key, value in table.items():
            if values[key] is None:
                values[key] = value
        return Settings(**values)

    def spec(self) -> str:
        """The canonical spec string: the name, then every parameter that is not the default."""
        default = IsmctsParams()
        changed = [
            f"{f.name}={_text(getattr(self, f.name))}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        ]
        return NAME + (":" + ",".join(changed) if changed else "")


class BadParams(ValueError):
    """A parameter that cannot be used; the message names it (one line)."""


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def problem(key: str, value: Any) -> str | None:
    """Why ``value`` cannot be the parameter ``key`` (a phrase after the key), or None."""
    param = PARAMS[key]
    if param.kind == "bool":
        return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
    if param.kind == "str":
        if value not in param.choices:
            return f"must be one of {', '.join(param.choices)}, not {value!r}"
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number, not {value!r}"
    if param.kind == "int" and not isinstance(value, int):
        return f"must be a whole number, not {value!r}"
    if value != value:  # NaN
        return "must be a number, not nan"
    if param.low is not None and value < param.low:
        return f"must be at least {_text(param.low)}, not {value!r}"
    if param.high is not None and value > param.high:
        return f"must be at most {_text(param.high)}, not {value!r}"
    return None


def from_mapping(values: dict[str, Any]) -> IsmctsParams:
    """Parameters from a table (TOML ``params``); ``BadParams`` names an unknown or bad key."""
    for key, value in values.items():
        if key not in PARAMS:
            raise BadParams(f"ismcts has no parameter {key!r} (parameters: {', '.join(PARAMS)})")
        trouble = problem(key, value)
        if trouble:
            raise BadParams(f"ismcts parameter {key} {trouble}")
    given: dict[str, Any] = {
        k: float(v) if PARAMS[k].kind == "float" else v for k, v in values.items()
    }
    return replace(IsmctsParams(), **given)


def _value(key: str, text: str) -> Any:
    kind = PARAMS[key].kind if key in PARAMS else "str"
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        what = "a whole number" if kind == "int" else "a number"
        raise BadParams(f"ismcts parameter {key} must be {what}, not {text!r}") from None
    if kind == "bool":
        if text.lower() in ("true", "1", "yes"):
            return True
        if text.lower() in ("false", "0", "no"):
            return False
        raise BadParams(f"ismcts parameter {key} must be true or false, not {text!r}")
    return text


def parse_spec(spec: str) -> IsmctsParams:
    """``ismcts`` or ``ismcts:KEY=VALUE,KEY=VALUE``; ``BadParams`` names the problem."""
    name, _, rest = spec.partition(":")
    if name != NAME:
        raise BadParams(f"not an ismcts spec: {spec!r}")
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep:
            raise BadParams(f"ismcts parameter {item!r} needs KEY=VALUE")
        values[key] = _value(key, text.strip())
    return from_mapping(values)


def is_spec(text: str) -> bool:
    """Whether ``text`` names the ismcts bot, with or without parameters."""
    return text == NAME or text.startswith(NAME + ":")
