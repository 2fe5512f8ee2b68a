"""Every point where the game's Japanese instructions are silent, decided once, here.

Each ruling has an id that the engine cites in a comment where it applies and a test names
(``tests/gnomeville/test_rulings.py``). ``docs/rulings/gnomeville.md`` lists them for people.
G1-G16 come from the English digest of the instructions; G17 onwards were decided while building.
"""

from __future__ import annotations

RULINGS: dict[str, str] = {
    "G1": "Upgrade lines: prosperity (blue) market > house > tavern > academy > monument; defence "
    "(red) market > workshop > armory > ballista > monument. A market group chooses the line.",
    "G2": "An upgrade stack of height h scores h VP plus min(max(h - 4, 0), 5).",
    "G3": "Three stump spaces, covered top to bottom, give 1, 2 and 3 movement.",
    "G4": "A pass is final for the round's build phase (the instructions' FAQ lets a passed "
    "player rejoin; over the network a rejoin right would let a bot hold the phase open).",
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
    "the other at its bottom. An exhausted gnome's ability card is discarded (the instructions: "
    "能力を捨て), face up on its owner's discard pile and out of the game: no graduation draws it "
    "again. So a graduation never depends on another seat's timing.",
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
    "any line the group may follow, from the town's share), no upgrade happens: the tiles stay. "
    "An upgrade is a state, not an event, so the group is checked again when it changes (a "
    "matching tile placed next to it, or a gnome stepping off a matching tile connected to it) "
    "and whenever a phase opens in which what the town may take can have grown (the river "
    "returned tiles in phase 5, the shares are split anew): at the opening of each build phase "
    "and turn-by-turn stage, before anything else the seat does, every group that can now "
    "obtain a tile upgrades, lowest space first, on any space of the group.",
    "G24": "Entering a troll or boulder space with a sword or hammer gives the mushroom 'as if "
    "empty' (the instructions), so a forager card adds its mushrooms there too.",
    "G25": "An occupied tile neither belongs to an upgrade group nor connects one: a group is the "
    "unoccupied matching tiles orthogonally connected through unoccupied matching tiles, with no "
    "hedge between (Mazeville).",
    "G26": "A gnome with a diagonal card may also step to a diagonal neighbour, unless both ways "
    "round the corner (via the row neighbour or via the column neighbour) cross a hedge.",
    "G27": "Activations are optional (the instructions). One that would change nothing is not "
    "offered (a full stew, a gnome already graduated or holding that token, nothing affordable, "
    "no free neighbour or nobody in camp, no target). Market, house and ballista offer 'none' in "
    "their own choice; tavern, academy, workshop and armory ask activate or skip.",
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
    "G40": "The boulders of a troll card fall in the card's reading order without a question: "
    "each acts on its own space only, so their order could change only where a new stand may go "
    "(G11) before a later boulder falls (a stand placed under it is lost and placed again, so "
    "every order reaches the same positions) and the order two lost ability cards are "
    "discarded in (the card's order fixes it).",
    "G41": "A destroyed building tile goes to its owner's bag, not the supply, at phase 5 step 3 "
    "with the upgrade stacks (the instructions: アップグレードまたは破壊された建物タイル…をすべてバッグに戻します); until then it "
    "lies beside the board and is not in the bag for phase 4's events.",
    "G42": "The order of a card's troll spawns (the FAQ lets the player choose it) is asked only "
    "when the troll limit makes it matter. With room for r more trolls, p spawns that would "
    "place a troll and s onto sword gnomes: the player chooses when p > r (which trolls appear) "
    "or p = r and s > 0 (whether a sword gnome fights before the last troll stand is used, or "
    "its icon is ignored after); otherwise all resolve in the card's order. A troll spawning on "
    "a sword gnome needs a free troll stand, so with three trolls on the board it is ignored "
    "like any fourth troll.",
    "G43": "A moving troll stops at the edge, before a boulder or before another troll; in a "
    "one-step arrow a blocked troll stays. A troll moving onto a sword gnome is defeated there "
    "(+1 mushroom) and the building under that gnome is destroyed (G7).",
    "G44": "The new stand of G11 is the lowest-numbered stand in camp (stands in camp are alike) "
    "and is placed at once: before the rest of the troll card, and before buying when the river "
    "washed the last gnome away.",
    "G45": "A mushrooms bonus of a special delivery is taken without a question: it gives at "
    "least the 1 mushroom its alternative gives.",
    "G46": "Delivery bonuses: a sword or hammer goes to a deployed gnome that does not carry one "
    "yet (a card that counts as one counts), a stew needs an empty stew, a tile needs that tile "
    "in the town's share of the supply (G18), a removal names a boulder or troll on the own "
    "board. A bonus that cannot be taken gives 1 mushroom without a question.",
    "G47": "The three event cards lie under the round tracker's spaces for rounds 3, 4 and 5; "
    "advancing the tracker in phase 5 reveals the one under the new space, so one event is face "
    "up in round 3, two in round 4 and three in round 5 (the instructions: "
    "第3ラウンドはイベント1つ、第4ラウンドは2つ…第5ラウンドは3つ; phase 5 step 2).",
    "G48": "Riverville's river is washed at the start of phase 5, before buying: a building tile "
    "there returns to the shared supply (not the bag), a gnome is exhausted, trolls and boulders "
    "leave the board; bridges are not river.",
    "G49": "A game stopped before its end (the referee's limit) is ranked as the towns stand: "
    "VP so far (no adjacency goals), then building tiles on the board, then mushrooms left.",
    "G50": "Players still tied after the instructions' tie-breaks share the place, first or any "
    "lower place: the contract's ranking lists them by seat number, and Outcome.shared (so the "
    "match result, ratings and ladders give them one place) and tiebreak['shared'] name each tied "
    "group. Solo: tiebreak['rank'] is the rank title of the instructions' table ('' under 40).",
    "G51": "Determinization redraws what a seat cannot know: the order of the troll and "
    "delivery decks, which cards lie in the face-down event slots, every bag's future draws, "
    "and the ability piles' unseen cards (each pile keeps its size; the cards the seat saw go "
    "under a pile, its own put back, stay where they are; discarded cards are out of the game "
    "and in no pile); the other seats' "
    "progress since the last barrier is not visible, so the sample starts them again from "
    "where the seat last saw them.",
    "G52": "A board is full when no space is empty in the instructions' sense (a tile, stand, "
    "troll or boulder on every space); in phase 5 its building tiles go back to the bag, while "
    "gnomes, boulders and trolls stay.",
    "G53": "A stuck player resolves the whole ambush card before the round's card. The ambush "
    "card is revealed from the top of the troll deck and discarded after the round.",
    "G54": "No upgrade happens in phases 3 to 5: a gnome leaves a building there only by being "
    "exhausted by a troll, a boulder or the river, and each of these destroys or removes the "
    "building under it too, so no group of unoccupied tiles grows; a group blocked for want of "
    "a tile whose tile the river returns upgrades when the next build phase opens (G23).",
    "G55": "Sprint cards are a Kassen addition to the provisional pack (the instructions describe "
    "once-per-round abilities and monuments that add movement whenever movement is gained, but "
    "print no card texts): two of the 22 ability cards gain 2 movement once per round. Like "
    "ballista and echo (G28) a sprint is used while a movement is open (also with no point left, "
    "until the player stops); it adds its amount, plus 1 per monument and every passive movement "
    "card (a gain of movement), to the points left, and the card is turned over until the refresh "
    "of phase 5.",
}


def ruling(ruling_id: str) -> str:
    """The text of a ruling (KeyError for an unknown id, so a typo in a test fails loudly)."""
    return RULINGS[ruling_id]
