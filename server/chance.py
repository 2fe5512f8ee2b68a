"""Secret chance: seeds the referee chooses, and commitments that prove them afterwards.

Every engine is public and deterministic, so whoever knows a match's seed knows every hidden
card and every future roll. The referee therefore draws the seeds it chooses from the
operating system's CSPRNG, and tells seats and spectators only a *commitment*: SHA-256 over
the seed and a random salt. When chance no longer matters (the match, or its whole seed
block, is over) seed and salt are revealed, and anyone can check them against the
commitment they were shown at the start (``kassen replay verify`` does).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

#: Seeds are 63-bit: they fit every signed 64-bit column (SQLite, PostgreSQL BIGINT) and are
#: far too many to search by re-simulating the public engines.
SEED_BITS = 63
SALT_BYTES = 16
#: Tag of the commitment scheme, carried with every commitment (so it can change one day).
SCHEME = "sha256(seed:salt)"


def draw_seed() -> int:
    """A fresh secret seed from the operating system's CSPRNG (never a clock or a counter)."""
    return secrets.randbits(SEED_BITS)


def draw_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment_of(seed: int, salt: str) -> str:
    """The hex SHA-256 of ``"<seed>:<salt>"`` (decimal seed, hex salt): easy in any language."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def derived_salt(secret: int, label: str) -> str:
    """A salt derived from a secret (a tournament's base seed) and a label (a match index):
    secret while the base seed is, reproducible on resume without being stored."""
    key = str(secret).encode()
    return hmac.new(key, f"kassen-salt:{label}".encode(), hashlib.sha256).hexdigest()[
        : 2 * SALT_BYTES
    ]


@dataclass(frozen=True, slots=True)
class SeedCommitment:
    """A seed with its salt; ``digest`` is what may be shown before the seed is revealed."""

    seed: int
    salt: str

    @classmethod
    def fresh(cls, seed: int | None = None) -> SeedCommitment:
        return cls(draw_seed() if seed is None else seed, draw_salt())

    @property
    def digest(self) -> str:
        return commitment_of(self.seed, self.salt)


def check_commitment(seed: int, salt: str, digest: str) -> bool:
    """True if ``seed`` and ``salt`` are the ones ``digest`` committed to."""
    return hmac.compare_digest(commitment_of(seed, salt), digest.lower())
