"""The organiser token and TLS files from flags or the environment, read and checked before
anything starts, so a typo is one line and exit 2 rather than a referee open to anyone."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from kassen.errors import UsageError

#: The environment variables of server.auth (not imported here: it loads gRPC, and the
#: parsers that use these flags must stay light; tests/test_cli_startup.py checks they agree).
ADMIN_TOKEN_ENV = "KASSEN_ADMIN_TOKEN"
TLS_CA_ENV = "KASSEN_TLS_CA"

CERTIFICATE = b"-----BEGIN CERTIFICATE-----"
PRIVATE_KEY = b"PRIVATE KEY-----"


def add_token_flag(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--admin-token-file",
        default=None,
        metavar="FILE",
        help=f"{what} (default: ${ADMIN_TOKEN_ENV})",
    )


def add_ca_flag(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--tls-ca", default=None, metavar="FILE", help=f"{what} (default: ${TLS_CA_ENV})"
    )


def admin_token(path: str | None) -> str | None:
    """The token of ``--admin-token-file`` (which wins) or ``KASSEN_ADMIN_TOKEN``, or None."""
    if path is not None:
        return token_file("--admin-token-file", path)
    value = os.environ.get(ADMIN_TOKEN_ENV)
    return None if value is None else _checked_token(value.strip(), ADMIN_TOKEN_ENV)


def token_file(flag: str, path: str | None) -> str | None:
    """The token in the file ``flag`` names (None without the flag); a UsageError names a
    file that cannot be read or a token that could not travel in gRPC metadata."""
    if path is None:
        return None
    source = f"{flag} {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{source}: not a text file") from None
    return _checked_token(text.strip(), source)


def _checked_token(token: str, source: str) -> str:
    """gRPC metadata carries printable ASCII only, and an empty token would guard nothing."""
    if not token:
        raise UsageError(f"{source} is empty")
    if not (token.isascii() and token.isprintable()) or any(c.isspace() for c in token):
        raise UsageError(f"{source}: the token must be printable ASCII without spaces")
    return token


def pem_file(flag: str, path: str, marker: bytes = CERTIFICATE) -> bytes:
    """The bytes of a PEM file that holds ``marker``; anything else names ``flag``."""
    try:
        pem = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{flag} {path}: {exc.strerror or exc}") from None
    if marker not in pem:
        kind = "private key" if marker == PRIVATE_KEY else "certificate"
        raise UsageError(f"{flag} {path}: no PEM {kind} in it")
    return pem


def tls_ca(path: str | None) -> tuple[bytes, str] | None:
    """The CA to trust, from ``--tls-ca`` (which wins) or ``KASSEN_TLS_CA``: (PEM, path)."""
    if path is not None:
        return pem_file("--tls-ca", path), path
    env = os.environ.get(TLS_CA_ENV, "")
    return (pem_file(TLS_CA_ENV, env), env) if env else None
