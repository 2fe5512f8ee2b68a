"""The twelve tactic cards and six daimyo cards (names and texts: data, not logic).

Their effects live in ``tactics.py`` and ``daimyo.py``, one class per card, keyed by ``id``.
In every card text "soldier" never includes the daimyo (the Board Game Arena walkthrough).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    japanese: str
    text: str


TACTIC_CARDS: tuple[Card, ...] = (
    Card("scout", "Scout", "偵察", "Move 1 of your soldiers to an adjacent area."),
    Card(
        "over_the_mountain",
        "Over the Mountain",
        "越山",
        "Move 2 of your soldiers from one area to one land-adjacent area (both to the same area).",
    ),
    Card(
        "marine",
        "Marine",
        "水軍",
        "Move 2 of your soldiers from one area to one sea-adjacent area (both to the same area).",
    ),
    Card(
        "sub_squad",
        "Sub Squad",
        "分隊",
        "From one area with 2 or more of your soldiers, move half of them (rounded down) "
        "to one adjacent area.",
    ),
    Card(
        "ninja",
        "Ninja",
        "忍者",
        "Move 1 of your soldiers to any other area where you have soldiers.",
    ),
    Card(
        "entering_kyo",
        "Entering Kyo",
        "入京",
        "Move any number of your soldiers from areas adjacent to Kyo into Kyo.",
    ),
    Card(
        "support",
        "Support",
        "援軍",
        "Place 1 soldier from your stock in an area where you have soldiers.",
    ),
    Card(
        "rebel",
        "Rebel",
        "反乱",
        "Return 1 opponent soldier to its owner's stock and put 1 of your soldiers in its place.",
    ),
    Card(
        "exile",
        "Exile",
        "追放",
        "From an area where you have soldiers, move 1 opponent soldier to an adjacent area.",
    ),
    Card(
        "prisoner",
        "Prisoner",
        "捕虜",
        "Move 1 opponent soldier from any area into an adjacent area where you have soldiers.",
    ),
    Card(
        "decoy",
        "Decoy",
        "囮",
        "Move 1 of your soldiers and 2 soldiers of one opponent, all from the same area, "
        "to one adjacent area.",
    ),
    Card(
        "retreat",
        "Retreat",
        "撤退",
        "Return 2 of your soldiers from the map (one or two areas) to your stock.",
    ),
)

DAIMYO_CARDS: tuple[Card, ...] = (
    Card(
        "uesugi",
        "Uesugi Kenshin",
        "上杉謙信",
        "Move up to 3 of your soldiers from the daimyo's area to land-adjacent areas.",
    ),
    Card(
        "oda",
        "Oda Nobunaga",
        "織田信長",
        "Move the daimyo to an adjacent area; 1 of your soldiers from the same area may go with it.",
    ),
    Card(
        "takeda",
        "Takeda Shingen",
        "武田信玄",
        "Move up to 3 soldiers of one opponent from the daimyo's area to adjacent areas.",
    ),
    Card(
        "mori",
        "Mōri Motonari",
        "毛利元就",
        "Place up to 3 soldiers from your stock in areas adjacent to the daimyo.",
    ),
    Card(
        "chosokabe",
        "Chōsokabe Motochika",
        "長宗我部元親",
        "Move up to 3 of your pieces (soldiers or the daimyo) from the daimyo's area "
        "to sea-adjacent areas.",
    ),
    Card(
        "otomo",
        "Ōtomo Sōrin",
        "大友宗麟",
        "In up to 2 areas adjacent to the daimyo, replace 1 opponent soldier each with a "
        "soldier from your stock.",
    ),
)

TACTIC_BY_ID = {card.id: card for card in TACTIC_CARDS}
DAIMYO_BY_ID = {card.id: card for card in DAIMYO_CARDS}
