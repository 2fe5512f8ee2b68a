"""``kassen serve --workers N``: N referee processes on one port.

This parent process binds nothing it serves: it makes sure the port is free (and keeps it
reserved: a bound, never listening socket with SO_REUSEPORT, which receives no connection
but stops any other program from taking the port), starts the N workers
(``python -m kassen.commands.serve_worker``, each told its part on its standard input), waits
until each listens (it writes ``ready`` on its standard output), forwards SIGINT and SIGTERM
to them and exits when they have all ended. The kernel spreads connections over the workers;
server/forwarding.py routes each call about a match to the worker that owns it.

A worker that dies is not restarted: its matches died with it, and its id prefix would be
handed to a newcomer that knows none of them. The parent logs it, stops the others (their
matches end ABORTED, every seat told) and exits 1: whatever supervises the service (systemd,
a container runtime) starts it again, as it would a single referee.

A worker notices its parent's death by the end of its standard input and stops too.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import shutil
import signal
import socket
import sys
import tempfile
from dataclasses import dataclass, replace

import structlog

from server.app import AddressInUse
from server.forwarding import MAX_WORKERS, WorkerSlot
from server.settings import ServerSettings

log = structlog.get_logger("kassen")

#: How long a worker may take to listen after it starts.
READY_TIMEOUT_S = 60.0
#: What a worker writes on its standard output once it listens.
READY = b"ready\n"


class WorkerFailed(RuntimeError):
    """A worker could not start, or ended on its own."""


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """What one worker needs, sent on its standard input (never on its command line: the
    organiser token is among the settings)."""

    address: str
    replays: str
    settings: ServerSettings
    store: str
    shown_store: str
    log_level: str
    slot: WorkerSlot


def worker_settings(settings: ServerSettings, count: int) -> ServerSettings:
    """One worker's share of the referee-wide limits (rounded up). The per-caller limits
    stay whole in each worker: a caller's matches count where its connection landed. So do
    the spectator limits: ``--max-watchers`` is per process (its memory and loop), and the
    spectators of a match are all counted by the worker that owns it."""
    return replace(
        settings,
        max_live_matches=math.ceil(settings.max_live_matches / count),
        max_waiting_matches=math.ceil(settings.max_waiting_matches / count),
    )


def reserve_port(address: str) -> tuple[str, socket.socket]:
    """Check that ``address`` is free and keep it for the workers: the address with its port
    (port 0: a free one, chosen here) and the socket that holds it until they all ended.
    Raises ``AddressInUse`` when something else listens there."""
    host, _, port = address.rpartition(":")
    bare = host.strip("[]")
    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            bare, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (OSError, ValueError) as exc:
        raise AddressInUse(f"cannot listen on {address}: {exc}") from None
    with socket.socket(family, kind, proto) as probe:  # without SO_REUSEPORT: nobody else
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(where)
        except OSError as exc:
            raise AddressInUse(f"cannot listen on {address}: {exc.strerror or exc}") from None
        chosen = probe.getsockname()[1]
    held = socket.socket(family, kind, proto)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        held.bind((where[0], chosen, *where[2:]))
    except OSError as exc:
        held.close()
        raise AddressInUse(f"cannot listen on {address}: {exc.strerror or exc}") from None
    return f"{host}:{chosen}", held


async def supervise(
    address: str,
    count: int,
    replays: str,
    settings: ServerSettings,
    store: str,
    shown_store: str,
    log_level: str,
) -> None:
    """Run ``count`` workers on ``address`` until SIGINT/SIGTERM (or one of them dies: then
    ``WorkerFailed``). ``AddressInUse`` when the port is taken."""
    if not 2 <= count <= MAX_WORKERS:
        raise ValueError(f"{count} workers")
    address, held = reserve_port(address)
    folder = tempfile.mkdtemp(prefix="kassen-workers-")  # mode 700: the private sockets
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    workers: list[asyncio.subprocess.Process] = []
    try:
        share = worker_settings(settings, count)
        for index in range(count):
            config = WorkerConfig(
                address,
                replays,
                share,
                store,
                shown_store,
                log_level,
                WorkerSlot(index, count, folder),
            )
            workers.append(await _start(config))
        await _all_ready(workers, stop)
        if not settings.admin_token:
            log.warning("no organiser token: loopback only", address=address)
        log.info(
            "serving",
            address=address,
            workers=count,
            pids=[w.pid for w in workers],
            replays=replays,
            store=shown_store,
            tls=settings.tls_cert_chain is not None,
            organiser_token=settings.admin_token is not None,
        )
        ended = [asyncio.ensure_future(w.wait()) for w in workers]
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait([stopped, *ended], return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        died = [i for i, e in enumerate(ended) if e.done()]
        if died and not stop.is_set():
            index = died[0]
            code = workers[index].returncode
            log.error("worker_died", worker=index, pid=workers[index].pid, exit_code=code)
            await _stop_all(workers, settings.shutdown_grace_s)
            raise WorkerFailed(f"worker {index} ended on its own (exit code {code})")
        log.info("stopping", workers=count)
        codes = await _stop_all(workers, settings.shutdown_grace_s)
        failed = [(i, c) for i, c in enumerate(codes) if c != 0]
        if failed:
            raise WorkerFailed(", ".join(f"worker {i} ended with exit code {c}" for i, c in failed))
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await _stop_all(workers, settings.shutdown_grace_s)
        held.close()
        shutil.rmtree(folder, ignore_errors=True)


async def _start(config: WorkerConfig) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kassen.commands.serve_worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        # Ctrl-C reaches every worker from the parent only, once the parent is ready for it.
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdin is not None
    process.stdin.write(pickle.dumps(config))
    await process.stdin.drain()  # stdin stays open: its end tells the worker we are gone
    return process


async def _all_ready(workers: list[asyncio.subprocess.Process], stop: asyncio.Event) -> None:
    """Wait for every worker's ``ready``; ``WorkerFailed`` names one that ended before."""
    for index, worker in enumerate(workers):
        assert worker.stdout is not None
        try:
            line = await asyncio.wait_for(worker.stdout.readline(), READY_TIMEOUT_S)
        except TimeoutError:
            line = b""
        if line != READY:
            code = await _stop(worker, 5.0)
            raise WorkerFailed(f"worker {index} could not start (exit code {code})")
        if stop.is_set():
            return


async def _stop(worker: asyncio.subprocess.Process, grace_s: float) -> int | None:
    """SIGTERM, then SIGKILL after ``grace_s``: the worker's exit code."""
    if worker.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            worker.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(worker.wait(), grace_s)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                worker.kill()
            await worker.wait()
    if worker.stdin is not None:
        worker.stdin.close()
    return worker.returncode


async def _stop_all(workers: list[asyncio.subprocess.Process], grace_s: float) -> list[int | None]:
    # The workers' own shutdown takes up to grace_s; a few seconds more for their servers.
    return list(await asyncio.gather(*(_stop(w, grace_s + 5.0) for w in workers)))
