"""Root: a match of one or two games between seats playing asymmetric factions.

The flow reads like the Law (5 Setup, 3 Victory, 1.1.2 Turn Structure): set up the board, deck,
item supply and factions in setup order; then each seat in turn plays Birdsong, Daylight and
Evening (``turn.Turn``) until someone reaches 30 VP, which ends the game at once. The two-player
rule of the Japanese rules summary makes a contest two games with totalled scores: game 2 is set
up afresh from the same random stream with the seats' factions swapped (rulings RT1-RT3 in ``rulings.py``).

Everything the rules do goes through a few verbs on this class (draw, spend, score, place,
remove) so that the faction layers never touch each other's state directly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from games.contract import (
    Decision,
    Event,
    GameConfig,
    GameState,
    IllegalDecision,
    InvalidConfig,
    Outcome,
    answered,
)
from games.rng import below, shuffle
from games.root.cards import (
    CARD_BY_ID,
    DOMINANCE_IDS,
    HAND_LIMIT,
    STARTING_HAND,
    Card,
    standard_deck,
)
from games.root.faction import Faction
from games.root.items import ITEM_SUPPLY
from games.root.maps import BOARDS, Board, deal_winter_suits, with_suits
from games.root.players import Player, is_enemy
from games.root.steps import Step
from games.root.suits import matches
from games.root.woodland import Woodland

VICTORY_VP = 30
MAPS: tuple[str, ...] = ("autumn", "winter")
#: Deals ``RootState.redeal`` tries for one that fits the seat's view (most fit at once).
DEAL_TRIES = 10_000


def card(card_id: str) -> Card:
    return CARD_BY_ID[card_id]


__all__ = ["MAPS", "VICTORY_VP", "RootState", "card", "matches"]


class RootState(GameState):
    """A Root contest: ``config.variant`` is the map, ``options['games']`` 1 or 2 games."""

    def __init__(self, config: GameConfig, seed: int) -> None:
        # Imported here: the faction modules use this module's helpers.
        from games.root.factions import FACTION_RULES
        from games.root.lineup import LINEUPS, contest_games, named_factions, unavailable

        named = named_factions(config.players, config.options.get("factions"))
        why = unavailable(config.players, FACTION_RULES, named)
        if why is not None:
            raise InvalidConfig(why)
        self.faction_rules: Mapping[str, Faction] = FACTION_RULES
        self.config = config
        self.seed = seed
        self.history = []
        self.n = config.players
        self.rng = random.Random(seed)
        self.map_name = config.variant
        self.games = contest_games(self.n, config.options.get("games"))
        self.game_number = 0
        #: VP each seat scored in each finished game.
        self.results: list[tuple[int, ...]] = []
        #: (winner, turns taken) of each finished game.
        self.winners: list[tuple[int, int]] = []
        # RT2: game 1's factions are dealt to the seats at random (the deal is drawn even when
        # the ``factions`` option names them, so a seed's deck is the same either way); game 2
        # swaps them.
        factions = list(LINEUPS[self.n])
        shuffle(self.rng, factions)
        self.first_factions: tuple[str, ...] = named or tuple(factions)
        self.first_starter = below(self.rng, self.n)
        self._events: list[Event] = []
        self._pending: tuple[Decision, ...] = ()
        self._outcome: Outcome | None = None
        self._start_game()
        self._settle()
        self.setup_events: tuple[Event, ...] = tuple(self._events)
        self._events = []

    # ------------------------------------------------------------------ setting up a game

    def _start_game(self) -> None:
        """Law 5.1: board, ruins, item supply, deck and hands, then factions in setup order."""
        self.game_number += 1
        board: Board = BOARDS[self.map_name]
        if board.clearings[0].suit is None:
            board = with_suits(board, deal_winter_suits(self.rng))
        self.board = board
        self.woodland = Woodland(board)
        self.supply: dict[str, int] = dict(ITEM_SUPPLY)
        self.deck: list[str] = [c.id for c in standard_deck(self.n)]
        shuffle(self.rng, self.deck)
        self.discard: list[str] = []
        #: Dominance cards spent or discarded, beside the map for anyone to take (Law 3.3.3).
        self.available: list[str] = []
        shift = self.game_number - 1
        self.players: list[Player] = []
        for seat in range(self.n):
            faction = self.first_factions[(seat + shift) % self.n]
            faction_board = self.faction_rules[faction].new_board()
            self.players.append(Player(seat, faction, faction_board))
        self.seat_of: dict[str, int] = {p.faction: p.seat for p in self.players}
        self.current = self.start_seat = (self.first_starter + shift) % self.n
        self.turns = 0
        self.winner: int | None = None
        self.stack: list[Step] = []
        self._emit(
            "game_start",
            game=self.game_number,
            map=self.map_name,
            suits=tuple(cl.suit for cl in board.clearings),
            factions=tuple(p.faction for p in self.players),
            start_seat=self.current,
        )
        for seat in range(self.n):
            self.draw(seat, STARTING_HAND)
        order = sorted(range(self.n), key=lambda s: self.rules(s).setup_order)
        for seat in reversed(order):
            step = self.rules(seat).setup(self, seat)
            if step is not None:
                self.stack.append(step)

    # ------------------------------------------------------------------ the contract

    def pending(self) -> tuple[Decision, ...]:
        return self._pending

    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        decision = answered(self._pending, seat, option_index)
        self.history.append((seat, option_index))
        self._events = []
        self.stack[-1].choose(self, decision.options[option_index].value)
        self._settle()
        return tuple(self._events)

    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    def _settle(self) -> None:
        """Run steps until a decision with two or more options is due, or the contest ends.
        Before each step runs and before a decision is asked, an empty deck takes the discard
        pile (``refill_deck``, RT25)."""
        stack = self.stack
        while True:
            self.refill_deck()
            if self.winner is not None:
                self._end_game()
                if self._outcome is not None:
                    self._pending = ()
                    return
                stack = self.stack  # the next game's
                continue
            if not stack:
                self._next_turn()
                continue
            top = stack[-1]
            options = top.advance(self)
            if self.winner is not None:
                continue
            if not stack or stack[-1] is not top:
                continue
            if not options:
                stack.pop()
            elif len(options) == 1:
                top.choose(self, options[0].value)
            else:
                self.refill_deck()
                self._pending = (Decision(top.seat, top.kind(), options),)
                return

    @classmethod
    def from_view(cls, view: Any, seed: int) -> RootState:
        """A playable position from one seat's observation (see ``rebuild.py``)."""
        from games.root.rebuild import from_view

        return from_view(view, seed)

    def begin(self, step: Step | None) -> None:
        """Play on from ``step`` alone (or from the current seat's turn): for hand-built
        positions (``positions.py``); the events so far are dropped."""
        from games.root.turn import Turn

        self.stack = [step if step is not None else Turn(self.current)]
        if self.turns == 0:
            self.turns = 1
        self._events = []
        self._settle()
        self._events = []

    def resume(self) -> tuple[Event, ...]:
        """Run on to the next decision after a hand-made change to the position (tests,
        prepared positions); returns the events of that run."""
        self._events = []
        self._settle()
        return tuple(self._events)

    def _next_turn(self) -> None:
        from games.root.turn import Turn

        if self.turns:
            self.current = (self.current + 1) % self.n
        self.turns += 1
        self.players[self.current].used = ()
        self.stack.append(Turn(self.current))

    def _end_game(self) -> None:
        """Record the finished game; start the next one or end the contest."""
        winner = self.winner
        assert winner is not None
        scores = tuple(p.vp for p in self.players)
        self.results.append(scores)
        self.winners.append((winner, self.turns))
        self._emit("game_over", game=self.game_number, winner=winner, scores=scores)
        self.stack = []
        if self.game_number < self.games:
            self._start_game()
            return
        self._outcome = self._final_outcome()
        outcome = self._outcome
        self._emit(
            "contest_over",
            totals=tuple(outcome.scores),
            wins=tuple(outcome.tiebreak["wins"]),
            ranking=tuple(outcome.ranking),
        )

    def totals(self) -> tuple[int, ...]:
        """VP per seat over the finished games plus the game in progress (if any)."""
        totals = [sum(r[s] for r in self.results) for s in range(self.n)]
        if self._outcome is None and len(self.results) < self.game_number:
            for p in self.players:
                totals[p.seat] += p.vp
        return tuple(totals)

    def _final_outcome(self) -> Outcome:
        totals = self.totals()
        wins = [sum(1 for w, _ in self.winners if w == s) for s in range(self.n)]
        if self.n > 2:
            # One game (the Law): the winner first (by 30 VP or by dominance), then the others
            # by VP (a dominance card freezes them), ties by the turn order (RT16); a Vagabond in
            # a coalition right after his partner, and with it a winner (RT23).
            winner = self.winners[-1][0]
            ranking = self._coalition_order(
                (
                    winner,
                    *sorted((s for s in range(self.n) if s != winner), key=self._vp_order(totals)),
                )
            )
            winners = (winner, *(p.seat for p in self.players if p.coalition == winner))
            tiebreak: dict[str, Any] = {"games": tuple(self.results), "wins": tuple(wins)}
            tiebreak["dominance"] = tuple(p.dominance or "" for p in self.players)
            tiebreak["winners"] = winners
            tiebreak["coalition"] = self._coalitions()
            shared = (winners,) if len(winners) > 1 else ()
            return Outcome(totals, ranking, tiebreak, shared)
        # RT3: ties in total go to more games won, then the faster win, then the seat that did
        # not start game 1.
        fastest = [
            min((t for w, t in self.winners if w == s), default=10**9) for s in range(self.n)
        ]

        def key(s: int) -> tuple[int, int, int, int]:
            return (-totals[s], -wins[s], fastest[s], 1 if s == self.first_starter else 0)

        ranking = tuple(sorted(range(self.n), key=key))
        return Outcome(totals, ranking, {"games": tuple(self.results), "wins": tuple(wins)})

    def _coalition_order(self, ranking: tuple[int, ...]) -> tuple[int, ...]:
        """``ranking`` with each Vagabond in a coalition moved to just after his partner
        (RT23: he shares its fate)."""
        allied = {p.seat: p.coalition for p in self.players if p.coalition is not None}
        if not allied:
            return ranking
        out: list[int] = []
        for s in ranking:
            if s in allied:
                continue
            out.append(s)
            out.extend(v for v, partner in sorted(allied.items()) if partner == s)
        return tuple(out)

    def _coalitions(self) -> tuple[int, ...]:
        """Each seat's coalition partner, -1 if none (RT23)."""
        return tuple(-1 if p.coalition is None else p.coalition for p in self.players)

    def _vp_order(self, totals: tuple[int, ...]) -> Any:
        """Sort key of a three-player ranking (RT16): more VP first; equal VP go to the seat
        later in the turn order from the start player (it took no more turns than the others)."""
        start, n = self.start_seat, self.n
        return lambda s: (-totals[s], -((s - start) % n))

    def adjudicate(self) -> Outcome:
        """RT4: an unfinished contest is ranked by total VP so far; ties to the seat that is not
        taking the current turn (it had fewer turns), then the lower seat. Three or four
        players: by VP, ties by the turn order (RT16), a Vagabond in a coalition right after his
        partner (RT23)."""
        totals = self.totals()
        if self.n > 2:
            ranking = self._coalition_order(
                tuple(sorted(range(self.n), key=self._vp_order(totals)))
            )
            tiebreak: dict[str, Any] = {"adjudicated": True, "games": tuple(self.results)}
            if any(p.coalition is not None for p in self.players):
                tiebreak["coalition"] = self._coalitions()
            return Outcome(totals, ranking, tiebreak)
        ranking = tuple(sorted(range(self.n), key=lambda s: (-totals[s], s == self.current, s)))
        return Outcome(totals, ranking, {"adjudicated": True, "games": tuple(self.results)})

    # ------------------------------------------------------------------ verbs for the rules

    def rules(self, seat: int) -> Faction:
        return self.faction_rules[self.players[seat].faction]

    def push(self, step: Step) -> None:
        self.stack.append(step)

    def _emit(self, kind: str, private_to: int | None = None, **data: Any) -> None:
        self._events.append(Event(kind, data, private_to))

    emit = _emit

    def score(self, seat: int, vp: int, why: str) -> None:
        """Add ``vp`` (may be negative, Law 7.7.1 Humiliate) and end the game at 30 (Law 3.1)."""
        player = self.players[seat]
        if vp == 0 or player.dominance is not None:
            return  # Law 3.3.1: an activated dominance card ends scoring
        player.vp = max(0, player.vp + vp)
        self._emit("score", seat=seat, vp=vp, total=player.vp, why=why)
        if player.vp >= VICTORY_VP and self.winner is None and not self.scoring_at_once():
            self.check_victory()

    def scoring_at_once(self) -> bool:
        """Whether a step in progress makes VP scored now count as reached at once with those
        still to come in it (a battle's hits, Law 4.3.4): it calls ``check_victory`` when done."""
        return any(step.scores_at_once() for step in self.stack)

    def check_victory(self) -> None:
        """Law 3.1: "The first player to reach 30 victory points immediately wins the game. If
        multiple players reach 30 or more victory points simultaneously, the player taking the
        current turn wins." If the turn's player is not among them, the first of them in turn
        order wins (Law 1.1.3: the player taking the turn decides what is unclear). RT5."""
        if self.winner is not None:
            return
        reached = [p.seat for p in self.players if p.vp >= VICTORY_VP]
        if reached:
            current, n = self.current, self.n
            self.winner = min(reached, key=lambda s: (s - current) % n)

    def others(self, seat: int) -> tuple[int, ...]:
        """Every other seat: the Law's "another player" (Outrage, Martial Law, Stand and
        Deliver!, Codebreakers, Steal, Aid, the Vagabond's relationships)."""
        return _OTHERS[self.n][seat]

    def is_enemy(self, seat: int, other: int) -> bool:
        """Whether ``other`` is an enemy of ``seat`` (``players.is_enemy``: coalition partners
        are not, Law 9.2.8)."""
        return is_enemy(self.players, seat, other)

    def enemies(self, seat: int) -> tuple[int, ...]:
        """The enemies of ``seat`` (``is_enemy``): every other seat but a coalition partner."""
        others = _OTHERS[self.n][seat]
        players = self.players
        if players[seat].coalition is None and all(p.coalition != seat for p in players):
            return others
        return tuple(s for s in others if is_enemy(players, seat, s))

    def faction_of(self, seat: int) -> str:
        return self.players[seat].faction

    def clearing_suit(self, c: int) -> str:
        suit = self.board.clearings[c - 1].suit
        assert suit is not None
        return suit

    def may_place(self, seat: int, c: int) -> bool:
        """Whether ``seat`` may place pieces in ``c`` (another faction may forbid it)."""
        for other in range(self.n):
            if other == seat:
                continue
            rules = self.rules(other)
            if rules.blocks_anything and rules.blocks_placement(self, other, seat, c):
                return False
        return True

    def warriors_in_supply(self, seat: int) -> int:
        rules = self.rules(seat)
        held = self.players[seat].board.warriors_off_map()  # the Alliance's officers
        return rules.warriors - self.woodland.warriors_on_map(rules.name) - held

    # -- cards

    def draw(self, seat: int, count: int) -> list[str]:
        """Draw ``count`` cards; fewer if the deck and the discard pile are both empty. The draw
        that takes the deck's last card reshuffles the discard pile at once (``refill_deck``).
        Public event: how many; private event: which."""
        drawn: list[str] = []
        for _ in range(count):
            if not self.deck:
                self.refill_deck()
                if not self.deck:
                    break
            drawn.append(self.deck.pop())
            if not self.deck:
                self.refill_deck()
        if drawn:
            self.players[seat].hand.extend(drawn)
            self._emit("draw", seat=seat, count=len(drawn))
            self._emit("drew", private_to=seat, seat=seat, cards=tuple(drawn))
        return drawn

    def refill_deck(self) -> None:
        """Law 2.1: "If the deck is ever empty, shuffle the discard pile immediately to form a
        new deck" (RT25). Called the moment a draw takes the deck's last card, so cards
        discarded after that moment start a new discard pile instead of joining the new deck;
        and by ``_settle`` after every step of play, so cards discarded while the deck is empty
        (the discard pile was empty too when it ran out) become the deck as soon as the step
        that discarded them is done: the cards one step discards together (a purge, a lost
        base's supporters, an ambush and the card that foils it) are shuffled together. No
        position where a decision is due has an empty deck beside a discard pile holding
        cards. The shuffle draws from the game's own generator."""
        if self.deck or not self.discard:
            return
        self.deck = self.discard
        self.discard = []
        shuffle(self.rng, self.deck)
        self._emit("reshuffle", cards=len(self.deck))

    def discard_card(self, card_id: str) -> None:
        """Put a card on the discard pile (dominance cards are not in two-player decks). A
        dominance card goes beside the map instead, available to take (Law 3.3.3)."""
        if card_id in _DOMINANCE:
            self.available.append(card_id)
            return
        self.discard.append(card_id)

    def spend(self, seat: int, card_id: str, why: str) -> None:
        """Spend or discard a card from ``seat``'s hand: it goes face up to the discard pile."""
        self.players[seat].hand.remove(card_id)
        self.discard_card(card_id)
        self._emit("discard", seat=seat, card=card_id, why=why)

    def discard_crafted(self, seat: int, effect: str) -> None:
        """Discard ``seat``'s crafted card with ``effect`` (Armorers, Sappers, Royal Claim)."""
        player = self.players[seat]
        card_id = player.crafted_with(effect)
        if card_id is None:
            raise ValueError(f"seat {seat} has not crafted {effect}")
        player.crafted.remove(card_id)
        self.discard_card(card_id)
        self._emit("discard", seat=seat, card=card_id, why=effect)

    def hand_cards(self, seat: int, suit: str | None = None) -> list[str]:
        """Cards in hand; with ``suit``, those that match a clearing of that suit (birds too)."""
        hand = self.players[seat].hand
        if suit is None:
            return list(hand)
        return [c for c in hand if matches(CARD_BY_ID[c].suit, suit)]

    def over_hand_limit(self, seat: int) -> int:
        return max(0, len(self.players[seat].hand) - HAND_LIMIT)

    # -- pieces

    def place_warriors(self, seat: int, c: int, count: int) -> int:
        """Place up to ``count`` warriors from supply (Law 1.4: as many as possible)."""
        count = min(count, self.warriors_in_supply(seat))
        if count > 0:
            self.woodland.place_warriors(self.faction_of(seat), c, count)
            self._emit("place", seat=seat, piece="warrior", clearing=c, count=count)
        return count

    def remove_warriors(
        self, seat: int, c: int, count: int, by: int | None, trigger: bool = True
    ) -> None:
        """Remove ``count`` of ``seat``'s warriors from ``c`` (to supply), then its hooks
        (``trigger=False``: the caller triggers them after all simultaneous removal)."""
        if count <= 0:
            return
        self.woodland.remove_warriors(self.faction_of(seat), c, count)
        self._emit("remove", seat=seat, piece="warrior", clearing=c, count=count, by=by)
        if trigger:
            self.rules(seat).warriors_removed(self, seat, c, count)

    def remove_piece(self, seat: int, c: int, kind: str, by: int | None) -> None:
        """Remove a building or token of ``seat``; an enemy remover scores 1 VP (Law 3.2.1)."""
        faction = self.faction_of(seat)
        if (faction, kind) in self.woodland.tokens(c):
            self.woodland.remove_token(faction, kind, c)
        else:
            self.woodland.remove_building(faction, kind, c)
        self._emit("remove", seat=seat, piece=kind, clearing=c, count=1, by=by)
        self.rules(seat).piece_removed(self, seat, c, kind, by)
        if by is not None and self.is_enemy(by, seat):
            self.score(by, 1, "removal")

    def pieces_of(self, seat: int, c: int) -> list[str]:
        """Kinds of ``seat``'s buildings and tokens in ``c`` (what hits reach after warriors)."""
        return self.woodland.pieces(self.players[seat].faction, c)

    def has_pieces(self, seat: int, c: int) -> bool:
        return self.woodland.has_pieces(self.players[seat].faction, c)

    # ------------------------------------------------------------------ views and copies

    def observe(self, seat: int | None) -> Any:
        from games.root.view import observe

        return observe(self, seat)

    def clone(self) -> RootState:
        new = RootState.__new__(RootState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.results = list(self.results)
        new.winners = list(self.winners)
        new.woodland = self.woodland.copy()
        new.supply = dict(self.supply)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.available = list(self.available)
        new.players = [p.copy() for p in self.players]
        new.seat_of = dict(self.seat_of)
        new.stack = [step.copy() for step in self.stack]
        new._events = []
        return new

    def determinize(self, seat: int, seed: int) -> RootState:
        """RT6: the other seats' hands and the deck are dealt again from the cards ``seat``
        cannot see (hand sizes kept); future chance is reseeded."""
        named = cards_named(v for step in self.stack for v in step.fields().values())
        held: dict[int, list[str]] = {}
        unseen: list[str] = list(self.deck)
        for p in self.players:
            if p.seat != seat:
                held[p.seat] = sorted(c for c in p.hand if c in named)
                unseen.extend(c for c in p.hand if c not in named)
                unseen.extend(p.board.hidden_cards())  # the Alliance's supporters
        sizes = {p.seat: len(p.hand) for p in self.players}
        rng = random.Random(seed)
        if all(d.seat == seat for d in self._pending):
            # Only the seat's own question is due, and it depends on its own hand and public
            # facts only: any deal keeps the position as the seat sees it.
            return self.redeal(seat, unseen, held, sizes, rng, None)
        mine = tuple(d for d in self._pending if d.seat == seat)
        return self.redeal(seat, unseen, held, sizes, rng, self.observe(seat), mine)

    def redeal(
        self,
        seat: int,
        unseen: list[str],
        held: Mapping[int, list[str]],
        sizes: Mapping[int, int],
        rng: random.Random,
        view: Any,
        asked: tuple[Decision, ...] | None = None,
    ) -> RootState:
        """A copy in which every other seat holds its ``held`` cards (named by a step in
        progress, like a played ambush) and the rest of its hand size from ``unseen``, and the
        deck is what is left; future chance comes from ``rng`` (RT6).

        With a ``view``, the copy runs on to its next decision, and a deal is kept only if that
        gives exactly ``view`` (and, if given, ``asked``: the seat's own decisions). A decision
        asked only because of what a hand holds (an ambush, a card to craft, a Field Hospitals
        card) tells the seat something, and a deal that loses it would change the game the seat
        sees. Each try is a fresh uniform deal, so the kept one is uniform over the deals the
        seat cannot tell apart from the real one. Without a view the first deal is kept as is.
        """
        cards = sorted(unseen)  # the deal depends on what the seat knows, never on the truth
        for _ in range(DEAL_TRIES):
            new = self.clone()
            shuffle(rng, cards)
            rest = cards
            for p in new.players:
                if p.seat != seat:
                    mine = held.get(p.seat, [])
                    take = sizes[p.seat] - len(mine)
                    p.hand = [*mine, *rest[:take]]
                    rest = rest[take:]
                    hidden = len(p.board.hidden_cards())  # the Alliance's supporters
                    if hidden:
                        p.board.set_hidden_cards(rest[:hidden])
                        rest = rest[hidden:]
                p.board.redeal_hidden(rng)  # the Vagabond's quest deck and ruin items (RV10)
            new.deck = list(rest)
            new.rng = random.Random(rng.getrandbits(64))
            if view is None:
                return new
            if new._outcome is None:
                new._settle()  # the decision due may name the old cards, or not be due at all
            new._events = []
            if new.observe(seat) == view and (
                asked is None or tuple(d for d in new._pending if d.seat == seat) == asked
            ):
                return new
        raise IllegalDecision(f"no deal of the unseen cards matches seat {seat}'s view")

    def canonical(self) -> tuple[Any, ...]:
        w = self.woodland
        return (
            self.map_name,
            self.game_number,
            tuple(self.results),
            tuple(cl.suit for cl in self.board.clearings),
            tuple(
                (tuple(sorted(w._warriors[c].items())), tuple(w._slots[c]), tuple(w._tokens[c]))
                for c in range(1, 13)
            ),
            tuple(sorted(self.supply.items())),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.available),
            tuple(p.canonical() for p in self.players),
            self.current,
            self.turns,
            tuple((type(s).__name__, tuple(sorted(s.fields().items()))) for s in self.stack),
            self.rng.getstate(),
        )


_DOMINANCE: frozenset[str] = frozenset(DOMINANCE_IDS)

_OTHERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(s for s in range(n) if s != seat) for seat in range(n)) for n in range(1, 7)
}


def cards_named(values: Iterable[Any]) -> set[str]:
    """Card ids among step field values (strings or tuples of them): public, since an
    observation shows the steps in progress (a played ambush, a card waiting for its column)."""
    found: set[str] = set()
    for value in values:
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str) and item in CARD_BY_ID:
                found.add(item)
    return found


def cards_of(ids: Iterable[str]) -> list[Card]:
    return [CARD_BY_ID[i] for i in ids]
