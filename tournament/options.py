"""The choices and defaults of a tournament, in a module light enough for ``kassen --help``
(which must not import the engines, SQLAlchemy or gRPC to describe its flags)."""

from __future__ import annotations

DEFAULT_DATABASE = "sqlite:///runs/kassen.sqlite"
DEFAULT_OUTPUT = "runs"
FORMATS = ("round-robin", "gauntlet", "swiss")
#: How deals are shared: "duplicate" plays one seed in every rotation and group (luck and
#: seat order cancel out), "fresh" gives every match its own seed (nothing a bot remembers
#: from one match tells it about another's hidden cards).
DEALS = ("duplicate", "fresh")
CI_METHODS = ("hessian", "sandwich", "bootstrap")
