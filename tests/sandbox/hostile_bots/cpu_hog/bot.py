"""Hostile: spin on every core it can get (eight busy processes) for 4 s, and report on
stderr how many cores' worth of CPU time they had; then play normally."""

import os
import sys
import time

SPINNERS = 8
SECONDS = 4.0


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


read_end, write_end = os.pipe()
started = time.monotonic()
for _ in range(SPINNERS):
    if os.fork() == 0:
        while time.monotonic() - started < SECONDS:
            pass
        os.write(write_end, f"{time.process_time():.3f}\n".encode())
        os._exit(0)
os.close(write_end)
for _ in range(SPINNERS):
    os.wait()
wall = time.monotonic() - started
with os.fdopen(read_end) as spun:
    cpu = sum(float(line) for line in spun)
report(
    f"spun {cpu:.1f} CPU seconds in {wall:.1f} s: {cpu / wall:.2f} cores on a host of {os.cpu_count()}"
)

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-cpu-hog"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
