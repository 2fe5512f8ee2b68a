"""Hostile: a fork bomb (every child forks again, none exits) in a process group of its own;
report how far it got on stderr, kill the group and play normally."""

import os
import signal
import sys
import time


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


read_end, write_end = os.pipe()
leader = os.fork()
if leader == 0:
    os.setpgid(0, 0)
    os.close(read_end)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:  # each process forks until it fails, then keeps trying
        try:
            if os.fork() == 0:
                os.write(write_end, b"x")
        except OSError:
            time.sleep(0.01)
    time.sleep(60)
    os._exit(0)
os.close(write_end)
time.sleep(4)
os.set_blocking(read_end, False)
made = 0
try:
    while chunk := os.read(read_end, 65536):
        made += len(chunk)
except BlockingIOError:
    pass
report(f"contained: fork bomb stopped at {made} processes")
os.killpg(leader, signal.SIGKILL)
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-forkbomb"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
