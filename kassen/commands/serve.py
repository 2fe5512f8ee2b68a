"""``kassen serve``: run a referee until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

import structlog

from kassen.errors import UsageError
from server.app import AddressInUse, running_server
from server.logs import configure


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run a referee server")
    serve.add_argument(
        "--address",
        default="127.0.0.1:50051",
        help="host:port to listen on (default 127.0.0.1:50051)",
    )
    serve.add_argument(
        "--replays", default="runs/replays", help="folder for replay files (default runs/replays)"
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if ":" not in args.address:
        raise UsageError(f"--address must be host:port, not {args.address!r}")
    configure(args.log_level)
    try:
        asyncio.run(_serve(args.address, Path(args.replays)))
    except AddressInUse as exc:
        raise UsageError(str(exc)) from None
    return 0


async def _serve(address: str, replays: Path) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with running_server(address, replay_dir=replays) as referee:
        structlog.get_logger("kassen").info(
            "serving", address=referee.address, replays=str(replays)
        )
        await stop.wait()
        structlog.get_logger("kassen").info("stopping")
