"""Buying a building tile: a market's activation (one tile) and phase 5 (up to the round
number). A tile costs its tier in mushrooms (the seed), less a ``bargain`` ability; it comes
from the supply (the town's share in a simultaneous phase, ruling G18) into the bag."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.contract import Option
from games.gnomeville.buildings import BUILDINGS, NAMES, TIER_OF, Tile
from games.gnomeville.steps import Act
from games.gnomeville.town import EMPTY, Town

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def discount(g: GnomevilleState, town: Town) -> int:
    """Mushrooms a purchase costs less: the sum of the deployed gnomes' bargain abilities."""
    off = 0
    for gnome in town.deployed():
        card = town.ability[gnome]
        if card != EMPTY:
            ability = g.pack.abilities[card]
            if ability.effect == "bargain":
                off += ability.amount
    return off


def cost(g: GnomevilleState, town: Town, tile: int) -> int:
    return max(0, TIER_OF[tile] - discount(g, town))


def affordable(g: GnomevilleState, town: Town) -> list[Tile]:
    """Buildings the town can buy now: in its share of the supply and within its mushrooms."""
    off = discount(g, town)
    return [
        t for t in BUILDINGS if g.can_take(town, t) and max(0, TIER_OF[t] - off) <= town.mushrooms
    ]


_BUY: dict[tuple[int, int], Option] = {}


def buy_option(tile: int, price: int) -> Option:
    """``buy:<building>``, interned (options are compared and cached by value)."""
    found = _BUY.get((tile, price))
    if found is None:
        name = NAMES[Tile(tile)]
        found = Option(f"buy:{name}", f"Buy a {name} for {price} mushrooms", Act("buy", tile=tile))
        _BUY[(tile, price)] = found
    return found


def buy_options(g: GnomevilleState, town: Town) -> tuple[Option, ...]:
    """One option per affordable building (without a "none": the caller adds its own)."""
    return tuple(buy_option(t, cost(g, town, t)) for t in affordable(g, town))


def buy(g: GnomevilleState, town: Town, tile: int) -> None:
    """Pay, take the tile from the supply and put it into the bag."""
    price = cost(g, town, tile)
    if price > town.mushrooms or not g.can_take(town, tile):
        raise AssertionError(f"seat {town.seat} cannot buy {NAMES[Tile(tile)]}")
    town.mushrooms -= price
    g.take(town, tile)
    town.bag[tile] += 1
    g.emit(town.seat, "buy", seat=town.seat, tile=NAMES[Tile(tile)], cost=price)
