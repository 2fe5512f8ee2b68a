"""Every point where the seed is silent, decided once, here.

Each ruling has an id that the engine cites in a comment where it applies and a test names
(``tests/gnomeville/test_rulings.py``). ``docs/rulings/gnomeville.md`` lists them for people.
G1-G16 come from ``shared/reference/gnomeville.md``; G17 onwards were decided while building.
"""

from __future__ import annotations

RULINGS: dict[str, str] = {
    "G1": "Upgrade lines: prosperity (blue) market > house > tavern > academy > monument; defence "
    "(red) market > workshop > armory > ballista > monument. A market group chooses the line.",
    "G2": "An upgrade stack of height h scores h VP plus min(max(h - 4, 0), 5).",
    "G3": "Three stump spaces, covered top to bottom, give 1, 2 and 3 movement.",
    "G4": "A pass is final for the round's build phase (the seed's FAQ lets a passed player "
    "rejoin; over the network a rejoin right would let a bot hold the phase open).",
    "G5": "An adjacency goal: the winner scores the winning value, the other nothing; a tie adds "
    "the winning and the tie value and splits the sum evenly, rounding up.",
    "G6": "A town board is a 5 x 5 grid; the centre space is the start.",
    "G7": "A gnome with a sword (troll) or hammer (boulder) survives, but a building under it "
    "is destroyed.",
    "G8": "A troll spawning onto a boulder or a troll is ignored and does not count toward 3.",
    "G9": "Trolls on one arrow move leading troll first; trolls block trolls; a moving troll "
    "keeps going after destroying a building or exhausting a gnome.",
    "G10": "The second-chance tile is not refilled between rounds (only taverns refill it).",
    "G11": "With a player's last gnome lost, the new stand goes on any space without troll or "
    "boulder, with no activation and no mushroom.",
    "G12": "Special-delivery gaps (>5, >10, >15 behind the leader) are fixed before any bonus "
    "applies.",
    "G13": "Towerville height marks limit building tiles only.",
    "G14": "Mushrooms and boulders are unlimited.",
    "G15": "A troll card maps onto every town the same way (no rotation per player).",
    "G16": "Events and goals where nobody meets the condition are ordinary ties; a 2-player tie "
    "for first splits first plus second points.",
    "G17": "The monument tops both lines and counts for neither colour in events and goals.",
    "G18": "Simultaneous phases share the supply fairly: when a phase opens, each building kind "
    "is split evenly among the towns (the remainder one each to the towns with the fewest VP, "
    "lower seat first); a town takes only from its share, and the supply is settled when the "
    "phase ends. With a plentiful supply this changes nothing; when it runs short, the result "
    "no longer depends on who answered first.",
    "G19": "Ability cards: at setup the shuffled deck is dealt into one face-down pile per seat "
    "(as evenly as possible, the rest set aside); a graduation draws 2 from the own pile and puts "
    "the other at its bottom; a lost ability goes to the bottom of its owner's pile. So a "
    "graduation never depends on another seat's timing.",
}


def ruling(ruling_id: str) -> str:
    """The text of a ruling (KeyError for an unknown id, so a typo in a test fails loudly)."""
    return RULINGS[ruling_id]
