"""The choices and defaults of a tournament, in a module light enough for ``kassen --help``
(which must not import the engines, SQLAlchemy or gRPC to describe its flags)."""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_DATABASE = "sqlite:///runs/kassen.sqlite"
DEFAULT_OUTPUT = "runs"
FORMATS = ("round-robin", "gauntlet", "swiss")
#: How deals are shared: "duplicate" plays one seed in every rotation and group (luck and
#: seat order cancel out), "fresh" gives every match its own seed (nothing a bot remembers
#: from one match tells it about another's hidden cards).
DEALS = ("duplicate", "fresh")
CI_METHODS = ("hessian", "sandwich", "bootstrap")


def describe_options(options: Mapping[str, object]) -> str:
    """Game options as one short line, ``key=value, ...``; a content pack (held as text) is
    shown by its size and hash, not its text."""
    import hashlib

    parts = []
    for key, value in sorted(options.items()):
        if key == "content" and isinstance(value, str):
            digest = hashlib.sha256(value.encode()).hexdigest()[:12]
            parts.append(f"content=<pack, {len(value.encode())} bytes, sha256 {digest}>")
        elif isinstance(value, list):
            parts.append(f"{key}={','.join(str(v) for v in value)}")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def options_note(options: Mapping[str, object]) -> str:
    """``describe_options`` as a suffix for a one-line summary ("" without options)."""
    return f"; options: {describe_options(options)}" if options else ""
