"""What the bot box (server/bot_box.py) costs and bounds; the figures in docs/security.md.

    python -m benchmarks.bot_box

* start-up: launching and reaping ``python -c pass`` plainly and in the box;
* a stderr flood: what the referee reads, and the CPU it spends, while a bot writes to stderr
  as fast as it can, in the box and with a loop that reads everything (the old referee's);
* ``kill -9`` of ``kassen match``: how soon its bots, their children and watchdogs are gone.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import structlog

from server.bot_box import BoxedBot

NOP = [sys.executable, "-c", "pass"]
SPEW = [
    sys.executable,
    "-c",
    "import os\nline = b'x' * 1023 + b'\\n'\nwhile True: os.write(2, line * 64)",
]
#: Forks a child, says so in a file, and sleeps (never joins its match).
HANG = """import os, sys, time
child = os.fork()
if child == 0:
    time.sleep(3600)
    os._exit(0)
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
time.sleep(3600)
"""


async def startup(runs: int = 20) -> tuple[float, float]:
    """Mean seconds to start and reap ``python -c pass``: plainly, and in the box."""
    started = time.perf_counter()
    for _ in range(runs):
        plain = await asyncio.create_subprocess_exec(*NOP)
        await plain.wait()
    middle = time.perf_counter()
    for _ in range(runs):
        box = await BoxedBot.launch(NOP, dict(os.environ))
        await box.wait()
        await box.close()
    return (middle - started) / runs, (time.perf_counter() - middle) / runs


async def flood_boxed(seconds: float) -> tuple[int, float]:
    """Bytes read and referee CPU seconds during ``seconds`` of a stderr flood, in the box."""
    cpu = time.process_time()
    box = await BoxedBot.launch(SPEW, dict(os.environ))
    await asyncio.sleep(seconds)
    await box.close()
    return box.stderr.received, time.process_time() - cpu


async def flood_unbounded(seconds: float) -> tuple[int, float]:
    """The same, read as fast as it comes into an 8 KiB tail (the referee before the box)."""
    cpu = time.process_time()
    process = await asyncio.create_subprocess_exec(*SPEW, stderr=asyncio.subprocess.PIPE)
    received = 0

    async def read() -> None:
        nonlocal received
        tail = b""
        assert process.stderr is not None
        while chunk := await process.stderr.read(4096):
            received += len(chunk)
            tail = (tail + chunk)[-8192:]

    reader = asyncio.create_task(read())
    await asyncio.sleep(seconds)
    process.kill()
    await process.wait()
    reader.cancel()
    return received, time.process_time() - cpu


def marked(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in command and state != "Z":
            found.append(int(entry.name))
    return found


def kill_9(runs: int = 5) -> list[tuple[int, float]]:
    """(bot processes, seconds until all are gone) after each ``kill -9`` of kassen match."""
    results = []
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "hang.py"
        script.write_text(HANG)
        for _ in range(runs):
            ready = Path(tempfile.mkdtemp(dir=folder))
            marker = f"kassen-bench-{uuid.uuid4().hex}"
            seat = f"cmd:python {script} {ready} {marker}"
            runner = subprocess.Popen(
                [sys.executable, "-m", "kassen", "match", "rumble-nation"]
                + ["--seat", seat, "--seat", seat, "--replays", folder],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            while len(list(ready.iterdir())) < 2:
                time.sleep(0.02)
            count = len([p for p in marked(marker) if p != runner.pid])
            started = time.monotonic()
            runner.kill()
            runner.wait()
            while marked(marker):
                time.sleep(0.002)
            results.append((count, time.monotonic() - started))
    return results


async def measure() -> None:
    plain, boxed = await startup()
    print(f"start + reap python -c pass: {plain * 1000:.0f} ms plain, {boxed * 1000:.0f} ms boxed")
    for name, flood in (("box", flood_boxed), ("read everything", flood_unbounded)):
        received, cpu = await flood(5.0)
        print(
            f"stderr flood, 5 s, {name}: read {received / 2**20:,.1f} MiB, referee CPU {cpu:.2f} s"
        )


def main() -> None:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    asyncio.run(measure())
    for count, seconds in kill_9():
        print(
            f"kill -9 of kassen match: {count} bot processes, all gone after {seconds * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
