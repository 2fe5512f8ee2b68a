"""Phase 3, enemy attack. STUB: to be written."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def begin_enemy(g: GnomevilleState) -> None:
    pass
