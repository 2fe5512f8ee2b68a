"""Rumble Nation: setup, the deployment phase and the turn structure.

The flow reads like the rulebook (the Deluxe edition's instructions, sections 3-4): set up, (advanced) draft
daimyo cards, then players in turn order either deploy by the dice or use one tactic (or daimyo) card, until every
stock is empty; then the war phase resolves castles 2..12 (``war.py``) and the game is scored.
"""

from __future__ import annotations

import random
from typing import Any

from games.contract import (
    Decision,
    Event,
    GameConfig,
    GameState,
    Option,
    Outcome,
    answered,
)
from games.rng import below, shuffle
from games.rumble_nation import options as opt
from games.rumble_nation.board import AREA_COUNT, AREAS
from games.rumble_nation.cards import DAIMYO_CARDS, TACTIC_CARDS
from games.rumble_nation.components import (
    CASTLE_NUMBERS,
    DISPLAY_EXTRA,
    REINFORCEMENT_POOL,
    SOLDIERS_ADVANCED,
    SOLDIERS_BASE,
    SOLDIERS_FOR_DIE,
    SWORD_CHIPS,
)
from games.rumble_nation.daimyo import DAIMYO_EFFECTS
from games.rumble_nation.effects import Effect
from games.rumble_nation.tactics import TACTIC_EFFECTS
from games.rumble_nation.view import AreaView, PlayerView, RumbleNationView
from games.rumble_nation.war import resolve_war

DRAFT, DEPLOY, OVER = "draft", "deploy", "over"
_AREA_IDS = tuple(area.id for area in AREAS)
TURN, AFTER_ROLL, EFFECT = "turn", "after_roll", "effect"
OFF_MAP = -1


def split_options(
    dice: tuple[int, ...], stock: int, daimyo: bool, rerolled: bool
) -> tuple[Option, ...]:
    """Reroll (unless used) and every distinct split of the dice into pair + single (R5, R6)."""
    d0, d1, d2 = dice
    found: list[Option] = [] if rerolled else [opt.REROLL]
    for pair, single in ((d1 + d2, d0), (d0 + d2, d1), (d0 + d1, d2)):
        wanted = SOLDIERS_FOR_DIE[single]
        if not daimyo:
            choices = [opt.place(pair, min(wanted, stock), False)]
        elif stock >= wanted:
            choices = [opt.place(pair, wanted, False), opt.place(pair, wanted - 1, True)]
        else:
            choices = [opt.place(pair, stock, True)]
        found.extend(choice for choice in choices if choice not in found)
    return tuple(found)


#: split_options by (dice, min(stock, 3), daimyo in stock, rerolled): the same in every game.
_SPLITS: dict[tuple[Any, ...], tuple[Option, ...]] = {}


class RumbleNationState(GameState):
    """A game of Rumble Nation for 2-4 players, base or advanced (daimyo) rules."""

    def __init__(self, config: GameConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.history = []
        self.n = n = config.players
        self.advanced = config.variant == "advanced"
        self.rng = random.Random(seed)
        rng = self.rng

        # Setup 1: shuffle the large castle tokens onto the eleven areas.
        castles = list(CASTLE_NUMBERS)
        shuffle(rng, castles)
        self.castle_of: list[int] = castles
        self.area_of: list[int] = [OFF_MAP] * 13
        for a, c in enumerate(castles):
            self.area_of[c] = a
        # Setup 2: players + 1 tactic cards face up; the rest are out of the game.
        deck = [card.id for card in TACTIC_CARDS]
        shuffle(rng, deck)
        self.tactic_display: list[str] = deck[: n + DISPLAY_EXTRA]
        self.tactic_used: list[str | None] = [None] * n
        # Setup 3-4: sword chips by player count; each player's soldiers form their stock.
        self.swords_left: list[int] = list(SWORD_CHIPS[n])
        self.sword: list[int] = [0] * n
        self.stock: list[int] = [SOLDIERS_ADVANCED if self.advanced else SOLDIERS_BASE] * n
        self.on_map: list[int] = [0] * n
        self.soldiers: list[list[int]] = [[0] * n for _ in range(AREA_COUNT)]
        self.reinforcements: list[list[int]] = [[0] * n for _ in range(AREA_COUNT)]
        self.pool = REINFORCEMENT_POOL
        self.resolved: list[bool] = [False] * AREA_COUNT
        self.tokens: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        self.score: list[int] = [0] * n
        self.cutoff = False
        # Setup 5: a random start player; play goes clockwise (ascending seat numbers).
        self.start_player = below(rng, n)
        self.current = self.start_player
        self.dice: tuple[int, ...] = ()
        self.rerolled = False
        self.effect: Effect | None = None
        # Advanced setup: a daimyo replaces 2 soldiers; draft players + 1 daimyo cards face up.
        self.daimyo_at: list[int] = [OFF_MAP] * n
        self.daimyo_in_stock: list[bool] = [self.advanced] * n
        self.daimyo_card: list[str | None] = [None] * n
        self.daimyo_revealed: list[bool] = [False] * n
        self.daimyo_seen: list[tuple[str, ...]] = [()] * n
        self.daimyo_display: tuple[str, ...] = ()
        self.draft_remaining: list[str] = []
        self.draft_order: tuple[int, ...] = ()
        self._events: list[Event] = []
        self._pending: tuple[Decision, ...] = ()
        self._outcome: Outcome | None = None
        self._emit(
            "setup",
            castles={AREAS[a].id: c for a, c in enumerate(castles)},
            tactic_display=tuple(self.tactic_display),
            start_player=self.start_player,
        )
        if self.advanced:
            cards = [card.id for card in DAIMYO_CARDS]
            shuffle(rng, cards)
            self.daimyo_display = tuple(cards[: n + DISPLAY_EXTRA])
            self.draft_remaining = list(self.daimyo_display)
            # From the start player's right, counter-clockwise: start-1, start-2, ..., start.
            self.draft_order = tuple((self.start_player - 1 - i) % n for i in range(n))
            self.phase = DRAFT
            self.step = DRAFT
            self._emit("daimyo_display", cards=self.daimyo_display, order=self.draft_order)
        else:
            self.phase = DEPLOY
            self.step = TURN
        self._settle()
        self.setup_events: tuple[Event, ...] = tuple(self._events)
        self._events = []

    # ------------------------------------------------------------------ the contract

    def pending(self) -> tuple[Decision, ...]:
        return self._pending

    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        decision = answered(self._pending, seat, option_index)
        self.history.append((seat, option_index))
        self._events = []
        self._choose(decision.options[option_index].value)
        self._settle()
        return tuple(self._events)

    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    # ------------------------------------------------------------------ pieces

    def _emit(self, kind: str, **data: Any) -> None:
        self._events.append(Event(kind, data))

    def move(self, owner: int, src: int, dst: int, count: int) -> None:
        """Move ``count`` soldiers of ``owner`` from ``src`` to ``dst``."""
        self.soldiers[src][owner] -= count
        self.soldiers[dst][owner] += count
        self._emit(
            "move", owner=owner, piece="soldier", src=AREAS[src].id, dst=AREAS[dst].id, count=count
        )

    def move_daimyo(self, owner: int, dst: int) -> None:
        src = self.daimyo_at[owner]
        self.daimyo_at[owner] = dst
        self._emit(
            "move", owner=owner, piece="daimyo", src=AREAS[src].id, dst=AREAS[dst].id, count=1
        )

    def to_stock(self, owner: int, area: int, count: int) -> None:
        """Return ``count`` soldiers of ``owner`` from ``area`` to their stock."""
        self.soldiers[area][owner] -= count
        self.on_map[owner] -= count
        self.stock[owner] += count
        self._emit("to_stock", owner=owner, area=AREAS[area].id, count=count)

    def from_stock(self, owner: int, area: int, count: int) -> None:
        """Place ``count`` soldiers of ``owner`` from their stock into ``area``."""
        self.soldiers[area][owner] += count
        self.on_map[owner] += count
        self.stock[owner] -= count
        self._emit("from_stock", owner=owner, area=AREAS[area].id, count=count)

    def stock_empty(self, seat: int) -> bool:
        return self.stock[seat] == 0 and not self.daimyo_in_stock[seat]

    # ------------------------------------------------------------------ flow

    def _decision(self) -> Decision | None:
        """The decision the game waits for now, or None once the game is over."""
        step = self.step
        if step == AFTER_ROLL:
            return Decision(self.current, AFTER_ROLL, self._after_roll_options())
        if step == TURN:
            return Decision(self.current, TURN, self._turn_options())
        if step == EFFECT:
            effect = self.effect
            assert effect is not None
            return Decision(effect.seat, effect.kind(), effect.options(self))
        if step == DRAFT:
            return Decision(
                self._drafting_seat(),
                "daimyo_draft",
                tuple(opt.draft(c) for c in self.draft_remaining),
            )
        return None

    def _drafters_left(self) -> int:
        return sum(1 for p in self.draft_order if self.daimyo_card[p] is None)

    def _settle(self) -> None:
        """Find the next decision, taking forced single-option decisions by itself (R4)."""
        while True:
            decision = self._decision()
            if decision is None:
                self._pending = ()
                return
            if len(decision.options) == 1:
                self._choose(decision.options[0].value)
                continue
            self._pending = (decision,)
            return

    def _choose(self, value: tuple[Any, ...]) -> None:
        step = self.step
        if step == AFTER_ROLL:
            if value[0] == "reroll":
                self.rerolled = True
                self._roll()
            else:
                self._deploy(value[1], value[2], value[3])
                self._end_turn()
        elif step == TURN:
            what = value[0]
            if what == "roll":
                self._roll()
                self.step = AFTER_ROLL
            else:
                self._start_card(what, value[1])
        elif step == EFFECT:
            effect = self.effect
            assert effect is not None
            if effect.choose(self, value):
                self.effect = None
                self._end_turn()
        elif step == DRAFT:
            self._draft(value[1])

    def _draft(self, card: str) -> None:
        seat = self._drafting_seat()
        self.daimyo_seen[seat] = tuple(self.draft_remaining)
        self.daimyo_card[seat] = card
        self.draft_remaining.remove(card)
        self._emit("daimyo_drafted", seat=seat)
        if self._drafters_left() == 0:
            self.draft_remaining = []  # the rest go back to the box, unseen (R3)
            self.phase = DEPLOY
            self.step = TURN

    def _drafting_seat(self) -> int:
        return self.draft_order[len(self.draft_order) - self._drafters_left()]

    # ------------------------------------------------------------------ a turn

    def _turn_options(self) -> tuple[Option, ...]:
        """Roll, or one usable tactic card, or (advanced) the own daimyo card."""
        if self.cutoff:
            return (opt.ROLL,)
        seat = self.current
        found = [opt.ROLL]
        if self.tactic_used[seat] is None:
            for card in self.tactic_display:
                if TACTIC_EFFECTS[card].usable(self, seat):
                    found.append(opt.tactic(card))
        daimyo = self.daimyo_card[seat]
        if (
            daimyo is not None
            and not self.daimyo_revealed[seat]
            and self.daimyo_at[seat] != OFF_MAP  # a daimyo card needs the daimyo on the map
            and DAIMYO_EFFECTS[daimyo].usable(self, seat)
        ):
            found.append(opt.daimyo_card(daimyo))
        return tuple(found)

    def _may_use_a_card(self, seat: int) -> bool:
        """Cheap pre-check: could this seat have any card to play (before the cut-off)?"""
        return self.tactic_used[seat] is None or (
            self.daimyo_card[seat] is not None
            and not self.daimyo_revealed[seat]
            and self.daimyo_at[seat] != OFF_MAP
        )

    def _roll(self) -> None:
        # Three dice from one draw: 216 equally likely outcomes.
        throw = int(self.rng.random() * 216)
        self.dice = dice = (throw // 36 + 1, throw // 6 % 6 + 1, throw % 6 + 1)
        self._events.append(
            Event("roll", {"seat": self.current, "dice": dice, "reroll": self.rerolled})
        )

    def _after_roll_options(self) -> tuple[Option, ...]:
        """Reroll (once per turn), or each distinct way to split the dice (R5, R6)."""
        seat = self.current
        stock = self.stock[seat]
        daimyo = self.daimyo_in_stock[seat]
        key = (self.dice, stock if stock < 3 else 3, daimyo, self.rerolled)
        found = _SPLITS.get(key)
        if found is None:
            found = _SPLITS[key] = split_options(self.dice, stock, daimyo, self.rerolled)
        return found

    def _deploy(self, castle: int, soldiers: int, with_daimyo: bool) -> None:
        seat = self.current
        area = self.area_of[castle]
        self.soldiers[area][seat] += soldiers
        self.stock[seat] -= soldiers
        self.on_map[seat] += soldiers
        if with_daimyo:
            self.daimyo_in_stock[seat] = False
            self.daimyo_at[seat] = area
        self._events.append(
            Event(
                "deploy",
                {
                    "seat": seat,
                    "area": AREAS[area].id,
                    "castle": castle,
                    "soldiers": soldiers,
                    "daimyo": with_daimyo,
                },
            )
        )

    def _start_card(self, what: str, card: str) -> None:
        seat = self.current
        effect: Effect
        if what == "tactic":
            self.tactic_display.remove(card)
            self.tactic_used[seat] = card
            effect = TACTIC_EFFECTS[card](seat=seat)
            self._emit("tactic", seat=seat, card=card)
        else:
            self.daimyo_revealed[seat] = True
            effect = DAIMYO_EFFECTS[card](seat=seat, origin=self.daimyo_at[seat])  # type: ignore[call-arg]
            self._emit("daimyo_card", seat=seat, card=card)
        self.effect = effect
        self.step = EFFECT

    def _end_turn(self) -> None:
        """Sword chips for emptied stocks, then the next player with pieces, or the war."""
        self.dice = ()
        self.rerolled = False
        seat = self.current  # only the player whose turn it is can empty a stock
        if self.sword[seat] == 0 and self.stock_empty(seat):
            self.sword[seat] = self.swords_left.pop(0)
            self._emit("sword", seat=seat, value=self.sword[seat])
            if not self.cutoff:
                self.cutoff = True  # R13: no card may be used from now on
                self._emit("cutoff")
        n, stock, daimyo_in_stock = self.n, self.stock, self.daimyo_in_stock
        for step in range(1, n + 1):
            seat = (self.current + step) % n
            if stock[seat] or daimyo_in_stock[seat]:
                self.current = seat
                if self.cutoff or not self._may_use_a_card(seat):
                    # R4: rolling is the only choice, so the turn starts with it.
                    self._roll()
                    self.step = AFTER_ROLL
                else:
                    self.step = TURN
                return
        self.phase = OVER
        self.step = OVER
        resolve_war(self)
        self._outcome = self._final_outcome()
        self._emit("game_over", scores=self._outcome.scores, ranking=self._outcome.ranking)

    def adjudicate(self) -> Outcome:
        """R16: an unfinished game is scored by fighting the war on the board as it stands."""
        if self._outcome is not None:
            return self._outcome
        board = self.clone()
        for seat in range(self.n):
            if board.sword[seat] == 0:
                board.sword[seat] = board.swords_left.pop(0)  # in seat order (R16)
        resolve_war(board)
        return board._final_outcome()

    def _final_outcome(self) -> Outcome:
        """Highest score wins; ties go to the higher sword chip, so there are no ties."""
        ranking = sorted(range(self.n), key=lambda p: (self.score[p], self.sword[p]), reverse=True)
        return Outcome(
            scores=tuple(self.score),
            ranking=tuple(ranking),
            tiebreak={"sword": tuple(self.sword)},
        )

    # ------------------------------------------------------------------ views and copies

    def observe(self, seat: int | None) -> RumbleNationView:
        n = self.n
        daimyo_at = self.daimyo_at
        on_map = [a for a in daimyo_at if a != OFF_MAP]
        nobody = (False,) * n
        areas = tuple(
            [
                AreaView(
                    _AREA_IDS[a],
                    self.castle_of[a],
                    tuple(self.soldiers[a]),
                    tuple(self.reinforcements[a]),
                    tuple([d == a for d in daimyo_at]) if a in on_map else nobody,
                    self.resolved[a],
                )
                for a in range(AREA_COUNT)
            ]
        )
        seats = tuple(
            [
                PlayerView(
                    self.stock[p],
                    self.daimyo_in_stock[p],
                    _AREA_IDS[daimyo_at[p]] if daimyo_at[p] != OFF_MAP else None,
                    self.sword[p],
                    self.tactic_used[p],
                    # R3: a daimyo card is seen by its owner, and by all once revealed.
                    self.daimyo_card[p] if (p == seat or self.daimyo_revealed[p]) else None,
                    self.daimyo_revealed[p],
                    self.score[p],
                    tuple(self.tokens[p]),
                )
                for p in range(n)
            ]
        )
        effect = None
        if self.effect is not None:
            effect = {"card": self.effect.card, **self.effect.fields()}
        return RumbleNationView(
            viewer=seat,
            players=n,
            variant=self.config.variant,
            phase=self.phase,
            step=self.step,
            current=self.current,
            start_player=self.start_player,
            areas=areas,
            seats=seats,
            tactic_display=tuple(self.tactic_display),
            swords_left=tuple(self.swords_left),
            cutoff=self.cutoff,
            dice=self.dice,
            rerolled=self.rerolled,
            reinforcement_pool=self.pool,
            daimyo_display=self.daimyo_display,
            daimyo_seen=self.daimyo_seen[seat] if seat is not None else (),
            draft_order=self.draft_order,
            effect=effect,
        )

    def clone(self) -> RumbleNationState:
        new = object.__new__(RumbleNationState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        for name in (
            "castle_of",
            "area_of",
            "tactic_display",
            "tactic_used",
            "swords_left",
            "sword",
            "stock",
            "on_map",
            "resolved",
            "score",
            "daimyo_at",
            "daimyo_in_stock",
            "daimyo_card",
            "daimyo_revealed",
            "daimyo_seen",
            "draft_remaining",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.soldiers = [row[:] for row in self.soldiers]
        new.reinforcements = [row[:] for row in self.reinforcements]
        new.tokens = [list(t) for t in self.tokens]
        new.effect = self.effect.copy() if self.effect is not None else None
        new._events = []
        return new

    def determinize(self, seat: int, seed: int) -> RumbleNationState:
        """Resample the daimyo cards ``seat`` cannot know (R3) and reseed the dice."""
        new = self.clone()
        rng = random.Random(seed)
        new.rng = random.Random(rng.getrandbits(64))
        new._resample_hidden_daimyo(seat, rng)
        # The pending decision may name a resampled card (an opponent's turn, the draft).
        new._settle()
        new._events = []
        return new

    def _resample_hidden_daimyo(self, seat: int, rng: random.Random) -> None:
        """Deal the other seats' unrevealed daimyo cards again, as ``seat`` knows them (R3).

        The display is public. Seats that picked before ``seat`` hold exactly the display cards
        it did not see at its pick (while it picks: the cards not offered to it); seats that
        picked after it hold cards it left. A seat that has not picked yet only knows that the
        earlier pickers took display cards. Every draw is uniform over the consistent deals.
        """
        if not self.advanced:
            return
        card = self.daimyo_card
        hidden = [
            p
            for p in self.draft_order
            if p != seat and card[p] is not None and not self.daimyo_revealed[p]
        ]
        if not hidden:
            return
        order = self.draft_order
        mine = order.index(seat)
        display = self.daimyo_display
        revealed = {card[p] for p in range(self.n) if self.daimyo_revealed[p]}
        own = card[seat]
        if own is not None:
            seen: tuple[str, ...] | None = self.daimyo_seen[seat]
        elif self.step == DRAFT and self._drafting_seat() == seat:
            seen = tuple(self.draft_remaining)  # its decision shows what is left
        else:
            seen = None  # it has not picked: any display card may be gone
        if seen is None:
            self._deal_daimyo(hidden, [c for c in display if c not in revealed], rng)
        else:
            taken = [c for c in display if c not in seen and c not in revealed]
            left = [c for c in seen if c != own and c not in revealed]
            self._deal_daimyo([p for p in hidden if order.index(p) < mine], taken, rng)
            self._deal_daimyo([p for p in hidden if order.index(p) > mine], left, rng)
        if self.step == DRAFT:
            held = set(card)
            self.draft_remaining = [c for c in display if c not in held]

    def _deal_daimyo(self, seats: list[int], pool: list[str], rng: random.Random) -> None:
        """Give ``seats`` distinct cards from ``pool`` (in display order), uniformly at random.

        R4 makes one more fact visible: an opponent asked to start its turn while no tactic
        card is usable to it holds a usable daimyo card (a lone roll would have been taken by
        the engine). That seat draws first, from the cards that keep its question.
        """
        if not seats:
            return
        pool = list(pool)
        p = self.current
        if self.step == TURN and p in seats:
            self.daimyo_card[p] = None
            if len(self._turn_options()) < 2:
                fits = [c for c in pool if DAIMYO_EFFECTS[c].usable(self, p)]
                self.daimyo_card[p] = choice = fits[below(rng, len(fits))]
                pool.remove(choice)
                seats = [q for q in seats if q != p]
        shuffle(rng, pool)
        for p, c in zip(seats, pool, strict=False):
            self.daimyo_card[p] = c

    @classmethod
    def from_view(cls, view: RumbleNationView, seed: int) -> RumbleNationState:
        """A playable state consistent with a seat's view of the deployment or war phase.

        Hidden daimyo cards are sampled (R3) and future dice come from ``seed``: this is how a
        bot outside the referee builds a state to search on.
        """
        if view.phase == DRAFT:
            raise ValueError("from_view needs a view after the daimyo draft")
        n = view.players
        new = cls(GameConfig(n, view.variant), seed)
        index = {area.id: i for i, area in enumerate(AREAS)}
        new.castle_of = [view.areas[a].castle for a in range(AREA_COUNT)]
        new.area_of = [OFF_MAP] * 13
        for a, c in enumerate(new.castle_of):
            new.area_of[c] = a
        new.soldiers = [list(area.soldiers) for area in view.areas]
        new.reinforcements = [list(area.reinforcements) for area in view.areas]
        new.resolved = [area.resolved for area in view.areas]
        seats = view.seats
        new.stock = [p.stock for p in seats]
        new.on_map = [sum(row[p] for row in new.soldiers) for p in range(n)]
        new.daimyo_in_stock = [p.daimyo_in_stock for p in seats]
        new.daimyo_at = [index[p.daimyo_area] if p.daimyo_area else OFF_MAP for p in seats]
        new.sword = [p.sword for p in seats]
        new.tactic_used = [p.tactic_used for p in seats]
        new.daimyo_revealed = [p.daimyo_revealed for p in seats]
        new.score = [p.score for p in seats]
        new.tokens = [list(p.tokens) for p in seats]
        new.tactic_display = list(view.tactic_display)
        new.swords_left = list(view.swords_left)
        new.cutoff = view.cutoff
        new.phase, new.step, new.current = view.phase, view.step, view.current
        new.start_player = view.start_player
        new.dice, new.rerolled = tuple(view.dice), view.rerolled
        new.pool = view.reinforcement_pool
        new.daimyo_display = tuple(view.daimyo_display)
        new.draft_order = tuple(view.draft_order)
        new.draft_remaining = []
        if view.viewer is not None:
            new.daimyo_seen = [()] * n
            new.daimyo_seen[view.viewer] = tuple(view.daimyo_seen)
        new.daimyo_card = [p.daimyo_card for p in seats]
        new.effect = None
        if view.effect is not None:
            fields = dict(view.effect)
            card = fields.pop("card")
            effect_cls = TACTIC_EFFECTS.get(card) or DAIMYO_EFFECTS[card]
            new.effect = effect_cls(**fields)
        if view.variant == "advanced" and view.viewer is not None:
            # Placeholders for the unknown cards, then the draw determinize makes (R3), on the
            # finished position (whether the seat to move may use its card can matter).
            for p in range(n):
                if new.daimyo_card[p] is None:
                    new.daimyo_card[p] = "?"
            new._resample_hidden_daimyo(view.viewer, random.Random(seed))
        new._outcome = None
        new._events = []
        new._settle()
        return new

    def canonical(self) -> tuple[Any, ...]:
        return (
            self.phase,
            self.step,
            self.current,
            self.start_player,
            tuple(self.castle_of),
            tuple(map(tuple, self.soldiers)),
            tuple(map(tuple, self.reinforcements)),
            tuple(self.stock),
            tuple(self.daimyo_at),
            tuple(self.daimyo_in_stock),
            tuple(self.daimyo_card),
            tuple(self.daimyo_revealed),
            tuple(self.tactic_display),
            tuple(self.tactic_used),
            tuple(self.sword),
            tuple(self.swords_left),
            self.cutoff,
            self.dice,
            self.rerolled,
            self.pool,
            tuple(self.resolved),
            tuple(map(tuple, self.tokens)),
            tuple(self.score),
            self.effect.fields() if self.effect else None,
            self.rng.getstate(),
        )
