"""Hostile: open Play streams on the referee's socket by the ten thousand, by hand-written
HTTP/2 (a HEADERS frame each, a few dozen bytes for the bot) and never send Join, over as
many connections as it may hold, for 12 s; report how many on stderr, then play normally."""

import contextlib
import os
import resource
import select
import socket
import struct
import sys
import time

STREAMS_PER_CONNECTION = 1000
SECONDS = 12


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        struct.pack(">I", len(payload))[1:]
        + bytes([kind, flags])
        + struct.pack(">I", stream)
        + payload
    )


def literal(index: int, value: bytes) -> bytes:
    """A header without indexing, its name from the static table (index < 15)."""
    return bytes([index, len(value)]) + value


HEADERS = (
    b"\x83\x86"  # :method POST, :scheme http
    + literal(4, b"/kassen.v1.Referee/Play")
    + literal(1, b"localhost")
    + b"\x0f\x10"
    + bytes([16])
    + b"application/grpc"  # content-type (static index 31)
    + b"\x00\x02te\x08trailers"
)
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0)

limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
path = os.environ["KASSEN_ADDRESS"].removeprefix("unix:")
connections = []
opened = 0
for _ in range(max(1, limit - 64)):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
    except OSError as error:
        report(f"connection {len(connections) + 1} refused: {error}")
        break
    data = PREFACE + frame(4, 1, 0)  # and a SETTINGS ACK
    for n in range(STREAMS_PER_CONNECTION):
        data += frame(1, 4, 2 * n + 1, HEADERS)  # END_HEADERS, not END_STREAM
    s.settimeout(2)
    with contextlib.suppress(OSError):
        s.sendall(data)
    s.setblocking(False)
    opened += STREAMS_PER_CONNECTION
    connections.append(s)
report(f"opened {opened} streams on {len(connections)} connections")
deadline = time.monotonic() + SECONDS
while time.monotonic() < deadline:  # read and drop what the referee says
    readable, _, _ = select.select(connections, [], [], 0.5)
    for s in readable:
        with contextlib.suppress(OSError):
            s.recv(1 << 16)
for s in connections:
    s.close()
report("closed them")

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-stream-flood"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
