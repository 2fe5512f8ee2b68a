"""Serve the web application with uvicorn on a socket bound beforehand (in the page's process).

uvicorn's own signal handling is off: the page's process stops when the ladder tells it to
(``web.process``). ``bind`` takes the address first, so a busy port is reported before
anything starts, and port 0 picks a free port whose number the ladder learns.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterator

import uvicorn
from starlette.applications import Starlette

#: How long open connections (a live view's event stream) may take to close at shutdown.
SHUTDOWN_S = 3


class _Server(uvicorn.Server):
    """uvicorn without its signal handlers: the process running the page owns SIGINT and
    SIGTERM (uvicorn would otherwise replace them while it serves)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"web address {address!r} must be host:port (port 0: any free port)")
    return host.strip("[]"), int(port)


def bind(address: str) -> socket.socket:
    """A listening-ready socket bound to ``address`` (``OSError`` if it cannot be)."""
    host, port = split_address(address)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def shown(sock: socket.socket) -> str:
    """``host:port`` as bound (IPv6 hosts in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"[{host}]:{port}" if sock.family == socket.AF_INET6 else f"{host}:{port}"


async def serve(
    app: Starlette, sock: socket.socket, stop: asyncio.Event, ready: Callable[[], None]
) -> None:
    """Serve ``app`` on ``sock``, call ``ready`` once it accepts connections, and serve until
    ``stop`` is set (then let open streams close)."""
    config = uvicorn.Config(
        app,
        log_config=None,  # the process configures logging
        log_level="warning",
        access_log=False,
        server_header=False,
        lifespan="off",
        timeout_graceful_shutdown=SHUTDOWN_S,
    )
    server = _Server(config)
    loop = asyncio.get_running_loop()
    task = loop.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()  # raises what stopped it
            raise RuntimeError("the web server stopped while starting")
        await asyncio.sleep(0.01)
    ready()
    waiter = loop.create_task(stop.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    server.should_exit = True
    waiter.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, SHUTDOWN_S + 2)
    sock.close()
