"""A passable folder for what the sandbox binds, made per test session and removed after."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sandbox.bwrap import sandbox_area


@pytest.fixture(scope="session")
def area() -> Iterator[Path]:
    """Bound folders must be reachable by the sandbox's unprivileged user: pytest's own
    temporary folders (mode 700) are not, so they live in a passable folder of /tmp."""
    parent = Path(tempfile.mkdtemp(prefix="kassen-sandbox-"))
    os.chmod(parent, 0o711)
    try:
        yield sandbox_area(parent)
    finally:
        shutil.rmtree(parent, ignore_errors=True)
