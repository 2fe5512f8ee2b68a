"""Game options on the command line (``kassen play`` and ``kassen match``): ``--option
KEY=VALUE`` (repeatable) and ``--content FILE``, a content pack read into option ``content``.

As with ``kassen tournament run --option``, ``--option content=FILE`` names a file too; values
stay text, as the wire and the replays carry them, and the game checks them (``Game.new``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kassen.errors import UsageError

CONTENT = "content"


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. turn_by_turn=1,2 for gnomeville (repeatable; the game's "
        "options are in docs/games/)",
    )
    parser.add_argument(
        "--content",
        default=None,
        metavar="FILE",
        help="a content pack file for the game (gnomeville: TOML or JSON), sent as option content",
    )


def options_from(args: argparse.Namespace) -> dict[str, str]:
    """The options the flags give; ``UsageError`` naming a malformed flag or unreadable file."""
    options: dict[str, str] = {}
    for flag in args.option:
        key, sep, value = flag.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--option needs KEY=VALUE, not {flag!r}")
        if key in options:
            raise UsageError(f"--option {key} is given twice")
        options[key] = value
    content = args.content
    if content is not None:
        if CONTENT in options:
            raise UsageError("give the content pack once: --content FILE or --option content=FILE")
        where = "--content"
    else:
        content = options.get(CONTENT)
        where = "--option content"
    if content is not None:
        options[CONTENT] = read_pack(content, where)
    return options


def read_pack(name: str, where: str) -> str:
    if not name:
        raise UsageError(f"{where} must name a content pack file")
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise UsageError(f"{where} {name}: is a folder, not a content pack file") from None
    except FileNotFoundError:
        raise UsageError(f"{where} {name}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{where} {name}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{where} {name}: not UTF-8 text") from None


def config_problem(exc: Exception, args: argparse.Namespace) -> UsageError:
    """A game's ``InvalidConfig`` as a usage error; a content pack's problem names the file."""
    text = " ".join(str(exc).split())
    pack = args.content or next(
        (v.partition("=")[2] for v in args.option if v.partition("=")[0].strip() == CONTENT), None
    )
    if pack and text.startswith(f"{CONTENT}:"):
        text = f"content pack {pack}: {text.removeprefix(f'{CONTENT}:').strip()}"
    return UsageError(text)
