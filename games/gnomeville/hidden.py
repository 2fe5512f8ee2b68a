"""Determinization. STUB: to be written."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def determinize(g: GnomevilleState, seat: int, seed: int) -> GnomevilleState:
    return g.clone()
