"""A game of Gnomeville in progress: the shared board and the driver of its phases.

Gnomeville has no turn order. In every phase where players decide (choosing a town side, the
build phase, resolving troll cards, special deliveries, buying) each seat works through its
own stack of steps (``steps.py``) and ``pending()`` lists one decision per seat still working.
A step touches only its own town and that town's share of the supply (ruling G18), and every
town draws from its own random stream, so the order in which seats answer never changes the
game: the referee may apply answers as they arrive.

When no seat has anything left to decide the phase is over (a *barrier*): the driver settles
the shared supply, publishes what each seat did (in seat order), refreshes the public picture
of the towns, and runs the shared work of the next phase (``_next_phase``). Between barriers a
seat sees the other towns as they were at the last barrier (``snapshot``), so a fast bot
cannot peek at a slow opponent's draws; its own events reach it at once.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from games.contract import Decision, Event, GameConfig, GameState, IllegalDecision, Outcome
from games.gnomeville.buildings import BUILDINGS, KINDS
from games.gnomeville.content import ContentPack
from games.gnomeville.steps import Step
from games.gnomeville.town import Town

ROUNDS = 5


def stream_seed(seed: int, name: str) -> int:
    """A seed for one named random stream of a game (e.g. ``bag:2``), independent of others."""
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class GnomevilleState(GameState):
    def __init__(
        self,
        config: GameConfig,
        seed: int,
        pack: ContentPack,
        turn_by_turn: frozenset[int] = frozenset(),
        master_build: bool = False,
    ) -> None:
        from games.gnomeville.setup import deal

        self.config = config
        self.seed = seed
        self.pack = pack
        self.history: list[tuple[int, int]] = []
        self.players = config.players
        self.solo = config.players == 1
        #: Shared chance (decks, the deal) is used at setup only; bags have their own streams.
        self.rng = random.Random(stream_seed(seed, "table"))
        self.round = 0
        #: setup, sides, build, enemy, score, buy, over
        self.phase = "setup"
        #: A phase's sub-stage (turn-by-turn build: draw / place).
        self.stage = ""
        #: Rounds played turn by turn, and whether the master-build rule is on.
        self.turn_by_turn = turn_by_turn
        self.master_build = master_build
        #: Building tiles in the shared supply, per kind (Tile value).
        self.supply: list[int] = [0] * KINDS
        self.towns: list[Town] = []
        #: Face-down troll deck (indexes into pack.troll_cards), top first.
        self.troll_deck: list[int] = []
        self.round_card = -1
        self.ambush_card = -1
        #: The troll cards of past rounds, face up beside the deck in the order revealed:
        #: (round, card, whether an ambush). This round's are ``round_card`` and ``ambush_card``.
        #: Both discards are public history the record implies: not in ``canonical``, so the
        #: digests of recorded games stay the same.
        self.troll_discard: list[tuple[int, int, bool]] = []
        #: The three event cards in play (indexes into the pack's event list for the mode),
        #: left to right, and how many are face up.
        self.events: list[int] = []
        self.events_up = 0
        self.delivery_deck: list[int] = []
        self.delivery_card = -1
        #: The special delivery cards of past rounds, in order (this round's: ``delivery_card``).
        self.delivery_discard: list[int] = []
        #: Adjacency goals: (seat a, seat b, goal index, side 0/1).
        self.goals: list[tuple[int, int, int, int]] = []
        self.stacks: list[list[Step]] = []
        self._decisions: list[Decision | None] = []
        self._pending: tuple[Decision, ...] = ()
        self._events: list[Event] = []
        #: Per seat: public copies of that seat's private events, published at the barrier.
        self._held: list[list[Event]] = []
        #: Whether seats are working independently (their events are held until the barrier).
        self.independent = False
        #: The towns as they were at the last barrier, as plain records (``view.town_record``);
        #: ``snapshot`` turns them into views when someone first looks.
        self._records: tuple[Any, ...] = ()
        self._snapshot: tuple[Any, ...] | None = None
        self._outcome: Outcome | None = None
        #: Facts the end of the game records (tie-breaks, solo rank).
        self.final: dict[str, Any] = {}
        #: The back of the board dealt to each seat, and whether seats choose their side.
        self.dealt_backs: tuple[int, ...] = ()
        self.choose_sides = False
        deal(self)
        self.stacks = [[] for _ in range(self.players)]
        self._decisions = [None] * self.players
        self._held = [[] for _ in range(self.players)]
        self._take_snapshot()
        self._barrier()
        self.setup_events: tuple[Event, ...] = tuple(self._events)
        self._events = []

    # ------------------------------------------------------------------ the contract

    def pending(self) -> tuple[Decision, ...]:
        return self._pending

    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        if self._outcome is not None:
            raise IllegalDecision("the game is over")
        if not 0 <= seat < self.players or self._decisions[seat] is None:
            waiting = ", ".join(str(d.seat) for d in self._pending)
            raise IllegalDecision(f"seat {seat} has no decision pending (waiting for: {waiting})")
        decision = self._decisions[seat]
        assert decision is not None
        if not 0 <= option_index < len(decision.options):
            raise IllegalDecision(
                f"option {option_index} out of range (0..{len(decision.options) - 1})"
            )
        self.history.append((seat, option_index))
        self._events = []
        self._decisions[seat] = None
        self.stacks[seat][-1].choose(self, self.towns[seat], decision.options[option_index].value)
        self._settle(seat)
        if all(d is None for d in self._decisions):
            self._barrier()
        else:
            self._pending = tuple(d for d in self._decisions if d is not None)
        return tuple(self._events)

    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    # ------------------------------------------------------------------ the driver

    def _settle(self, seat: int) -> None:
        """Run ``seat``'s steps until it must decide something or has nothing left."""
        stack = self.stacks[seat]
        town = self.towns[seat]
        while stack:
            top = stack[-1]
            options = top.advance(self, town)
            if not stack or stack[-1] is not top:
                continue  # it pushed a child (or finished itself)
            if not options:
                stack.pop()
            elif len(options) == 1:
                top.choose(self, town, options[0].value)
            else:
                self._decisions[seat] = Decision(seat, top.kind(), options)
                return
        self._decisions[seat] = None

    def _barrier(self) -> None:
        """Every seat is done: close the phase and run shared work until someone must decide."""
        while True:
            self._close_phase()
            if self._outcome is not None:
                break
            self._next_phase()
            # The public towns as the new phase opens: after its shared work (scoring, the
            # refresh, the river...), before any seat's own work.
            self._take_snapshot()
            if self._outcome is not None:
                break
            for seat in range(self.players):
                if self.stacks[seat]:
                    self._settle(seat)
            if any(d is not None for d in self._decisions):
                break
        self._pending = tuple(d for d in self._decisions if d is not None)

    def _close_phase(self) -> None:
        """Settle the supply shares and publish what each seat did."""
        if self.independent:
            for town in self.towns:
                for kind in BUILDINGS:
                    self.supply[kind] -= town.taken[kind]
                    town.taken[kind] = 0
                    town.share[kind] = 0
            self.independent = False
            for held in self._held:
                self._events.extend(held)
                held.clear()

    def open_phase(self) -> None:
        """Seats now work independently: split the supply into shares (ruling G18).

        Each kind is divided evenly among the towns; the remainder goes one tile each to the
        towns with the fewest VP (ties: lower seat first), who need catching up most.
        """
        self.independent = True
        order = sorted(range(self.players), key=lambda s: (self.towns[s].vp, s))
        n = self.players
        for kind in BUILDINGS:
            base, extra = divmod(self.supply[kind], n)
            for rank, seat in enumerate(order):
                self.towns[seat].share[kind] = base + (1 if rank < extra else 0)
                self.towns[seat].taken[kind] = 0

    def _next_phase(self) -> None:
        from games.gnomeville import phases

        phases.next_phase(self)

    def _take_snapshot(self) -> None:
        """Record the towns as plain values (cheap: most snapshots are never looked at)."""
        from games.gnomeville.view import town_record

        revealing = self.stage == "place"
        self._records = tuple(town_record(town, revealing) for town in self.towns)
        self._snapshot = None

    @property
    def snapshot(self) -> tuple[Any, ...]:
        """The public view of every town at the last barrier (``TownView``s, built once)."""
        views = self._snapshot
        if views is None:
            from games.gnomeville.view import view_of_record

            views = self._snapshot = tuple(view_of_record(self, r) for r in self._records)
        return views

    # ------------------------------------------------------------------ helpers for steps

    def push(self, step: Step) -> None:
        self.stacks[step.seat].append(step)

    def emit(self, seat: int | None, kind: str, /, **data: Any) -> None:
        """Record an event. During an independent phase an event of a seat's own work reaches
        that seat at once and everyone else at the barrier; otherwise it is public now."""
        if seat is not None and self.independent:
            self._events.append(Event(kind, data, private_to=seat))
            self._held[seat].append(Event(kind, data))
        else:
            self._events.append(Event(kind, data))

    def emit_private(self, seat: int, kind: str, /, **data: Any) -> None:
        """An event only ``seat`` ever sees (e.g. the ability card it put back)."""
        self._events.append(Event(kind, data, private_to=seat))

    def can_take(self, town: Town, tile: int) -> bool:
        """Whether ``town`` may take one ``tile`` from the supply now."""
        if self.independent:
            return town.share[tile] > 0
        return self.supply[tile] > 0

    def take(self, town: Town, tile: int) -> None:
        """Take one ``tile`` from the supply (from the town's share in an independent phase)."""
        if self.independent:
            if town.share[tile] <= 0:
                raise AssertionError(f"no {tile} left in seat {town.seat}'s share")
            town.share[tile] -= 1
            town.taken[tile] += 1
        else:
            if self.supply[tile] <= 0:
                raise AssertionError(f"no {tile} left in the supply")
            self.supply[tile] -= 1

    def give_back(self, town: Town, tile: int) -> None:
        """Return one building tile to the supply (Riverville's river washes it away)."""
        if self.independent:
            town.share[tile] += 1
            town.taken[tile] -= 1
        else:
            self.supply[tile] += 1

    def finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self.phase = "over"
        for seat in range(self.players):
            self.stacks[seat].clear()
            self._decisions[seat] = None

    # ------------------------------------------------------------------ views and copies

    def observe(self, seat: int | None) -> Any:
        from games.gnomeville.view import observe

        return observe(self, seat)

    def clone(self) -> GnomevilleState:
        new = GnomevilleState.__new__(GnomevilleState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.supply = list(self.supply)
        new.towns = [t.copy() for t in self.towns]
        new.troll_deck = list(self.troll_deck)
        new.troll_discard = list(self.troll_discard)
        new.events = list(self.events)
        new.delivery_deck = list(self.delivery_deck)
        new.delivery_discard = list(self.delivery_discard)
        new.goals = list(self.goals)
        new.stacks = [[s.copy() for s in stack] for stack in self.stacks]
        new._decisions = list(self._decisions)
        new._events = []
        new._held = [list(h) for h in self._held]
        new.final = dict(self.final)
        return new

    def determinize(self, seat: int, seed: int) -> GnomevilleState:
        from games.gnomeville.hidden import determinize

        return determinize(self, seat, seed)

    @classmethod
    def from_view(cls, view: Any, seed: int, pack: ContentPack | None = None) -> GnomevilleState:
        """A playable state from a seat's view alone, its hidden part drawn from ``seed`` as
        ``determinize(view.seat, seed)`` draws it (``rebuild.py``: a search bot outside the
        referee plans on it). ``ValueError`` for a spectator's view or a finished game."""
        from games.gnomeville.rebuild import from_view

        return from_view(view, seed, pack)

    def adjudicate(self) -> Outcome:
        from games.gnomeville.scoring import adjudicate

        return adjudicate(self)

    def canonical(self) -> tuple[Any, ...]:
        return (
            self.players,
            self.round,
            self.phase,
            self.stage,
            tuple(sorted(self.turn_by_turn)),
            self.master_build,
            tuple(self.supply),
            tuple(t.canonical() for t in self.towns),
            tuple(self.troll_deck),
            self.round_card,
            self.ambush_card,
            tuple(self.events),
            self.events_up,
            tuple(self.delivery_deck),
            self.delivery_card,
            tuple(self.goals),
            tuple(
                tuple((type(s).__name__, tuple(sorted(s.fields().items()))) for s in stack)
                for stack in self.stacks
            ),
            self.rng.getstate(),
        )
