"""The Eyrie Dynasties (Law 7): roosts, the Decree, leaders and turmoil.

The Eyrie score in Evening by how many roosts stand on the map (Law 7.6.1), but every card they
add to their Decree in Birdsong (Law 7.4.2) is an action they must take in Daylight, left to right
(Law 7.5.2). An action that cannot be fully taken throws them into turmoil (Law 7.7): they lose
1 VP per bird card on the Decree, discard it all but the two Loyal Viziers, and change leader.

State lives on ``EyrieBoard`` (leader, face-down leaders, the Decree); the turn's three phases are
the steps ``EyrieBirdsong`` and ``EyrieDaylight`` and the automatic Evening in ``Eyrie.phase``.
Roosts are not counted on the board: a roost's place on its track is derived from the map (a
removed roost goes back to the track by itself, Glossary "Remove"). Rulings: ``EYRIE_RULINGS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.root.battle import Battle, battle_clearings
from games.root.card_effects import EFFECT_VERBS, phase_effects, use_effect, use_option
from games.root.cards import CARD_BY_ID, Card
from games.root.crafting import Craft
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING, Faction, FactionBoard
from games.root.hand_limit import HandLimit
from games.root.maps import CLEARING_IDS, clearings_of_suit
from games.root.moving import Move, move_origins
from games.root.steps import DONE, FINISHED, Options, Step, card_option, clearing_option
from games.root.suits import BIRD
from games.root.tracks import (
    BATTLE,
    BUILD,
    DECREE_COLUMNS,
    DISDAIN_FOR_TRADE_VP,
    EYRIE_ROOSTS,
    EYRIE_SETUP_WARRIORS,
    EYRIE_WARRIORS,
    LEADER_BY_ID,
    LEADERS,
    MOVE,
    RECRUIT,
    eyrie_draws,
    roost_vp,
)
from games.root.woodland import EYRIE, KEEP, MARQUISE, ROOST

if TYPE_CHECKING:
    from games.root.state import RootState

EYRIE_RULINGS: dict[str, str] = {
    "RE1": "Setup (Law 7.3.2): the Marquise's keep corner is the only other starting corner; "
    "the Eyrie take the corner diagonally opposite it if a roost can be placed there, else "
    "choose another corner that is not the keep's. With no keep on the map they choose any "
    "corner (decision eyrie.corner).",
    "RE2": "A New Roost (Law 7.4.3) follows the Law's 'fewest warriors' (all factions' warriors, "
    "not all pieces as one summary says); a candidate needs an open slot and must not be closed "
    "to Eyrie placement (the keep). With fewer than 3 warriors in supply the Eyrie place as "
    "many as they can (Law 1.5.4).",
    "RE3": "Add to the Decree (Law 7.4.2) with an empty hand even after Emergency Orders (deck "
    "and discard pile both empty) adds nothing; it is not turmoil, which only the Decree's "
    "actions cause.",
    "RE4": "A Recruit that cannot place all its warriors (none in supply, or the Charismatic "
    "with one) places as many as it can (Law 1.5.4) and then falls into turmoil, since the "
    "action was not fully taken (Law 7.5.2): both rules are followed (Law 1.1.1).",
    "RE5": "Humiliate (Law 7.7.1) never takes the score below 0 (RT12: neither the Law nor the "
    "Japanese rules summary has a rule for a negative score, and the score track has no space "
    "below '0'); bird cards beyond the Eyrie's VP cost nothing.",
    "RE6": "A New Clutch (Law 7.7.3.1): when no leader is face up, all four flip face up, the "
    "one just deposed included, and the Eyrie choose among all four.",
    "RE7": "Rest (Law 7.7.4) ends the Eyrie's Daylight at once; the shared end-of-Daylight card "
    "window (RT7) still opens, as 'at end of' Daylight comes before Evening (Law 1.4.1).",
    "RE8": "Build (Law 7.5.2) needs a roost left on the track (7 in all), an open slot, no roost "
    "yet, a clearing the Eyrie rule, and no keep; with none such it cannot be taken (turmoil).",
    "RE9": "Within a Decree column, cards of the same suit (the Viziers are birds) are one "
    "choice of order: their actions are identical.",
    "RE10": "A Battle card with no matching clearing holding both Eyrie warriors and an enemy "
    "piece, or a Move card with no matching clearing from which a legal move exists, cannot be "
    "taken: turmoil.",
    "RE11": "The Despot's extra VP (Law 7.8.4) is scored at most once per battle, as attacker or "
    "defender, when that battle removed at least one enemy building or token.",
}

#: The two Loyal Viziers: bird cards outside the deck that never leave the Decree.
VIZIERS: tuple[str, str] = ("loyal_vizier_1", "loyal_vizier_2")
_VIZIER_SET = frozenset(VIZIERS)

Decree = tuple[tuple[str, ...], ...]
EMPTY_DECREE: Decree = tuple(() for _ in DECREE_COLUMNS)


def card_suit(card_id: str) -> str:
    """A Decree card's suit; the Viziers are birds (Law 7.3.4)."""
    return BIRD if card_id in _VIZIER_SET else CARD_BY_ID[card_id].suit


def tucked(leader: str) -> Decree:
    """A Decree holding only the Viziers, in the columns ``leader`` lists (Law 7.3.4, 7.7.3)."""
    columns = LEADER_BY_ID[leader].viziers
    return tuple(
        tuple(v for v, col in zip(VIZIERS, columns, strict=True) if col == name)
        for name in DECREE_COLUMNS
    )


class EyrieBoard(FactionBoard):
    """Leader, face-down (deposed) leaders and the Decree: four columns of card ids."""

    __slots__ = ("decree", "deposed", "leader")

    def __init__(self) -> None:
        self.leader = ""
        self.deposed: tuple[str, ...] = ()
        self.decree: Decree = EMPTY_DECREE

    def copy(self) -> EyrieBoard:
        new = EyrieBoard.__new__(EyrieBoard)
        new.leader = self.leader
        new.deposed = self.deposed
        new.decree = self.decree
        return new

    def canonical(self) -> tuple[Any, ...]:
        return (self.leader, self.deposed, self.decree)

    @classmethod
    def from_public(cls, values: dict[str, Any]) -> EyrieBoard:
        board = cls()
        board.leader = str(values["leader"])
        board.deposed = tuple(values["deposed"])
        board.decree = tuple(tuple(values[f"decree_{name}"]) for name in DECREE_COLUMNS)
        return board

    def public(self) -> dict[str, Any]:
        """All of it: the leaders and the Decree are face up (``decree_recruit``...)."""
        found: dict[str, Any] = {"leader": self.leader, "deposed": self.deposed}
        for name, column in zip(DECREE_COLUMNS, self.decree, strict=True):
            found[f"decree_{name}"] = column
        return found

    def face_up(self) -> tuple[str, ...]:
        """Leaders that may be chosen now: neither current nor face down."""
        return tuple(
            leader.id
            for leader in LEADERS
            if leader.id != self.leader and leader.id not in self.deposed
        )

    def birds(self) -> int:
        """Bird cards on the Decree, Viziers included (Law 7.7.1)."""
        return sum(1 for column in self.decree for card_id in column if card_suit(card_id) == BIRD)


def board_of(g: RootState, seat: int) -> EyrieBoard:
    board = g.players[seat].board
    assert isinstance(board, EyrieBoard)
    return board


# -- reading the map ---------------------------------------------------------------------------


def roost_clearings(g: RootState) -> tuple[int, ...]:
    """Clearings with a roost (at most one each)."""
    return g.woodland.building_sites(EYRIE, ROOST)


def roosts_on_map(g: RootState) -> int:
    return len(roost_clearings(g))


def matching(g: RootState, suit: str) -> tuple[int, ...]:
    """Clearings a card of ``suit`` matches (birds are wild, Law 2.1.1)."""
    return CLEARING_IDS if suit == BIRD else clearings_of_suit(g.board, suit)


def can_hold_roost(g: RootState, seat: int, c: int) -> bool:
    """A roost may be placed in ``c``: open slot, no roost yet, not closed to the Eyrie."""
    w = g.woodland
    return w.free_slots(c) > 0 and (EYRIE, ROOST) not in w.buildings(c) and g.may_place(seat, c)


def recruit_clearings(g: RootState, seat: int, suit: str) -> tuple[int, ...]:
    """Law 7.5.2 Recruit: clearings with a roost matching ``suit`` where warriors may go."""
    return tuple(c for c in roost_clearings(g) if _matches(g, suit, c) and g.may_place(seat, c))


def build_clearings(g: RootState, seat: int, suit: str) -> tuple[int, ...]:
    """Law 7.5.2 Build: ruled clearings matching ``suit`` that can take a roost (RE8)."""
    if roosts_on_map(g) >= EYRIE_ROOSTS:
        return ()
    w = g.woodland
    return tuple(c for c in matching(g, suit) if w.rules(EYRIE, c) and can_hold_roost(g, seat, c))


def _matches(g: RootState, suit: str, c: int) -> bool:
    return suit == BIRD or g.clearing_suit(c) == suit


def place_roost(g: RootState, seat: int, c: int) -> None:
    g.woodland.add_building(EYRIE, ROOST, c)
    g.emit("place", seat=seat, piece=ROOST, clearing=c, count=1)


def keep_corners(g: RootState) -> tuple[int, ...]:
    """Corners holding the Marquise's keep: the other players' starting corners (RE1)."""
    w = g.woodland
    return tuple(c for c in g.board.corners if (MARQUISE, KEEP) in w.tokens(c))


def setup_corners(g: RootState, seat: int) -> tuple[int, ...]:
    """Law 7.3.2: a corner that is not another's starting corner, opposite one if possible."""
    starting = keep_corners(g)
    allowed = [c for c in g.board.corners if c not in starting and can_hold_roost(g, seat, c)]
    opposite = [c for c in allowed if any(g.board.clearing(s).opposite == c for s in starting)]
    return tuple(opposite or allowed)


# -- options -----------------------------------------------------------------------------------


LEADER_OPTIONS: Mapping[str, Option] = {
    leader.id: Option(f"leader:{leader.id}", leader.name, ("leader", leader.id))
    for leader in LEADERS
}
COLUMN_OPTIONS: tuple[Option, ...] = tuple(
    Option(f"column:{name}", f"to the {name} column", ("column", i))
    for i, name in enumerate(DECREE_COLUMNS)
)
RESOLVE_OPTIONS: Mapping[str, Option] = {
    suit: Option(f"resolve:{suit}", f"resolve a {suit} card", ("resolve", suit))
    for suit in ("fox", "rabbit", "mouse", BIRD)
}


def choose_leader(g: RootState, seat: int, leader: str) -> None:
    """Place ``leader`` on the board and tuck the Viziers as it lists (Law 7.3.3-7.3.4)."""
    board = board_of(g, seat)
    board.leader = leader
    board.decree = tucked(leader)
    g.emit("leader", seat=seat, leader=leader)


# -- setup -------------------------------------------------------------------------------------


class EyrieSetup(Step):
    """Law 7.3: the roost and 6 warriors in a corner, then a leader and the Viziers.

    The corner is found when this step runs (the Marquise set up first and placed her keep)."""

    __slots__ = ()
    name = "eyrie"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "corner")

    def advance(self, g: RootState) -> Options:
        if self.stage == "corner":
            corners = setup_corners(g, self.seat)
            if not corners:
                raise AssertionError("no corner can take the Eyrie's roost")
            return tuple(clearing_option(c) for c in corners)
        if self.stage == "leader":
            return tuple(LEADER_OPTIONS[leader.id] for leader in LEADERS)
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if self.stage == "corner":
            c = value[1]
            place_roost(g, self.seat, c)
            g.place_warriors(self.seat, c, EYRIE_SETUP_WARRIORS)
            self.stage = "leader"
        else:
            choose_leader(g, self.seat, value[1])
            self.stage = "over"


# -- Birdsong (Law 7.4) ------------------------------------------------------------------------


class EyrieBirdsong(Step):
    """Emergency Orders, Add to the Decree (one card, then a column; up to two cards, at most
    one bird), A New Roost."""

    __slots__ = ("added", "card")
    name = "eyrie"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "emergency")
        #: Cards added to the Decree this Birdsong.
        self.added: tuple[str, ...] = ()
        #: The card chosen, waiting for its column.
        self.card = ""

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        while True:
            stage = self.stage
            if stage == "emergency":
                if not g.players[seat].hand:  # Law 7.4.1
                    g.draw(seat, 1)
                self.stage = "decree_card"
            elif stage == "decree_card":
                found = self._addable(g)
                if found:
                    cards = tuple(card_option(c, "decree") for c in found)
                    if self.added:
                        return (*cards, DONE)
                    # Before adding: Royal Claim, Stand and Deliver! (RT7).
                    return (*cards, *phase_effects(g, seat, BIRDSONG))
                self.stage = "roost"
            elif stage == "decree_column":
                return COLUMN_OPTIONS
            elif stage == "roost":
                return self._new_roost(g)
            else:
                return FINISHED

    def _addable(self, g: RootState) -> list[str]:
        """Law 7.4.2: one or two cards, only one of them a bird."""
        if len(self.added) >= 2:
            return []
        hand = g.players[self.seat].hand
        if any(CARD_BY_ID[c].suit == BIRD for c in self.added):
            return [c for c in hand if CARD_BY_ID[c].suit != BIRD]
        return list(hand)

    def _new_roost(self, g: RootState) -> Options:
        """Law 7.4.3: no roost on the map -> a roost and 3 warriors where warriors are fewest."""
        self.stage = "over"
        if roosts_on_map(g):
            return FINISHED
        w = g.woodland
        places = [c for c in CLEARING_IDS if can_hold_roost(g, self.seat, c)]
        if not places:
            return FINISHED
        factions = [g.faction_of(s) for s in range(g.n)]
        counts = {c: sum(w.warriors(f, c) for f in factions) for c in places}
        fewest = min(counts.values())
        self.stage = "roost"
        return tuple(clearing_option(c) for c in places if counts[c] == fewest)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        stage = self.stage
        if stage == "decree_card":
            if value[0] == "use":
                use_effect(g, self.seat, value[1])
            elif value[0] == "done":
                self.stage = "roost"
            else:
                self.card = value[1]
                self.stage = "decree_column"
        elif stage == "decree_column":
            column = value[1]
            board = board_of(g, self.seat)
            card_id = self.card
            g.players[self.seat].hand.remove(card_id)
            decree = list(board.decree)
            decree[column] = (*decree[column], card_id)
            board.decree = tuple(decree)
            self.added = (*self.added, card_id)
            self.card = ""
            g.emit("decree", seat=self.seat, card=card_id, column=DECREE_COLUMNS[column])
            self.stage = "decree_card"
        elif stage == "roost":
            c = value[1]
            place_roost(g, self.seat, c)
            g.place_warriors(self.seat, c, NEW_ROOST_WARRIORS)
            self.stage = "over"


#: A New Roost comes with this many warriors (Law 7.4.3).
NEW_ROOST_WARRIORS = 3


# -- Daylight (Law 7.5) and turmoil (Law 7.7) --------------------------------------------------


class EyrieDaylight(Step):
    """Craft with roosts, then resolve the Decree column by column; turmoil ends it early.

    ``column`` is the column being resolved, ``resolved`` the cards of it already taken, ``suit``
    the suit of the card whose action is under way."""

    __slots__ = ("column", "resolved", "suit")
    name = "eyrie"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "craft")
        self.column = 0
        self.resolved: tuple[str, ...] = ()
        self.suit = ""

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        while True:
            stage = self.stage
            if stage == "craft":  # Law 7.5.1
                self.stage = "next"
                g.push(Craft(seat, g.rules(seat).crafting_pieces(g, seat)))
                return FINISHED
            if stage == "next":
                suits = self._next_suits(g)
                if not suits:
                    self.stage = "over"
                    return FINISHED
                # Before each Decree card: Tax Collector, Codebreakers (RT7).
                effects = phase_effects(g, seat, DAYLIGHT)
                if len(suits) > 1 or effects:
                    self.stage = "order"
                    return (*(RESOLVE_OPTIONS[s] for s in suits), *effects)
                self._take(g, suits[0])
            elif stage == "order":
                effects = phase_effects(g, seat, DAYLIGHT)
                return (*(RESOLVE_OPTIONS[s] for s in self._next_suits(g)), *effects)
            elif stage == "act":
                found = self._act(g)
                if found or g.stack[-1] is not self:
                    return found  # a clearing to choose, or a Move or Battle pushed
            elif stage == "turmoil":
                return self._turmoil(g)
            elif stage in ("recruit", "build"):
                action = RECRUIT if stage == "recruit" else BUILD
                return tuple(clearing_option(c) for c in self._places(g, action))
            elif stage == "leader":
                return tuple(LEADER_OPTIONS[leader] for leader in self._candidates(g))
            else:
                return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        stage = self.stage
        if stage == "order" and value[0] in EFFECT_VERBS:  # RT7, RT17
            use_option(g, self.seat, value)
        elif stage == "order":
            self._take(g, value[1])
        elif stage == "recruit":
            self._recruit(g, value[1])
        elif stage == "build":
            place_roost(g, self.seat, value[1])
            self.stage = "next"
        elif stage == "leader":
            choose_leader(g, self.seat, value[1])
            self.stage = "over"  # Law 7.7.4 Rest: Daylight ends (RE7)

    # -- the Decree

    def _next_suits(self, g: RootState) -> list[str]:
        """Distinct suits of the unresolved cards in the first column that has any (RE9)."""
        decree = board_of(g, self.seat).decree
        while self.column < len(DECREE_COLUMNS):
            left = list(decree[self.column])
            for card_id in self.resolved:
                left.remove(card_id)
            if left:
                suits: list[str] = []
                for card_id in left:
                    suit = card_suit(card_id)
                    if suit not in suits:
                        suits.append(suit)
                return suits
            self.column += 1
            self.resolved = ()
        return []

    def _take(self, g: RootState, suit: str) -> None:
        """Mark one unresolved card of ``suit`` in this column taken; its action comes next."""
        left = list(board_of(g, self.seat).decree[self.column])
        for card_id in self.resolved:
            left.remove(card_id)
        card_id = next(c for c in left if card_suit(c) == suit)
        self.resolved = (*self.resolved, card_id)
        self.suit = suit
        g.emit("resolve", seat=self.seat, card=card_id, column=DECREE_COLUMNS[self.column])
        self.stage = "act"

    def _act(self, g: RootState) -> Options:
        """Start the column's action for the card of ``suit``; if it cannot be taken, the
        stage becomes ``turmoil`` (Law 7.5.2)."""
        seat, suit = self.seat, self.suit
        action = DECREE_COLUMNS[self.column]
        self.stage = "next"
        if action == MOVE:
            origins = move_origins(g, seat, _within(g, suit))
            if origins:
                g.push(Move(seat, origins, optional=False))
            else:
                self.stage = "turmoil"
            return FINISHED
        if action == BATTLE:
            clearings = battle_clearings(g, seat, _within(g, suit))
            if clearings:
                g.push(Battle(seat, clearings))
            else:
                self.stage = "turmoil"
            return FINISHED
        places = self._places(g, action)
        if not places or (action == RECRUIT and not g.warriors_in_supply(seat)):
            self.stage = "turmoil"
        elif len(places) > 1:
            self.stage = action
            return tuple(clearing_option(c) for c in places)
        elif action == RECRUIT:
            self._recruit(g, places[0])
        else:
            place_roost(g, seat, places[0])
        return FINISHED

    def _places(self, g: RootState, action: str) -> tuple[int, ...]:
        if action == RECRUIT:
            return recruit_clearings(g, self.seat, self.suit)
        return build_clearings(g, self.seat, self.suit)

    def _recruit(self, g: RootState, c: int) -> None:
        """Law 7.5.2 Recruit (Charismatic: two warriors, Law 7.8.2); short supply: RE4."""
        wanted = 2 if board_of(g, self.seat).leader == "charismatic" else 1
        placed = g.place_warriors(self.seat, c, wanted)
        self.stage = "next" if placed == wanted else "turmoil"

    # -- turmoil

    def _turmoil(self, g: RootState) -> Options:
        """Law 7.7: Humiliate, Purge, Depose (choose a leader), then Rest."""
        seat = self.seat
        board = board_of(g, seat)
        g.emit("turmoil", seat=seat, column=DECREE_COLUMNS[self.column], suit=self.suit)
        g.score(seat, -board.birds(), "humiliate")  # Law 7.7.1 (RE5)
        for column in board.decree:  # Law 7.7.2
            for card_id in column:
                if card_id not in _VIZIER_SET:
                    g.discard_card(card_id)
                    g.emit("discard", seat=seat, card=card_id, why="purge")
        board.decree = EMPTY_DECREE
        board.deposed = (*board.deposed, board.leader)  # Law 7.7.3
        g.emit("depose", seat=seat, leader=board.leader)
        if not board.face_up():  # Law 7.7.3.1 A New Clutch (RE6)
            board.deposed = ()
            board.leader = ""
        self.stage = "leader"
        return tuple(LEADER_OPTIONS[leader] for leader in self._candidates(g))

    def _candidates(self, g: RootState) -> tuple[str, ...]:
        return board_of(g, self.seat).face_up()


def _within(g: RootState, suit: str) -> tuple[int, ...] | None:
    return None if suit == BIRD else clearings_of_suit(g.board, suit)


# -- the faction -------------------------------------------------------------------------------


class Eyrie(Faction):
    """The Eyrie's hooks: setup, phases, crafting pieces and the leaders' abilities."""

    name: ClassVar[str] = EYRIE
    warriors: ClassVar[int] = EYRIE_WARRIORS
    setup_order: ClassVar[int] = 1

    def new_board(self) -> EyrieBoard:
        return EyrieBoard()

    def setup(self, g: RootState, seat: int) -> Step | None:
        return EyrieSetup(seat)

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        if phase == BIRDSONG:
            return EyrieBirdsong(seat)
        if phase == DAYLIGHT:
            return EyrieDaylight(seat)
        if phase == EVENING:
            return self.evening(g, seat)
        raise ValueError(f"no phase {phase!r}")

    def evening(self, g: RootState, seat: int) -> Step:
        """Law 7.6: score the rightmost empty roost space, draw 1 + bonuses, then discard."""
        roosts = roosts_on_map(g)
        g.score(seat, roost_vp(roosts), "roosts")
        g.draw(seat, eyrie_draws(roosts))
        return HandLimit(seat)

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        """Law 7.2.1: roosts, each of its clearing's suit."""
        found: dict[str, int] = {}
        for c in roost_clearings(g):
            suit = g.clearing_suit(c)
            found[suit] = found.get(suit, 0) + 1
        return found

    def craft_vp(self, g: RootState, seat: int, card: Card) -> int:
        """Law 7.2.3 Disdain for Trade: an item scores 1 VP, unless the Builder leads (7.8.1)."""
        if board_of(g, seat).leader == "builder":
            return card.vp
        return DISDAIN_FOR_TRADE_VP

    def battle_extra_hits(self, g: RootState, seat: int, attacking: bool) -> int:
        """Law 7.8.3 Commander: an extra hit as attacker."""
        return 1 if attacking and board_of(g, seat).leader == "commander" else 0

    def removed_in_battle(self, g: RootState, seat: int, buildings_or_tokens: int) -> None:
        """Law 7.8.4 Despot: one extra VP when a battle removed any enemy building or token."""
        if buildings_or_tokens > 0 and board_of(g, seat).leader == "despot":
            g.score(seat, 1, "despot")
