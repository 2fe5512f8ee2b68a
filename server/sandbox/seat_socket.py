"""The referee's door for sandboxed bots: a Unix socket that serves ``Referee/Play`` only.

A sandbox has no network, so the referee is reachable through this socket alone, bound
read-only into every sandbox at ``/run/kassen/referee.sock``. It is a gRPC server of its own,
not another port of the referee's public one: a bot behind it may play the seat its ticket
names and call nothing else (no CreateMatch, no Watch, no organiser call: a referee without
an organiser token trusts its loopback callers, and a sandbox is not one of them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import grpc

from server.referee import Referee
from server.sandbox.bwrap import SOCKET_NAME, new_folder
from server.service import RefereeService, add_seat_service

#: Streams at once on one connection to the socket. A bot plays its seat on one stream (a
#: rejoin opens the next after the last ended); a hostile one opening thousands of streams
#: that never join costs the referee memory for each until its Join timeout. The number of
#: connections is bounded by the bot's ``open_files``.
MAX_STREAMS = 8


@contextlib.asynccontextmanager
async def seat_socket(referee: Referee, area: Path) -> AsyncIterator[Path]:
    """Serve ``referee``'s Play on a socket in a fresh folder of ``area`` (a ``sandbox_area``)
    until the block exits; yields the folder, to bind as ``Sandboxed.socket_dir``."""
    folder = new_folder(area, "socket")
    path = folder / SOCKET_NAME
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", referee.settings.max_message_bytes),
            ("grpc.max_concurrent_streams", MAX_STREAMS),
        ]
    )
    add_seat_service(RefereeService(referee), server)
    try:
        if server.add_insecure_port(f"unix:{path}") == 0:
            raise OSError(f"cannot listen on unix:{path}")
        await server.start()
        os.chmod(path, 0o666)  # the sandbox user connects; the folder above is read-only to it
        yield folder
    finally:
        await server.stop(grace=1.0)
        shutil.rmtree(folder, ignore_errors=True)
