"""Serve the web page with uvicorn in the ladder's own asyncio loop.

One loop holds the referee, the ladder and the page, so handlers read the service directly
(no locks, no copies). uvicorn's own signal handling is off: the process running the ladder
decides when to stop. ``running_web`` binds a socket itself (port 0 picks a free port) and
yields the address actually bound; on exit it asks uvicorn to stop and waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator

import uvicorn

from tournament.ladder_service.service import LadderService
from tournament.ladder_service.web.app import create_app

#: How long open connections (a live view's event stream) may take to close at shutdown.
SHUTDOWN_S = 3


class _Server(uvicorn.Server):
    """uvicorn without its signal handlers: the process running the ladder owns SIGINT and
    SIGTERM (uvicorn would otherwise replace them while it serves, and stop only itself)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"web address {address!r} must be host:port (port 0: any free port)")
    return host.strip("[]"), int(port)


@contextlib.asynccontextmanager
async def running_web(service: LadderService, address: str = "127.0.0.1:0") -> AsyncIterator[str]:
    """Serve ``create_app(service)`` on ``address`` until the block exits; yields
    ``host:port`` as bound."""
    host, port = _split(address)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    bound_port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(service),
        log_config=None,  # the process running the ladder configures logging
        log_level="warning",
        access_log=False,
        server_header=False,
        lifespan="off",
        timeout_graceful_shutdown=SHUTDOWN_S,
    )
    server = _Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()  # raises what stopped it
                raise RuntimeError("the web server stopped while starting")
            await asyncio.sleep(0.01)
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        yield f"{shown}:{bound_port}"
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, SHUTDOWN_S + 2)
        sock.close()
