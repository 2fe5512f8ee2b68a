"""Who may do what: the organiser token guards the management calls; everything else is public.

Play is guarded by its seat tickets, and GetMatch, ListMatches, Watch, GetReplay, ListGames,
health checking and reflection show only public facts, so anyone may call them. Creating
matches (and every later management call) spends the referee's resources and hands out
tickets, so it needs the organiser token: gRPC metadata ``authorization: Bearer <token>``.
A referee without a token listens on loopback only (``is_loopback``).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

import grpc
import structlog

log = structlog.get_logger("kassen.auth")

#: The calls that need the organiser token. Later management calls join this set.
MANAGEMENT_METHODS: frozenset[str] = frozenset(
    {
        "/kassen.v1.Referee/CreateMatch",
        "/kassen.v1.RefereeHost/HostMatch",
        "/kassen.v1.RefereeHost/DescribeHost",
    }
)
METADATA_KEY = "authorization"
SCHEME = "bearer"
#: Environment variables of the organiser (never handed to a launched bot).
ADMIN_ENV_PREFIX = "KASSEN_ADMIN_"
ADMIN_TOKEN_ENV = "KASSEN_ADMIN_TOKEN"
TLS_CA_ENV = "KASSEN_TLS_CA"
TICKET_ENV = "KASSEN_TICKET"
TICKET_FILE_ENV = "KASSEN_TICKET_FILE"
#: Variables of ours a launched bot never inherits: its own come from the launch.
_NOT_INHERITED = frozenset({TLS_CA_ENV, TICKET_ENV, TICKET_FILE_ENV})

if TYPE_CHECKING:
    Handler: TypeAlias = grpc.RpcMethodHandler[Any, Any]
    Continuation: TypeAlias = Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]]


def bearer(token: str) -> tuple[tuple[str, str]]:
    """The call metadata that carries ``token``."""
    return ((METADATA_KEY, f"Bearer {token}"),)


class AdminTokenInterceptor(grpc.aio.ServerInterceptor):
    """Refuses a guarded call without the token (UNAUTHENTICATED) or with another one
    (PERMISSION_DENIED) before the servicer sees it."""

    def __init__(self, token: str, guarded: frozenset[str] = MANAGEMENT_METHODS) -> None:
        if not token:
            raise ValueError("an empty organiser token guards nothing")
        self._token = token.encode()
        self._guarded = guarded

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Handler | None:
        handler = await continuation(handler_call_details)
        method = handler_call_details.method
        if handler is None or method not in self._guarded:
            return handler
        presented = _presented_token(handler_call_details.invocation_metadata or ())
        if presented is None:
            log.warning("refused", method=method, why="no organiser token")
            return _refusal(
                handler,
                grpc.StatusCode.UNAUTHENTICATED,
                "this call needs the organiser token (metadata authorization: Bearer <token>)",
            )
        if not hmac.compare_digest(presented.encode(), self._token):
            log.warning("refused", method=method, why="wrong organiser token")
            return _refusal(handler, grpc.StatusCode.PERMISSION_DENIED, "wrong organiser token")
        return handler


def presented_token(metadata: Any) -> str | None:
    """The token of an ``authorization: Bearer <token>`` entry, or None if there is none
    (public: the ladder's bot tokens travel the same way)."""
    return _presented_token(metadata)


def _presented_token(metadata: Any) -> str | None:
    """The token of an ``authorization: Bearer <token>`` entry, or None if there is none."""
    for key, value in metadata:
        if key.lower() != METADATA_KEY:
            continue
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        scheme, _, token = text.strip().partition(" ")
        if scheme.lower() == SCHEME and token.strip():
            return token.strip()
    return None


def _refusal(handler: Handler, code: grpc.StatusCode, detail: str) -> Handler:
    """A handler of the same shape as ``handler`` that only aborts with ``code``."""

    async def refuse(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        await context.abort(code, detail)

    make = {
        (False, False): grpc.unary_unary_rpc_method_handler,
        (False, True): grpc.unary_stream_rpc_method_handler,
        (True, False): grpc.stream_unary_rpc_method_handler,
        (True, True): grpc.stream_stream_rpc_method_handler,
    }[(handler.request_streaming, handler.response_streaming)]
    refusal: Handler = make(
        refuse,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
    return refusal


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost: hosts no other machine can reach."""
    host = host.strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bot_environment(
    address: str, tls_ca_file: str | None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a launched bot: ours without the organiser's secrets, plus the
    referee's address.

    The seat's ticket is not in it: it reaches the bot on a pipe (``server/bot_box.py``,
    ``KASSEN_TICKET_FILE``), since anything in a process's environment can be read from
    ``/proc/<pid>/environ`` by every process of the same user while it runs. A
    ``KASSEN_TICKET`` or ``KASSEN_TICKET_FILE`` of ours (the organiser's shell) is removed.
    ``KASSEN_TLS_CA`` names the CA file when the referee speaks TLS, and is removed when it
    does not (an inherited one would make the bot try TLS against a plaintext referee).
    """
    env = {
        key: value
        for key, value in (os.environ if base is None else base).items()
        if not key.startswith(ADMIN_ENV_PREFIX) and key not in _NOT_INHERITED
    }
    env["KASSEN_ADDRESS"] = address
    if tls_ca_file:
        env[TLS_CA_ENV] = tls_ca_file
    return env
