"""Hostile: 512 MB to stdout, then stderr flooded without end from a thread (lines and one
huge line) while it plays normally, and on after the match."""

import os
import sys
import threading

MB = 1 << 20
chunk = b"flood " * (MB // 6)
for _ in range(512):
    os.write(1, chunk)
print("wrote 512 MB to stdout", file=sys.stderr, flush=True)


def flood() -> None:
    line = b"flood line to stderr\n" * 50_000
    while True:
        os.write(2, line)
        os.write(2, b"x" * (8 * MB))  # one line of 8 MB


threading.Thread(target=flood, daemon=True).start()

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-flood"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
flood()  # and on, until the referee kills it
