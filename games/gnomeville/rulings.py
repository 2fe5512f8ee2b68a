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
    "G20": "Gnomes pass through each other but never rest together: a gnome may step onto "
    "another gnome's space only with a point to spare and a legal way on from there; it must "
    "then go on (its own steps are the only options, no stop), and nothing is resolved on the "
    "shared space (no mushroom, no activation, no upgrade).",
    "G21": "A house deploys the lowest-numbered gnome stand in camp onto any of the house's 8 "
    "neighbours without a troll, boulder or gnome (a building is fine; hedges do not block); "
    "it is optional like every activation (house.deploy offers none). The new gnome gains no "
    "mushroom and activates nothing on arrival, but may use movement still left.",
    "G22": "An academy graduates only a gnome not yet graduated. With two or more cards in the "
    "town's pile it draws two and keeps one (the other to the bottom); with one it keeps that "
    "one; with none it graduates without an ability card.",
    "G23": "If an upgrade can obtain no tile (neither the next tile nor the one two tiers up, on "
    "any line the group may follow, from the town's share), no upgrade happens: the tiles stay, "
    "and that group is checked again only when it changes (a matching tile placed next to it, "
    "or a gnome stepping off a matching tile connected to it).",
    "G24": "Entering a troll or boulder space with a sword or hammer gives the mushroom 'as if "
    "empty' (the seed), so a forager card adds its mushrooms there too.",
    "G25": "An occupied tile neither belongs to an upgrade group nor connects one: a group is the "
    "unoccupied matching tiles orthogonally connected through unoccupied matching tiles, with no "
    "hedge between (Mazeville).",
    "G26": "A gnome with a diagonal card may also step to a diagonal neighbour, unless both ways "
    "round the corner (via the row neighbour or via the column neighbour) cross a hedge.",
    "G27": "Activations are optional (the seed). One that would change nothing is not offered (a "
    "full stew, a gnome already graduated or holding that token, nothing affordable, no free "
    "neighbour or nobody in camp, no target). Market, house and ballista offer 'none' in their "
    "own choice; tavern, academy, workshop and armory ask activate or skip.",
    "G28": "Ballista and echo cards are used during movement: while a gnome tile's movement is "
    "open (also with no point left, until the player stops), each gnome whose card is unused "
    "this round may use it. A ballista card destroys one boulder or troll adjacent to its gnome "
    "as a ballista there would; an echo activates the building under its gnome again (offered "
    "only when that would change something; no skip).",
    "G29": "A stew card is used before a draw, and only with an empty stew (build.draw offers "
    "it); a redraw card is offered with the second chance and returns the drawn tile to the bag "
    "without emptying the stew. Either leads back to step 1 (draw or pass); neither can be used "
    "once the tile is placed.",
    "G30": "A gnome's step resolves in this order: the mushroom of an empty (or cleared) space at "
    "once, then the upgrade its stepping off a tile triggers, then the activation of the "
    "building it entered.",
    "G31": "Turn by turn, each seat settles its second chance (and redraw card) in the draw "
    "stage; at the barrier the tiles kept are revealed together, then each seat places and "
    "resolves its own. A pass, an empty bag, an unplaceable tile or being stuck ends that seat's "
    "build phase for the round.",
    "G32": "Master-build: an upgrade triggered by placing a tile puts the new tile on that space "
    "(always possible: the group's spaces are emptied and a higher tier meets any Towerville "
    "mark); a chain keeps that space; an upgrade triggered by a gnome stepping off may use any "
    "space of its group.",
}


def ruling(ruling_id: str) -> str:
    """The text of a ruling (KeyError for an unknown id, so a typo in a test fails loudly)."""
    return RULINGS[ruling_id]
