"""The Go, Rust and C++ examples as submissions (the others: test_submitted_examples.py): ``kassen match --seat sub:DIR`` runs each one's
``prepare`` (on a copy of the example, laid out as in the repository), builds it in the
sandbox without network, and the bot plays a whole match through the referee's Unix socket.

Marked ``crosslang``; skipped with one line when the host has no sandbox (bubblewrap) or the
language's toolchain is missing. Each build is cold (nothing is shared with the other tests'
caches: a ladder builds a submission from its folder alone); the time it took is printed and
recorded as the test's ``build_seconds`` property.

Rust: the sandbox user must reach the toolchain. When ``rustc --print sysroot`` is closed to it
(rustup under /root), the test makes a copy of its bin/ and lib/ of hard links (instant, same
filesystem) outside /tmp, which each sandbox replaces, and names it in ``KASSEN_RUST_SYSROOT``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from games import GameConfig
from games.policies import make_policy
from server.app import running_server
from server.referee import LocalBot
from server.sandbox.host import detect
from server.sandbox.runtimes import host_runtimes, unreachable
from server.settings import MatchSettings, TimeControl
from tests.crosslang.test_examples import built
from tests.crosslang.test_examples import environment as example_environment
from tests.crosslang.toolchains import build_environment, skip_reason

pytestmark = pytest.mark.crosslang

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("go", "rust", "cpp")
#: What each example's .gitignore lists at its top (build outputs, what prepare makes): a copy
#: starts from the sources alone, as a fresh clone does.
NOT_COPIED = frozenset({"bin", ".bin", "gen", "vendor", "target", ".cargo", "proto", "build"})
#: prepare, a cold build in the sandbox and one match.
MATCH_TIMEOUT_S = 1200
#: Where a reachable copy of the Rust toolchain goes: not /tmp (each sandbox has its own).
SYSROOT_PARENT = Path("/var/tmp")
#: What a rust toolchain folder needs to build (share/ is documentation: tens of thousands of
#: files that would only slow the copy).
SYSROOT_PARTS = ("bin", "lib", "libexec", "etc")


def _rust_sysroot() -> Path | None:
    rustc = shutil.which("rustc")
    if rustc is None:
        return None
    done = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, text=True)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


@pytest.fixture(scope="module")
def rust_environment() -> Iterator[dict[str, str]]:
    """``KASSEN_RUST_SYSROOT`` for a toolchain the sandbox user can reach (empty: rustc's own
    is reachable already); skips when neither works."""
    sysroot = _rust_sysroot()
    if sysroot is None:
        pytest.skip("rust: skipped: rustc is not installed")
    if unreachable(sysroot) is None and not sysroot.resolve().is_relative_to("/tmp"):
        yield {}
        return
    if os.stat(sysroot).st_dev != os.stat(SYSROOT_PARENT).st_dev:
        pytest.skip(
            f"rust: skipped: {sysroot} is closed to the sandbox user and {SYSROOT_PARENT} is on"
            " another filesystem (no copy of hard links); set KASSEN_RUST_SYSROOT"
        )
    parent = Path(tempfile.mkdtemp(prefix="kassen-rust-", dir=SYSROOT_PARENT))
    try:
        os.chmod(parent, 0o711)
        copy = parent / "rust"
        copy.mkdir(mode=0o755)
        copy.chmod(0o755)
        started = time.monotonic()
        parts = [str(sysroot / part) for part in SYSROOT_PARTS if (sysroot / part).exists()]
        subprocess.run(["cp", "-al", *parts, str(copy)], check=True)
        print(f"rust: linked a toolchain copy in {time.monotonic() - started:.2f} s")
        yield {"KASSEN_RUST_SYSROOT": str(copy)}
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def _copy_example(language: str, into: Path) -> Path:
    """The example's sources in ``into/examples/LANGUAGE``, with ``into/proto`` beside as in the
    repository (prepare finds the protos at ../../proto)."""
    shutil.copytree(ROOT / "proto", into / "proto")
    target = into / "examples" / language

    def ignore(folder: str, names: list[str]) -> list[str]:
        top = Path(folder) == ROOT / "examples" / language
        return [name for name in names if top and name in NOT_COPIED]

    shutil.copytree(ROOT / "examples" / language, target, ignore=ignore)
    return target


@pytest.mark.parametrize("language", LANGUAGES)
def test_submitted_example_builds_in_the_sandbox_and_completes_a_match(
    language: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    record_property: Callable[[str, object], None],
) -> None:
    host = detect()
    if host.problem:
        pytest.skip(f"{language}: skipped: no sandbox here ({host.problem})")
    reason = skip_reason(language)
    if reason:
        pytest.skip(reason)
    extra = build_environment(language)
    if language == "rust":
        if shutil.which("protoc", path="/usr/local/bin:/usr/bin:/bin") is None:
            pytest.skip(
                "rust: skipped: the sandboxed build runs build.rs, which needs protoc under /usr"
                " (Debian: apt-get install protobuf-compiler)"
            )
        extra |= request.getfixturevalue("rust_environment")
    sysroot = extra.get("KASSEN_RUST_SYSROOT")
    runtime = host_runtimes(None, Path(sysroot) if sysroot else None, (language,))[language]
    if runtime.problem:
        pytest.skip(f"{language}: skipped: the sandbox cannot use it here ({runtime.problem})")
    folder = _copy_example(language, tmp_path / "src")
    seat = f"sub:{folder}"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "match", "rumble-nation", "--seat", seat]
        + ["--seat", "random", "--replays", str(tmp_path / "replays")],
        capture_output=True,
        text=True,
        timeout=MATCH_TIMEOUT_S,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), **extra},
    )
    elapsed = time.monotonic() - started
    said = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-4000:]}"
    assert done.returncode == 0, said
    built = re.search(rf"^{language}: built in ([0-9.]+) s$", done.stderr, re.MULTILINE)
    assert built is not None, said
    record_property("build_seconds", float(built.group(1)))
    print(
        f"{language}: sandboxed build {built.group(1)} s, prepare + build + match {elapsed:.1f} s"
    )
    assert re.search(r"^Result: completed after \d+ decisions$", done.stdout, re.MULTILINE), said
    line = next(line for line in done.stdout.splitlines() if f"({seat})" in line)
    decisions = re.search(r" (\d+) decisions,", line)
    assert decisions is not None and int(decisions.group(1)) > 0, said
    assert "forfeited" not in line, said
    # prepare ran in the copy: what the offline build needed is there, nothing in the repository.
    assert (folder / {"go": "vendor", "rust": "vendor", "cpp": "proto"}[language]).is_dir()


async def _play_over_a_socket(run: Path, socket: Path) -> tuple[bool, int, str]:
    """One match with the example at seat 0, started by hand with ``KASSEN_ADDRESS`` =
    ``unix:///PATH`` (the URI form; the sandbox gives ``unix:/PATH``): (forfeited, decisions,
    its stderr)."""
    async with running_server(private_socket=str(socket)) as referee:
        settings = MatchSettings(
            game="rumble-nation",
            config=GameConfig(2, "base"),
            seed=5,
            time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
            join_timeout_ms=60_000,
        )
        local = {1: LocalBot(make_policy("random", "rumble-nation", 1), "random")}
        match, tickets = referee.create_match(settings, local)
        env = {
            **{k: v for k, v in example_environment().items() if not k.startswith("KASSEN_")},
            "KASSEN_ADDRESS": f"unix://{socket}",
            "KASSEN_TICKET": tickets[0],
        }
        bot = await asyncio.create_subprocess_exec(
            str(run), env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        _, stderr = await asyncio.wait_for(bot.communicate(), 300)
        await asyncio.wait_for(match.finished.wait(), 60)
        assert match.result is not None
        seat = match.result.seats[0]
        return seat.forfeited, seat.decisions, stderr.decode(errors="replace")


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_reaches_a_referee_at_a_unix_uri(language: str, tmp_path: Path) -> None:
    run = built(language)
    forfeited, decisions, stderr = asyncio.run(_play_over_a_socket(run, tmp_path / "referee.sock"))
    assert not forfeited and decisions > 0, stderr
