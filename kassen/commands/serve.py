"""``kassen serve``: run a referee until interrupted.

With an organiser token (``--admin-token-file`` or ``KASSEN_ADMIN_TOKEN``) creating matches
needs it; without one the referee listens on loopback only. ``--tls-cert``/``--tls-key``
make it speak TLS only (docs/security.md). Finished matches are kept in ``--store`` (a SQLite
file by default, PostgreSQL by URL); SIGINT/SIGTERM end running matches ``ABORTED``, every
seat told, then stop. ``--workers N`` runs N referee processes on the one port
(server/workers.py, server/forwarding.py).
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.commands.credentials import (
    PRIVATE_KEY,
    add_token_flag,
    admin_token,
    pem_file,
    token_file,
)
from kassen.commands.monitoring import add_load_report_flag, load_report_s
from kassen.commands.watcher_flags import add_watcher_flags, watcher_limits
from kassen.errors import UsageError
from server.settings import (  # constants only; the server itself is imported by run
    DEFAULT_MAX_LIVE_MATCHES,
    DEFAULT_MAX_LIVE_PER_CALLER,
    DEFAULT_MAX_WAITING_MATCHES,
    DEFAULT_MAX_WAITING_PER_CALLER,
    DEFAULT_PING_INTERVAL_MS,
    DEFAULT_RECENT_MATCHES,
    LIVE_MATCHES_RANGE,
    MAX_MESSAGE_BYTES,
    MAX_WATCH_DELAY_MS,
    MESSAGE_BYTES_RANGE,
    PING_INTERVAL_RANGE_MS,
    RECENT_MATCHES_RANGE,
    ServerSettings,
)

if TYPE_CHECKING:
    import asyncio

    from server.forwarding import WorkerSlot
    from server.referee import Referee
    from server.store import MatchStore

#: Where finished matches go unless ``--store`` says otherwise (next to runs/replays).
DEFAULT_STORE = "runs/referee.sqlite"
NO_STORE = "none"
DEFAULT_SANDBOX_FOLDER = "runs/sandbox"
#: The most referee processes ``--workers`` starts (server.forwarding.MAX_WORKERS).
MAX_WORKERS = 64


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run a referee server")
    serve.add_argument(
        "--address",
        default="127.0.0.1:50051",
        help="host:port to listen on (default 127.0.0.1:50051; beyond loopback needs a token)",
    )
    serve.add_argument(
        "--replays", default="runs/replays", help="folder for replay files (default runs/replays)"
    )
    serve.add_argument(
        "--store",
        default=DEFAULT_STORE,
        metavar="PATH|URL",
        help=f"where finished matches are kept for GetMatch, GetReplay and ListMatches: a SQLite"
        f" file, a database URL (postgresql://...), or {NO_STORE!r} to forget them once out of"
        f" memory (default {DEFAULT_STORE})",
    )
    serve.add_argument(
        "--workers",
        default="1",
        metavar="N",
        help=f"referee processes sharing the port, 1 to {MAX_WORKERS}: each match is played by"
        " the process that created it, wherever its seats connect (default 1)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="least level of the JSON log lines on stderr (default info)",
    )
    add_token_flag(serve, "file holding the organiser token that creating matches needs")
    serve.add_argument("--tls-cert", default=None, metavar="FILE", help="PEM certificate chain")
    serve.add_argument("--tls-key", default=None, metavar="FILE", help="PEM private key")
    serve.add_argument(
        "--tls-ca",
        default=None,
        metavar="FILE",
        help="PEM CA that launched bots trust (default: the --tls-cert file)",
    )
    serve.add_argument(
        "--relay-token-file",
        default=None,
        metavar="FILE",
        help="file holding the token of a trusted relay of Watch streams (metadata"
        " x-kassen-relay), which --max-watchers-per-caller does not count",
    )
    limits = [
        ("--ping-interval-ms", DEFAULT_PING_INTERVAL_MS, "how often seats are pinged"),
        ("--min-watch-delay-ms", 0, "least spectator delay of every match"),
        ("--max-live-matches", DEFAULT_MAX_LIVE_MATCHES, "matches alive at once"),
        (
            "--max-waiting-matches",
            DEFAULT_MAX_WAITING_MATCHES,
            "matches waiting for their bots to join at once",
        ),
        (
            "--max-live-per-caller",
            DEFAULT_MAX_LIVE_PER_CALLER,
            "matches alive at once created by one caller (the organiser, or one host)",
        ),
        (
            "--max-waiting-per-caller",
            DEFAULT_MAX_WAITING_PER_CALLER,
            "matches of one caller waiting for their bots to join",
        ),
        ("--recent-matches", DEFAULT_RECENT_MATCHES, "finished matches kept in memory"),
        ("--max-message-bytes", MAX_MESSAGE_BYTES, "largest message a client may send"),
    ]
    for flag, default, what in limits:
        serve.add_argument(flag, type=int, default=default, help=f"{what} (default {default})")
    serve.add_argument(
        "--run-submitted",
        default="",
        metavar="RUNTIMES",
        help="host a ladder's matches with submitted bots too, running them in sandboxes beside"
        " this referee: the runtimes offered, comma-separated, or 'all' (default: none)",
    )
    serve.add_argument(
        "--sandbox-folder",
        default=DEFAULT_SANDBOX_FOLDER,
        metavar="DIR",
        help="where the sandboxes' area is made; it and the folders above it must let other"
        f" users pass (default {DEFAULT_SANDBOX_FOLDER})",
    )
    add_watcher_flags(serve)
    add_load_report_flag(serve)
    serve.set_defaults(run=run)


def _within(flag: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise UsageError(f"{flag} must be between {low} and {high}, not {value}")
    return value


def settings_from(args: argparse.Namespace) -> ServerSettings:
    """The referee's settings from the flags; every bad value is a UsageError naming its flag."""
    from server.auth import is_loopback

    token = admin_token(args.admin_token_file)
    host = args.address.rsplit(":", 1)[0]
    if token is None and not is_loopback(host):
        raise UsageError(
            f"--address {args.address} is beyond loopback: give an organiser token"
            " (--admin-token-file FILE or KASSEN_ADMIN_TOKEN) to listen there"
        )
    if (args.tls_cert is None) != (args.tls_key is None):
        raise UsageError("--tls-cert and --tls-key go together")
    if args.tls_ca is not None and args.tls_cert is None:
        raise UsageError("--tls-ca needs --tls-cert and --tls-key")
    cert = key = ca_file = None
    if args.tls_cert is not None:
        cert = pem_file("--tls-cert", args.tls_cert)
        key = pem_file("--tls-key", args.tls_key, PRIVATE_KEY)
        _check_pair(args.tls_cert, args.tls_key)
        ca_path = args.tls_ca if args.tls_ca is not None else args.tls_cert
        pem_file("--tls-ca", ca_path)
        ca_file = str(Path(ca_path).resolve())  # launched bots may run in another folder
    return ServerSettings(
        admin_token=token,
        tls_cert_chain=cert,
        tls_private_key=key,
        tls_ca_file=ca_file,
        ping_interval_ms=_within(
            "--ping-interval-ms", args.ping_interval_ms, *PING_INTERVAL_RANGE_MS
        ),
        min_watch_delay_ms=_within(
            "--min-watch-delay-ms", args.min_watch_delay_ms, 0, MAX_WATCH_DELAY_MS
        ),
        max_live_matches=_within("--max-live-matches", args.max_live_matches, *LIVE_MATCHES_RANGE),
        max_waiting_matches=_within(
            "--max-waiting-matches", args.max_waiting_matches, *LIVE_MATCHES_RANGE
        ),
        max_live_per_caller=_within(
            "--max-live-per-caller", args.max_live_per_caller, *LIVE_MATCHES_RANGE
        ),
        max_waiting_per_caller=_within(
            "--max-waiting-per-caller", args.max_waiting_per_caller, *LIVE_MATCHES_RANGE
        ),
        **watcher_limits(args),
        relay_token=token_file("--relay-token-file", args.relay_token_file),
        recent_matches=_within("--recent-matches", args.recent_matches, *RECENT_MATCHES_RANGE),
        max_message_bytes=_within(
            "--max-message-bytes", args.max_message_bytes, *MESSAGE_BYTES_RANGE
        ),
        load_report_s=load_report_s(args),
        submitted_runtimes=runtimes_from(args.run_submitted),
        sandbox_folder=str(Path(args.sandbox_folder).resolve()),
    )


def runtimes_from(value: str) -> tuple[str, ...]:
    """``--run-submitted``: runtimes from the manifest's list (or ``all``), else a UsageError."""
    from tournament.submissions.manifest import RUNTIMES

    if not value.strip():
        return ()
    if value.strip() == "all":
        return RUNTIMES
    names = tuple(name.strip() for name in value.split(","))
    unknown = [name for name in names if name not in RUNTIMES]
    if unknown:
        raise UsageError(
            f"--run-submitted: unknown runtime {unknown[0]!r} (known: {', '.join(RUNTIMES)})"
        )
    return names


def _check_pair(cert: str, key: str) -> None:
    """gRPC would only say it cannot bind: name a key that does not fit the certificate
    (or is encrypted, which gRPC cannot use) here instead."""
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key, b"")
    except ssl.SSLError as exc:
        reason = exc.reason or str(exc)
        raise UsageError(
            f"--tls-key {key} does not fit --tls-cert {cert} or is encrypted ({reason})"
        ) from None


def workers_from(value: str) -> int:
    """``--workers``: a whole number from 1 to ``MAX_WORKERS``, else a UsageError."""
    try:
        count = int(value)
    except ValueError:
        count = 0
    if str(count) != value.strip() or not 1 <= count <= MAX_WORKERS:
        raise UsageError(f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {value!r}")
    return count


def run(args: argparse.Namespace) -> int:
    import asyncio

    from server.app import AddressInUse, Unprotected
    from server.logs import configure

    if ":" not in args.address:
        raise UsageError(f"--address must be host:port, not {args.address!r}")
    workers = workers_from(args.workers)
    settings = settings_from(args)
    store = _open_store(args.store)
    configure(args.log_level)
    if workers > 1:
        return _supervise(args, workers, settings, store)
    try:
        asyncio.run(_serve(args.address, Path(args.replays), settings, store, args.store))
    except (AddressInUse, Unprotected) as exc:
        raise UsageError(str(exc)) from None
    return 0


def _supervise(
    args: argparse.Namespace, workers: int, settings: ServerSettings, store: MatchStore | None
) -> int:
    """``--workers N``: N referee processes; the store was opened (and made) here once."""
    import asyncio
    import sys

    from server.app import AddressInUse
    from server.store import shown
    from server.workers import WorkerFailed, supervise

    if store is not None:
        store.close()
    try:
        asyncio.run(
            supervise(
                args.address,
                workers,
                args.replays,
                settings,
                args.store,
                shown(args.store),
                args.log_level,
            )
        )
    except AddressInUse as exc:
        raise UsageError(str(exc)) from None
    except WorkerFailed as exc:
        print(f"kassen: {exc}", file=sys.stderr)
        return 1
    return 0


def _open_store(spec: str) -> MatchStore | None:
    """The store ``--store`` names (None for ``none``); a UsageError names what is wrong."""
    from server.store import MatchStore, StoreError

    if spec == NO_STORE:
        return None
    try:
        return MatchStore.open(spec)
    except StoreError as exc:
        raise UsageError(f"--store: {exc}") from None


async def _serve(
    address: str,
    replays: Path,
    settings: ServerSettings,
    store: MatchStore | None,
    where: str,
    worker: WorkerSlot | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM. A ``worker`` (server/workers.py) says ``ready`` on its
    standard output instead of logging "serving", and also stops when its standard input
    ends (its parent is gone)."""
    import asyncio
    import signal

    import structlog

    from server.app import running_server
    from server.load import monitoring
    from server.store import shown

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    log = structlog.get_logger("kassen")
    async with (
        running_server(
            address, replay_dir=replays, settings=settings, store=store, worker=worker
        ) as referee,
        monitoring(settings.load_report_s),
        contextlib.AsyncExitStack() as stack,
    ):
        if settings.submitted_runtimes:
            await _run_submitted(referee, settings, stack)
        if worker is not None:
            _watch_parent(loop, stop)
            log.debug("worker_serving", worker=worker.index, address=referee.address)
            print("ready", flush=True)
            await stop.wait()
            return
        if not settings.admin_token:
            log.warning("no organiser token: loopback only", address=referee.address)
        log.info(
            "serving",
            address=referee.address,
            replays=str(replays),
            store=shown(where),
            tls=settings.tls_cert_chain is not None,
            organiser_token=settings.admin_token is not None,
        )
        await stop.wait()
        log.info("stopping")


async def _run_submitted(
    referee: Referee, settings: ServerSettings, stack: contextlib.AsyncExitStack
) -> None:
    """Make this referee run submitted bots' seats (``--run-submitted``); a host that cannot
    is a UsageError naming what it lacks."""
    import structlog

    from tournament.submissions.kit import NoSandbox
    from tournament.submissions.runner import SandboxRunner

    folder = Path(settings.sandbox_folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        runner = await stack.enter_async_context(
            SandboxRunner.opened(referee, folder, settings.submitted_runtimes)
        )
    except (NoSandbox, OSError) as exc:
        raise UsageError(f"--run-submitted: {exc}") from None
    assert referee.hosting is not None
    referee.hosting.run_submitted(runner.seat, runner.runtimes)
    structlog.get_logger("kassen").info("runs submitted bots", runtimes=runner.runtimes)


def _watch_parent(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Set ``stop`` when standard input ends: the parent of this worker is gone."""
    import os
    import sys

    fd = sys.stdin.fileno()

    def readable() -> None:
        try:
            gone = not os.read(fd, 4096)
        except OSError:
            gone = True
        if gone:
            loop.remove_reader(fd)
            stop.set()

    loop.add_reader(fd, readable)
