"""``kassen match``, ``kassen bot run``, ``kassen serve`` and ``kassen replay verify`` as a
user runs them: real subprocesses, real gRPC on loopback."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

ROOT = Path(__file__).resolve().parents[1]


def kassen(*args: str, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def test_match_with_builtin_and_launched_bots_writes_a_verifiable_replay(tmp_path: Path) -> None:
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'python' / 'bot.py'}"
    result = kassen(
        "match",
        "rumble-nation",
        "--seat",
        "random",
        "--seat",
        "greedy",
        "--seat",
        bot,
        "--seat",
        "random",
        "--seed",
        "11",
        "--advanced",
        "--replays",
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert "Result: completed" in result.stdout
    ranks = re.findall(r"^  (\d)\. Player (\d) ", result.stdout, re.M)
    assert sorted(r for r, _ in ranks) == ["1", "2", "3", "4"]
    assert "forfeited" not in result.stdout
    replay = Path(re.search(r"Replay: (.+)", result.stdout).group(1))  # type: ignore[union-attr]
    record = json.loads(replay.read_text())
    assert record["seed"] == 11 and record["variant"] == "advanced" and record["finished"]
    verified = kassen("replay", "verify", str(replay))
    assert verified.returncode == 0 and verified.stdout.startswith("ok: rumble-nation")
    record["decisions"][5][1] = (record["decisions"][5][1] + 1) % 2
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    assert kassen("replay", "verify", str(tampered)).returncode == 1


def test_match_watch_prints_the_game_as_it_happens(tmp_path: Path) -> None:
    result = kassen(
        "match",
        "rumble-nation",
        "--seat",
        "greedy",
        "--seat",
        "random",
        "--seed",
        "2",
        "--watch",
        "--replays",
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert (
        "Castles:" in result.stdout
        and "War phase" in result.stdout
        and "Final scores" in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "rumble-nation", "--seat", "random"], "2, 3, 4 players, not 1"),
        (["match", "rumble-nation", "--seat", "random", "--seat", "nobot"], "unknown bot 'nobot'"),
        (
            ["match", "rumble-nation", "--seat", "random", "--seat", "cmd:/no/such/program"],
            "no such program",
        ),
        (["match", "chess", "--seat", "random", "--seat", "random"], "unknown game"),
        (["bot", "run", "random"], "KASSEN_ADDRESS"),
        (["serve", "--address", "nonsense"], "host:port"),
        (["replay", "verify", "nope.json"], "no such file"),
        (
            ["match", "rumble-nation", "--seat", "random", "--seat", "random", "--seed", "-1"],
            "--seed",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    env_free = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
    result = subprocess.run(
        [sys.executable, "-m", "kassen", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**env_free, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert list(tmp_path.iterdir()) == []  # nothing written


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_and_bots_from_other_processes(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kassen",
            "serve",
            "--address",
            f"127.0.0.1:{port}",
            "--replays",
            str(tmp_path),
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,  # its default store (runs/referee.sqlite) goes there, not into the tree
    )
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=20)
        stub = rpc.RefereeStub(channel)
        created = stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation", players=2, seed=5))
        bots = [
            subprocess.Popen(
                [sys.executable, "-m", "kassen", "bot", "run", name],
                env={**env, "KASSEN_ADDRESS": f"127.0.0.1:{port}", "KASSEN_TICKET": ticket},
                stderr=subprocess.PIPE,
                text=True,
                cwd=tmp_path,
            )
            for name, ticket in zip(["greedy", "random"], created.tickets, strict=True)
        ]
        for bot in bots:
            assert bot.wait(timeout=60) == 0, bot.stderr.read() if bot.stderr else ""
        summary = stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id)).match
        assert summary.status == "finished"
        assert summary.result.reason == pb.RESULT_REASON_COMPLETED
        assert sorted(s.rank for s in summary.result.seats) == [1, 2]
        assert (tmp_path / f"{created.match_id}.json").exists()
        assert (tmp_path / "runs" / "referee.sqlite").is_file()  # the default store
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    logs = [
        json.loads(line)
        for line in (server.stderr.read() if server.stderr else "").splitlines()
        if line.startswith("{")
    ]
    events = [(line["event"], line.get("match_id")) for line in logs]
    assert ("match_start", created.match_id) in events and ("match_end", created.match_id) in events


def test_a_python_command_seat_needs_no_activated_environment(tmp_path: Path) -> None:
    """``cmd:python examples/python/bot.py`` runs with kassen's own interpreter: the example
    finds client_sdk although PATH has neither the virtual environment nor a ``python``."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kassen",
            "match",
            "rumble-nation",
            "--seed",
            "3",
            "--seat",
            f"cmd:python {ROOT / 'examples' / 'python' / 'bot.py'}",
            "--seat",
            "greedy",
            "--replays",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "Result: completed" in done.stdout and "forfeited" not in done.stdout, done.stdout


def test_a_bot_that_dies_on_start_is_reported_as_such_in_one_line(tmp_path: Path) -> None:
    crash = "import sys; print('ModuleNotFoundError: no module named mybot', file=sys.stderr); sys.exit(1)"
    done = kassen(
        "match",
        "rumble-nation",
        "--seat",
        f'cmd:python -c "{crash}"',
        "--seat",
        "greedy",
        "--replays",
        str(tmp_path),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    reported = [line for line in done.stdout.splitlines() if "bot_crashed" in line]
    assert len(reported) == 1, done.stdout
    assert "before joining: bot process exited with code 1" in reported[0]
    assert "ModuleNotFoundError: no module named mybot" in reported[0]
