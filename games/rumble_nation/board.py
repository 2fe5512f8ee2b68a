"""The map of Rumble Nation: eleven areas, land links and sea links (data, not logic).

Facts from the printed board.
Areas are identified by index (0..10) inside the engine for speed; ``AREAS[i].id`` is the
stable name used on the wire and in logs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Area:
    id: str
    name: str
    label: str


AREAS: tuple[Area, ...] = (
    Area("usuki", "Usuki", "臼杵城"),
    Area("oko", "Okō", "岡豊城"),
    Area("shuri", "Shuri", "首里城"),
    Area("yoshida", "Yoshida-Kōriyama", "吉田郡山城"),
    Area("kyo", "Kyo", "京"),
    Area("inabayama", "Inabayama", "稲葉山城"),
    Area("kiyosu", "Kiyosu", "清洲城"),
    Area("kasugayama", "Kasugayama", "春日山城"),
    Area("yonezawa", "Yonezawa", "米沢城"),
    Area("odawara", "Odawara", "小田原城"),
    Area("tokuyama", "Tokuyama-kan", "徳山館"),
)

LAND_LINKS: tuple[tuple[str, str], ...] = (
    ("yoshida", "kyo"),
    ("kyo", "inabayama"),
    ("kyo", "kiyosu"),
    ("inabayama", "kiyosu"),
    ("inabayama", "kasugayama"),
    ("kiyosu", "kasugayama"),
    ("kiyosu", "odawara"),
    ("kasugayama", "yonezawa"),
    ("kasugayama", "odawara"),
    ("yonezawa", "odawara"),
)

SEA_LINKS: tuple[tuple[str, str], ...] = (
    ("usuki", "yoshida"),
    ("usuki", "oko"),
    ("usuki", "shuri"),
    ("oko", "yoshida"),
    ("oko", "kyo"),
    ("yonezawa", "tokuyama"),
)

AREA_COUNT = len(AREAS)
AREA_INDEX: dict[str, int] = {area.id: i for i, area in enumerate(AREAS)}
KYO = AREA_INDEX["kyo"]


def _neighbours(links: tuple[tuple[str, str], ...]) -> tuple[tuple[int, ...], ...]:
    found: list[set[int]] = [set() for _ in AREAS]
    for a, b in links:
        found[AREA_INDEX[a]].add(AREA_INDEX[b])
        found[AREA_INDEX[b]].add(AREA_INDEX[a])
    return tuple(tuple(sorted(s)) for s in found)


#: LAND_ADJ[i]: areas linked to area i by land; SEA_ADJ by a sea line; ADJ by either.
LAND_ADJ = _neighbours(LAND_LINKS)
SEA_ADJ = _neighbours(SEA_LINKS)
ADJ = _neighbours(LAND_LINKS + SEA_LINKS)
