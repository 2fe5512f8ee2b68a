"""What the author's ladder commands share: the bot's flags, its token, one call to the ladder
with every refusal as a one-line error."""

from __future__ import annotations

import argparse
from typing import Any

from kassen.commands.credentials import token_file
from kassen.errors import UsageError

DEFAULT_GRPC = "127.0.0.1:50061"


class NoAnswer(UsageError):
    """The ladder could not be reached or did not answer in time."""


def bot_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--token-file", required=True, help="the bot's token (from kassen ladder register)"
    )
    parser.add_argument(
        "--address",
        default=DEFAULT_GRPC,
        help=f"the ladder's gRPC address (default {DEFAULT_GRPC})",
    )


def bot_token(args: argparse.Namespace) -> str:
    token = token_file("--token-file", args.token_file)
    assert token is not None
    return token


def call_ladder(address: str, token: str | None, call: Any, what: str) -> Any:
    import grpc

    from kassen.v1 import ladder_pb2_grpc as lrpc

    if ":" not in address:
        raise UsageError(f"--address must be host:port, not {address!r}")
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    with grpc.insecure_channel(address) as channel:
        try:
            return call(lrpc.LadderStub(channel), metadata)
        except grpc.RpcError as exc:
            code = exc.code().name if hasattr(exc, "code") else "ERROR"
            details = exc.details() if hasattr(exc, "details") else str(exc)
            if code == "UNAVAILABLE":
                raise NoAnswer(f"cannot reach the ladder at {address}: {details}") from None
            if code == "DEADLINE_EXCEEDED":
                raise NoAnswer(f"the ladder at {address} did not answer in time") from None
            raise UsageError(f"the ladder refused {what} ({code}): {details}") from None
