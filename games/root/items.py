"""Items: ids, the item supply printed on the map, ruin items, the Vagabond's starting set.

Facts from Law 5.1.5 and the supply row on the printed map (open-source engines agree). One
Markdown copy of the Law swaps coins and crossbows; these counts are the official Law's: 1
crossbow and 2 coins in the supply.

Data choices:
- Item ids are singular nouns (``boot``, ``bag``, ``coin``, ...), as the Law app spells them
  (``item:boot``, ``item:coin``); the Law app's ``sack`` is called ``bag`` here, like the digest.
- ``STARTING_ITEMS`` is the box's one set of "S" items (digest §3.1, from TAG); each Vagabond
  character takes its own items from it and the rest go back to the box.
"""

from __future__ import annotations

from collections.abc import Mapping

BOOT = "boot"
BAG = "bag"
CROSSBOW = "crossbow"
HAMMER = "hammer"
SWORD = "sword"
TEA = "tea"
COIN = "coin"
TORCH = "torch"

ITEMS: tuple[str, ...] = (BOOT, BAG, CROSSBOW, HAMMER, SWORD, TEA, COIN, TORCH)

ITEM_NAMES: Mapping[str, str] = {
    BOOT: "Boots",
    BAG: "Bag",
    CROSSBOW: "Crossbow",
    HAMMER: "Hammer",
    SWORD: "Sword",
    TEA: "Tea",
    COIN: "Coins",
    TORCH: "Torch",
}

#: The item supply at setup (Law 5.1 step 5): 12 items. A card whose item is gone can't be crafted.
ITEM_SUPPLY: Mapping[str, int] = {
    BOOT: 2,
    BAG: 2,
    CROSSBOW: 1,
    HAMMER: 1,
    SWORD: 2,
    TEA: 2,
    COIN: 2,
}

#: The four "R" items: one under each ruin, ruins shuffled (Law 9.3.4); Explore takes them.
RUIN_ITEMS: tuple[str, ...] = (BAG, BOOT, HAMMER, SWORD)

#: The "S" items a Vagabond character's starting items are taken from.
STARTING_ITEMS: tuple[str, ...] = (BOOT, TORCH, TEA, SWORD, BAG, HAMMER, CROSSBOW)


def box_totals() -> dict[str, int]:
    """Every item tile in the base box: supply + ruin items + starting items."""
    totals = dict.fromkeys(ITEMS, 0)
    for item, n in ITEM_SUPPLY.items():
        totals[item] += n
    for item in RUIN_ITEMS + STARTING_ITEMS:
        totals[item] += 1
    return totals
