"""The Vagabond (Law 9): the faction board, characters, quests, ruins and relationships.

His turn: Birdsong (refresh, slip), Daylight (move, battle, explore, aid, quest, strike,
repair, craft and his character's special action, each exhausting items), Evening (rest in a
forest, draw, hand limit, item capacity); his battles and Full Removal use the Faction hooks
in ``battle.py``, ``alliance.py`` and ``crafting.py``. An Allied faction's warriors may go with
his moves and slips (``escort``, RV15) and fight in the battles he starts (``battle_allies``,
``ally_hits_taken``, called by ``battle.py``; RV14).

State lives on ``VagabondBoard``:

- ``items``: every item the Vagabond owns, each ``(item, exhausted, damaged)`` (the Satchel and
  the tea/coin/bag tracks are one list: an item on a track is still an item that can be
  exhausted or damaged; only a face-up one counts for its track, Law 9.2.5.1, RV1);
- ``character``, the quest deck and the three face-up quests, the quests completed;
- ``ruins``: the ruin item under each ruin (Law 9.3.4; only a game with a Vagabond places them,
  and only the Vagabond explores, so they are kept here; RV2);
- ``relations``: the relationship of each other faction (``HOSTILE``, ``INDIFFERENT`` and the
  two spaces after it, ``ALLIED``) and the aids given to each this turn.

Rulings: ``VAGABOND_RULINGS`` (where the Japanese rules summary and the Law differ, the Law is
followed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.rng import shuffle
from games.root.battle import Battle
from games.root.cards import CARD_BY_ID
from games.root.crafting import can_craft, craft
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING, Faction, FactionBoard
from games.root.hand_limit import HandLimit
from games.root.items import (
    BAG,
    BOOT,
    COIN,
    CROSSBOW,
    HAMMER,
    RUIN_ITEMS,
    SWORD,
    TEA,
    TORCH,
)
from games.root.maps import CLEARING_IDS, bordering_forests, forest
from games.root.steps import DONE, FINISHED, PASS, Options, Step
from games.root.suits import ANY, FOX, MOUSE, RABBIT, matches
from games.root.woodland import VAGABOND

if TYPE_CHECKING:
    from games.root.cards import Card
    from games.root.state import RootState

VAGABOND_RULINGS: dict[str, str] = {
    "RV1": "The Vagabond's starting items (Law 9.3 step 5, the character card) and ruin items "
    "(Law 9.3 step 4) are his own tiles, not taken from the shared item supply; the supply (Law "
    "5.1 step 5) is only for crafting. Tea, coins and bags lie on their tracks while face up (3 "
    "spaces each, Law 9.2.5.1); exhausted or damaged they are in the Satchel or the Damaged box, "
    "still his items. Only those face up on a track count for it (refresh 3 + 2 per tea at the "
    "start of Birdsong, Evening draw 1 + 1 per coin, capacity 6 + 2 per bag: Law 9.4.1, 9.6.2, "
    "9.6.4 'face up on the matching track'), so exhausting a coin costs a card at Evening; a "
    "fourth face-up item of a kind stays in the Satchel and counts for nothing.",
    "RV2": "Ruin items are placed only in a game with a Vagabond (Law 9.3.4, his setup step): "
    "one under each ruin, shuffled with the seed's random stream in ascending clearing order; "
    "they are kept on the Vagabond's board, as only the Vagabond explores.",
    "RV3": "Item capacity (Law 9.6.4): 6 + 2 per bag face up on its track, counting the items in "
    "his Satchel and Damaged box: damaged and exhausted ones and every item not face up on a "
    "track; face-up tea, coins and bags on their tracks neither count nor may be removed (the "
    "Japanese rules summary counts the Satchel only, without the Damaged box: the Law is "
    "followed). Items over capacity at the end of Evening are removed from the game, the Vagabond "
    "choosing the kind one at a time (decision vagabond.capacity, keys remove:<item>); of a kind, "
    "a damaged tile goes first, then an exhausted one (keeping the better tile is never worse for "
    "him).",
    "RV4": "Relationships (Law 9.2.9): every other faction starts Indifferent. Aiding a "
    "non-Hostile faction counts toward the next space: 1 aid in one turn to the first space (+1 "
    "VP), 2 more to the second (+2 VP), 3 more to Allied (+2 VP) (the numbers printed on the "
    "Vagabond's faction board; the Law does not state them in its text); aids to an Allied "
    "faction score 2 VP each. Aid (Law 9.5.4) needs only a piece of the receiver in his clearing "
    "and a card matching the clearing (the Japanese rules summary asks for warriors: the Law is "
    "followed), and a Hostile faction may be aided too (Law 9.2.9.3.3: it never improves, but he "
    "may take one of its crafted items). Removing a warrior of a non-Hostile faction, in battle, "
    "by Strike or by a favor card he crafts, makes it Hostile (Law 9.2.9.3; the marker leaves the "
    "track; aid can never improve it again).",
    "RV5": "Infamy (Law 9.2.9.3.1): +1 VP per piece of a Hostile faction he removes in battle on "
    "his own turn, not for the warrior whose removal made that faction Hostile (in that battle "
    "hostility comes after the hit), and never by Strike, as a defender or out of battle (the "
    "Japanese rules summary gives VP for any removal: the Law is followed).",
    "RV6": "The pawn is not a warrior (Law 9.2.2): it cannot be removed and rules nothing; a "
    "Vagabond move never triggers the Alliance's Outrage (Law 8.2.6 speaks of warriors moving "
    "in). Full Removal (Law 9.2.2.1): an enemy's effect that removes every enemy piece in his "
    "clearing (a revolt, a favor card; never his coalition partner's, RT24) damages three of his "
    "undamaged items, the Vagabond choosing one at a time (decision vagabond.damage), all of them "
    "without a choice if he has three or fewer; the Japanese rules summary says nothing of it.",
    "RV7": "Resting (Law 9.6.1): in Evening, if the pawn is in a forest, every damaged item is "
    "repaired and flipped face up (the Japanese rules summary lets him rest anywhere: the Law is "
    "followed). A repair by a hammer or by Hideout keeps the item's side (Law 9.5.7).",
    "RV8": "Birdsong refresh (Law 9.4.1): when no more items are exhausted than he may refresh, "
    "all are refreshed without asking; otherwise he chooses one item at a time (decision "
    "vagabond.refresh, keys refresh:<item> and refresh:<item>:damaged). Hideout (the Ranger) "
    "repairs up to three damaged items the same way (decision vagabond.hideout) and ends "
    "Daylight.",
    "RV9": "In battle his rolled hits are capped by his undamaged swords, exhausted ones "
    "included (Law 9.2.6), and he is defenseless (one extra hit, Law 4.3.3.2) with no undamaged "
    "sword (Law 9.2.4). Each hit he takes damages one undamaged item of his choice (Law 9.2.7; "
    "decision battle.remove, keys damage:<item>); hits beyond his undamaged items are ignored. "
    "Of a kind, an exhausted tile is damaged before a face-up one (a repair leaves both the "
    "same, and keeping the face-up one is never worse), so the key names the kind only. After an "
    "ambush his pawn always remains, so the battle goes on. Other factions may attack his pawn "
    "where they have warriors; he battles only in his pawn's clearing, exhausting a sword.",
    "RV10": "The quest deck's order and the items under unexplored ruins are hidden from every "
    "seat, the Vagabond included (explored items are shown): determinization (RT6) shuffles the "
    "quest cards not face up or completed, and deals the ruin items not yet explored to the "
    "ruins left, from what is known alone.",
    "RV11": "Craft (Law 9.5.8): the Vagabond exhausts one ready hammer per suit icon of the card "
    "(every icon of his clearing's suit, or any suit), as an action among the others in Daylight "
    "(key craft:<card>). He has no Crafted Items box (Law 9.2.5), so a crafted item is taken "
    "face up into his Satchel or onto its track at once (Law 9.2.1 'he may immediately take it'; "
    "left untaken it would have nowhere to go), like an item taken by Aid; either is a supply "
    "item he holds (RV12).",
    "RV12": "Items are conserved: the item supply, the Crafted Items boxes, the supply items the "
    "Vagabond took by Aid and those removed from the game always add up to the printed supply. "
    "Removed over capacity, his own tiles of a kind go before the supply's (tiles of a kind are "
    "alike).",
    "RV13": "Daylight in a forest (Law 9.5 is silent beyond Move, the Japanese rules summary "
    "too): from a forest he may move into an adjacent clearing (Law 9.5.1, one boot, one more "
    "into Hostile warriors), repair with a hammer, and the Ranger may take Hideout; the actions "
    "that name his clearing (battle, explore, aid, quest, strike, craft, Steal, Day Labor) cannot "
    "be taken there.",
    "RV14": "Allied warriors in his attacks (Law 9.2.9.2.3-4): once he has chosen the defender of "
    "a battle he initiates, he may treat the warriors of one Allied faction in the clearing of "
    "battle as his own (decision battle.ally, keys ally:<seat> and pass), never of the defender's "
    "faction and never as defender. His rolled hits are capped by their warriors there plus his "
    "undamaged swords; the hits are his (their removals score and make factions Hostile as his "
    "own). Each hit he takes, an ambush's included, damages one of his items or removes one of "
    "those warriors, his choice (decision battle.remove, key remove:warrior beside "
    "damage:<item>); the defender removes them, and effects of their removal (Field Hospitals) "
    "are the ally's. At the end of the battle, if more hits he took removed Allied warriors than "
    "damaged items, that faction becomes Hostile; losing them never makes it Hostile otherwise. "
    "The Japanese rules summary only says allied pieces may act as his in moves and battles.",
    "RV15": "Moving with an ally (Law 9.2.9.2.2): whenever the pawn moves from a clearing to an "
    "adjacent clearing (a Daylight move or a slip), he may force any number, at least one, of "
    "one Allied faction's warriors in the origin to move along (decision vagabond.escort, keys "
    "escort:<seat>:<n> and pass), at no extra boot. A forced move is resolved exactly as if "
    "that faction chose it (Law 1.5.5), so its own move rules apply, not his Nimble: the "
    "faction must rule the origin or the destination (Law 4.2.1; the Eyrie rule ties by Lords "
    "of the Forest, as the Law's example of forcing the Eyrie to move says), judged on the map "
    "as his move leaves it (the pawn rules nothing); an Allied faction that rules neither is "
    "not offered for that move. Warriors moving into a sympathetic clearing outrage the "
    "Alliance at the Allied faction's cost.",
}

#: Relationship values: Hostile, Indifferent, the two spaces after it, Allied.
HOSTILE, INDIFFERENT, ALLIED = -1, 0, 3
#: (aids needed in one turn, VP) to move from space i to i + 1 (Law 9.2.9, digest 4.4).
RELATION_STEPS: tuple[tuple[int, int], ...] = ((1, 1), (2, 2), (3, 2))
#: VP for each aid to an Allied faction.
ALLIED_AID_VP = 2
TRACK_ITEMS: tuple[str, ...] = (TEA, COIN, BAG)
TRACK_SPACES = 3
BASE_REFRESH, REFRESH_PER_TEA = 3, 2
BASE_DRAW = 1
BASE_CAPACITY, CAPACITY_PER_BAG = 6, 2
FACE_UP_QUESTS = 3


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    items: tuple[str, ...]
    special: str


THIEF, TINKER, RANGER = "thief", "tinker", "ranger"
STEAL, DAY_LABOR, HIDEOUT = "steal", "day_labor", "hideout"
CHARACTERS: dict[str, Character] = {
    THIEF: Character(THIEF, "Thief", (BOOT, TORCH, TEA, SWORD), STEAL),
    TINKER: Character(TINKER, "Tinker", (BOOT, TORCH, BAG, HAMMER), DAY_LABOR),
    RANGER: Character(RANGER, "Ranger", (BOOT, TORCH, CROSSBOW, SWORD), HIDEOUT),
}


@dataclass(frozen=True)
class Quest:
    id: str
    name: str
    suit: str
    items: tuple[str, str]


def _quests() -> tuple[Quest, ...]:
    table: tuple[tuple[str, tuple[tuple[str, tuple[str, str]], ...]], ...] = (
        (
            FOX,
            (
                ("Fundraising", (TEA, COIN)),
                ("Errand", (TEA, BOOT)),
                ("Logistics Help", (BOOT, BAG)),
                ("Repair a Shed", (TORCH, HAMMER)),
                ("Give a Speech", (TORCH, TEA)),
            ),
        ),
        (
            RABBIT,
            (
                ("Guard Duty", (TORCH, SWORD)),
                ("Errand", (TEA, BOOT)),
                ("Give a Speech", (TORCH, TEA)),
                ("Fend off a Bear", (TORCH, CROSSBOW)),
                ("Expel Bandits", (SWORD, SWORD)),
            ),
        ),
        (
            MOUSE,
            (
                ("Expel Bandits", (SWORD, SWORD)),
                ("Guard Duty", (TORCH, SWORD)),
                ("Fend off a Bear", (TORCH, CROSSBOW)),
                ("Escort", (BOOT, BOOT)),
                ("Logistics Help", (BOOT, BAG)),
            ),
        ),
    )
    return tuple(
        Quest(f"{suit}_{name.lower().replace(' ', '_')}", name, suit, items)
        for suit, quests in table
        for name, items in quests
    )


#: The 15 quest cards (digest 3.2), ids ``<suit>_<name>``.
QUESTS: tuple[Quest, ...] = _quests()
QUEST_BY_ID: dict[str, Quest] = {q.id: q for q in QUESTS}

#: One owned item: (item, exhausted, damaged).
Item = tuple[str, bool, bool]


def _item_text(state: Item) -> str:
    item, exhausted, damaged = state
    return item + (":exhausted" if exhausted else "") + (":damaged" if damaged else "")


def _item_from_text(text: str) -> Item:
    parts = text.split(":")
    return (parts[0], "exhausted" in parts, "damaged" in parts)


class VagabondBoard(FactionBoard):
    """Character, items, quests, ruin items and relationships of the Vagabond."""

    __slots__ = (
        "aids",
        "character",
        "completed",
        "explored",
        "items",
        "lost",
        "quest_deck",
        "quests",
        "relations",
        "ruins",
        "taken",
    )

    def __init__(self) -> None:
        self.character = ""
        self.items: list[Item] = []
        self.quest_deck: list[str] = []
        self.quests: list[str] = []
        self.completed: list[str] = []
        self.ruins: dict[int, str] = {}
        #: Items taken from ruins so far (public: explored items are shown).
        self.explored: list[str] = []
        #: Items of the shared supply he holds (taken by Aid), and those he removed from the
        #: game over capacity: what keeps the item supply's count (RV12).
        self.taken: list[str] = []
        self.lost: list[str] = []
        self.relations: dict[str, int] = {}
        #: Aids given to each faction this turn (reset at the start of his turn).
        self.aids: dict[str, int] = {}

    def copy(self) -> VagabondBoard:
        new = VagabondBoard.__new__(VagabondBoard)
        new.character = self.character
        new.items = list(self.items)
        new.quest_deck = list(self.quest_deck)
        new.quests = list(self.quests)
        new.completed = list(self.completed)
        new.ruins = dict(self.ruins)
        new.explored = list(self.explored)
        new.taken = list(self.taken)
        new.lost = list(self.lost)
        new.relations = dict(self.relations)
        new.aids = dict(self.aids)
        return new

    def canonical(self) -> tuple[Any, ...]:
        return (
            self.character,
            tuple(sorted(self.items)),
            tuple(self.quest_deck),
            tuple(self.quests),
            tuple(self.completed),
            tuple(sorted(self.ruins.items())),
            tuple(self.explored),
            tuple(sorted(self.taken)),
            tuple(sorted(self.lost)),
            tuple(sorted(self.relations.items())),
            tuple(sorted(self.aids.items())),
        )

    def public(self) -> dict[str, Any]:
        """Everything but the quest deck's order and the ruin items (face down under ruins),
        in wire-friendly values: items as ``boot``, ``boot:exhausted``, ``boot:damaged``,
        ``boot:exhausted:damaged``; relationships and aids as (faction, number) text pairs."""
        return {
            "character": self.character,
            "items": tuple(sorted(_item_text(i) for i in self.items)),
            "quests": tuple(self.quests),
            "completed": tuple(self.completed),
            "quest_deck": len(self.quest_deck),
            "ruins": tuple(sorted(self.ruins)),
            "explored": tuple(self.explored),
            "taken": tuple(sorted(self.taken)),
            "lost": tuple(sorted(self.lost)),
            "relations": tuple((f, str(v)) for f, v in sorted(self.relations.items())),
            "aids": tuple((f, str(v)) for f, v in sorted(self.aids.items())),
        }

    @classmethod
    def from_public(cls, values: dict[str, Any]) -> VagabondBoard:
        board = cls()
        board.character = str(values["character"])
        board.items = [_item_from_text(str(t)) for t in values["items"]]
        board.quests = [str(q) for q in values["quests"]]
        board.completed = [str(q) for q in values["completed"]]
        seen = set(board.quests) | set(board.completed)
        board.quest_deck = [q.id for q in QUESTS if q.id not in seen][: int(values["quest_deck"])]
        board.explored = [str(i) for i in values["explored"]]
        board.taken = [str(i) for i in values.get("taken", ())]
        board.lost = [str(i) for i in values.get("lost", ())]
        # The ruin items are face down: those not explored yet, in sorted order until
        # ``redeal_hidden`` deals them again (RV2).
        ruins = (int(c) for c in values["ruins"])
        board.ruins = dict(zip(ruins, board.unexplored(), strict=False))
        board.relations = {str(f): int(v) for f, v in values["relations"]}
        board.aids = {str(f): int(v) for f, v in values["aids"]}
        return board

    def unexplored(self) -> list[str]:
        """The ruin items still under ruins, sorted (what anyone can know of them)."""
        left = sorted(RUIN_ITEMS)
        for item in self.explored:
            left.remove(item)
        return left

    def redeal_hidden(self, rng: random.Random) -> None:
        """RV10: the quest deck's order and which ruin holds which item are unknown to every
        seat: shuffle them again from what is known (never from the truth)."""
        deck = sorted(self.quest_deck)
        shuffle(rng, deck)
        self.quest_deck = deck
        items = self.unexplored()
        shuffle(rng, items)
        self.ruins = dict(zip(sorted(self.ruins), items, strict=False))

    # -- counting ------------------------------------------------------------------------------

    def count(self, item: str, *, ready: bool = False, undamaged: bool = True) -> int:
        """Items of a kind: undamaged ones (and only ready ones if ``ready``)."""
        return sum(
            1
            for i, exhausted, damaged in self.items
            if i == item and not (undamaged and damaged) and not (ready and exhausted)
        )

    def on_track(self, item: str) -> int:
        """Items face up on a track (ready and undamaged, at most 3): only they count for it
        (Law 9.2.5.1, 9.4.1, 9.6.2, 9.6.4 'face up on the matching track'; RV1)."""
        if item not in TRACK_ITEMS:
            return 0
        return min(TRACK_SPACES, self.count(item, ready=True))

    def refresh_count(self) -> int:
        """Items refreshed in Birdsong: 3 + 2 per tea on the track (Law 9.4.1)."""
        return BASE_REFRESH + REFRESH_PER_TEA * self.on_track(TEA)

    def evening_draw(self) -> int:
        """Cards drawn in Evening: 1 + 1 per coin on the track (Law 9.6.2)."""
        return BASE_DRAW + self.on_track(COIN)

    def capacity(self) -> int:
        """Item capacity: 6 + 2 per bag on the track (Law 9.2.5.3, RV3)."""
        return BASE_CAPACITY + CAPACITY_PER_BAG * self.on_track(BAG)

    def in_satchel_or_damaged(self) -> list[Item]:
        """Every item but those face up on the tracks (Law 9.2.5.1): what item capacity counts
        and what may be removed over it (Law 9.6.4, RV3)."""
        on_tracks = {item: self.on_track(item) for item in TRACK_ITEMS}
        found = []
        for state in self.items:
            item, exhausted, damaged = state
            if not exhausted and not damaged and on_tracks.get(item, 0) > 0:
                on_tracks[item] -= 1
                continue
            found.append(state)
        return found

    def over_capacity(self) -> int:
        """Items in the Satchel and Damaged box over capacity (RV3)."""
        return max(0, len(self.in_satchel_or_damaged()) - self.capacity())

    def max_hits(self) -> int:
        """Rolled hits are capped by undamaged swords, face up or down (Law 9.2.6)."""
        return self.count(SWORD)

    def ready(self, item: str) -> bool:
        return self.count(item, ready=True) > 0

    # -- changing items -----------------------------------------------------------------------

    def gain(self, item: str) -> None:
        self.items.append((item, False, False))

    def _replace(self, old: Item, new: Item) -> None:
        self.items[self.items.index(old)] = new

    def exhaust(self, item: str) -> None:
        """Exhaust a ready undamaged ``item``; ValueError if there is none."""
        self._replace((item, False, False), (item, True, False))

    def damage(self, item: str) -> None:
        """Damage an undamaged ``item``: an exhausted one first, which is never worse for him
        (RV9); it keeps its side in the Damaged box (Law 9.2.7, 9.5.7)."""
        for state in ((item, True, False), (item, False, False)):
            if state in self.items:
                self._replace(state, (item, state[1], True))
                return
        raise ValueError(f"no undamaged {item}")

    def repair(self, item: str) -> None:
        """Repair a damaged ``item`` (it keeps its exhausted side)."""
        for state in ((item, True, True), (item, False, True)):
            if state in self.items:
                self._replace(state, (item, state[1], False))
                return
        raise ValueError(f"no damaged {item}")

    def refresh(self, item: str) -> None:
        """Refresh an exhausted ``item`` (damaged ones too: they keep their side, Law 9.2.7)."""
        for state in ((item, True, False), (item, True, True)):
            if state in self.items:
                self._replace(state, (item, False, state[2]))
                return
        raise ValueError(f"no exhausted {item}")

    def refresh_up_to(self, n: int) -> int:
        """Birdsong refresh with no choice to make: undamaged items first (they can be used),
        then damaged ones; returns how many were refreshed."""
        done = 0
        for damaged in (False, True):
            for i, (item, exhausted, dmg) in enumerate(self.items):
                if done == n:
                    return done
                if exhausted and dmg == damaged:
                    self.items[i] = (item, False, dmg)
                    done += 1
        return done

    def repair_all(self) -> None:
        """Hideout's repairs when all are due: each keeps its side (Law 9.5.7)."""
        self.items = [(i, e, False) for i, e, _ in self.items]

    def rest(self) -> None:
        """An Evening's Rest (Law 9.6.1): damaged items leave the Damaged box face up."""
        self.items = [(i, e and not d, False) for i, e, d in self.items]

    def removable(self) -> list[str]:
        """Kinds he may remove over capacity: those in the Satchel or Damaged box (RV3)."""
        return sorted({i for i, _, _ in self.in_satchel_or_damaged()})

    def remove(self, item: str) -> None:
        """Remove one ``item`` from the game: a damaged one first, then an exhausted one (a
        face-up one on a track last; RV3)."""
        states = [s for s in self.items if s[0] == item]
        if not states:
            raise ValueError(f"no {item}")
        self.items.remove(max(states, key=lambda s: (s[2], s[1])))

    # -- relationships -------------------------------------------------------------------------

    def aid(self, faction: str) -> tuple[int, bool]:
        """Record one aid to ``faction``: (VP it scores, whether the marker moved) (RV4)."""
        level = self.relations.get(faction, INDIFFERENT)
        if level == ALLIED:
            return ALLIED_AID_VP, False
        self.aids[faction] = self.aids.get(faction, 0) + 1
        if level == HOSTILE:
            return 0, False
        needed, vp = RELATION_STEPS[level]
        if self.aids[faction] < needed:
            return 0, False
        self.relations[faction] = level + 1
        self.aids[faction] = 0
        return vp, True

    def hostile(self, faction: str) -> bool:
        return self.relations.get(faction, INDIFFERENT) == HOSTILE

    def make_hostile(self, faction: str) -> bool:
        """Mark ``faction`` Hostile; whether it was not already."""
        if self.hostile(faction):
            return False
        self.relations[faction] = HOSTILE
        return True


def board_of(g: RootState, seat: int) -> VagabondBoard:
    board = g.players[seat].board
    assert isinstance(board, VagabondBoard)
    return board


def infamy(board: VagabondBoard, faction: str, *, in_battle: bool, own_turn: bool) -> int:
    """VP for removing one piece of ``faction`` (Law 9.2.9.2, RV5): 1 if it was already
    Hostile, in battle, on his turn. Call it before ``warrior_removed`` makes it Hostile."""
    return 1 if in_battle and own_turn and board.hostile(faction) else 0


def warrior_removed(board: VagabondBoard, faction: str, *, infamy_allowed: bool) -> int:
    """The Vagabond removed a warrior of ``faction``: infamy VP for it (if already Hostile and
    ``infamy_allowed``), then the faction is Hostile (RV4, RV5)."""
    vp = 1 if infamy_allowed and board.hostile(faction) else 0
    board.make_hostile(faction)
    return vp


def allied_seats(g: RootState, seat: int) -> tuple[int, ...]:
    """Seats whose faction is Allied with the Vagabond at ``seat`` (Law 9.2.9.2)."""
    board = board_of(g, seat)
    return tuple(s for s in g.others(seat) if board.relations.get(g.faction_of(s)) == ALLIED)


def battle_allies(g: RootState, seat: int, c: int, defender: int) -> tuple[int, ...]:
    """Law 9.2.9.2.3: the Allied seats whose warriors in ``c`` the attacking Vagabond may treat
    as his own: never the defender's own faction (RV14)."""
    w = g.woodland
    return tuple(
        s for s in allied_seats(g, seat) if s != defender and w.warriors(g.faction_of(s), c) > 0
    )


def ally_hits_taken(g: RootState, seat: int, ally: int, on_ally: int, on_items: int) -> None:
    """Law 9.2.9.2.4, at the end of a battle fought with ``ally``'s warriors: if more hits he
    took removed them than damaged his items, that faction becomes Hostile (RV14)."""
    if on_ally > on_items and board_of(g, seat).make_hostile(g.faction_of(ally)):
        g.emit("hostile", seat=seat, faction=g.faction_of(ally))


def escort_options(g: RootState, seat: int, origin: int) -> tuple[Option, ...]:
    """Law 9.2.9.2.2: after his move out of ``origin`` into the pawn's clearing, any number (at
    least one) of one Allied faction's warriors there may be forced along, where that faction
    could move them itself: it rules the origin or the destination (Law 1.5.5, 4.2.1; the
    Eyrie's Lords of the Forest counting), judged as the pawn's move leaves the map (RV15)."""
    w = g.woodland
    dst = w.pawn
    if not isinstance(dst, int):
        return ()
    return tuple(
        _opt(f"escort:{s}:{n}", f"bring {n} of seat {s}'s warriors", "escort", s, n)
        for s in allied_seats(g, seat)
        if w.can_move(g.faction_of(s), origin, dst)
        for n in range(1, w.warriors(g.faction_of(s), origin) + 1)
    )


def escort(g: RootState, ally: int, origin: int, count: int) -> None:
    """Move ``count`` of ``ally``'s warriors from ``origin`` to the pawn's clearing: a forced
    move, resolved exactly as if the ally made it (Law 1.5.5): it needs the ally's rule of
    either end (``escort_options``), and warriors moving in may outrage the Alliance at the
    ally's cost (RV15)."""
    dst = g.woodland.pawn
    assert isinstance(dst, int)
    faction = g.faction_of(ally)
    g.woodland.move(faction, origin, dst, count)  # ValueError without the ally's rule
    g.emit("move", seat=ally, src=origin, dst=dst, count=count)
    for other in g.others(ally):
        rules = g.rules(other)
        if rules.watches_moves:
            rules.enemy_moved(g, other, ally, dst)


def capacity_after_evening(board: VagabondBoard) -> int:
    """Items he must remove at the end of Evening."""
    return board.over_capacity()


def quest_options(board: VagabondBoard, suit: str) -> tuple[str, ...]:
    """Face-up quests of ``suit`` whose two items are ready and undamaged."""
    found = []
    for qid in board.quests:
        quest = QUEST_BY_ID[qid]
        if quest.suit != suit:
            continue
        a, b = quest.items
        need = 2 if a == b else 1
        if board.count(a, ready=True) >= need and board.count(b, ready=True) >= 1:
            found.append(qid)
    return tuple(found)


def complete_quest(board: VagabondBoard, qid: str) -> int:
    """Exhaust a quest's items, move it to the completed quests and draw a new one face up;
    returns the completed quests of its suit (the VP of the VP choice)."""
    quest = QUEST_BY_ID[qid]
    for item in quest.items:
        board.exhaust(item)
    board.quests.remove(qid)
    board.completed.append(qid)
    if board.quest_deck:
        board.quests.append(board.quest_deck.pop())
    return sum(1 for q in board.completed if QUEST_BY_ID[q].suit == quest.suit)


# -- setup ---------------------------------------------------------------------------------------

CHARACTER_OPTIONS: dict[str, Option] = {
    c.id: Option(f"character:{c.id}", c.name, ("character", c.id)) for c in CHARACTERS.values()
}


def forest_option(forest: str) -> Option:
    return Option(f"forest:{forest}", f"forest {forest}", ("forest", forest))


def set_up(g: RootState, seat: int, character: str, forest: str) -> None:
    """Law 9.3: character and its items, pawn in a forest, quests, ruin items, relationships."""
    board = board_of(g, seat)
    board.character = character
    for item in CHARACTERS[character].items:
        board.gain(item)
    g.woodland.place_pawn(forest)
    deck = [q.id for q in QUESTS]
    shuffle(g.rng, deck)
    board.quest_deck = deck
    board.quests = [deck.pop() for _ in range(FACE_UP_QUESTS)]
    ruins = [c for c in CLEARING_IDS if g.woodland.has_ruin(c)]
    items = list(RUIN_ITEMS)
    shuffle(g.rng, items)
    board.ruins = dict(zip(ruins, items, strict=False))
    board.relations = {g.faction_of(s): INDIFFERENT for s in range(g.n) if s != seat}
    board.aids = {}
    g.emit("vagabond_setup", seat=seat, character=character, forest=forest)


class VagabondSetup(Step):
    """Choose a character, then a forest for the pawn (Law 9.3.1-2)."""

    __slots__ = ("character",)
    name = "vagabond"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "character")
        self.character = ""

    def advance(self, g: RootState) -> Options:
        if self.stage == "character":
            return tuple(CHARACTER_OPTIONS.values())
        if self.stage == "forest":
            return tuple(forest_option(f.id) for f in g.board.forests)
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if self.stage == "character":
            self.character = str(value[1])
            self.stage = "forest"
        else:
            set_up(g, self.seat, self.character, str(value[1]))
            self.stage = "done"


class Vagabond(Faction):
    name: ClassVar[str] = VAGABOND
    warriors: ClassVar[int] = 0
    setup_order: ClassVar[int] = 4
    #: Law 9.2.8 with 3.3: a dominance card forms a coalition (four or more players, RT22).
    can_form_coalition: ClassVar[bool] = True

    def new_board(self) -> VagabondBoard:
        return VagabondBoard()

    def setup(self, g: RootState, seat: int) -> Step | None:
        return VagabondSetup(seat)

    def coalition_formed(self, g: RootState, seat: int, partner: int) -> None:
        """Law 9.2.9.3.4: a coalition with a Hostile faction makes it Indifferent (RV4)."""
        board = board_of(g, seat)
        faction = g.faction_of(partner)
        if board.hostile(faction):
            board.relations[faction] = INDIFFERENT
            g.emit("indifferent", seat=seat, faction=faction)

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        if phase == BIRDSONG:
            return begin_birdsong(g, seat)
        if phase == DAYLIGHT:
            return VagabondDaylight(seat)
        if phase == EVENING:
            return VagabondEvening(seat)
        raise ValueError(f"no phase {phase!r}")

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        """The Vagabond crafts with hammers in his clearing's suit (Law 9.5.8)."""
        where = g.woodland.pawn
        if not isinstance(where, int):
            return {}
        hammers = board_of(g, seat).count(HAMMER, ready=True)
        return {g.clearing_suit(where): hammers} if hammers else {}

    def craft_vp(self, g: RootState, seat: int, card: Card) -> int:
        return card.vp

    pawn: ClassVar[bool] = True

    def battle_strength(self, g: RootState, seat: int, c: int) -> int:
        """Rolled hits are capped by undamaged swords (Law 9.2.6); with none he is
        defenseless (RV9)."""
        return board_of(g, seat).max_hits() if g.woodland.pawn == c else 0

    def hit_choices(self, g: RootState, seat: int) -> tuple[str, ...]:
        return tuple(i for i, _, d in board_of(g, seat).items if not d)

    def take_hit(self, g: RootState, seat: int, choice: str) -> None:
        board_of(g, seat).damage(choice)
        g.emit("damage", seat=seat, item=choice)

    def full_removal(self, g: RootState, seat: int, c: int, by: int) -> None:
        """RV6: every enemy piece in his clearing removed: he damages three items."""
        if g.woodland.pawn == c:
            g.emit("full_removal", seat=seat, clearing=c)
            g.push(DamageItems(seat, FULL_REMOVAL_DAMAGE))

    def removed_enemy(
        self, g: RootState, seat: int, victim: int, kind: str, count: int, attacking: bool
    ) -> None:
        """RV4, RV5: removing a warrior makes its faction Hostile; each piece of a Hostile
        faction removed in battle on his turn scores 1 VP of infamy."""
        board = board_of(g, seat)
        faction = g.faction_of(victim)
        own_turn = attacking and g.current == seat
        vp = 0
        for _ in range(count):
            if kind == "warrior":
                vp += warrior_removed(board, faction, infamy_allowed=own_turn)
            else:
                vp += infamy(board, faction, in_battle=True, own_turn=own_turn)
        g.score(seat, vp, "infamy")


FULL_REMOVAL_DAMAGE = 3


class DamageItems(Step):
    """Damage ``left`` undamaged items of his choice, one at a time (all of them without a
    choice when he has no more than that) (RV6)."""

    __slots__ = ("left",)
    name = "vagabond"

    def __init__(self, seat: int, left: int) -> None:
        super().__init__(seat, "damage")
        self.left = left

    def advance(self, g: RootState) -> Options:
        board = board_of(g, self.seat)
        undamaged = [i for i, _, d in board.items if not d]
        if self.left <= 0 or not undamaged:
            return FINISHED
        if len(undamaged) <= self.left:
            for item in undamaged:
                board.damage(item)
            g.emit("damage", seat=self.seat, items=tuple(sorted(undamaged)))
            self.left = 0
            return FINISHED
        return tuple(
            _opt(f"damage:{i}", f"damage a {i}", "damage", i) for i in sorted(set(undamaged))
        )

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        board_of(g, self.seat).damage(value[1])
        g.emit("damage", seat=self.seat, items=(value[1],))
        self.left -= 1


# -- the turn ------------------------------------------------------------------------------------


def pawn_clearing(g: RootState) -> int | None:
    where = g.woodland.pawn
    return where if isinstance(where, int) else None


def slip_targets(g: RootState) -> tuple[int | str, ...]:
    """Law 9.4.2: an adjacent clearing or forest, ignoring rule (no boots)."""
    where = g.woodland.pawn
    if isinstance(where, int):
        return (*g.board.neighbours[where], *bordering_forests(g.board, where))
    if isinstance(where, str):
        f = forest(g.board, where)
        return (*f.clearings, *f.adjacent)
    return ()


def hostile_warriors_in(g: RootState, seat: int, c: int) -> bool:
    board = board_of(g, seat)
    return any(
        board.hostile(g.faction_of(s)) and g.woodland.warriors(g.faction_of(s), c) > 0
        for s in g.others(seat)
    )


def move_cost(g: RootState, seat: int, c: int) -> int:
    """Boots to move into ``c``: 1, one more with Hostile warriors there (Law 9.2.9.3.2)."""
    return 2 if hostile_warriors_in(g, seat, c) else 1


def present(g: RootState, seat: int, c: int) -> tuple[int, ...]:
    """Other seats with a piece (warrior, building or token) in ``c``: whom he may aid or steal
    from (Law 9.5.4, Steal: "any player in your clearing"), a coalition partner too."""
    return tuple(s for s in g.others(seat) if g.has_pieces(s, c))


def enemies_present(g: RootState, seat: int, c: int) -> tuple[int, ...]:
    """Enemies (``RootState.is_enemy``) with a piece in ``c``: whom he may battle or strike
    (Law 4.3, 9.5.6), never a coalition partner (Law 9.2.8)."""
    return tuple(s for s in present(g, seat, c) if g.is_enemy(seat, s))


def _opt(key: str, label: str, *value: Any) -> Option:
    return Option(key, label, value)


def move_targets(g: RootState) -> tuple[int, ...]:
    """Law 9.5.1: adjacent clearings, never a forest; from a forest, its clearings."""
    where = g.woodland.pawn
    if isinstance(where, int):
        return g.board.neighbours[where]
    if isinstance(where, str):
        return forest(g.board, where).clearings
    return ()


def _repair_options(board: VagabondBoard, ready: set[str]) -> list[Option]:
    """Law 9.5.7: a ready hammer repairs one damaged item."""
    if HAMMER not in ready:
        return []
    return [
        _opt(f"repair:{item}", f"repair a {item}", "repair", item)
        for item in sorted({i for i, _, d in board.items if d})
    ]


def daylight_options(g: RootState, seat: int) -> list[Option]:
    """Every Daylight action the Vagabond can complete now (Law 9.5), then 'done'."""
    board = board_of(g, seat)
    c = pawn_clearing(g)
    ready = {i for i, e, d in board.items if not e and not d}
    boots = board.count(BOOT, ready=True)
    found = [
        _opt(f"move:{dst}", f"move to clearing {dst}", "move", dst)
        for dst in move_targets(g)
        if boots >= move_cost(g, seat, dst)
    ]
    if c is None:  # in a forest: move, repair and Hideout need no clearing (RV13)
        found.extend(_repair_options(board, ready))
        if TORCH in ready and board.character and CHARACTERS[board.character].special == HIDEOUT:
            found.append(_opt("hideout", "Hideout", "hideout"))
        found.append(DONE)
        return found
    suit = g.clearing_suit(c)
    if TORCH in ready and c in board.ruins:
        found.append(_opt("explore", "explore the ruin", "explore"))
    hand = g.players[seat].hand
    if ready:
        for s in present(g, seat, c):
            # Law 9.2.9.3.3: a Hostile faction may be aided too (for its crafted items), it
            # just never improves (RV4).
            for card_id in sorted(set(hand)):
                if matches(CARD_BY_ID[card_id].suit, suit):
                    found.append(
                        _opt(
                            f"aid:{s}:{card_id}", f"aid seat {s} with {card_id}", "aid", s, card_id
                        )
                    )
    for qid in quest_options(board, suit):
        found.append(_opt(f"quest:{qid}", f"quest {qid}", "quest", qid))
    if SWORD in ready and enemies_present(g, seat, c):
        found.append(_opt("battle", "battle", "battle"))
    if CROSSBOW in ready:
        for s in enemies_present(g, seat, c):
            faction = g.faction_of(s)
            if g.woodland.warriors(faction, c):
                found.append(
                    _opt(f"strike:{s}:warrior", f"strike seat {s}", "strike", s, "warrior")
                )
            else:
                for kind in sorted(set(g.pieces_of(s, c))):
                    found.append(_opt(f"strike:{s}:{kind}", f"strike a {kind}", "strike", s, kind))
    hammers = board.count(HAMMER, ready=True)
    if hammers:
        for card_id in sorted(set(hand)):
            card = CARD_BY_ID[card_id]
            if (
                len(card.cost) <= hammers
                and all(s in (suit, ANY) for s in card.cost)
                and can_craft(g, seat, card)
            ):
                found.append(_opt(f"craft:{card_id}", f"craft {card.name}", "craft", card_id))
    found.extend(_repair_options(board, ready))
    if TORCH in ready:
        special = CHARACTERS[board.character].special if board.character else ""
        if special == STEAL:
            for s in present(g, seat, c):
                if g.players[s].hand:
                    found.append(_opt(f"steal:{s}", f"steal from seat {s}", "steal", s))
        elif special == DAY_LABOR:
            for card_id in sorted(set(g.discard)):
                if matches(CARD_BY_ID[card_id].suit, suit):
                    found.append(
                        _opt(f"day_labor:{card_id}", f"take {card_id}", "day_labor", card_id)
                    )
        elif special == HIDEOUT:
            found.append(_opt("hideout", "Hideout", "hideout"))
    found.append(DONE)
    return found


class VagabondBirdsong(Step):
    """Law 9.4: refresh (RV8: one item kind at a time while more are exhausted than may be
    refreshed, otherwise all at once), then slip or stay; a slip between clearings may bring
    Allied warriors along (RV15)."""

    __slots__ = ("left", "origin")
    name = "vagabond"

    def __init__(self, seat: int, left: int) -> None:
        super().__init__(seat, "refresh")
        self.left = left
        self.origin = 0

    def advance(self, g: RootState) -> Options:
        board = board_of(g, self.seat)
        if self.stage == "refresh":
            exhausted = [(i, d) for i, e, d in board.items if e]
            if len(exhausted) > self.left > 0:
                kinds = sorted(set(exhausted))
                return tuple(
                    _opt(
                        f"refresh:{i}{':damaged' if d else ''}",
                        f"refresh a {i}",
                        "refresh",
                        i,
                        int(d),
                    )
                    for i, d in kinds
                )
            n = board.refresh_up_to(self.left)
            g.emit("refresh", seat=self.seat, count=n)
            self.stage = "slip"
        if self.stage == "escort":
            return (PASS, *escort_options(g, self.seat, self.origin))
        if self.stage != "slip":
            return FINISHED
        targets = slip_targets(g)
        return (
            _opt("stay", "stay", "stay"),
            *(_opt(f"slip:{t}", f"slip to {t}", "slip", t) for t in targets),
        )

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if value[0] == "refresh":
            board = board_of(g, self.seat)
            item, damaged = value[1], bool(value[2])
            board._replace((item, True, damaged), (item, False, damaged))
            self.left -= 1
            g.emit("refresh", seat=self.seat, count=1)
            return
        if value[0] == "escort":
            escort(g, value[1], self.origin, value[2])
        self.stage = "over"
        if value[0] == "slip":
            src = g.woodland.pawn
            g.woodland.place_pawn(value[1])
            g.emit("slip", seat=self.seat, to=value[1])
            if (
                isinstance(src, int)
                and isinstance(value[1], int)
                and escort_options(g, self.seat, src)
            ):
                self.origin, self.stage = src, "escort"


def begin_birdsong(g: RootState, seat: int) -> Step:
    board = board_of(g, seat)
    board.aids = {}
    return VagabondBirdsong(seat, board.refresh_count())


class VagabondDaylight(Step):
    """Law 9.5: actions in any order and number, each exhausting items, until 'done'."""

    __slots__ = ("card", "count", "origin", "receiver")
    name = "vagabond"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "action")
        #: The action waiting for its second choice: the aid's receiver and card, the quest's
        #: VP, the repairs Hideout has left, the clearing a move left (for Allied warriors).
        self.receiver = -1
        self.card = ""
        self.count = 0
        self.origin = 0

    def advance(self, g: RootState) -> Options:
        board = board_of(g, self.seat)
        if self.stage == "action":
            return tuple(daylight_options(g, self.seat))
        if self.stage == "aid_item":
            kinds = sorted({i for i, e, d in board.items if not e and not d})
            return tuple(_opt(f"exhaust:{i}", f"exhaust a {i}", "exhaust", i) for i in kinds)
        if self.stage == "aid_take":
            receiver = self.receiver
            items = sorted(set(g.players[receiver].items))
            return (PASS, *(_opt(f"take:{i}", f"take a {i}", "take", i) for i in items))
        if self.stage == "hideout":
            damaged = sorted({i for i, _, d in board.items if d})
            if not damaged or self.count == 0:
                self.stage = "over"  # Hideout ends Daylight (Law, Ranger)
                return FINISHED
            if len(damaged) <= self.count and sum(d for _, _, d in board.items) <= self.count:
                board.repair_all()
                self.stage = "over"
                return FINISHED
            return tuple(_opt(f"repair:{i}", f"repair a {i}", "repair", i) for i in damaged)
        if self.stage == "quest_reward":
            return (
                _opt("reward:vp", "score VP", "reward", "vp"),
                _opt("reward:cards", "draw 2", "reward", "cards"),
            )
        if self.stage == "escort":
            return (PASS, *escort_options(g, self.seat, self.origin))
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        seat, board = self.seat, board_of(g, self.seat)
        verb = value[0]
        c = pawn_clearing(g)
        if self.stage == "aid_item":
            board.exhaust(value[1])
            receiver, card_id = self.receiver, self.card
            self.card = ""
            g.players[seat].hand.remove(card_id)
            g.players[receiver].hand.append(card_id)
            g.emit("aid", seat=seat, to=receiver, private_to=None)
            vp, _ = board.aid(g.faction_of(receiver))
            g.score(seat, vp, "aid")
            self.stage = "aid_take" if g.players[receiver].items else "action"
            if not g.players[receiver].items:
                self.receiver = -1
            return
        if self.stage == "aid_take":
            if verb == "take":
                receiver = self.receiver
                g.players[receiver].items.remove(value[1])
                board.gain(value[1])
                board.taken.append(value[1])
                g.emit("take_item", seat=seat, source=receiver, item=value[1])
            self.stage, self.receiver, self.count = "action", -1, 0
            return
        if self.stage == "hideout":
            board.repair(value[1])
            self.count -= 1
            return
        if self.stage == "escort":
            if verb == "escort":
                escort(g, value[1], self.origin, value[2])
            self.stage, self.origin = "action", 0
            return
        if self.stage == "quest_reward":
            if value[1] == "vp":
                g.score(seat, self.count, "quest")
            else:
                g.draw(seat, 2)
            self.stage, self.receiver, self.count = "action", -1, 0
            return
        if verb == "done":
            self.stage = "over"
        elif verb == "move":
            src = g.woodland.pawn
            for _ in range(move_cost(g, seat, value[1])):
                board.exhaust(BOOT)
            g.woodland.place_pawn(value[1])  # the pawn is no warrior: no Outrage (RV6)
            g.emit("pawn_move", seat=seat, src=src, dst=value[1])
            if isinstance(src, int) and escort_options(g, seat, src):
                self.origin, self.stage = src, "escort"  # Law 9.2.9.2.2 (RV15)
        elif verb == "battle":
            assert c is not None
            board.exhaust(SWORD)
            g.push(Battle(seat, (c,)))
        elif verb == "craft":
            card = CARD_BY_ID[value[1]]
            for _ in card.cost:
                board.exhaust(HAMMER)
            before = {s: g.woodland.warriors_on_map(g.faction_of(s)) for s in g.enemies(seat)}
            craft(g, seat, card)
            for s, n in before.items():  # a favor card removed them: Hostile (Law 9.2.9.3)
                if g.woodland.warriors_on_map(g.faction_of(s)) < n:
                    board.make_hostile(g.faction_of(s))
            if card.item is not None and card.item in g.players[seat].items:
                # Law 9.2.1, 9.5.8: he takes a crafted item face up (he has no Crafted Items
                # box, Law 9.2.5); it is a supply item he holds (RV11, RV12).
                g.players[seat].items.remove(card.item)
                board.gain(card.item)
                board.taken.append(card.item)
        elif verb == "explore":
            assert c is not None
            board.exhaust(TORCH)
            item = board.ruins.pop(c)
            board.explored.append(item)
            board.gain(item)
            g.woodland.remove_ruin(c)
            g.emit("explore", seat=seat, clearing=c, item=item)
            g.score(seat, 1, "explore")
        elif verb == "aid":
            self.receiver, self.card = value[1], value[2]
            self.stage = "aid_item"
        elif verb == "quest":
            self.count = complete_quest(board, value[1])
            g.emit("quest", seat=seat, quest=value[1])
            self.stage = "quest_reward"
        elif verb == "strike":
            assert c is not None
            board.exhaust(CROSSBOW)
            target, kind = value[1], value[2]
            if kind == "warrior":
                warrior_removed(board, g.faction_of(target), infamy_allowed=False)
                g.remove_warriors(target, c, 1, seat)
            else:
                g.remove_piece(target, c, kind, seat)
        elif verb == "repair":
            board.exhaust(HAMMER)
            board.repair(value[1])
        elif verb == "steal":
            board.exhaust(TORCH)
            hand = g.players[value[1]].hand
            card_id = hand.pop(g.rng.randrange(len(hand)))
            g.players[seat].hand.append(card_id)
            g.emit("steal", seat=seat, source=value[1])
        elif verb == "day_labor":
            board.exhaust(TORCH)
            g.discard.remove(value[1])
            g.players[seat].hand.append(value[1])
            g.emit("day_labor", seat=seat, card=value[1])
        elif verb == "hideout":
            board.exhaust(TORCH)
            g.emit("hideout", seat=seat)
            self.count = 3
            self.stage = "hideout"


class VagabondEvening(Step):
    """Law 9.6: rest in a forest (RV7), draw, hand limit, then items over capacity (RV3)."""

    __slots__ = ()
    name = "vagabond"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "start")

    def advance(self, g: RootState) -> Options:
        board = board_of(g, self.seat)
        if self.stage == "start":
            if isinstance(g.woodland.pawn, str):
                board.rest()
                g.emit("rest", seat=self.seat)
            g.draw(self.seat, board.evening_draw())
            self.stage = "capacity"
            g.push(HandLimit(self.seat))
            return FINISHED
        if self.stage == "capacity" and board.over_capacity():
            kinds = board.removable()
            return tuple(_opt(f"remove:{i}", f"remove a {i}", "remove", i) for i in kinds)
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        board = board_of(g, self.seat)
        item = value[1]
        board.remove(item)
        if sum(1 for i, _, _ in board.items if i == item) < board.taken.count(item):
            board.taken.remove(item)  # a supply item left the game (RV12)
            board.lost.append(item)
        g.emit("remove_item", seat=self.seat, item=item)
