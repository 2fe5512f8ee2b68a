"""``kassen-bot.toml``: what a submitted bot is made of, read before anything of it runs.

    [bot]
    runtime = "go"                 # python, node, go, rust, java, cpp or binary
    prepare = "sh vendor.sh"       # optional: run by `kassen ladder submit` on the author's
                                   # machine (with network), before packing: vendoring
    build = "sh build.sh"          # optional: run once, in the sandbox, without network
    run = "./bin/bot"              # run for each match, in the sandbox
    exclude = ["target", ".cache"] # optional: paths not uploaded (build outputs, caches)

``build`` and ``run`` are shell command lines run by ``/bin/sh -c`` inside the sandbox, from
the submission's folder; the bot finds the referee and its ticket in its environment, as every
bot launched by a referee does. An organiser lists the runtimes it accepts (ladder.toml).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "kassen-bot.toml"
RUNTIMES = ("python", "node", "go", "rust", "java", "cpp", "binary")
#: A command line longer than this is not a command but a payload.
MAX_COMMAND_CHARS = 1_000
MAX_MANIFEST_BYTES = 16_384


class ManifestError(ValueError):
    """A manifest that cannot be used; the message is one line naming the problem."""


@dataclass(frozen=True)
class Manifest:
    runtime: str
    run: str
    build: str | None = None
    prepare: str | None = None
    exclude: tuple[str, ...] = ()


def read_manifest(folder: Path, allowed: tuple[str, ...] = RUNTIMES) -> Manifest:
    """The manifest of the submission in ``folder``, checked against the runtimes ``allowed``."""
    path = folder / FILE_NAME
    if path.is_symlink() or not path.is_file():
        raise ManifestError(f"the submission has no {FILE_NAME} at its top level")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{FILE_NAME} is larger than {MAX_MANIFEST_BYTES:,} bytes")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ManifestError(f"{FILE_NAME} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{FILE_NAME} is not valid TOML: {error}") from None
    return parse_manifest(data, allowed)


def parse_manifest(data: dict[str, object], allowed: tuple[str, ...] = RUNTIMES) -> Manifest:
    """Check the decoded TOML: one ``[bot]`` table, known keys only, strings where expected."""
    unknown_tables = sorted(set(data) - {"bot"})
    if unknown_tables:
        raise ManifestError(f"{FILE_NAME}: unknown table or key {unknown_tables[0]!r} (only [bot])")
    bot = data.get("bot")
    if not isinstance(bot, dict):
        raise ManifestError(f"{FILE_NAME}: no [bot] table")
    unknown = sorted(set(bot) - {"runtime", "build", "run", "prepare", "exclude"})
    if unknown:
        raise ManifestError(
            f"{FILE_NAME}: [bot] has an unknown key {unknown[0]!r}"
            " (runtime, prepare, build, run, exclude)"
        )
    runtime = bot.get("runtime")
    if not isinstance(runtime, str) or runtime not in RUNTIMES:
        raise ManifestError(
            f"{FILE_NAME}: [bot] runtime must be one of {', '.join(RUNTIMES)}, not {runtime!r}"
        )
    if runtime not in allowed:
        raise ManifestError(
            f"this ladder does not accept the {runtime} runtime (it accepts {', '.join(allowed)})"
        )
    run = _command(bot, "run", required=True)
    assert run is not None
    return Manifest(
        runtime=runtime,
        run=run,
        build=_command(bot, "build", required=False),
        prepare=_command(bot, "prepare", required=False),
        exclude=_exclude(bot.get("exclude", [])),
    )


def _exclude(value: object) -> tuple[str, ...]:
    """Paths relative to the folder, without ``..``: what packing leaves out."""
    if not isinstance(value, list) or not all(isinstance(each, str) for each in value):
        raise ManifestError(f"{FILE_NAME}: [bot] exclude must be a list of paths (strings)")
    for each in value:
        parts = Path(each).parts
        if not each or each.startswith("/") or ".." in parts or len(each) > 256:
            raise ManifestError(
                f"{FILE_NAME}: [bot] exclude entry {each!r} must be a path inside the folder"
            )
    return tuple(str(Path(each)) for each in value)


def _command(bot: dict[str, object], key: str, required: bool) -> str | None:
    value = bot.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(f"{FILE_NAME}: [bot] {key} must be a command line (a string)")
    if len(value) > MAX_COMMAND_CHARS or "\x00" in value:
        raise ManifestError(
            f"{FILE_NAME}: [bot] {key} must be one command line of at most "
            f"{MAX_COMMAND_CHARS:,} characters"
        )
    return value
