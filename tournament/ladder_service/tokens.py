"""Bot and admin tokens: random secrets shown once, stored only as hashes.

A token is 32 random bytes (URL-safe text) with a prefix that says what it is, so a token
pasted in the wrong place is recognisable. Tokens have full entropy, so one SHA-256 is enough
to store them (a slow password hash protects guessable secrets, which these are not); lookups
go by hash, and comparisons of secrets are constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

BOT_PREFIX = "kbt_"
ADMIN_PREFIX = "kat_"


def new_bot_token() -> str:
    return BOT_PREFIX + secrets.token_urlsafe(32)


def new_admin_token() -> str:
    return ADMIN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored: lowercase hex SHA-256 of the token's UTF-8 text."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    """Constant-time equality of two secrets (an admin token against the configured one)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
