"""A new user's submitted bots, end to end: ``kassen ladder serve`` with submissions on (a real
process), ``kassen ladder register`` and ``kassen ladder submit`` of the Python and the Go
example as they are (copies: prepare runs in the folder), and the user finds both built,
validated, playing and rated on the web page, without keeping anything of theirs running.

Marked ``crosslang`` (it builds the Go example in the sandbox: a cold Go build of gRPC).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from server.sandbox.host import detect
from tests.crosslang.toolchains import skip_reason

ROOT = Path(__file__).resolve().parents[2]
HOST = detect()
pytestmark = [
    pytest.mark.crosslang,
    pytest.mark.skipif(HOST.problem is not None, reason=f"needs a sandbox: {HOST.problem}"),
]
#: A cold Go build of the example in the sandbox, then its validation match.
SUBMIT_WAIT_S = 900
PLAY_WAIT_S = 180


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _copy_examples(target: Path, languages: list[str]) -> dict[str, Path]:
    """The examples as a user has them: ``examples/<lang>`` beside ``proto``."""
    shutil.copytree(ROOT / "proto", target / "proto")
    shutil.copytree(ROOT / "tools", target / "tools")
    copies = {}
    for language in languages:
        copies[language] = target / "examples" / language
        shutil.copytree(
            ROOT / "examples" / language,
            copies[language],
            ignore=shutil.ignore_patterns("node_modules", "target", "bin", "build", "gen"),
        )
    return copies


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return str(answer.read().decode())


def test_the_python_and_go_examples_are_submitted_built_validated_and_rated(
    passable: Path,
) -> None:
    missing = skip_reason("go")
    if missing:
        pytest.skip(missing)
    copies = _copy_examples(passable / "user", ["python", "go"])
    grpc_port, web_port = _port(), _port()
    address, web = f"127.0.0.1:{grpc_port}", f"http://127.0.0.1:{web_port}"
    config = passable / "ladder.toml"
    config.write_text(
        '[ladder]\npools = ["rumble-nation/base/2"]\ndecision_ms = 5000\nbank_ms = 20000\n'
        "join_timeout_ms = 60000\n"
        f'[submissions]\nenabled = true\nfolder = "{passable / "subs"}"\n'
        'runtimes = ["python", "go"]\n'
    )
    kassen = [sys.executable, "-m", "kassen"]
    # Its log goes to a file, not a pipe: a pipe nobody reads fills up and stops the ladder
    # at its next log line.
    with (passable / "ladder.log").open("w") as log:
        ladder = subprocess.Popen(
            [
                *kassen,
                "ladder",
                "serve",
                "--config",
                str(config),
                "--address",
                address,
                "--web",
                f"127.0.0.1:{web_port}",
                "--db",
                f"sqlite:///{passable / 'ladder.sqlite'}",
            ],
            cwd=passable,
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(web + "/api/pools")
                break
            except OSError:
                assert ladder.poll() is None, "the ladder exited at start"
                assert time.monotonic() < deadline, "the ladder's page never answered"
                time.sleep(0.2)
        bot_ids = {}
        for language, folder in copies.items():
            token = passable / f"{language}.token"
            registered = subprocess.run(
                [
                    *kassen,
                    "ladder",
                    "register",
                    f"submitted-{language}",
                    "--game",
                    "rumble-nation",
                    "--address",
                    address,
                    "--token-file",
                    str(token),
                ],
                capture_output=True,
                text=True,
                timeout=60,
                check=True,
            )
            bot_ids[language] = registered.stdout.split(" as bot ")[1].split(";")[0]
            submitted = subprocess.run(
                [
                    *kassen,
                    "ladder",
                    "submit",
                    str(folder),
                    "--token-file",
                    str(token),
                    "--address",
                    address,
                    "--wait",
                    str(SUBMIT_WAIT_S),
                ],
                capture_output=True,
                text=True,
                timeout=SUBMIT_WAIT_S + 300,
            )
            assert submitted.returncode == 0, submitted.stdout + submitted.stderr[-4000:]
            assert "version 1: ready" in submitted.stdout
        # Nothing of the user's runs now: the ladder plays both.
        deadline = time.monotonic() + PLAY_WAIT_S
        while True:
            rows = json.loads(_get(web + "/api/ladder/rumble-nation/base/2"))["rows"]
            ours = {r["bot_id"]: r for r in rows if r["bot_id"] in bot_ids.values()}
            if len(ours) == 2 and all(
                r["games"] >= 2 and r["rating"] is not None for r in ours.values()
            ):
                break
            assert time.monotonic() < deadline, f"not both rated: {rows}"
            time.sleep(1)
        for language, bot_id in bot_ids.items():
            page = _get(f"{web}/bots/{bot_id}")
            assert f"submitted ({language})" in page and "plays version 1" in page
    finally:
        ladder.terminate()
        try:
            ladder.wait(60)
        except subprocess.TimeoutExpired:
            ladder.kill()
            ladder.wait(30)
