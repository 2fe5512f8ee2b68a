"""The Woodland Alliance (Law 8): sympathy, supporters, revolts, bases, officers and Outrage.

The Alliance scores by placing sympathy tokens (the VP under each space of the sympathy track),
paid for with **supporters**: cards on a face-down stack that only the Alliance sees (others see
how many). Its turn reads like its faction board:

- Birdsong (Law 8.4): Revolt any number of times (spend two supporters of a sympathetic
  clearing's suit, remove every enemy piece there, place that suit's base, warriors and an
  officer), then Spread Sympathy any number of times (supporters of the clearing's suit as the
  track says, one more under Martial Law);
- Daylight (Law 8.5): craft with sympathy tokens, then in any order and number Mobilize (a card
  from hand to the supporters) and Train (spend a card matching a base on the map: an officer);
- Evening (Law 8.6): as many military operations as officers (Move, Battle, Recruit at a base,
  Organize: a warrior becomes a sympathy token), then draw 1 + bases on the map and discard to
  five.

Other players feed the stack by **Outrage** (Law 8.2.6): moving warriors into a sympathetic
clearing, or removing a sympathy token, costs them a matching card (``Outrage``, asked of them).
The Alliance defends with Guerrilla War (``battle.py``). Losing a base costs the supporters of
its suit and half the officers (Law 8.2.4).

State lives on ``AllianceBoard`` (the supporters and the officers); sympathy tokens and bases
are counted on the map (a removed one goes back to the faction board by itself, Glossary
"Remove"). Supporter cards never appear in a step's fields or a public event: the public sees
counts, the Alliance (and a player giving a card) private events. Rulings: ``ALLIANCE_RULINGS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.root.battle import Battle, battle_clearings
from games.root.card_effects import EFFECT_VERBS, phase_effects, use_effect, use_option
from games.root.cards import CARD_BY_ID, STARTING_HAND
from games.root.crafting import Craft
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING, Faction, FactionBoard
from games.root.hand_limit import HandLimit
from games.root.maps import CLEARING_IDS
from games.root.moving import Move, move_origins
from games.root.steps import DONE, FINISHED, Options, Step, card_option, clearing_option
from games.root.suits import BIRD, FOX, MOUSE, RABBIT
from games.root.tracks import (
    ALLIANCE_SYMPATHY_TOKENS,
    ALLIANCE_WARRIORS,
    BASE_EVENING_DRAW,
    MARTIAL_LAW_WARRIORS,
    REVOLT_COST,
    SUPPORTERS_LIMIT_WITHOUT_BASE,
    SYMPATHY_COST,
    SYMPATHY_VP,
)
from games.root.woodland import ALLIANCE, FOX_BASE, MOUSE_BASE, RABBIT_BASE, SYMPATHY

if TYPE_CHECKING:
    from games.root.state import RootState

ALLIANCE_RULINGS: dict[str, str] = {
    "RA1": "Bird supporters are wild (Law 2.1.1): they pay for a Revolt or Spread Sympathy in a "
    "clearing of any suit; 'supporters can only be spent for their suit' (Law 8.2.3) is read as "
    "'only as supporters, never as other cards'. A lost base discards the supporters of its "
    "suit and the birds (Law 8.2.4 says so).",
    "RA2": "Supporters to spend are chosen one card at a time in card-id order (decision "
    "alliance.supporter), so each set of cards is offered once; when every matching supporter "
    "must go, or one way is left, the engine spends them without asking.",
    "RA3": "Mobilize (Law 8.5.2) is offered with any card in hand, also while the Supporters "
    "stack is full (no base on the map and five supporters): the card the stack cannot hold is "
    "discarded (Law 8.2.3.1), so the stack stays at five, and a dominance card discarded so "
    "becomes available to take (Law 3.3.3), which makes mobilizing at the limit a choice of its "
    "own.",
    "RA4": "Outrage (Law 8.2.6) is once per move, however many warriors move in, and once per "
    "sympathy token removed. The outraged player chooses which matching card (birds included) "
    "to add (decision alliance.outrage, asked of that player); with none, the hand is shown to "
    "the Alliance alone (a private event) and the Alliance draws the deck's top card to its "
    "supporters. A card the full stack cannot hold is discarded face up.",
    "RA5": "Outrage for a sympathy token removed in battle is resolved when the battle is over "
    "(after all its removal and Field Hospitals, Law 1.4); removed by a favor, right after the "
    "favor; a move's Outrage right after that move.",
    "RA6": "Revolt (Law 8.4.1) is offered in a sympathetic clearing whose suit matches a base "
    "still on the faction board, with two matching supporters, where the base will find a slot "
    "once the enemy buildings there are removed (ruins stay); removing all enemy pieces also "
    "removes the keep, so the keep's clearing can revolt. Warriors and the officer come from the "
    "supply, as many as it holds (Law 1.4).",
    "RA7": "Spread Sympathy and Organize place a token only where the Alliance may place pieces "
    "(not in the keep's clearing, Law 6.2.2). With a sympathetic clearing on the map, Spread "
    "targets only unsympathetic clearings adjacent to a sympathetic one, even when the Alliance "
    "can pay for none of them (Law 8.4.2 step 1); any clearing only while none is sympathetic.",
    "RA8": "Martial Law (Law 8.4.2.2.1) counts the warriors of each other player separately: "
    "one more supporter if any one of them has at least three warriors in the target clearing.",
    "RA9": "Officers are Alliance warriors off the map: an officer is gained only with a warrior "
    "in supply (Revolt, Train), and removed officers go back to the supply. Train is offered "
    "only with a warrior in supply; a bird card trains for any base (birds are wild).",
    "RA10": "A lost base (Law 8.2.4) discards its suit's supporters and the birds at once (face "
    "up), then half the officers rounded up go to the supply; if no base is left and more than "
    "five supporters remain, the Alliance chooses which to discard one at a time (decision "
    "alliance.discard).",
    "RA11": "Military operations (Law 8.6.1) may stop at any time ('up to' the officers); an "
    "operation is offered only if it can be completed (Move: a legal move; Battle: an enemy "
    "piece with Alliance warriors; Recruit: a warrior in supply and a base where it may be "
    "placed; Organize: an Alliance warrior in an unsympathetic clearing where a token may go and "
    "a token left).",
    "RA12": "The Alliance sets up (Law 8.3) by drawing three cards to its supporters with the "
    "deck's draw; it has no setup decision. Its Evening draws 1 + one card per base on the map "
    "(each base covers a draw icon, reference data section 4.3).",
    "RA13": "Determinization (RT6) deals the Alliance's supporters again with the other cards a "
    "seat cannot see, keeping their number; the Alliance keeps its own. A card a player gave "
    "by Outrage, or a hand shown to the Alliance, is not remembered by the engine (bots keep "
    "their notes from the private events).",
    "RA14": "Daylight (Law 8.5): the Alliance crafts first, then takes Mobilize and Train in any "
    "order and number. The Law allows any order, but nothing in the Alliance's Daylight adds a "
    "card to its hand or a crafting piece (the card windows come before and after it, RT7), so "
    "crafting first reaches every outcome another order does, and a bot is never asked to "
    "craft twice.",
    "RA15": "RT7's effects usable at any point of a phase are offered beside the Alliance's "
    "Revolt and Spread Sympathy choices in Birdsong (Royal Claim, Stand and Deliver!) and "
    "beside Mobilize and Train in Daylight (Tax Collector, Codebreakers), never while paying "
    "supporters (inside an action); an Alliance Birdsong with neither a Revolt nor a Spread to "
    "take asks nothing, so no end-of-Birdsong window opens after it.",
}

BASES: tuple[str, ...] = (FOX_BASE, RABBIT_BASE, MOUSE_BASE)
BASE_OF_SUIT: dict[str, str] = {FOX: FOX_BASE, RABBIT: RABBIT_BASE, MOUSE: MOUSE_BASE}
SUIT_OF_BASE: dict[str, str] = {base: suit for suit, base in BASE_OF_SUIT.items()}
#: A supporter another seat cannot see, in a board rebuilt from that seat's view: replaced
#: when the hidden cards are dealt again (``RootState.redeal``).
HIDDEN_CARD = "?"


class AllianceBoard(FactionBoard):
    """The Supporters stack (face down: card ids only the Alliance sees) and the officers."""

    __slots__ = ("officers", "supporters")

    def __init__(self, supporters: list[str] | None = None, officers: int = 0) -> None:
        self.supporters: list[str] = supporters if supporters is not None else []
        self.officers = officers

    def copy(self) -> AllianceBoard:
        return AllianceBoard(list(self.supporters), self.officers)

    def canonical(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.supporters)), self.officers)

    def public(self) -> dict[str, Any]:
        """The officers and how many supporters (the cards are face down)."""
        return {"officers": self.officers, "supporters": len(self.supporters)}

    def private(self) -> dict[str, Any]:
        """The supporter cards themselves (the owner's view only), sorted."""
        return {"supporter_cards": tuple(sorted(self.supporters))}

    @classmethod
    def from_public(cls, values: dict[str, Any]) -> AllianceBoard:
        cards = values.get("supporter_cards")
        if cards is None:
            cards = (HIDDEN_CARD,) * int(values["supporters"])
        return cls(list(cards), int(values["officers"]))

    def hidden_cards(self) -> tuple[str, ...]:
        return tuple(self.supporters)

    def set_hidden_cards(self, cards: list[str]) -> None:
        if len(cards) != len(self.supporters):
            raise ValueError(f"{len(self.supporters)} supporters, {len(cards)} cards dealt")
        self.supporters = list(cards)

    def warriors_off_map(self) -> int:
        return self.officers


def board_of(g: RootState, seat: int) -> AllianceBoard:
    board = g.players[seat].board
    assert isinstance(board, AllianceBoard)
    return board


# -- reading the map ---------------------------------------------------------------------------


def sympathetic(g: RootState, c: int) -> bool:
    return g.woodland.count_tokens(ALLIANCE, SYMPATHY, c) > 0


def sympathy_clearings(g: RootState) -> tuple[int, ...]:
    """Sympathetic clearings (at most one token each, Law 8.2.5.1), ascending."""
    count = g.woodland.count_tokens
    return tuple(c for c in CLEARING_IDS if count(ALLIANCE, SYMPATHY, c))


def base_sites(g: RootState) -> tuple[int, ...]:
    """Clearings holding a base (one base per clearing: a base goes to its own suit)."""
    sites = g.woodland.building_sites
    return tuple(sorted(c for kind in BASES for c in sites(ALLIANCE, kind)))


def bases_on_board(g: RootState) -> tuple[str, ...]:
    """Base kinds still on the faction board (not on the map)."""
    sites = g.woodland.building_sites
    return tuple(kind for kind in BASES if not sites(ALLIANCE, kind))


def has_base_on_map(g: RootState) -> bool:
    sites = g.woodland.building_sites
    return any(sites(ALLIANCE, kind) for kind in BASES)


def _suit_of(card_id: str) -> str:
    return CARD_BY_ID[card_id].suit


def matching(cards: list[str] | tuple[str, ...], suit: str) -> list[str]:
    """The cards that can be spent for ``suit`` (birds are wild, RA1), sorted."""
    return sorted(c for c in cards if _suit_of(c) in (suit, BIRD))


def stack_full(g: RootState, seat: int) -> bool:
    """Law 8.2.3.1: without a base on the map the stack holds at most five cards."""
    board = board_of(g, seat)
    return len(board.supporters) >= SUPPORTERS_LIMIT_WITHOUT_BASE and not has_base_on_map(g)


def martial_law(g: RootState, seat: int, c: int) -> bool:
    """Law 8.4.2.2.1: another player has at least three warriors in ``c`` (RA8)."""
    w = g.woodland
    return any(
        w.warriors(g.faction_of(other), c) >= MARTIAL_LAW_WARRIORS for other in g.others(seat)
    )


def spread_cost(g: RootState, seat: int, c: int) -> int:
    """Supporters of ``c``'s suit to spread sympathy there now: the track, plus Martial Law."""
    cost = SYMPATHY_COST[len(sympathy_clearings(g))]
    return cost + 1 if martial_law(g, seat, c) else cost


def spread_targets(g: RootState, seat: int) -> tuple[int, ...]:
    """Law 8.4.2 step 1 (RA7): unsympathetic clearings adjacent to a sympathetic one, or any
    clearing while none is sympathetic; where the Alliance may place pieces."""
    placed = sympathy_clearings(g)
    if placed:
        neighbours = g.board.neighbours
        near = {n for s in placed for n in neighbours[s]}
        candidates = [c for c in CLEARING_IDS if c in near and c not in placed]
    else:
        candidates = list(CLEARING_IDS)
    return tuple(c for c in candidates if g.may_place(seat, c))


def spread_sites(g: RootState, seat: int) -> tuple[int, ...]:
    """Clearings where Spread Sympathy can be taken now (token left, supporters enough)."""
    placed = len(sympathy_clearings(g))
    supporters = board_of(g, seat).supporters
    if placed >= ALLIANCE_SYMPATHY_TOKENS or not supporters:
        return ()
    cost = SYMPATHY_COST[placed]
    have = {suit: len(matching(supporters, suit)) for suit in BASE_OF_SUIT}
    found = []
    for c in spread_targets(g, seat):
        if have[g.clearing_suit(c)] >= cost + (1 if martial_law(g, seat, c) else 0):
            found.append(c)
    return tuple(found)


def revolt_sites(g: RootState, seat: int) -> tuple[int, ...]:
    """Law 8.4.1 (RA6): sympathetic clearings matching a base on the faction board, with two
    matching supporters, where the base finds a slot once enemy buildings are removed."""
    free = bases_on_board(g)
    if not free:
        return ()
    supporters = board_of(g, seat).supporters
    if len(supporters) < REVOLT_COST:
        return ()
    w = g.woodland
    enemies = {g.faction_of(e) for e in g.enemies(seat)}
    found = []
    for c in sympathy_clearings(g):
        suit = g.clearing_suit(c)
        if BASE_OF_SUIT[suit] not in free or len(matching(supporters, suit)) < REVOLT_COST:
            continue
        enemy_buildings = sum(1 for owner, _ in w.buildings(c) if owner in enemies)
        if w.free_slots(c) + enemy_buildings > 0:
            found.append(c)
    return tuple(found)


def organize_sites(g: RootState, seat: int) -> tuple[int, ...]:
    """Law 8.6.1 Organize (RA11): an Alliance warrior, no sympathy, a token may be placed."""
    if len(sympathy_clearings(g)) >= ALLIANCE_SYMPATHY_TOKENS:
        return ()
    w = g.woodland
    return tuple(
        c
        for c in CLEARING_IDS
        if w.warriors(ALLIANCE, c) and not sympathetic(g, c) and g.may_place(seat, c)
    )


def recruit_sites(g: RootState, seat: int) -> tuple[int, ...]:
    """Law 8.6.1 Recruit: clearings with a base where a warrior may be placed."""
    if g.warriors_in_supply(seat) <= 0:
        return ()
    return tuple(c for c in base_sites(g) if g.may_place(seat, c))


def train_cards(g: RootState, seat: int) -> list[str]:
    """Law 8.5.3 Train (RA9): cards in hand matching the printed suit of a base on the map."""
    if g.warriors_in_supply(seat) <= 0:
        return []
    sites = g.woodland.building_sites
    suits = {SUIT_OF_BASE[kind] for kind in BASES if sites(ALLIANCE, kind)}
    if not suits:
        return []
    return sorted({c for c in g.players[seat].hand if _suit_of(c) == BIRD or _suit_of(c) in suits})


# -- the verbs ---------------------------------------------------------------------------------


def add_supporter(g: RootState, seat: int, card_id: str, source: str, giver: int = -1) -> None:
    """Put ``card_id`` (already out of every hand) on the Supporters stack, or discard it face
    up if the stack is full (Law 8.2.3.1). Public: the count; private: the card, to the
    Alliance (and to the player who gave it)."""
    board = board_of(g, seat)
    if stack_full(g, seat):
        g.discard_card(card_id)
        g.emit("discard", seat=seat, card=card_id, why="supporters_full")
        return
    board.supporters.append(card_id)
    g.emit("supporter", seat=seat, source=source, count=len(board.supporters))
    g.emit("supporter_card", private_to=seat, seat=seat, card=card_id, source=source)
    if giver >= 0:
        g.emit("supporter_card", private_to=giver, seat=seat, card=card_id, source=source)


def draw_supporters(g: RootState, seat: int, count: int, source: str) -> None:
    """Draw ``count`` cards from the deck straight to the Supporters stack (setup, Outrage)."""
    hand = g.players[seat].hand
    for card_id in g.draw(seat, count):
        hand.remove(card_id)
        add_supporter(g, seat, card_id, source)


def spend_supporter(g: RootState, seat: int, card_id: str, why: str) -> None:
    """Spend a supporter: face up to the discard pile (public from now on)."""
    board_of(g, seat).supporters.remove(card_id)
    g.discard_card(card_id)
    g.emit("discard", seat=seat, card=card_id, why=why)


def place_sympathy(g: RootState, seat: int, c: int, why: str) -> None:
    """Place the leftmost sympathy token of the track in ``c`` and score the space uncovered."""
    placed = len(sympathy_clearings(g))
    g.woodland.add_token(ALLIANCE, SYMPATHY, c)
    g.emit("place", seat=seat, piece=SYMPATHY, clearing=c, count=1)
    g.score(seat, SYMPATHY_VP[placed], why)


def gain_officer(g: RootState, seat: int) -> None:
    """A warrior from the supply to the Officers box (none left: none gained, RA9)."""
    if g.warriors_in_supply(seat) <= 0:
        return
    board = board_of(g, seat)
    board.officers += 1
    g.emit("officers", seat=seat, count=board.officers, change=1)


def revolt(g: RootState, seat: int, c: int) -> None:
    """Law 8.4.1 step 3: remove every enemy piece in ``c`` (1 VP per building and token), place
    the base of ``c``'s suit, warriors for each sympathetic clearing of that suit, an officer;
    effects of the removal (Field Hospitals) come after."""
    w = g.woodland
    g.emit("revolt", seat=seat, clearing=c)
    lost: list[tuple[int, int]] = []
    for enemy in g.enemies(seat):
        n = w.warriors(g.faction_of(enemy), c)
        if n:
            g.remove_warriors(enemy, c, n, by=seat, trigger=False)
            lost.append((enemy, n))
        for kind in g.pieces_of(enemy, c):
            g.remove_piece(enemy, c, kind, by=seat)
    # The Vagabond (Law 9.2.2.1 Full Removal): a revolt with his pawn here damages three items.
    for enemy in g.enemies(seat):
        g.rules(enemy).full_removal(g, enemy, c, seat)
    suit = g.clearing_suit(c)
    base = BASE_OF_SUIT[suit]
    w.add_building(ALLIANCE, base, c)
    g.emit("place", seat=seat, piece=base, clearing=c, count=1)
    g.place_warriors(seat, c, sum(1 for s in sympathy_clearings(g) if g.clearing_suit(s) == suit))
    gain_officer(g, seat)
    for enemy, n in lost:
        g.rules(enemy).warriors_removed(g, enemy, c, n)


# -- Outrage (Law 8.2.6) -----------------------------------------------------------------------


class Outrage(Step):
    """Another player (``seat``) outraged the Alliance in ``clearing``: a matching card from
    their hand to the supporters; with none, the hand shown and a card drawn (RA4)."""

    __slots__ = ("alliance", "clearing")
    name = "alliance"

    alliance: int
    clearing: int

    def __init__(self, seat: int, alliance: int, clearing: int) -> None:
        super().__init__(seat, "outrage")
        self.alliance = alliance
        self.clearing = clearing

    def advance(self, g: RootState) -> Options:
        if self.stage != "outrage":
            return FINISHED
        cards = matching(g.players[self.seat].hand, g.clearing_suit(self.clearing))
        if cards:
            return tuple(card_option(c, "give") for c in cards)
        self.stage = "over"
        hand = tuple(sorted(g.players[self.seat].hand))
        g.emit("outrage", seat=self.seat, alliance=self.alliance, clearing=self.clearing, gave=0)
        g.emit("showed_hand", private_to=self.alliance, seat=self.seat, cards=hand)
        draw_supporters(g, self.alliance, 1, "outrage_draw")
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        card_id = value[1]
        self.stage = "over"
        g.players[self.seat].hand.remove(card_id)
        g.emit("outrage", seat=self.seat, alliance=self.alliance, clearing=self.clearing, gave=1)
        add_supporter(g, self.alliance, card_id, "outrage", giver=self.seat)


def outrage(g: RootState, alliance: int, other: int, c: int) -> None:
    """Push the Outrage ``other`` owes; in a battle, under it, so it comes when the battle is
    over (RA5)."""
    step = Outrage(other, alliance, c)
    stack = g.stack
    if stack and isinstance(stack[-1], Battle):
        stack.insert(len(stack) - 1, step)
    else:
        g.push(step)


# -- Birdsong (Law 8.4) ------------------------------------------------------------------------


class AllianceBirdsong(Step):
    """Revolts, then Spread Sympathy, each any number of times, card effects beside them
    (RA15); ``supporter`` pays for the one chosen (``action`` in ``clearing``: ``need`` cards still to spend, each after the card-id
    ``after``, RA2)."""

    __slots__ = ("action", "after", "clearing", "need")
    name = "alliance"

    action: str
    clearing: int
    need: int
    after: str

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "revolt")
        self.action = ""
        self.clearing = 0
        self.need = 0
        self.after = ""

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        if self.stage == "revolt":
            sites = revolt_sites(g, seat)
            if sites:
                return (
                    *(clearing_option(c) for c in sites),
                    *phase_effects(g, seat, BIRDSONG),
                    DONE,
                )
            self.stage = "spread"
        if self.stage == "spread":
            sites = spread_sites(g, seat)
            if sites:
                return (
                    *(clearing_option(c) for c in sites),
                    *phase_effects(g, seat, BIRDSONG),
                    DONE,
                )
            self.stage = "over"
        if self.stage == "supporter":
            return tuple(card_option(c, "spend") for c in self._payable(g))
        return FINISHED

    def _payable(self, g: RootState) -> list[str]:
        """Supporters that can be spent next: matching, after the last one spent, and leaving
        enough after them for the rest (RA2)."""
        pool = [
            c
            for c in matching(board_of(g, self.seat).supporters, g.clearing_suit(self.clearing))
            if c > self.after
        ]
        return pool[: len(pool) - self.need + 1]

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        seat = self.seat
        stage = self.stage
        if value[0] == "done":
            self.stage = "spread" if stage == "revolt" else "over"
            return
        if value[0] == "use":  # Royal Claim, Stand and Deliver! between actions (RT7)
            use_effect(g, seat, value[1])
            return
        if stage in ("revolt", "spread"):
            c = value[1]
            self.action, self.clearing, self.after = stage, c, ""
            self.need = REVOLT_COST if stage == "revolt" else spread_cost(g, seat, c)
            self.stage = "supporter"
            return
        card_id = value[1]
        spend_supporter(g, seat, card_id, self.action)
        self.after = card_id
        self.need -= 1
        if self.need > 0:
            return
        c, action = self.clearing, self.action
        self.action, self.clearing, self.after = "", 0, ""
        self.stage = action
        if action == "revolt":
            revolt(g, seat, c)
        else:
            place_sympathy(g, seat, c, "sympathy")


# -- Daylight (Law 8.5) ------------------------------------------------------------------------


class AllianceDaylight(Step):
    """Craft with sympathy tokens first, then Mobilize and Train in any order and number
    (RA14)."""

    __slots__ = ()
    name = "alliance"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "craft")

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        if self.stage == "craft":
            self.stage = "daylight"
            pieces = g.rules(seat).crafting_pieces(g, seat)
            if pieces:
                g.push(Craft(seat, pieces))
                return FINISHED
        if self.stage != "daylight":
            return FINISHED
        # Mobilize has no prerequisite (Law 8.5.2), even with the stack full (RA3).
        found = [card_option(c, "mobilize") for c in sorted(set(g.players[seat].hand))]
        found.extend(card_option(c, "train") for c in train_cards(g, seat))
        if not found:
            return FINISHED
        # Tax Collector and Codebreakers may be used between actions too (RT7).
        return (*found, *phase_effects(g, seat, DAYLIGHT), DONE)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        verb = value[0]
        seat = self.seat
        if verb == "done":
            self.stage = "over"
        elif verb in EFFECT_VERBS:  # a card effect or dominance, not an action (RT7, RT17)
            use_option(g, seat, value)
        elif verb == "mobilize":
            card_id = value[1]
            g.players[seat].hand.remove(card_id)
            g.emit("action", seat=seat, action="mobilize")
            add_supporter(g, seat, card_id, "mobilize")
        else:
            g.spend(seat, value[1], "train")
            gain_officer(g, seat)


# -- Evening (Law 8.6) -------------------------------------------------------------------------

_OPERATIONS: dict[str, Option] = {
    a: Option(f"action:{a}", a, ("action", a)) for a in ("move", "battle", "recruit", "organize")
}


class AllianceEvening(Step):
    """Military operations up to the officers (``left``), then draw and discard."""

    __slots__ = ("left",)
    name = "alliance"

    left: int

    def __init__(self, seat: int, left: int) -> None:
        super().__init__(seat, "operation")
        self.left = left

    def possible(self, g: RootState) -> list[str]:
        seat = self.seat
        found: list[str] = []
        if move_origins(g, seat):
            found.append("move")
        if battle_clearings(g, seat):
            found.append("battle")
        if recruit_sites(g, seat):
            found.append("recruit")
        if organize_sites(g, seat):
            found.append("organize")
        return found

    def advance(self, g: RootState) -> Options:
        stage = self.stage
        if stage == "operation":
            possible = self.possible(g) if self.left > 0 else []
            if possible:
                return (*(_OPERATIONS[a] for a in possible), DONE)
            stage = "draw"
        if stage == "recruit":
            return tuple(clearing_option(c) for c in recruit_sites(g, self.seat))
        if stage == "organize":
            return tuple(clearing_option(c) for c in organize_sites(g, self.seat))
        if stage == "draw":
            self._draw(g)
        return FINISHED

    def _draw(self, g: RootState) -> None:
        """Law 8.6.2: draw 1 + a card per base on the map (RA12), then the hand limit."""
        seat = self.seat
        self.stage = "over"
        g.draw(seat, BASE_EVENING_DRAW + len(base_sites(g)))
        g.push(HandLimit(seat))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        seat = self.seat
        stage = self.stage
        if stage == "operation":
            if value[0] == "done":
                self.stage = "draw"
                return
            action = value[1]
            self.left -= 1
            g.emit("action", seat=seat, action=action)
            if action == "move":
                g.push(Move(seat, move_origins(g, seat)))
            elif action == "battle":
                g.push(Battle(seat, battle_clearings(g, seat)))
            else:
                self.stage = action
            return
        c = value[1]
        self.stage = "operation"
        if stage == "recruit":
            g.place_warriors(seat, c, 1)
        else:
            g.remove_warriors(seat, c, 1, by=seat)
            place_sympathy(g, seat, c, "organize")


# -- discarding supporters after the last base (Law 8.2.4) -------------------------------------


class DiscardSupporters(Step):
    """No base left on the map and more than five supporters: discard down to five (RA10)."""

    __slots__ = ()
    name = "alliance"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "discard")

    def advance(self, g: RootState) -> Options:
        supporters = board_of(g, self.seat).supporters
        if len(supporters) <= SUPPORTERS_LIMIT_WITHOUT_BASE or has_base_on_map(g):
            return FINISHED
        return tuple(card_option(c, "discard") for c in sorted(supporters))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        spend_supporter(g, self.seat, value[1], "supporters_limit")


# -- the faction -------------------------------------------------------------------------------


class Alliance(Faction):
    """The Alliance's hooks: setup, phases, sympathy as crafting pieces, Guerrilla War, Outrage
    and the loss of a base."""

    name: ClassVar[str] = ALLIANCE
    warriors: ClassVar[int] = ALLIANCE_WARRIORS
    setup_order: ClassVar[int] = 2
    guerrilla: ClassVar[bool] = True

    def new_board(self) -> AllianceBoard:
        return AllianceBoard()

    def setup(self, g: RootState, seat: int) -> Step | None:
        """Law 8.3: warriors, bases and tokens start off the map; three cards become
        supporters (RA12)."""
        draw_supporters(g, seat, STARTING_HAND, "setup")
        return None

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        if phase == BIRDSONG:
            if not revolt_sites(g, seat) and not spread_sites(g, seat):
                return None  # nothing to ask: no step, so no end-of-Birdsong window (RT7)
            return AllianceBirdsong(seat)
        if phase == DAYLIGHT:
            return AllianceDaylight(seat)
        if phase == EVENING:
            return AllianceEvening(seat, board_of(g, seat).officers)
        raise ValueError(f"no phase {phase!r}")

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        """Law 8.2.1: sympathy tokens, each of its clearing's suit."""
        found: dict[str, int] = {}
        for c in sympathy_clearings(g):
            suit = g.clearing_suit(c)
            found[suit] = found.get(suit, 0) + 1
        return found

    def enemy_moved(self, g: RootState, seat: int, mover: int, c: int) -> None:
        """Law 8.2.6 Outrage: warriors moved into a sympathetic clearing (once per move, RA4)."""
        if sympathetic(g, c):
            outrage(g, seat, mover, c)

    def piece_removed(
        self, g: RootState, seat: int, c: int, kind: str, by: int | None = None
    ) -> None:
        """Outrage for a sympathy token another player removed (RA4, RA5); a lost base
        (Law 8.2.4, RA10)."""
        if kind == SYMPATHY:
            if by is not None and by != seat:
                outrage(g, seat, by, c)
            return
        suit = SUIT_OF_BASE[kind]
        board = board_of(g, seat)
        for card_id in matching(board.supporters, suit):
            spend_supporter(g, seat, card_id, "base_lost")
        lost = (board.officers + 1) // 2
        if lost:
            board.officers -= lost
            g.emit("officers", seat=seat, count=board.officers, change=-lost)
        if len(board.supporters) > SUPPORTERS_LIMIT_WITHOUT_BASE and not has_base_on_map(g):
            g.push(DiscardSupporters(seat))
