"""Hostile: open as many connections to the referee's socket as its descriptor limit allows
and hold them for the whole match (each costs the referee a descriptor too); report how many
on stderr, then play normally on one more."""

import os
import resource
import socket
import sys


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
except (ValueError, OSError) as error:
    report(f"contained: raise its descriptor limit: {error}")
limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
report(f"descriptor limit {soft} (hard {hard}), now {limit}")
path = os.environ["KASSEN_ADDRESS"].removeprefix("unix:")
held = []
while len(held) < limit - 64:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError as error:
        s.close()
        report(f"connection {len(held) + 1} refused: {error}")
        break
    held.append(s)
report(f"holds {len(held)} connections to the referee")

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-socket-flood"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report(f"played to the end, holding {len(held)} connections")
