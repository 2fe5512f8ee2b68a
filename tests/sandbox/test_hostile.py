"""Hostile commands run in the sandbox, each contained: no network, no host file, nothing
written outside its own tmpfs, no process outside its namespace to see or signal.

Real bubblewrap (Debian's ``bubblewrap``), started as an unprivileged user; skipped, naming
the package, where the host cannot make a sandbox."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from server.sandbox.bwrap import Sandboxed, new_folder, sandbox_argv
from server.sandbox.host import detect

HOST = detect()
pytestmark = pytest.mark.skipif(HOST.problem is not None, reason=str(HOST.problem))
#: The system's Python: the sandbox sees /usr, not a virtual environment.
PYTHON = "/usr/bin/python3"


def run(area: Path, script: str, **options: object) -> subprocess.CompletedProcess[str]:
    bot = new_folder(area, "bot")
    (bot / "hostile.py").write_text(script, encoding="utf-8")
    (bot / "hostile.py").chmod(0o644)
    box = Sandboxed(bot_dir=bot, command=f"exec {PYTHON} hostile.py", **options)  # type: ignore[arg-type]
    return subprocess.run(sandbox_argv(HOST, box), capture_output=True, text=True, timeout=60)


def test_no_connection_leaves_and_no_name_resolves(area: Path) -> None:
    done = run(
        area,
        "import socket\n"
        "for family, kind, where in ((socket.AF_INET, socket.SOCK_STREAM, ('1.1.1.1', 443)),\n"
        "                            (socket.AF_INET, socket.SOCK_DGRAM, ('8.8.8.8', 53))):\n"
        "    s = socket.socket(family, kind); s.settimeout(2)\n"
        "    try:\n"
        "        s.connect(where); s.send(b'x'); print('reached', where)\n"
        "    except OSError as e:\n"
        "        print('refused', e.errno)\n"
        "try:\n"
        "    print('resolved', socket.gethostbyname('pypi.org'))\n"
        "except OSError:\n"
        "    print('no name')\n",
    )
    assert done.returncode == 0, done.stderr
    assert "reached" not in done.stdout and "resolved" not in done.stdout, done.stdout
    assert done.stdout.count("refused") == 2 and "no name" in done.stdout


def test_host_files_are_not_there_and_nothing_is_written_outside_its_tmpfs(
    tmp_path: Path, area: Path
) -> None:
    """The organiser's token file, homes, the shadow file and the ladder's own process (its
    environment) are not there; the system, the bot's files and the root are read-only."""
    secret = tmp_path / "organiser.token"
    secret.write_text("s3cret")
    done = run(
        area,
        "import os\n"
        f"for path in ({str(secret)!r}, '/root', '/home', '/etc/shadow', '/proc/{os.getpid()}/environ'):\n"
        "    try:\n"
        "        open(path).read() if os.path.isfile(path) else os.listdir(path)\n"
        "        print('READ', path)\n"
        "    except OSError:\n"
        "        print('hidden', path)\n"
        "for path in ('/usr/evil', '/bot/evil', '/evil', '/run/evil'):\n"
        "    try:\n"
        "        open(path, 'w').write('x'); print('WROTE', path)\n"
        "    except OSError:\n"
        "        print('read-only', path)\n"
        "open('/tmp/mine', 'w').write('ok'); print('tmp ok')\n",
    )
    assert done.returncode == 0, done.stderr
    assert "READ" not in done.stdout and "WROTE" not in done.stdout, done.stdout
    assert "tmp ok" in done.stdout
    assert not list(area.glob("*/evil"))


def test_its_tmpfs_and_shared_memory_are_capped(area: Path) -> None:
    done = run(
        area,
        "for path in ('/tmp/fill', '/dev/shm/fill'):\n"
        "    try:\n"
        "        with open(path, 'wb') as f:\n"
        "            for _ in range(64): f.write(bytes(1 << 20))\n"
        "        print('FILLED', path)\n"
        "    except OSError as e:\n"
        "        print('full', path, e.errno)\n",
        tmpfs_bytes=8 * 1024 * 1024,
    )
    assert done.returncode == 0, done.stderr
    assert "FILLED" not in done.stdout and done.stdout.count("full") == 2, done.stdout


def test_no_process_outside_is_seen_or_signalled(area: Path) -> None:
    done = run(
        area,
        "import os, signal\n"
        "print('pids', sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n"
        f"try:\n    os.kill({os.getpid()}, signal.SIGKILL); print('KILLED')\n"
        "except OSError:\n    print('no such process')\n"
        "print('uid', os.getuid())\n",
    )
    assert done.returncode == 0, done.stderr
    assert "KILLED" not in done.stdout and "no such process" in done.stdout
    pids = eval(done.stdout.split("pids ", 1)[1].splitlines()[0])  # a list of small ints
    assert max(pids) < 10, pids  # its own namespace: bubblewrap's init, the shell, itself
    assert "uid 1000" in done.stdout


def test_the_environment_is_only_what_it_is_given(
    area: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KASSEN_ADMIN_TOKEN", "organiser-secret")
    done = run(
        area,
        "import os; print(sorted(os.environ))",
        env={"KASSEN_ADDRESS": "unix:/run/kassen/referee.sock"},
    )
    assert "KASSEN_ADMIN_TOKEN" not in done.stdout
    assert "KASSEN_ADDRESS" in done.stdout
