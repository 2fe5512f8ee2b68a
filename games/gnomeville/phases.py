"""The round structure: which shared work runs between phases, and which steps each seat gets.

5 rounds of 5 phases (the seed): 1 prepare (reveal the round's troll card), 2 build, 3 enemy
attack, 4 score, 5 buy and refresh (skipped after round 5), then end-game scoring. The driver
(``GnomevilleState._barrier``) calls ``next_phase`` whenever no seat has a decision left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.gnomeville.state import ROUNDS

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def next_phase(g: GnomevilleState) -> None:
    """Run the shared work that follows the phase ``g.phase`` and open the next one."""
    from games.gnomeville import build, enemy, refresh, scoring, setup

    phase = g.phase
    if phase == "setup":
        g.phase = "sides"
        setup.begin_sides(g)
    elif phase in ("sides", "buy"):
        if phase == "buy":
            refresh.refresh_round(g)
        begin_round(g)
    elif phase == "build":
        if not build.next_build_stage(g):  # turn by turn: the next draw, if anyone still builds
            g.phase = "enemy"
            g.stage = ""
            enemy.begin_enemy(g)
    elif phase == "enemy":
        g.phase = "score"
        scoring.score_round(g)
        scoring.begin_deliveries(g)
    elif phase == "score":
        if g.round >= ROUNDS:
            scoring.end_game(g)
        else:
            g.phase = "buy"
            refresh.begin_buy(g)
    else:
        raise AssertionError(f"no phase follows {phase!r}")


def begin_round(g: GnomevilleState) -> None:
    """Phase 1, prepare: reveal the round's troll card; then open the build phase."""
    from games.gnomeville import build

    if g.round_card != -1:  # last round's cards go face up beside the deck
        g.troll_discard.append((g.round, g.round_card, False))
    if g.ambush_card != -1:
        g.troll_discard.append((g.round, g.ambush_card, True))
    g.round += 1
    g.round_card = g.troll_deck.pop(0)
    g.ambush_card = -1
    g.emit(None, "round", round=g.round, troll_card=g.pack.troll_cards[g.round_card].id)
    g.phase = "build"
    build.begin_build(g)
