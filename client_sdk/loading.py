"""Find a bot by the name a user gives on the command line."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from client_sdk.bot import Bot
from client_sdk.builtin import BUNDLED, PolicyBot
from games.policies.ismcts_params import BadParams, is_spec, parse_spec


class BotNotFound(LookupError):
    pass


def load_bot(spec: str, seed: int | None = None) -> Bot:
    """``random`` / ``greedy`` / ``ismcts`` (bundled), ``ismcts:seconds=1,c=0.5`` (the
    search bot with parameters), or ``module:Class`` / ``path/file.py:Class``."""
    if spec in BUNDLED:
        return BUNDLED[spec](seed)
    if is_spec(spec):
        try:
            parse_spec(spec)
        except BadParams as exc:
            raise BotNotFound(str(exc)) from None
        return PolicyBot(spec, seed)
    if ":" not in spec:
        raise BotNotFound(f"unknown bot {spec!r} (bundled: {', '.join(BUNDLED)}; or module:Class)")
    module_name, _, class_name = spec.rpartition(":")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).resolve()
            if not path.is_file():
                raise BotNotFound(f"no file {module_name}")
            sys.path.insert(0, str(path.parent))
            module_name = path.stem
        elif "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.insert(0, str(Path.cwd()))
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotNotFound(f"cannot import {module_name!r}: {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        found = sorted(
            name
            for name, value in vars(module).items()
            if isinstance(value, type)
            and issubclass(value, Bot)
            and value.__module__ == module.__name__
        )
        where = f"{module_name!r}" + (f" (its bots: {', '.join(found)})" if found else "")
        raise BotNotFound(f"no {class_name!r} in {where}")
    if not isinstance(cls, type) or not issubclass(cls, Bot):
        raise BotNotFound(f"{spec!r} is not a client_sdk.Bot subclass")
    return cls()
