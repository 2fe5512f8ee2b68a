"""Phase II, the war: castles 2..12 in order (seed 001 §4②, seed 000 戦争フェイズ).

For each area: power = soldiers + reinforcements (+2 for a daimyo); rank by power, ties to the
higher sword chip; first takes the large token, second (3-4 players) the small one; the winner
reinforces every adjacent unresolved area where it has pieces (R1) from the white pool (R2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.rumble_nation.board import ADJ, AREAS
from games.rumble_nation.components import (
    CASTLE_NUMBERS,
    DAIMYO_POWER,
    REINFORCEMENTS_PER_AREA,
    USES_SMALL_TOKENS,
)

if TYPE_CHECKING:
    from games.rumble_nation.state import RumbleNationState


def power(s: RumbleNationState, area: int, seat: int) -> int:
    """War power of ``seat`` in ``area``: soldiers + reinforcements + 2 for the daimyo."""
    daimyo = DAIMYO_POWER if s.daimyo_at[seat] == area else 0
    return s.soldiers[area][seat] + s.reinforcements[area][seat] + daimyo


def has_pieces(s: RumbleNationState, area: int, seat: int) -> bool:
    """R1: soldiers or the daimyo make an area eligible for the winner's reinforcements."""
    return s.soldiers[area][seat] > 0 or s.daimyo_at[seat] == area


def resolve_battle(s: RumbleNationState, castle: int) -> None:
    """Resolve the area holding ``castle``: tokens, then reinforcements."""
    area = s.area_of[castle]
    n = s.n
    soldiers, reinforcements, daimyo_at = s.soldiers[area], s.reinforcements[area], s.daimyo_at
    powers = [
        soldiers[p] + reinforcements[p] + (DAIMYO_POWER if daimyo_at[p] == area else 0)
        for p in range(n)
    ]
    # Highest power first; a tie goes to the higher sword chip (all chips differ).
    contenders = sorted(
        [(powers[p], s.sword[p], p) for p in range(n) if powers[p] > 0], reverse=True
    )
    s.resolved[area] = True
    # R2: reinforcements on a resolved area are no longer needed and return to the pool.
    s.pool += sum(s.reinforcements[area])
    s.reinforcements[area] = [0] * n
    if not contenders:
        s._emit("set_aside", area=AREAS[area].id, castle=castle)
        return
    winner = contenders[0][2]
    s.award(winner, castle, "large", castle)
    second = None
    if USES_SMALL_TOKENS[n] and len(contenders) > 1:
        second = contenders[1][2]
        s.award(second, castle, "small", castle // 2)
    s._emit(
        "battle",
        area=AREAS[area].id,
        castle=castle,
        power=tuple(powers),
        winner=winner,
        second=second,
        large=castle,
        small=castle // 2 if second is not None else 0,
    )
    targets = sorted(
        (b for b in ADJ[area] if not s.resolved[b] and has_pieces(s, b, winner)),
        key=lambda b: s.castle_of[b],
    )
    per_area = REINFORCEMENTS_PER_AREA[n]
    for b in targets:
        count = min(per_area, s.pool)
        if count == 0:
            break
        s.pool -= count
        s.reinforcements[b][winner] += count
        s._emit("reinforce", seat=winner, area=AREAS[b].id, castle=s.castle_of[b], count=count)


def resolve_war(s: RumbleNationState) -> None:
    s._emit("war")
    for castle in CASTLE_NUMBERS:
        resolve_battle(s, castle)
