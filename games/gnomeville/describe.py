"""One readable line per event. STUB: to be written."""

from __future__ import annotations

from games.contract import Event


def describe(event: Event) -> str:
    return f"{event.kind} {dict(event.data)}"
