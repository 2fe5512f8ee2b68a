"""Every ``kassen tournament run`` command the docs print parses and validates as written.

The docs give the commands behind their measured figures (docs/bots.md) and the first steps
(README); a command a reader copies must not stop at a bad flag or a parameter out of bounds.
Each is parsed by the real CLI parser and validated by ``build_config`` (the step before
anything is written); lines abbreviated with ``...``, with a ``<placeholder>`` or naming a
file are left out.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from kassen.cli import build_parser
from kassen.commands.tournament_run import build_config

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def documented_commands() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for page in PAGES:
        for line in page.read_text().splitlines():
            for part in line.split("`"):
                start = part.find("kassen tournament run ")
                if start < 0:
                    continue
                command = part[start:].split("#")[0].strip()
                if "..." in command or ".toml" in command or "<" in command:
                    continue
                found.append((page.relative_to(ROOT).as_posix(), command))
    return sorted(set(found))


COMMANDS = documented_commands()


def test_the_docs_print_tournament_commands() -> None:
    assert len(COMMANDS) >= 10  # the finder still finds them


@pytest.mark.parametrize(("page", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_a_documented_tournament_command_is_valid(
    page: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)[1:]
    args = build_parser().parse_args(argv)
    config = build_config(args)  # UsageError (one line) if a flag or a bot spec is wrong
    assert config.bots, f"{page}: {command}"
