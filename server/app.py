"""Start a referee server: the Referee service, gRPC health checking and server reflection."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from kassen.v1 import referee_pb2, referee_pb2_grpc
from server.referee import Referee
from server.service import RefereeService
from server.settings import ServerSettings

SERVICE_NAME = referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name


class AddressInUse(OSError):
    pass


def build_server(referee: Referee) -> grpc.aio.Server:
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", referee.settings.max_message_bytes),
            ("grpc.max_concurrent_streams", 1000),
            ("grpc.so_reuseport", 0),
        ]
    )
    referee_pb2_grpc.add_RefereeServicer_to_server(RefereeService(referee), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            SERVICE_NAME,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    server._kassen_health = health_servicer  # type: ignore[attr-defined]
    return server


@contextlib.asynccontextmanager
async def running_server(
    address: str = "127.0.0.1:0",
    replay_dir: Path | None = None,
    settings: ServerSettings | None = None,
) -> AsyncIterator[Referee]:
    """Run a referee on ``address`` (port 0: a free port) until the block exits.

    ``referee.address`` holds the address bots should connect to.
    """
    referee = Referee(replay_dir=replay_dir, settings=settings)
    server = build_server(referee)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:
        raise AddressInUse(f"cannot listen on {address}: {exc}") from None
    if port == 0:
        raise AddressInUse(f"cannot listen on {address}")
    host = address.rsplit(":", 1)[0]
    referee.address = f"{host}:{port}"
    await server.start()
    health_servicer = server._kassen_health  # type: ignore[attr-defined]
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    try:
        yield referee
    finally:
        await referee.shutdown()
        await server.stop(grace=1.0)
