"""Start a referee server: the Referee service, gRPC health checking and server reflection.

With an organiser token the management calls need it (server/auth.py); without one the
server refuses any address but loopback. With a certificate and key it speaks TLS only.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from kassen.v1 import referee_pb2
from server.auth import AdminTokenInterceptor, is_loopback
from server.forwarding import (
    OwnerService,
    Router,
    RoutingService,
    WorkerSlot,
    add_owner_service,
    add_routing_service,
)
from server.hosting import Hosting
from server.hosting_service import HostingServicer, add_hosting_service
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


def build_server(
    referee: Referee,
    services: Sequence[AddServices] = (),
    router: Router | None = None,
    owner: bool = False,
    hosting: Hosting | None = None,
) -> grpc.aio.Server:
    """The referee's gRPC server; ``services`` add more services to it (the ladder's).

    One worker of several (server/forwarding.py) has two: its share of the public port
    (``router``: SO_REUSEPORT, other workers' matches forwarded) and its private socket
    (``owner``: what the other workers forward to it). A single referee keeps SO_REUSEPORT
    off, so a busy port is an error rather than a shared one. ``hosting``: the referee also
    hosts a ladder's matches (``RefereeHost``, server/hosting_service.py).
    """
    token = referee.settings.admin_token
    server = grpc.aio.server(
        interceptors=[AdminTokenInterceptor(token)] if token else [],
        options=[
            ("grpc.max_receive_message_length", referee.settings.max_message_bytes),
            ("grpc.max_concurrent_streams", 1000),
            ("grpc.so_reuseport", 1 if router is not None else 0),
        ],
    )
    if router is not None:
        add_routing_service(RoutingService(RefereeService(referee), router), server)
    elif owner:
        servicer = OwnerService(referee)
        add_referee_service(servicer, server)
        add_owner_service(servicer, server)
    else:
        add_referee_service(RefereeService(referee), server)
    extra_names = [add(server, referee) for add in services]
    if hosting is not None:
        extra_names.append(add_hosting_service(HostingServicer(hosting, router), server))
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
    worker: WorkerSlot | None = None,
    private_socket: str | None = None,
    host_matches: bool = True,
) -> AsyncIterator[Referee]:
    """Run a referee on ``address`` (port 0: a free port) until the block exits.

    ``referee.address`` holds the address bots should connect to. Raises ``Unprotected``
    for a non-loopback address without ``settings.admin_token``. ``store``: where finished
    matches go once memory lets them go (none: they are forgotten). On exit, running matches
    end ``ABORTED`` with every seat told, within ``settings.shutdown_grace_s``.

    ``worker``: this referee is one of several sharing ``address`` (``kassen serve --workers``,
    server/workers.py); it also listens on its private socket for the others' forwarding.
    ``private_socket``: a unix socket path (in a folder only this user may enter) on which the
    same services are also served, in plaintext, for processes of the organiser's own (the
    ladder's web page). ``host_matches``: also serve ``RefereeHost`` for a ladder's
    coordinator (``referee.hosting``; organiser only); a ladder's own server does not.
    """
    settings = settings or ServerSettings()
    host = address.rsplit(":", 1)[0]
    if not settings.admin_token and not is_loopback(host):
        raise Unprotected(
            f"{address} is not a loopback address: without an organiser token anyone who can"
            " reach it could create matches"
        )
    prefix = worker.prefix if worker is not None else ""
    referee = Referee(replay_dir=replay_dir, settings=settings, store=store, id_prefix=prefix)
    router = Router(worker) if worker is not None else None
    hosting = Hosting(referee) if host_matches else None
    referee.hosting = hosting
    server = build_server(referee, services, router=router, hosting=hosting)
    servers = [server]
    if worker is not None:
        private = build_server(referee, owner=True, hosting=hosting)
        if private.add_insecure_port(worker.socket(worker.index)) == 0:
            raise AddressInUse(f"cannot listen on {worker.socket(worker.index)}")
        servers.append(private)
    try:
        port = _listen(server, address, settings)
    except RuntimeError as exc:
        raise AddressInUse(f"cannot listen on {address}: {exc}") from None
    if port == 0:
        raise AddressInUse(f"cannot listen on {address}")
    if private_socket is not None and server.add_insecure_port(f"unix:{private_socket}") == 0:
        raise AddressInUse(f"cannot listen on unix:{private_socket}")
    referee.address = f"{host}:{port}"
    for each in servers:
        await each.start()
        health_servicer = each._kassen_health  # type: ignore[attr-defined]
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    try:
        yield referee
    finally:
        await referee.shutdown()
        await asyncio.gather(*(each.stop(grace=1.0) for each in servers))
        if router is not None:
            await router.close()


def _listen(server: grpc.aio.Server, address: str, settings: ServerSettings) -> int:
    """Bind ``address``: TLS when both certificate chain and key are set, plaintext otherwise."""
    cert, key = settings.tls_cert_chain, settings.tls_private_key
    if (cert is None) != (key is None):
        raise ValueError("TLS needs both the certificate chain and the private key")
    if cert is None or key is None:
        return server.add_insecure_port(address)
    credentials = grpc.ssl_server_credentials([(key, cert)])
    return server.add_secure_port(address, credentials)
