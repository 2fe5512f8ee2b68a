"""An organiser token and TLS end to end through the real command line: ``kassen serve`` in
one process, ``kassen match --server`` in another, a ``cmd:`` seat running ``kassen bot run``
in a third, over TLS on loopback with a certificate made by the test."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.certs import Certs, make_certs

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "tok-" + "7" * 32


def _env() -> dict[str, str]:
    """Our environment without any KASSEN_ variable of the machine running the tests."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_")}
    return {**clean, "PYTHONPATH": str(ROOT)}


def kassen(*args: str) -> subprocess.CompletedProcess[str]:
    return kassen_all([(list(args), None, ROOT)])[0]


def kassen_all(
    runs: list[tuple[list[str], dict[str, str] | None, Path]],
) -> list[subprocess.CompletedProcess[str]]:
    """Run several ``kassen`` commands at once (args, environment, folder); wait for all."""
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "kassen", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env or _env(),
        )
        for args, env, cwd in runs
    ]
    done = []
    for (args, _, _), process in zip(runs, started, strict=True):
        try:
            out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            for each in started:
                each.kill()
            raise
        done.append(subprocess.CompletedProcess(args, process.returncode, out, err))
    return done


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def certs(tmp_path: Path) -> Certs:
    return make_certs(tmp_path)


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    return path


@contextlib.contextmanager
def serving(folder: Path, *flags: str) -> Iterator[tuple[str, list[str]]]:
    """``kassen serve`` on a free loopback port until the block exits (SIGINT, then kill).

    Yields its address and its log lines up to the one that says "serving".
    """
    address = f"127.0.0.1:{_free_port()}"
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--address", address, *flags],
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=folder,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stderr or ()])
    reader.start()
    try:
        log = [lines.get(timeout=20)]
        while '"serving"' not in log[-1]:
            assert process.poll() is None, log
            log.append(lines.get(timeout=20))
        yield address, log
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=5)


@pytest.fixture
def server(tmp_path: Path, certs: Certs, token_file: Path) -> Iterator[str]:
    """``kassen serve`` with an organiser token and TLS."""
    with serving(
        tmp_path,
        *("--replays", str(tmp_path / "replays")),
        *("--admin-token-file", str(token_file)),
        *("--tls-cert", str(certs.cert), "--tls-key", str(certs.key)),
        *("--tls-ca", str(certs.ca)),
    ) as (address, log):
        assert '"tls": true' in log[-1] and '"organiser_token": true' in log[-1]
        assert not any("no organiser token" in line for line in log)
        yield address


def test_without_a_token_serve_says_it_is_loopback_only(tmp_path: Path) -> None:
    with serving(tmp_path, "--replays", str(tmp_path)) as (_, log):
        assert any('"no organiser token: loopback only"' in line for line in log), log
        assert '"organiser_token": false' in log[-1] and '"tls": false' in log[-1]


def test_token_and_tls_end_to_end(server: str, certs: Certs, token_file: Path) -> None:
    bot = f"cmd:{sys.executable} -m kassen bot run greedy"
    common = ["match", "rumble-nation", "--server", server, "--seat", "random", "--seat", bot]
    played = kassen(*common, "--admin-token-file", str(token_file), "--tls-ca", str(certs.ca))
    assert played.returncode == 0, played.stderr
    out = played.stdout
    commitment = re.search(
        r"^seed: secret until the end \(commitment ([0-9a-f]{16})…\)$", out, re.M
    )
    assert commitment, out
    assert "Result: completed" in out and "forfeited" not in out
    assert re.search(r"^  \d\. Player 2 \(cmd:.*kassen bot run greedy\) score", out, re.M)
    assert re.search(r"^Seed: \d+ \(salt [0-9a-f]+, commitment verified\)$", out, re.M), out

    wrong = {**_env(), "KASSEN_ADMIN_TOKEN": TOKEN + "x", "KASSEN_TLS_CA": str(certs.ca)}
    refusals = [
        ([*common, "--tls-ca", str(certs.ca)], None, 1, "UNAUTHENTICATED"),
        (common, wrong, 1, "PERMISSION_DENIED"),
        ([*common, "--tls-ca", str(certs.ca), "--admin-token-file", os.devnull], None, 2, "empty"),
        ([*common, "--admin-token-file", str(token_file)], None, 1, "UNAVAILABLE"),  # plaintext
    ]
    results = kassen_all([(args, env, ROOT) for args, env, _, _ in refusals])
    for (_, _, code, words), refused in zip(refusals, results, strict=True):
        assert refused.returncode == code, refused.stderr
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("kassen: ") and words in lines[0], lines
        assert "Result:" not in refused.stdout


def test_serve_refuses_bad_flags_in_one_line(tmp_path: Path, certs: Certs) -> None:
    other = make_certs(tmp_path, prefix="other-")
    bad_flags = [
        (["--address", "0.0.0.0:50051"], "--admin-token-file"),
        (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key go together"),
        (["--tls-cert", str(certs.cert), "--tls-key", str(other.key)], "does not fit"),
        (["--max-live-matches", "0"], "--max-live-matches must be between"),
        (["--max-watchers-per-caller", "0"], "--max-watchers-per-caller must be between"),
        (["--relay-token-file", "no-such-file"], "--relay-token-file no-such-file:"),
        (["--run-submitted", "python,cobol"], "--run-submitted: unknown runtime 'cobol'"),
    ]
    folders = [tmp_path / str(i) for i in range(len(bad_flags))]
    for folder in folders:
        folder.mkdir()
    runs = [
        (["serve", *args], None, folder)
        for (args, _), folder in zip(bad_flags, folders, strict=True)
    ]
    for (args, message), folder, result in zip(bad_flags, folders, kassen_all(runs), strict=True):
        assert result.returncode == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], lines
        assert list(folder.iterdir()) == []  # nothing written, nothing served
