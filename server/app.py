"""Start a referee server: the Referee service, gRPC health checking and server reflection.

With an organiser token the management calls need it (server/auth.py); without one the
server refuses any address but loopback. With a certificate and key it speaks TLS only.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from kassen.v1 import referee_pb2
from server.auth import AdminTokenInterceptor, is_loopback
from server.referee import Referee
from server.service import RefereeService, add_referee_service
from server.settings import ServerSettings
from server.store import MatchStore

SERVICE_NAME = referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name


#: Adds a service to the referee's server and returns its full name (for reflection).
AddServices = Callable[[grpc.aio.Server, Referee], str]


class AddressInUse(OSError):
    pass


class Unprotected(ValueError):
    """A referee without an organiser token asked to listen beyond loopback."""


def build_server(referee: Referee, services: Sequence[AddServices] = ()) -> grpc.aio.Server:
    """The referee's gRPC server; ``services`` add more services to it (the ladder's)."""
    token = referee.settings.admin_token
    server = grpc.aio.server(
        interceptors=[AdminTokenInterceptor(token)] if token else [],
        options=[
            ("grpc.max_receive_message_length", referee.settings.max_message_bytes),
            ("grpc.max_concurrent_streams", 1000),
            ("grpc.so_reuseport", 0),
        ],
    )
    add_referee_service(RefereeService(referee), server)
    extra_names = [add(server, referee) for add in services]
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            SERVICE_NAME,
            *extra_names,
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
    store: MatchStore | None = None,
    services: Sequence[AddServices] = (),
) -> AsyncIterator[Referee]:
    """Run a referee on ``address`` (port 0: a free port) until the block exits.

    ``referee.address`` holds the address bots should connect to. Raises ``Unprotected``
    for a non-loopback address without ``settings.admin_token``. ``store``: where finished
    matches go once memory lets them go (none: they are forgotten). On exit, running matches
    end ``ABORTED`` with every seat told, within ``settings.shutdown_grace_s``.
    """
    settings = settings or ServerSettings()
    host = address.rsplit(":", 1)[0]
    if not settings.admin_token and not is_loopback(host):
        raise Unprotected(
            f"{address} is not a loopback address: without an organiser token anyone who can"
            " reach it could create matches"
        )
    referee = Referee(replay_dir=replay_dir, settings=settings, store=store)
    server = build_server(referee, services)
    try:
        port = _listen(server, address, settings)
    except RuntimeError as exc:
        raise AddressInUse(f"cannot listen on {address}: {exc}") from None
    if port == 0:
        raise AddressInUse(f"cannot listen on {address}")
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


def _listen(server: grpc.aio.Server, address: str, settings: ServerSettings) -> int:
    """Bind ``address``: TLS when both certificate chain and key are set, plaintext otherwise."""
    cert, key = settings.tls_cert_chain, settings.tls_private_key
    if (cert is None) != (key is None):
        raise ValueError("TLS needs both the certificate chain and the private key")
    if cert is None or key is None:
        return server.add_insecure_port(address)
    credentials = grpc.ssl_server_credentials([(key, cert)])
    return server.add_secure_port(address, credentials)
