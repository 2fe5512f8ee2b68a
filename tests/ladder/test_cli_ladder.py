"""The newcomer's path on the command line: serve a ladder, register a bot, connect it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

KASSEN = [sys.executable, "-m", "kassen"]
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = 2000

[[ladder.house]]
name = "house-random"
policy = "random"
game = "rumble-nation"
"""


def start_ladder(tmp_path: Path) -> tuple[subprocess.Popen[str], str, list[str]]:
    (tmp_path / "ladder.toml").write_text(CONFIG, encoding="utf-8")
    server = subprocess.Popen(
        [
            *KASSEN,
            "ladder",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--web",
            "none",
            "--db",
            f"sqlite:///{tmp_path / 'ladder.sqlite'}",
            "--config",
            str(tmp_path / "ladder.toml"),
            "--log-level",
            "warning",
        ],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert server.stderr is not None
    lines: list[str] = []
    ready = threading.Event()
    address: list[str] = []

    def read() -> None:
        assert server.stderr is not None
        for line in server.stderr:
            lines.append(line)
            found = re.search(r"serving on (\S+)", line)
            if found:
                address.append(found.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    assert ready.wait(60), "the ladder did not start"
    assert address, "".join(lines)
    return server, address[0], lines


def test_serve_register_and_play_from_the_command_line(tmp_path: Path) -> None:
    server, address, lines = start_ladder(tmp_path)
    try:
        token_file = tmp_path / "alpha.token"
        registered = subprocess.run(
            [
                *KASSEN,
                "ladder",
                "register",
                "alpha",
                "--game",
                "rumble-nation",
                "--address",
                address,
                "--token-file",
                str(token_file),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert registered.returncode == 0, registered.stderr
        assert token_file.stat().st_mode & 0o777 == 0o600
        again = subprocess.run(
            [
                *KASSEN,
                "ladder",
                "register",
                "alpha",
                "--game",
                "rumble-nation",
                "--address",
                address,
                "--token-file",
                str(tmp_path / "other.token"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert again.returncode == 1
        assert "ALREADY_EXISTS" in again.stderr and not (tmp_path / "other.token").exists()
        played = subprocess.run(
            [
                *KASSEN,
                "bot",
                "ladder",
                "greedy",
                "--address",
                address,
                "--token-file",
                str(token_file),
                "--matches",
                "2",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert played.returncode == 0, played.stderr
        assert "played 2 matches (0 failed)" in played.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(30)
    assert code == 0
    assert "Traceback" not in "".join(lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ladder", "serve", "--web", "8080"], "--web must be host:port"),
        (["ladder", "serve", "--config", "missing.toml"], "cannot read missing.toml"),
        (
            ["bot", "ladder", "greedy", "--token-file", "missing.token"],
            "--token-file missing.token",
        ),
        (["bot", "ladder", "greedy", "--token-file", "x", "--concurrency", "99"], "--concurrency"),
        (
            ["ladder", "register", "a", "--game", "root", "--token-file", "nodir/t"],
            "cannot write in",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    done = subprocess.run(
        [*KASSEN, *args], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
