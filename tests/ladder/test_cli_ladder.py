"""The newcomer's path on the command line: serve a ladder, register a bot, connect it."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
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


#: ``match 3f2a over: rumble-nation/base, 2 players, seat 1 vs house-random: rank 1 of 2, score 53``
MATCH_LINE = re.compile(
    r"match \w+ over: rumble-nation/base, 2 players, seat [01] vs house-random: "
    r"rank [12] of 2, score -?\d+"
)
#: A bot that answers an option that does not exist.
CHEAT = """
from client_sdk import Bot


class Cheat(Bot):
    name = "cheat"

    def choose(self, request):
        return len(request.options)
"""


def register(address: str, name: str, token_file: Path) -> Path:
    done = subprocess.run(
        [
            *KASSEN,
            "ladder",
            "register",
            name,
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
    assert done.returncode == 0, done.stderr
    return token_file


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
                "3",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert played.returncode == 0, played.stderr
        lines = played.stderr.strip().splitlines()
        # One line per match: the game, its seat and opponent, its rank and score.
        per_match = [line for line in lines if MATCH_LINE.fullmatch(line)]
        assert len(per_match) == 3, played.stderr
        assert lines[-1] == "played 3 matches", played.stderr
        cheat = register(address, "cheat", tmp_path / "cheat.token")
        (tmp_path / "cheat.py").write_text(CHEAT, encoding="utf-8")
        once = subprocess.run(
            [
                *KASSEN,
                "bot",
                "ladder",
                f"{tmp_path / 'cheat.py'}:Cheat",
                "--address",
                address,
                "--token-file",
                str(cheat),
                "--matches",
                "1",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert once.returncode == 0, once.stderr
        *_, line, summary = once.stderr.strip().splitlines()
        assert re.fullmatch(
            r"match \w+ over: rumble-nation/base, 2 players, seat [01] vs house-random: "
            r"rank 2 of 2, score -?\d+, failed: illegal_answer: .*out of range.*",
            line,
        ), once.stderr
        assert summary == "played 1 match (1 failed)", once.stderr
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
        (["ladder", "serve", "--referees", "somewhere"], "neither host:port nor ray:CLUSTER"),
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
    assert not (tmp_path / "runs").exists()  # nothing half-made


def test_an_unreachable_ladder_is_said_with_each_retry(tmp_path: Path) -> None:
    """Nothing listens on port 1: the bot says so before every retry, with the pause, which
    grows (doubling from 0.25 s, each drawn between half and all of it)."""
    token = tmp_path / "t.token"
    token.write_text("x" * 30, encoding="utf-8")
    bot = subprocess.Popen(
        [
            *KASSEN,
            "bot",
            "ladder",
            "greedy",
            "--address",
            "127.0.0.1:1",
            "--token-file",
            str(token),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert bot.stderr is not None
        for line in bot.stderr:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    retries: list[float] = []
    try:
        while len(retries) < 4:
            try:  # the 4th pause is at most 2 s: 30 s of silence means nothing is said
                line = lines.get(timeout=30)
            except queue.Empty:
                pytest.fail(f"no retry was said within 30 s (after {retries})")
            found = re.fullmatch(
                r"kassen: bot: cannot reach the ladder at 127\.0\.0\.1:1 \(.+\), "
                r"retrying in (\d+\.\d) s\n",
                line,
            )
            assert found, line
            retries.append(float(found.group(1)))
    finally:
        bot.send_signal(signal.SIGINT)
        code = bot.wait(30)
    assert code == 130
    assert retries[0] <= 0.3 and retries[3] >= 0.9, retries  # 0.125-0.25 s, then 1-2 s


def test_challenges_from_the_command_line(tmp_path: Path) -> None:
    """An author turns challenges on at registration, another challenges that bot while
    both are connected; turned off, the next challenge is refused in one line."""
    server, address, lines = start_ladder(tmp_path)
    bots: list[subprocess.Popen[str]] = []
    try:
        keen = tmp_path / "keen.token"
        done = subprocess.run(
            [*KASSEN, "ladder", "register", "keen", "--game", "rumble-nation"]
            + ["--accepts-challenges", "--address", address, "--token-file", str(keen)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        asker = register(address, "asker", tmp_path / "asker.token")
        for token in (keen, asker):
            bots.append(
                subprocess.Popen(
                    [*KASSEN, "bot", "ladder", "random", "--address", address]
                    + ["--token-file", str(token)],
                    stderr=subprocess.PIPE if token == asker else subprocess.DEVNULL,
                    text=True,
                )
            )
        challenge = [*KASSEN, "ladder", "challenge", "keen", "--game", "rumble-nation"]
        challenge += ["--address", address, "--token-file", str(asker)]
        started = None
        for _ in range(60):  # until both bots are connected
            started = subprocess.run(challenge, capture_output=True, text=True, timeout=150)
            waiting = "not connected" in started.stderr or "Seek stream open" in started.stderr
            if not waiting:
                break
            time.sleep(0.2)
        assert started is not None
        assert started.returncode == 0, started.stderr
        assert re.fullmatch(
            r"challenge \w+ started \(unrated\): (keen, asker|asker, keen); your bot plays "
            r"seat [12] through its Seek stream",
            started.stdout.strip(),
        ), started.stdout
        off = subprocess.run(
            [*KASSEN, "ladder", "challenges", "off", "--address", address]
            + ["--token-file", str(keen)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert off.returncode == 0 and off.stdout.strip() == "keen does not accept challenges"
        refused = subprocess.run(challenge, capture_output=True, text=True, timeout=150)
        assert refused.returncode == 2
        assert "does not accept challenges" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        # the challenger's bot says which of its matches was the unrated one
        match_id = started.stdout.split()[1]
        played = bots[1].stderr
        assert played is not None
        deadline = time.monotonic() + 60
        line = played.readline()  # a line per match: it plays house bots meanwhile
        while not line.startswith(f"match {match_id} "):
            assert line and time.monotonic() < deadline, "no line for the challenge"
            line = played.readline()
        assert re.match(
            rf"match {match_id} over: rumble-nation/base, 2 players, unrated, seat [01] vs keen: ",
            line,
        ), line
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(30)
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    assert "Traceback" not in "".join(lines)
