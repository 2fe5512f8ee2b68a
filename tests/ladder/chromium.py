"""Debian's chromium driven by Playwright, for the tests of the ladder's pages: where it is,
how it is launched, and where the tests' screenshots go."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

#: Debian's package puts it here; elsewhere the one on PATH.
CHROMIUM = "/usr/bin/chromium"
MISSING = "Debian's chromium is not installed (apt-get install chromium)"


def executable() -> str | None:
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


def skip_module_without_chromium() -> None:
    """Skip the calling test module, naming the package, where there is no chromium."""
    if executable() is None:
        pytest.skip(MISSING, allow_module_level=True)


def launched() -> Iterator[Browser]:
    """One headless chromium for a test module (the body of its ``browser`` fixture)."""
    with sync_playwright() as p:
        found = p.chromium.launch(
            executable_path=executable(),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield found
        found.close()


def artifacts_folder(tmp_path_factory: pytest.TempPathFactory, name: str, what: str) -> Path:
    """``$KASSEN_TEST_ARTIFACTS/name`` (a temporary folder without it), made and printed."""
    root = os.environ.get("KASSEN_TEST_ARTIFACTS")
    folder = (Path(root) if root else tmp_path_factory.mktemp("artifacts")) / name
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of {what}: {folder}")
    return folder
