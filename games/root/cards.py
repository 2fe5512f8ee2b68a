"""The 54-card standard deck: suit, kind, crafting cost, item and VP, effect id (data, not logic).

Facts from the Law of Root and the printed deck (five open-source engines agree, and the list
reproduces two independent blogs' statistics: crafting icons 18 fox / 24 mouse / 25 rabbit not
counting Tax Collector, 2% "any" cost, 15% cost-3, 37% cost-1). Card rules are the Law's (§2
"General card rules"); the effects themselves belong to the engine, keyed by ``effect``.

``cost`` lists the crafting icons a card needs, one suit per icon; ``ANY`` is the three-colour
question mark. An empty cost means the card cannot be crafted (ambush and dominance cards).

Data choices:
- The 4 dominance cards are among the 54 (digest §2 lists them, and the counts 14/13/13/14 need
  them). They are kind ``dominance`` with no cost; ``standard_deck(2)`` leaves them out, as the
  Law's setup does for two players (digest §5). haunt-roll-fail's standard deck does the same.
- Royal Claim costs four ``ANY`` icons (digest: "4 of any suit"; haunt-roll-fail agrees). No card
  of the standard deck asks for a bird crafting icon, so costs use fox, rabbit, mouse and ANY.
- Card ids: the name in snake_case; the suit is appended when the same name appears in several
  suits (``root_tea_fox``, ``crossbow_bird``, ``ambush_mouse``, ``dominance_bird``), and ``_1``,
  ``_2``, ... when a suit holds copies (``ambush_bird_1``, ``tax_collector_3``).
- Copies share one ``effect`` id: the Law forbids crafting a persistent effect identical to one
  already in your play area, so the engine compares effect ids.
- ``text`` is a paraphrase (digest §8: numbers and costs are H, exact wording is not).
- ``vp`` is the VP printed on item cards; the Eyrie's Disdain for Trade (1 VP per item unless the
  Builder leads) is faction data in ``tracks.py``, not a card property.
- A bird ambush may be played in a clearing of any suit (birds are wild, Law 2.1); the others
  only in clearings of their suit.
- The Japanese rules summary and the digest agree on every card fact used here; no Law
  override was needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.root.items import BAG, BOOT, COIN, CROSSBOW, HAMMER, ITEM_NAMES, SWORD, TEA
from games.root.suits import ANY, BIRD, FOX, MOUSE, RABBIT

ITEM = "item"
PERSISTENT = "persistent"
FAVOR = "favor"
AMBUSH = "ambush"
DOMINANCE = "dominance"
KINDS: tuple[str, ...] = (ITEM, PERSISTENT, FAVOR, AMBUSH, DOMINANCE)

DECK_SIZE = 54
STARTING_HAND = 3
#: Cards kept at the end of Evening (every base faction).
HAND_LIMIT = 5
#: An ambush deals this many hits immediately, not limited by warriors.
AMBUSH_HITS = 2
#: VP needed to activate a dominance card in Daylight.
DOMINANCE_MIN_VP = 10
#: Fox, rabbit or mouse dominance: rule this many clearings of its suit at start of Birdsong.
SUIT_DOMINANCE_CLEARINGS = 3
#: Bird dominance: rule two clearings in opposite corners at start of Birdsong.
BIRD_DOMINANCE_CORNERS = 2
#: In games with this many players the dominance cards are removed before dealing.
NO_DOMINANCE_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    suit: str
    kind: str
    cost: tuple[str, ...] = ()
    item: str | None = None
    vp: int = 0
    effect: str | None = None
    text: str = ""

    @property
    def craftable(self) -> bool:
        return bool(self.cost)


#: What each persistent effect does (paraphrased), by effect id.
EFFECT_TEXT: Mapping[str, str] = {
    "armorers": "In battle, you may discard this to ignore all rolled hits you take.",
    "sappers": "In battle as defender, you may discard this to deal an extra hit.",
    "brutal_tactics": "In battle as attacker, you may deal an extra hit; the defender scores 1 VP.",
    "royal_claim": "In Birdsong, you may discard this to score 1 VP per clearing you rule.",
    "stand_and_deliver": (
        "In Birdsong, you may take a random card from another player; that player scores 1 VP."
    ),
    "tax_collector": (
        "Once in Daylight, you may remove one of your warriors from the map to draw a card."
    ),
    "better_burrow_bank": "At the start of Birdsong, you and another player each draw a card.",
    "cobbler": "At the start of Evening, you may take a move.",
    "command_warren": "At the start of Daylight, you may initiate a battle.",
    "codebreakers": "Once in Daylight, you may look at another player's hand.",
    "scouting_party": "As attacker, you are not affected by ambush cards.",
}


def _copies(
    copies: int,
    key: str,
    name: str,
    suit: str,
    kind: str,
    cost: tuple[str, ...] = (),
    item: str | None = None,
    vp: int = 0,
    effect: str | None = None,
    text: str = "",
) -> tuple[Card, ...]:
    ids = [key] if copies == 1 else [f"{key}_{n}" for n in range(1, copies + 1)]
    return tuple(Card(i, name, suit, kind, cost, item, vp, effect, text) for i in ids)


def _ambush(copies: int, suit: str) -> tuple[Card, ...]:
    where = "any clearing" if suit == BIRD else f"a {suit} clearing"
    text = (
        f"Defending in battle in {where}, play to deal {AMBUSH_HITS} hits at once; "
        "the attacker cancels it with a matching ambush."
    )
    return _copies(copies, f"ambush_{suit}", "Ambush!", suit, AMBUSH, text=text)


def _dominance(suit: str) -> tuple[Card, ...]:
    if suit == BIRD:
        goal = f"{BIRD_DOMINANCE_CORNERS} clearings in opposite corners"
    else:
        goal = f"{SUIT_DOMINANCE_CLEARINGS} {suit} clearings"
    text = (
        f"Activate in Daylight with at least {DOMINANCE_MIN_VP} VP; win if you rule {goal} "
        "at the start of your Birdsong."
    )
    return _copies(1, f"dominance_{suit}", "Dominance", suit, DOMINANCE, text=text)


def _item(
    copies: int, key: str, name: str, suit: str, cost: tuple[str, ...], item: str, vp: int
) -> tuple[Card, ...]:
    return _copies(
        copies,
        key,
        name,
        suit,
        ITEM,
        cost,
        item=item,
        vp=vp,
        text=f"Craft: take {ITEM_NAMES[item]} from the supply, {vp} VP.",
    )


def _persistent(
    copies: int, key: str, name: str, suit: str, cost: tuple[str, ...]
) -> tuple[Card, ...]:
    return _copies(copies, key, name, suit, PERSISTENT, cost, effect=key, text=EFFECT_TEXT[key])


def _favor(key: str, name: str, suit: str) -> tuple[Card, ...]:
    text = f"Immediately remove all enemy pieces in {suit} clearings, then discard."
    return _copies(1, key, name, suit, FAVOR, (suit,) * 3, effect=key, text=text)


STANDARD_DECK: tuple[Card, ...] = (
    # Bird (14)
    *_ambush(2, BIRD),
    *_dominance(BIRD),
    *_persistent(2, "armorers", "Armorers", BIRD, (FOX,)),
    *_persistent(2, "sappers", "Sappers", BIRD, (MOUSE,)),
    *_persistent(2, "brutal_tactics", "Brutal Tactics", BIRD, (FOX, FOX)),
    *_persistent(1, "royal_claim", "Royal Claim", BIRD, (ANY,) * 4),
    *_item(1, "arms_trader", "Arms Trader", BIRD, (FOX, FOX), SWORD, 2),
    *_item(1, "birdy_bindle", "Birdy Bindle", BIRD, (MOUSE,), BAG, 1),
    *_item(1, "crossbow_bird", "Crossbow", BIRD, (FOX,), CROSSBOW, 1),
    *_item(1, "woodland_runners", "Woodland Runners", BIRD, (RABBIT,), BOOT, 1),
    # Fox (14)
    *_ambush(1, FOX),
    *_dominance(FOX),
    *_favor("favor_of_the_foxes", "Favor of the Foxes", FOX),
    *_persistent(2, "stand_and_deliver", "Stand and Deliver!", FOX, (MOUSE,) * 3),
    *_persistent(3, "tax_collector", "Tax Collector", FOX, (FOX, RABBIT, MOUSE)),
    *_item(1, "anvil", "Anvil", FOX, (FOX,), HAMMER, 2),
    *_item(1, "foxfolk_steel", "Foxfolk Steel", FOX, (FOX, FOX), SWORD, 2),
    *_item(1, "gently_used_knapsack", "Gently Used Knapsack", FOX, (MOUSE,), BAG, 1),
    *_item(1, "protection_racket", "Protection Racket", FOX, (RABBIT, RABBIT), COIN, 3),
    *_item(1, "root_tea_fox", "Root Tea", FOX, (MOUSE,), TEA, 2),
    *_item(1, "travel_gear_fox", "Travel Gear", FOX, (RABBIT,), BOOT, 1),
    # Rabbit (13)
    *_ambush(1, RABBIT),
    *_dominance(RABBIT),
    *_favor("favor_of_the_rabbits", "Favor of the Rabbits", RABBIT),
    *_persistent(2, "better_burrow_bank", "Better Burrow Bank", RABBIT, (RABBIT, RABBIT)),
    *_persistent(2, "cobbler", "Cobbler", RABBIT, (RABBIT, RABBIT)),
    *_persistent(2, "command_warren", "Command Warren", RABBIT, (RABBIT, RABBIT)),
    *_item(1, "a_visit_to_friends", "A Visit to Friends", RABBIT, (RABBIT,), BOOT, 1),
    *_item(1, "bake_sale", "Bake Sale", RABBIT, (RABBIT, RABBIT), COIN, 3),
    *_item(1, "root_tea_rabbit", "Root Tea", RABBIT, (MOUSE,), TEA, 2),
    *_item(1, "smugglers_trail", "Smuggler's Trail", RABBIT, (MOUSE,), BAG, 1),
    # Mouse (13)
    *_ambush(1, MOUSE),
    *_dominance(MOUSE),
    *_favor("favor_of_the_mice", "Favor of the Mice", MOUSE),
    *_persistent(2, "codebreakers", "Codebreakers", MOUSE, (MOUSE,)),
    *_persistent(2, "scouting_party", "Scouting Party", MOUSE, (MOUSE, MOUSE)),
    *_item(1, "crossbow_mouse", "Crossbow", MOUSE, (FOX,), CROSSBOW, 1),
    *_item(1, "investments", "Investments", MOUSE, (RABBIT, RABBIT), COIN, 3),
    *_item(1, "mouse_in_a_sack", "Mouse-in-a-Sack", MOUSE, (MOUSE,), BAG, 1),
    *_item(1, "root_tea_mouse", "Root Tea", MOUSE, (MOUSE,), TEA, 2),
    *_item(1, "sword", "Sword", MOUSE, (FOX, FOX), SWORD, 2),
    *_item(1, "travel_gear_mouse", "Travel Gear", MOUSE, (RABBIT,), BOOT, 1),
)

CARD_BY_ID: Mapping[str, Card] = {card.id: card for card in STANDARD_DECK}
DOMINANCE_IDS: tuple[str, ...] = tuple(c.id for c in STANDARD_DECK if c.kind == DOMINANCE)


def standard_deck(players: int) -> tuple[Card, ...]:
    """The cards shuffled into the deck for ``players`` players (two players: no dominance)."""
    if players == NO_DOMINANCE_PLAYERS:
        return tuple(c for c in STANDARD_DECK if c.kind != DOMINANCE)
    return STANDARD_DECK
