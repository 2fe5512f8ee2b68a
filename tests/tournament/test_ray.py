"""Tournaments on a real Ray cluster (started here with ``ray start --head``), PostgreSQL as the
store: every match stored once, also when a Ray worker is killed mid-run or the driver is.

Marked ``ray``: they run in ``tox -e ray`` (which installs the extra), not in ``tox -e py311``.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kassen_processes import titled
from tests.tournament import postgres
from tournament import storage

#: Skipped, not failed, where Ray is missing; a run that deselects ``ray`` (``tox -e py311``)
#: reports nothing, where a module-level import check would report a skip at collection.
pytestmark = [
    pytest.mark.ray,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed (pip install 'kassen[ray]'; tox -e ray installs it)",
    ),
]
KASSEN = [sys.executable, "-m", "kassen"]


#: Token authentication with a token made for this test run (Ray's own format: 64 hex digits).
RAY_AUTH = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A one-machine Ray cluster of two CPUs; its address. Token authentication is asked for
    explicitly, with a token of this test run (``RAY_AUTH``): Ray 2.59 turned it on by
    default for ``ray start`` and wrote a token to ~/.ray, 2.60 turns it on only when a token
    exists, so relying on either default breaks on the other."""
    port = free_port()
    temp = tempfile.mkdtemp(prefix="kr")  # Ray's socket paths must stay short
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", **RAY_AUTH}
    subprocess.run(
        [
            "ray",
            "start",
            "--head",
            f"--port={port}",
            "--num-cpus=2",
            f"--temp-dir={temp}",
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    try:
        yield f"127.0.0.1:{port}"  # joined as "auto" (this machine's cluster) or by address
    finally:
        subprocess.run(["ray", "stop", "--force"], capture_output=True, env=env, timeout=120)


def tournament(args: list[str]) -> subprocess.Popen[str]:
    """``kassen tournament ...``, with the cluster's token (``RAY_AUTH``)."""
    return subprocess.Popen(
        [*KASSEN, "tournament", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **RAY_AUTH},
    )


def run_on_ray(games: int, address: str, url: str, output: Path) -> subprocess.Popen[str]:
    """A round-robin of random and greedy, ``games`` matches, on the Ray cluster."""
    return tournament(
        ["run", "--bot", "random", "--bot", "greedy", "--games", str(games), "--ray", address,
         "--db", url, "--quiet", "--no-replays", "--output", str(output)]
    )  # fmt: skip


def stored(url: str) -> tuple[str, list[storage.MatchRecord]]:
    engine = storage.connect(url)
    tournament_id = storage.latest_tournament(engine)
    assert tournament_id is not None
    return tournament_id, storage.load_matches(engine, tournament_id)


def ray_workers() -> list[int]:
    """Pids of Ray worker processes running one of our batches now."""
    return titled(b"ray::_worker")


def test_joining_without_the_clusters_token_is_one_resumable_line(
    cluster: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env["RAY_AUTH_MODE"] = "token"
    done = subprocess.run(
        [*KASSEN, "tournament", "run", "--bot", "random", "--bot", "greedy", "--games", "2",
         "--ray", cluster, "--db", f"sqlite:///{tmp_path / 't.sqlite'}", "--quiet"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    # The tournament is stored before the cluster is joined: it stays resumable (exit code 1).
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("kassen: cannot join the Ray cluster") and "RAY_AUTH_TOKEN" in last
    assert "kassen tournament resume" in last


def test_a_tournament_on_ray_stores_every_match_once(cluster: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite'}"
    run = run_on_ray(60, "auto", url, tmp_path)
    _out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    _, matches = stored(url)
    assert len(matches) == 60 and all(m.status == "done" for m in matches)
    assert len({m.idx for m in matches}) == 60


def test_a_killed_ray_worker_loses_and_doubles_nothing(cluster: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite'}"
    run = run_on_ray(1600, "auto", url, tmp_path)
    killed = 0
    deadline = time.monotonic() + 300
    while not killed and time.monotonic() < deadline and run.poll() is None:
        for pid in ray_workers():
            os.kill(pid, signal.SIGKILL)
            killed += 1
            break
        time.sleep(0.05)
    _out, err = run.communicate(timeout=900)
    assert killed == 1, "no busy Ray worker was seen to kill"
    assert run.returncode == 0, err
    _, matches = stored(url)
    assert len(matches) == 1600 and all(m.status == "done" for m in matches)


@pytest.mark.skipif(postgres.missing() is not None, reason=str(postgres.missing()))
def test_resume_after_the_driver_is_killed_on_postgresql(cluster: str, tmp_path: Path) -> None:
    with postgres.postgres_server() as url:
        run = run_on_ray(1600, cluster, url, tmp_path)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # wait for some results, then kill the driver
            time.sleep(0.5)
            try:
                _, matches = stored(url)
            except Exception:
                continue
            if sum(m.status == "done" for m in matches) >= 100:
                break
        ended = run.poll()  # a driver that stopped by itself: its own words say why
        run.send_signal(signal.SIGKILL)
        _out, driver_err = run.communicate(timeout=60)
        assert storage.latest_tournament(storage.connect(url)) is not None, (
            f"the driver stored no tournament in 300 s (exit {ended}): {driver_err[-2000:]}"
        )
        tournament_id, before = stored(url)
        done_before = sum(m.status == "done" for m in before)
        assert 0 < done_before < 1600
        resume = tournament(["resume", tournament_id, "--db", url, "--ray", cluster, "--quiet"])
        _out, err = resume.communicate(timeout=900)
        assert resume.returncode == 0, err
        _, after = stored(url)
        assert len(after) == 1600 and all(m.status == "done" for m in after)
        kept = {m.idx: m.results for m in before if m.status == "done"}
        assert all(m.results == kept[m.idx] for m in after if m.idx in kept)  # not replayed
