"""One worker of ``kassen serve --workers N`` (``python -m kassen.commands.serve_worker``):
started by server/workers.py, which sends it its ``WorkerConfig`` on standard input and
keeps that open (its end means the parent is gone)."""

from __future__ import annotations

import asyncio
import pickle
import sys
from pathlib import Path

import structlog

from kassen.commands.serve import _open_store, _serve
from kassen.errors import UsageError
from server.app import AddressInUse
from server.logs import configure
from server.workers import WorkerConfig


def main() -> int:
    config = pickle.load(sys.stdin.buffer)  # from our parent, through a pipe
    assert isinstance(config, WorkerConfig)
    configure(config.log_level)
    structlog.contextvars.bind_contextvars(worker=config.slot.index)
    try:
        store = _open_store(config.store)
        asyncio.run(
            _serve(
                config.address,
                Path(config.replays),
                config.settings,
                store,
                config.store,
                worker=config.slot,
            )
        )
    except (AddressInUse, UsageError) as exc:
        print(f"kassen: error: worker {config.slot.index}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
