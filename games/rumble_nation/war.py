"""Phase II, the war: castles 2..12 in order (the Deluxe edition's instructions, section 4②; the Board Game Arena walkthrough,
戦争フェイズ).

For each area: power = soldiers + reinforcements (+2 for a daimyo); rank by power, ties to the
higher sword chip; first takes the large token, second (3-4 players) the small one; the winner
reinforces every adjacent unresolved area where it has pieces (R1) from the white pool (R2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.contract import Event
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
    powers = [soldiers[p] + reinforcements[p] for p in range(n)]
    if s.advanced:
        for p in range(n):
            if daimyo_at[p] == area:
                powers[p] += DAIMYO_POWER
    # Highest power first; a tie goes to the higher sword chip (all chips differ).
    sword = s.sword
    contenders = sorted([(powers[p], sword[p], p) for p in range(n) if powers[p]], reverse=True)
    s.resolved[area] = True
    # R2: reinforcements on a resolved area are no longer needed and return to the pool.
    s.pool += sum(reinforcements)
    s.reinforcements[area] = [0] * n
    if not contenders:
        s._emit("set_aside", area=AREAS[area].id, castle=castle)
        return
    winner = contenders[0][2]
    s.tokens[winner].append((castle, "large"))
    s.score[winner] += castle
    second = None
    small = 0
    if len(contenders) > 1 and USES_SMALL_TOKENS[n]:
        second = contenders[1][2]
        small = castle // 2
        s.tokens[second].append((castle, "small"))
        s.score[second] += small
    s._events.append(
        Event(
            "battle",
            {
                "area": AREAS[area].id,
                "castle": castle,
                "power": tuple(powers),
                "winner": winner,
                "second": second,
                "large": castle,
                "small": small,
            },
        )
    )
    _reinforce(s, area, winner)


def _reinforce(s: RumbleNationState, area: int, winner: int) -> None:
    """R1, R2: reinforcements to each adjacent unresolved area holding the winner's pieces."""
    resolved, all_soldiers, castle_of = s.resolved, s.soldiers, s.castle_of
    daimyo_area = s.daimyo_at[winner]
    targets = [
        (castle_of[b], b)
        for b in ADJ[area]
        if not resolved[b] and (all_soldiers[b][winner] or daimyo_area == b)
    ]
    if not targets:
        return
    targets.sort()
    per_area = REINFORCEMENTS_PER_AREA[s.n]
    for castle, b in targets:
        count = min(per_area, s.pool)
        if count == 0:
            break
        s.pool -= count
        s.reinforcements[b][winner] += count
        s._events.append(
            Event(
                "reinforce", {"seat": winner, "area": AREAS[b].id, "castle": castle, "count": count}
            )
        )


def resolve_war(s: RumbleNationState) -> None:
    s._emit("war")
    for castle in CASTLE_NUMBERS:
        resolve_battle(s, castle)
