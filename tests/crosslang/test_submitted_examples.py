"""The Java, TypeScript and Python examples are submissions as they are: ``kassen match --seat
sub:DIR`` runs each one's ``prepare`` (with network, outside any sandbox), copies it into a
sandbox, builds it there without network, and the bot plays a whole match through the
referee's Unix socket (``KASSEN_ADDRESS=unix:...``), the only way out of its sandbox.

Each runs on a copy of the example in the test's own folder, laid out like the repository
(``examples/<language>`` with ``proto`` two levels up, which the prepare steps read), so
nothing is written into the working tree. Marked ``crosslang``; skipped, with the reason, where
the host has no sandbox (bubblewrap, setpriv) or the example's toolchain is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.sandbox.host import detect
from server.sandbox.runtimes import host_runtimes, python_interpreter
from tests.crosslang.toolchains import skip_reason
from tournament.submissions.manifest import read_manifest

pytestmark = pytest.mark.crosslang

ROOT = Path(__file__).resolve().parents[2]
#: What the examples' .gitignore files list at their top level: build outputs and what a
#: prepare step made, left out of the copy so that each test prepares from scratch.
BUILD_OUTPUTS = ("node_modules", "dist", "gen", "proto", "target", "lib", "classes")
#: Maven and npm may download on a first run (prepare), and the sandbox compiles on 2 cores.
MATCH_TIMEOUT_S = 1200


def _skip_reason(language: str) -> str | None:
    """Why the example cannot be submitted here (one line), or None."""
    host = detect()
    if host.problem:
        return f"{language}: skipped: no sandbox here: {host.problem}"
    if language == "python":
        if python_interpreter() is None:
            return "python: skipped: no Python the sandbox user can run"
        return None
    reason = skip_reason(language)
    if reason:
        return reason
    runtime = read_manifest(ROOT / "examples" / language).runtime
    problem = host_runtimes(None, allowed=(runtime,))[runtime].problem
    if problem:
        return f"{language}: skipped: the sandbox's {runtime} runtime is unavailable: {problem}"
    return None


def _copy(language: str, tmp_path: Path) -> Path:
    """``tmp_path/examples/<language>`` (without build outputs) with ``tmp_path/proto`` beside."""
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    source = ROOT / "examples" / language

    def outputs(folder: str, names: list[str]) -> list[str]:
        top = Path(folder) == source
        return [n for n in names if n == "__pycache__" or (top and n in BUILD_OUTPUTS)]

    return Path(shutil.copytree(source, tmp_path / "examples" / language, ignore=outputs))


@pytest.mark.parametrize("language", ["java", "typescript", "python"])
def test_example_plays_a_match_as_a_submission(language: str, tmp_path: Path) -> None:
    reason = _skip_reason(language)
    if reason:
        pytest.skip(reason)
    folder = _copy(language, tmp_path)
    replays = tmp_path / "replays"
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "match", "rumble-nation"]
        + ["--seat", f"sub:{folder}", "--seat", "random", "--replays", str(replays)],
        capture_output=True,
        text=True,
        timeout=MATCH_TIMEOUT_S,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    output = (done.stdout + done.stderr)[-4000:]
    assert done.returncode == 0, output
    built = re.search(rf"{language}: built in ([0-9.]+) s\n", done.stderr)
    if read_manifest(folder).build is not None:
        assert built, f"no build line:\n{output}"
        print(f"{language}: sandboxed build took {built.group(1)} s")
    (replay_file,) = replays.glob("*.json")
    result = json.loads(replay_file.read_text())["result"]
    (seat,) = [s for s in result["seats"] if s["bot"] == language]
    # The submitted bot played to the end: not forfeited, not timed out, not crashed.
    assert result["reason"] == "completed", output
    assert seat["reason"] == "completed", seat
