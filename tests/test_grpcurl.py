"""Standard tools work against ``kassen serve``: grpcurl lists and calls it (reflection on), and
the grpcurl session shown in docs/protocol.md is what a real run prints."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

ROOT = Path(__file__).resolve().parents[1]
GRPCURL = shutil.which("grpcurl") or str(Path.home() / "go" / "bin" / "grpcurl")

pytestmark = pytest.mark.skipif(
    not Path(GRPCURL).is_file(),
    reason="grpcurl is not installed (go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3; .ci/run does)",
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--address", address, "--replays", str(tmp_path)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,  # its default store (runs/referee.sqlite) goes there, not into the tree
    )
    try:
        grpc.channel_ready_future(grpc.insecure_channel(address)).result(timeout=20)
        yield address
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)


def grpcurl(*args: str) -> str:
    done = subprocess.run(
        [GRPCURL, "-plaintext", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_grpcurl_lists_describes_and_calls_the_referee(server: str) -> None:
    services = grpcurl(server, "list").split()
    assert "kassen.v1.Referee" in services and "grpc.health.v1.Health" in services
    described = grpcurl(server, "describe", "kassen.v1.Referee")
    assert (
        "rpc Play ( stream .kassen.v1.PlayRequest ) returns ( stream .kassen.v1.PlayResponse )"
        in described
    )
    created = json.loads(
        grpcurl(
            "-d",
            '{"game": "rumble-nation", "players": 3, "seed": 7}',
            server,
            "kassen.v1.Referee/CreateMatch",
        )
    )
    assert len(created["tickets"]) == 3 and len(created["setup"]["seed_commitment"]) == 64
    assert "seed" not in created["setup"]  # the seed itself is never shown while the match runs
    games = json.loads(grpcurl(server, "kassen.v1.Referee/ListGames"))
    assert games["games"][0]["name"] == "rumble-nation"
    health = json.loads(
        grpcurl("-d", '{"service": "kassen.v1.Referee"}', server, "grpc.health.v1.Health/Check")
    )
    assert health["status"] == "SERVING"


def test_the_grpcurl_session_in_the_protocol_docs_is_what_a_real_run_prints() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import grpcurl_session
    finally:
        sys.path.pop(0)
    fresh = grpcurl_session.record_session(GRPCURL)
    documented = grpcurl_session.documented_session()
    assert "kassen.v1.Referee/CreateMatch" in fresh and "seed_reveal" in fresh
    assert documented == fresh, (
        "docs/protocol.md's grpcurl session differs from a real run; "
        "regenerate it with: python tools/grpcurl_session.py --write"
    )
