"""Phase 2, build. STUB: to be written (every seat passes at once)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def begin_build(g: GnomevilleState) -> None:
    g.open_phase()


def next_build_stage(g: GnomevilleState) -> bool:
    return False
