"""The suits of Root: clearings are fox, rabbit or mouse; cards add the wild bird.

Facts: "Birds are wild" (Law 2.1) and the maps (every clearing has
a suit of mouse, rabbit or fox). Kept in their own module because maps, cards and every faction
use them. The order fox, rabbit, mouse follows the Law's own listing.
"""

from __future__ import annotations

FOX = "fox"
RABBIT = "rabbit"
MOUSE = "mouse"
BIRD = "bird"

#: A crafting icon that any suit of crafting piece can pay (the three-colour question mark).
ANY = "any"

#: Suits a clearing can have.
CLEARING_SUITS: tuple[str, ...] = (FOX, RABBIT, MOUSE)

#: Suits a card can have: the clearing suits plus bird, which is wild when spending.
CARD_SUITS: tuple[str, ...] = (FOX, RABBIT, MOUSE, BIRD)


def matches(card_suit: str, clearing_suit: str | None) -> bool:
    """A card matches a clearing of its suit; birds are wild (Law 2.1.1)."""
    return card_suit in (BIRD, clearing_suit)
