"""Every point where the seeds are silent, decided once, here.

Each ruling has an id that the engine cites in a comment where it applies and a test names
(``tests/rumble_nation/test_rulings.py``). ``docs/rulings/rumble-nation.md`` lists them for people.
"""

from __future__ import annotations

RULINGS: dict[str, str] = {
    "R1": "A war winner reinforces an adjacent unresolved area if it holds any of the winner's "
    "pieces; the daimyo counts as a piece.",
    "R2": "The white pool holds 30. Reinforcements on resolved areas go back to the pool as soon "
    "as their area is resolved. If the pool cannot cover a placement, target areas are served in "
    "ascending castle number until it is empty.",
    "R3": "The daimyo draft: the display is public; each seat, when it picks, sees the cards still "
    "there (that is its decision); the card taken is face down; the cards left after the draft "
    "are out of the game, unseen. A seat's view holds its own card, the display it saw when it "
    "picked, and every revealed card - never another seat's unrevealed card.",
    "R4": "A decision with only one legal option is not asked: the engine takes it (after the "
    "cut-off a turn therefore starts with the roll).",
    "R5": "Dice splits that place the same pieces in the same area are one option, and the number "
    "of pieces is min(die result, pieces in stock).",
    "R6": "Advanced game: when the pieces to place exceed the soldiers in stock, the daimyo must be "
    "among them (you place as many pieces as you can); otherwise the daimyo is optional.",
    "R7": "Cards that place or swap in 'a soldier from your stock' (Support, Rebel, Mōri, Ōtomo) "
    "need a soldier in stock; a daimyo left in stock is not a soldier.",
    "R8": "Ninja's destination must be an area that already holds at least one of your soldiers "
    "(the daimyo alone does not qualify), other than the source.",
    "R9": "Moves whose card does not say land or sea (Scout, Sub Squad, Exile, Prisoner, Decoy, "
    "Oda, Takeda, Mōri, Ōtomo, Entering Kyo sources) use any link, land or sea.",
    "R10": "'Up to N' effects (Uesugi, Takeda, Mōri, Chōsokabe, Ōtomo) move or place one piece per "
    "decision, each to any qualifying area; 'stop' is offered once at least one was done. The "
    "origin is the daimyo's area when the card is played, even if the daimyo itself moves "
    "(Chōsokabe).",
    "R11": "Entering Kyo moves soldiers one at a time from any areas adjacent to Kyo (Okō by sea "
    "included); 'stop' is offered after the first.",
    "R12": "Retreat returns 2 soldiers chosen one at a time; the second may come from the same "
    "area or another.",
    "R13": "A card's effect is finished even if a stock empties during it; the sword chip is taken "
    "at the end of that turn, and from then on no card may be used.",
    "R14": "Takeda names one opponent first; every moved soldier belongs to that opponent.",
    "R15": "Ōtomo's two areas must be different; in each, the replaced soldier may belong to any "
    "opponent present.",
    "R16": "A game stopped by the referee's decision limit is adjudicated by fighting the war "
    "phase on the board as it stands; seats without a sword chip get the remaining chips in seat "
    "order.",
}


def ruling(ruling_id: str) -> str:
    """The text of a ruling (KeyError for an unknown id, so a typo in a test fails loudly)."""
    return RULINGS[ruling_id]
