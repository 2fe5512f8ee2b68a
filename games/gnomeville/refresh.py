"""Phase 5, buy and refresh. STUB: to be written."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def begin_buy(g: GnomevilleState) -> None:
    pass


def refresh_round(g: GnomevilleState) -> None:
    pass
