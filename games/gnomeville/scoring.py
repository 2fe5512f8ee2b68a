"""Phase 4, score, and the end of the game. STUB: to be written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.contract import Outcome

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def score_round(g: GnomevilleState) -> None:
    pass


def begin_deliveries(g: GnomevilleState) -> None:
    pass


def end_game(g: GnomevilleState) -> None:
    g.finish(adjudicate(g))


def adjudicate(g: GnomevilleState) -> Outcome:
    scores = tuple(t.vp for t in g.towns)
    ranking = tuple(sorted(range(g.players), key=lambda s: (-scores[s], s)))
    return Outcome(scores, ranking)
