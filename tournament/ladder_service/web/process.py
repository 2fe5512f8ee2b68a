"""The web page in a process of its own, started and watched by the ladder.

Why a process: the ladder's event loop runs every match's referee, and a page's work
(database queries, JSON, templates, replays) is CPU the loop would otherwise wait for. In a
thread it would still share the GIL; in its own process, at a lower priority
(``NICENESS``), a visitor can only slow the page, never a decision. The page reads the
database itself and reaches the ladder on its private unix socket (``source.LadderSource``).

The ladder runs ``python -m tournament.ladder_service.web.process`` and writes its
``WebConfig`` as one JSON line to its standard input, which it keeps open: the page stops
when that closes (the ladder stopped, or died). The page answers one JSON line on its
standard output: ``{"ready": "host:port"}`` once it serves, or ``{"error": "..."}`` (a busy
port, an unreadable database). ``running_web`` is the ladder's side: it starts the page,
starts it again (on the same port) if it dies, and stops it at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass
from pathlib import Path

import structlog

from tournament.ladder_service.web.live import LiveLimits

log = structlog.get_logger("kassen.web")

#: How much lower the page's scheduling priority is than the ladder's.
NICENESS = 10
#: How long the page may take to start.
START_TIMEOUT_S = 60.0
#: Pause before starting a page that died again.
RESTART_DELAY_S = 1.0


class WebPageError(RuntimeError):
    """The page could not start; the message says why (e.g. its port is taken)."""


@dataclass(frozen=True, slots=True)
class WebConfig:
    address: str
    database: str
    ladder: str
    relay_token: str | None
    log_level: str
    max_watchers: int
    max_watchers_per_match: int
    max_watchers_per_caller: int
    #: The CA file of the remote referees' TLS (None: the system's roots).
    referees_ca: str | None = None


# ---------------------------------------------------------------------- the page's side


def main() -> int:
    config = WebConfig(**json.loads(sys.stdin.readline()))
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    from server.logs import configure

    configure(config.log_level)
    try:
        asyncio.run(_serve(config))
    except WebPageError as exc:
        _say({"error": str(exc)})
        return 2
    return 0


def _say(message: dict[str, str]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def _serve(config: WebConfig) -> None:
    import grpc

    from tournament.ladder_service.web.app import create_app
    from tournament.ladder_service.web.server import bind, serve, shown
    from tournament.ladder_service.web.source import LadderSource
    from tournament.storage import StorageError, connect

    try:
        sock = bind(config.address)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise WebPageError(f"--web {config.address}: {reason}") from None
    try:
        engine = connect(config.database, create=False)
    except StorageError as exc:
        sock.close()
        raise WebPageError(f"the web page cannot read the database: {exc}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sign in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sign, stop.set)
    loop.add_reader(sys.stdin.fileno(), _on_stdin, stop)
    limits = LiveLimits(
        per_match=config.max_watchers_per_match,
        per_client=config.max_watchers_per_caller,
        total=config.max_watchers,
    )
    async with grpc.aio.insecure_channel(config.ladder) as channel:
        source = LadderSource(engine, channel, config.relay_token)
        referees_ca = None
        if config.referees_ca is not None:
            try:
                referees_ca = Path(config.referees_ca).read_bytes()
            except OSError as exc:
                raise WebPageError(f"referees.tls_ca: {exc.strerror or exc}") from None
        app = create_app(source, limits, referees_ca)
        try:
            await serve(app, sock, stop, lambda: _say({"ready": shown(sock)}))
        finally:
            app.state.seats.close()
            await app.state.live.close()
            source.close()
            engine.dispose()


def _on_stdin(stop: asyncio.Event) -> None:
    """The ladder closed our standard input (it stopped or died): stop too."""
    if not os.read(sys.stdin.fileno(), 4096):
        asyncio.get_running_loop().remove_reader(sys.stdin.fileno())
        stop.set()


# ---------------------------------------------------------------------- the ladder's side


class WebPage:
    """The running page process, started again on the same address if it dies."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.address = ""
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._stopping = False
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> str:
        self.address = await self._spawn(self.config)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())
        return self.address

    async def _spawn(self, config: WebConfig) -> str:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tournament.ladder_service.web.process",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(asdict(config)).encode() + b"\n")
        await process.stdin.drain()
        try:
            line = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)
        except TimeoutError:
            line = b""
        try:
            answer = json.loads(line) if line else {}
        except ValueError:
            answer = {}
        if "ready" in answer:
            return str(answer["ready"])
        await self._end(process)
        raise WebPageError(
            str(answer.get("error") or "the web page process did not start (see its log)")
        )

    async def _watch(self) -> None:
        """Start the page again when it dies (on the port it had, so links keep working)."""
        while not self._stopping:
            process = self.process
            assert process is not None
            code = await process.wait()
            if self._stopping:
                return
            log.error("web page process died; starting it again", returncode=code)
            self.restarts += 1
            await asyncio.sleep(RESTART_DELAY_S)
            config = WebConfig(**{**asdict(self.config), "address": self.address})
            while not self._stopping:
                try:
                    await self._spawn(config)
                    break
                except WebPageError as exc:
                    log.error("web page could not start again", error=str(exc))
                    await asyncio.sleep(5 * RESTART_DELAY_S)

    async def stop(self) -> None:
        self._stopping = True
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self.process is not None:
            await self._end(self.process)

    @staticmethod
    async def _end(process: asyncio.subprocess.Process) -> None:
        """Close its input (it stops by itself), or end it after a while."""
        if process.returncode is None and process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 8)
        except TimeoutError:
            process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def running_web(
    address: str,
    database: str,
    ladder: str,
    relay_token: str | None = None,
    limits: LiveLimits | None = None,
    log_level: str = "warning",
    referees_ca: str | None = None,
) -> AsyncIterator[WebPage]:
    """The page on ``address`` (``page.address`` is where it bound) for the ladder reached at
    ``ladder`` with the database at URL ``database``, until the block exits."""
    limits = limits or LiveLimits()
    page = WebPage(
        WebConfig(
            address=address,
            database=database,
            ladder=ladder,
            relay_token=relay_token,
            log_level=log_level,
            max_watchers=limits.total,
            max_watchers_per_match=limits.per_match,
            max_watchers_per_caller=limits.per_client,
            referees_ca=referees_ca,
        )
    )
    await page.start()
    try:
        yield page
    finally:
        await page.stop()


if __name__ == "__main__":
    sys.exit(main())
