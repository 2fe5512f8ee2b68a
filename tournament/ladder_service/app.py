"""Assemble a running ladder: the referee's gRPC server with the Ladder service on it.

``running_ladder`` is what ``kassen ladder serve`` and the tests use: one asyncio loop, one
gRPC server (Referee + Ladder + health + reflection), one database. The server also listens
on a unix socket in a private folder (``LadderService.private_address``), where the ladder's
own web page process asks for standings and watches live matches. On exit matchmaking
stops, Seek streams end, and running matches end (recorded as voided, never rated).
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import grpc
from sqlalchemy.engine import Engine

from kassen.v1 import ladder_pb2
from server.app import running_server
from server.referee import Referee
from server.settings import ServerSettings
from tournament.ladder_service.fleet import RefereeSlot
from tournament.ladder_service.grpc_service import LadderServicer, add_ladder_service
from tournament.ladder_service.service import LadderService, LadderSettings

LADDER_SERVICE_NAME = ladder_pb2.DESCRIPTOR.services_by_name["Ladder"].full_name


@contextlib.asynccontextmanager
async def running_ladder(
    engine: Engine,
    settings: LadderSettings,
    address: str = "127.0.0.1:0",
    server_settings: ServerSettings | None = None,
    remote: Sequence[RefereeSlot] = (),
) -> AsyncIterator[LadderService]:
    """Serve the ladder on ``address`` until the block exits (``service.referee.address``
    is where bots connect). ``remote``: the referees beside the ladder's own that play its
    matches (``referees.remote_referees``); ``settings.referees`` says whether its own
    plays too."""
    made: list[LadderService] = []

    def add(server: grpc.aio.Server, referee: Referee) -> str:
        service = LadderService(
            engine, referee, settings, remote, embedded=settings.referees.uses_embedded
        )
        made.append(service)
        add_ladder_service(LadderServicer(service, referee.settings.admin_token), server)
        return LADDER_SERVICE_NAME

    server_settings = server_settings or ServerSettings()
    if server_settings.relay_token is None:  # the ladder's own web page presents it
        server_settings = dataclasses.replace(
            server_settings, relay_token=secrets.token_urlsafe(32)
        )
    folder = Path(tempfile.mkdtemp(prefix="kassen-ladder-"))  # mode 700
    socket = folder / "ladder.sock"
    try:
        async with running_server(
            address,
            settings=server_settings,
            services=[add],
            private_socket=str(socket),
            host_matches=False,
        ):
            (service,) = made
            service.private_address = f"unix:{socket}"
            await service.start()
            try:
                yield service
            finally:
                await service.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
