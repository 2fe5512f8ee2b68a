"""``kassen --help`` stays quick: the parsers are built from light modules, and the heavy
libraries (gRPC, SQLAlchemy, numpy, the SDK, the referee, the database layer) are imported
only by the command that runs. Checked by what a fresh interpreter has loaded, not by time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Modules (and their submodules) that building the parsers must not load.
HEAVY = (
    "sqlalchemy",
    "numpy",
    "grpc",
    "google.protobuf",
    "structlog",
    "client_sdk",
    "tournament.storage",
    "tournament.runner",
    "server.match",
    "server.app",
    "asyncio",
)

PROBE = """
import json, sys
{setup}
heavy = {heavy!r}
loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
print(json.dumps(loaded))
"""


def loaded_after(setup: str) -> list[str]:
    code = PROBE.format(setup=setup, heavy=HEAVY)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_the_command_line_loads_no_heavy_module() -> None:
    assert loaded_after("import kassen.cli") == []


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["tournament", "run", "--help"],
        ["tournament", "sprt", "--help"],
        ["ladder", "show", "--help"],
        ["play", "--help"],
        ["match", "--help"],
        ["serve", "--help"],
        ["bot", "check", "--help"],
        ["replay", "verify", "--help"],
    ],
)
def test_help_loads_no_heavy_module(argv: list[str]) -> None:
    setup = (
        "import contextlib, io\n"
        "from kassen.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main({argv!r})"
    )
    assert loaded_after(setup) == []


def test_the_light_copies_of_constants_agree_with_their_sources() -> None:
    """The parsers keep a few names of heavy modules to themselves; they must not drift."""
    from kassen.commands import check, credentials, replay
    from server import auth, conformance
    from server import replay as replays

    assert credentials.ADMIN_TOKEN_ENV == auth.ADMIN_TOKEN_ENV
    assert credentials.TLS_CA_ENV == auth.TLS_CA_ENV
    assert frozenset(check.GROUPS) == conformance.GROUPS
    assert replay.REPLAY_FORMAT == replays.FORMAT
