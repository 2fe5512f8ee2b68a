"""Battle (Law 4.3): clearing and defender, ambush and foil, dice, effects, hits, removal.

Steps, each a small decision where there is a choice:

1. the attacker picks the clearing of battle, then the defender (an enemy with pieces there);
   a Vagabond attacker may then treat one Allied faction's warriors there as his own (Law
   9.2.9.2.3-4, RV14: decision battle.ally);
2. the defender may ambush with a card matching the clearing (birds anywhere); the attacker may
   foil it with another; an unfoiled ambush deals 2 hits at once, and the battle ends if no
   attacking warriors remain once Field Hospitals was answered (Law 4.3.1, 6.2.3: the warriors
   come back to the keep's clearing at once). An attacker with Scouting Party is not affected by
   ambush cards, so none is offered (RT10);
3. two dice (each 0-3): the attacker will deal the higher, the defender the lower, each at most
   its warriors in the clearing (Law 4.3.2); an Alliance defender deals the higher and the
   attacker the lower (Guerrilla War, Law 8.2.2);
4. effects: when both sides have one to use, the attacker chooses which side uses them first
   (Law 4.3.3, RT9), each side then using its own until done: Brutal Tactics (+1 hit, the
   defender scores 1 VP), Armorers (discard: ignore the rolled hits you take) / Sappers
   (defender, discard: +1 hit);
   the Commander's extra hit and the defenseless extra hit are automatic (Law 4.3.3);
5. hits are dealt at once: warriors first, then the side taking hits chooses which buildings
   and tokens go (Law 4.3.4); each enemy building or token removed scores 1 VP (Law 3.2.1);
   effects triggered by removal (Field Hospitals) run after all removal (Law 1.4 Piece
   Manipulation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.root.cards import AMBUSH, AMBUSH_HITS, CARD_BY_ID
from games.root.steps import (
    DONE,
    FINISHED,
    PASS,
    Options,
    Step,
    card_option,
    clearing_option,
    option_cache,
    seat_option,
)
from games.root.suits import BIRD

if TYPE_CHECKING:
    from games.root.state import RootState

DIE_FACES = 4  # the two twelve-sided Root dice show 0, 1, 2, 3 three times each (RT11)

_ATTACKER_EFFECTS = ("brutal_tactics", "armorers")
_DEFENDER_EFFECTS = ("sappers", "armorers")
_EFFECT_OPTION: dict[str, Option] = {
    e: Option(f"use:{e}", f"use {e.replace('_', ' ')}", ("use", e))
    for e in ("brutal_tactics", "armorers", "sappers")
}
#: Law 4.3.3: "If both want to use effects, the attacker chooses who uses them first" (RT9).
_FIRST: tuple[Option, ...] = tuple(
    Option(f"first:{side}", f"the {side} uses effects first", ("first", side))
    for side in ("attacker", "defender")
)


def battle_clearings(
    g: RootState, seat: int, within: tuple[int, ...] | None = None
) -> tuple[int, ...]:
    """Clearings where ``seat`` has warriors (the Vagabond: his pawn, Law 9.5.2) and some enemy
    has pieces or its pawn (optionally only those in ``within``): where ``defenders`` is not
    empty."""
    w = g.woodland
    faction = g.faction_of(seat)
    where = within if within is not None else range(1, 13)
    pawn = w.pawn
    mine = g.rules(seat).pawn
    if len(g.enemies(seat)) < g.n - 1:  # in a coalition: its partner is no enemy (Law 9.2.8)
        return tuple(
            c
            for c in where
            if (c == pawn if mine else w.warriors(faction, c)) and defenders(g, seat, c)
        )
    # Every other seat is an enemy: any other piece there, or the Vagabond's pawn (his items
    # take the hits, Law 9.2.6), makes a defender (``defenders``, quicker).
    if mine:
        return tuple(c for c in where if c == pawn and w.has_other_pieces(faction, c))
    return tuple(
        c for c in where if w.warriors(faction, c) and (w.has_other_pieces(faction, c) or c == pawn)
    )


def defenders(g: RootState, attacker: int, c: int) -> tuple[int, ...]:
    """Law 4.3: the enemies (``RootState.is_enemy``) ``attacker`` may battle in ``c``: those
    with a piece there, or whose pawn is there."""
    pawn = g.woodland.pawn
    return tuple(
        e for e in g.enemies(attacker) if g.has_pieces(e, c) or (pawn == c and g.rules(e).pawn)
    )


def _ambush_cards(g: RootState, seat: int, c: int) -> list[str]:
    suit = g.clearing_suit(c)
    found = []
    for card_id in g.players[seat].hand:
        card = CARD_BY_ID[card_id]
        if card.kind == AMBUSH and (card.suit == BIRD or card.suit == suit):
            found.append(card_id)
    return found


def roll_die(g: RootState) -> int:
    return int(g.rng.random() * DIE_FACES)


class Battle(Step):
    """One battle by ``attacker``; ``seat`` is whoever decides the current stage."""

    __slots__ = (
        "after",
        "ally",
        "ally_hits",
        "ally_lost",
        "ambush",
        "attacker",
        "attacker_extra",
        "attacker_lost",
        "attacker_removed",
        "attacker_rolled",
        "clearing",
        "clearings",
        "dealing",
        "defender",
        "defender_extra",
        "defender_first",
        "defender_lost",
        "defender_removed",
        "defender_rolled",
        "dice",
        "ignore_attacker_rolled",
        "ignore_defender_rolled",
        "item_hits",
        "removing",
        "to_attacker",
        "to_defender",
        "used",
    )
    name = "battle"

    def __init__(self, attacker: int, clearings: tuple[int, ...]) -> None:
        super().__init__(attacker, "clearing")
        self.attacker = attacker
        self.clearings = clearings
        self.clearing = 0
        self.defender = -1
        self.ambush = ""
        self.dice: tuple[int, ...] = ()
        self.attacker_rolled = 0  # rolled hits the attacker will deal
        self.attacker_extra = 0
        self.defender_rolled = 0
        self.defender_extra = 0
        self.ignore_attacker_rolled = False  # the defender used Armorers
        self.ignore_defender_rolled = False  # the attacker used Armorers
        self.defender_first = False  # the attacker let the defender use effects first (RT9)
        self.used: tuple[str, ...] = ()  # "seat:effect" used in this battle
        self.to_defender = 0  # hits still to take among the defender's buildings/tokens
        self.to_attacker = 0
        self.removing = -1  # seat choosing which of its pieces go, in the "remove" stage
        self.after = "over"  # stage after the current removals
        self.attacker_lost = 0  # warriors removed, for triggered effects
        self.defender_lost = 0
        self.attacker_removed = 0  # enemy buildings/tokens removed, for the Despot
        self.defender_removed = 0
        #: Both sides' hits are being dealt (Law 4.3.4): VP scored until they all are count as
        #: reached at once (Law 3.1, RT5).
        self.dealing = False
        #: The Allied seat whose warriors a Vagabond attacker treats as his own (-1: none), the
        #: hits he took on them and on his items in this battle (Law 9.2.9.2.4, RV14), and
        #: those warriors removed, for triggered effects.
        self.ally = -1
        self.ally_hits = 0
        self.item_hits = 0
        self.ally_lost = 0

    # ------------------------------------------------------------------ the steps

    def advance(self, g: RootState) -> Options:
        while True:
            stage = self.stage
            if stage == "clearing":
                self.seat = self.attacker
                where = battle_clearings(g, self.attacker, self.clearings)
                return tuple(clearing_option(c) for c in where)
            if stage == "defender":
                return tuple(seat_option(e) for e in defenders(g, self.attacker, self.clearing))
            if stage == "ally":
                allies = self._allies(g)
                if allies:
                    self.seat = self.attacker
                    return (*(_ally_option(s) for s in allies), PASS)
                self.stage = "ambush"
                continue
            if stage == "ambush":
                if g.players[self.attacker].crafted_with("scouting_party") is None:
                    cards = _ambush_cards(g, self.defender, self.clearing)
                    if cards:
                        self.seat = self.defender
                        return (*(card_option(c, "ambush") for c in _distinct(cards)), PASS)
                self.stage = "roll"
                continue
            if stage == "foil":
                cards = _ambush_cards(g, self.attacker, self.clearing)
                if cards:
                    self.seat = self.attacker
                    return (*(card_option(c, "foil") for c in _distinct(cards)), PASS)
                self._resolve_ambush(g)
                continue
            if stage == "roll":
                self._roll(g)
                continue
            if stage == "effects_first":
                if self._effects(g, self.attacker, _ATTACKER_EFFECTS) and self._effects(
                    g, self.defender, _DEFENDER_EFFECTS
                ):
                    self.seat = self.attacker
                    return _FIRST
                self.stage = "attacker_effects"
                continue
            if stage == "attacker_effects":
                found = self._effects(g, self.attacker, _ATTACKER_EFFECTS)
                if found:
                    self.seat = self.attacker
                    return (*found, DONE)
                self._effects_done(g, attacker=True)
                continue
            if stage == "defender_effects":
                found = self._effects(g, self.defender, _DEFENDER_EFFECTS)
                if found:
                    self.seat = self.defender
                    return (*found, DONE)
                self._effects_done(g, attacker=False)
                continue
            if stage == "remove":
                self.seat = self.removing
                if g.rules(self.removing).pawn:  # the Vagabond damages items (Law 9.2.7)
                    choices = sorted(set(g.rules(self.removing).hit_choices(g, self.removing)))
                    damage = tuple(_damage_option(k) for k in choices)
                    if self._ally_warriors(g, self.removing):  # or removes an ally's (RV14)
                        return (*damage, _remove_option("warrior"))
                    return damage
                kinds = sorted(set(g.pieces_of(self.removing, self.clearing)))
                return tuple(_remove_option(k) for k in kinds)
            if stage == "triggered":
                if g.stack[-1] is not self:
                    return FINISHED  # the triggered effects first (Field Hospitals)
                self._go_on(g)
                continue
            return FINISHED

    def scores_at_once(self) -> bool:
        return self.dealing

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        stage = self.stage
        if stage == "clearing":
            self.clearing = value[1]
            self.stage = "defender"
        elif stage == "defender":
            self.defender = value[1]
            g.emit("battle", seat=self.attacker, defender=self.defender, clearing=self.clearing)
            self.stage = "ally"
        elif stage == "ally":
            if value[0] == "ally":
                self.ally = value[1]
                g.emit("battle_ally", seat=self.attacker, ally=self.ally, clearing=self.clearing)
            self.stage = "ambush"
        elif stage == "ambush":
            if value[0] == "pass":
                self.stage = "roll"
                return
            self.ambush = value[1]
            g.emit("ambush", seat=self.defender, card=self.ambush, clearing=self.clearing)
            self.stage = "foil"
        elif stage == "foil":
            if value[0] == "pass":
                self._resolve_ambush(g)
                return
            g.spend(self.attacker, value[1], "foil")
            g.spend(self.defender, self.ambush, "ambush_foiled")
            self.stage = "roll"
        elif stage == "effects_first":
            self.defender_first = value[1] == "defender"
            self.stage = "defender_effects" if self.defender_first else "attacker_effects"
        elif stage == "attacker_effects":
            if value[0] == "done":
                self._effects_done(g, attacker=True)
            else:
                self._use_effect(g, value[1], self.attacker)
        elif stage == "defender_effects":
            if value[0] == "done":
                self._effects_done(g, attacker=False)
            else:
                self._use_effect(g, value[1], self.defender)
        elif stage == "remove":
            self._remove_one(g, value[1])

    # ------------------------------------------------------------------ the rules

    def _resolve_ambush(self, g: RootState) -> None:
        """Law 4.3.1.2: the defender deals two hits at once, then discards the ambush."""
        g.spend(self.defender, self.ambush, "ambush")
        self.to_attacker = self._hit(g, self.attacker, AMBUSH_HITS)
        self.after = "roll"
        self._next_removal(g)

    def _roll(self, g: RootState) -> None:
        """Law 4.3.2-4.3.3: roll, cap rolled hits by warriors, add automatic extra hits."""
        c = self.clearing
        a, b = roll_die(g), roll_die(g)
        self.dice = (a, b)
        defending = g.rules(self.defender).battle_strength(g, self.defender, c)
        high, low = max(a, b), min(a, b)
        if g.rules(self.defender).guerrilla:  # Law 8.2.2 Guerrilla War: the defender deals high
            high, low = low, high
        self.attacker_rolled = min(
            high,
            g.rules(self.attacker).battle_strength(g, self.attacker, c)
            + self._ally_warriors(g, self.attacker),  # Law 9.2.9.2.3
        )
        self.defender_rolled = min(low, defending)
        self.attacker_extra += g.rules(self.attacker).battle_extra_hits(g, self.attacker, True)
        self.defender_extra += g.rules(self.defender).battle_extra_hits(g, self.defender, False)
        if defending == 0:
            self.attacker_extra += 1  # Law 4.3.3.2 Defenseless
        g.emit(
            "roll",
            dice=self.dice,
            attacker_hits=self.attacker_rolled,
            defender_hits=self.defender_rolled,
        )
        self.stage = "effects_first"

    def _effects_done(self, g: RootState, attacker: bool) -> None:
        """One side has used its effects (Law 4.3.3): the other side's turn, or the hits once
        both have had theirs, in the order the attacker chose (RT9)."""
        if attacker != self.defender_first:  # the first side is done
            self.stage = "defender_effects" if attacker else "attacker_effects"
        else:
            self._deal(g)

    def _effects(self, g: RootState, seat: int, effects: tuple[str, ...]) -> list[Option]:
        return [
            _EFFECT_OPTION[e]
            for e in effects
            if f"{seat}:{e}" not in self.used and g.players[seat].crafted_with(e) is not None
        ]

    def _use_effect(self, g: RootState, effect: str, seat: int) -> None:
        self.used = (*self.used, f"{seat}:{effect}")
        g.emit("effect", seat=seat, effect=effect, clearing=self.clearing)
        attacking = seat == self.attacker
        if effect == "brutal_tactics":
            self.attacker_extra += 1
            g.score(self.defender, 1, "brutal_tactics")
        elif effect == "sappers":
            g.discard_crafted(seat, effect)
            self.defender_extra += 1
        elif effect == "armorers":
            g.discard_crafted(seat, effect)
            if attacking:
                self.ignore_defender_rolled = True
            else:
                self.ignore_attacker_rolled = True

    def _deal(self, g: RootState) -> None:
        """Law 4.3.4: both sides' hits at once; warriors first, then chosen buildings/tokens."""
        to_defender = self.attacker_extra + (
            0 if self.ignore_attacker_rolled else self.attacker_rolled
        )
        to_attacker = self.defender_extra + (
            0 if self.ignore_defender_rolled else self.defender_rolled
        )
        self.dealing = True
        self.to_defender = self._hit(g, self.defender, to_defender)
        self.to_attacker = self._hit(g, self.attacker, to_attacker)
        self.after = "over"
        self._next_removal(g)

    def _hit(self, g: RootState, seat: int, hits: int) -> int:
        """Take ``hits`` from ``seat``: warriors, then buildings/tokens where there is no choice.
        Returns the hits left that ``seat`` must choose pieces for."""
        if hits <= 0:
            return 0
        rules = g.rules(seat)
        if rules.pawn:  # each hit damages an undamaged item; more hits than items are lost
            return min(hits, self._absorbs(g, seat))
        c = self.clearing
        warriors = g.woodland.warriors(g.faction_of(seat), c)
        lost = min(hits, warriors)
        if lost:
            by = self._enemy(seat)
            g.remove_warriors(seat, c, lost, by=by, trigger=False)
            g.rules(by).removed_enemy(g, by, seat, "warrior", lost, by == self.attacker)
            if seat == self.attacker:
                self.attacker_lost += lost
            else:
                self.defender_lost += lost
        return self._auto_pieces(g, seat, hits - lost)

    def _auto_pieces(self, g: RootState, seat: int, hits: int) -> int:
        pieces = g.pieces_of(seat, self.clearing)
        if hits <= 0 or not pieces:
            return 0
        if hits >= len(pieces) or len(set(pieces)) == 1:
            for kind in pieces[:hits]:
                self._remove_piece(g, seat, kind)
            return 0
        return hits

    def _remove_piece(self, g: RootState, seat: int, kind: str) -> None:
        by = self._enemy(seat)
        g.remove_piece(seat, self.clearing, kind, by=by)
        g.rules(by).removed_enemy(g, by, seat, kind, 1, by == self.attacker)
        if by == self.attacker:
            self.attacker_removed += 1
        else:
            self.defender_removed += 1

    def _remove_one(self, g: RootState, kind: str) -> None:
        seat = self.removing
        if g.rules(seat).pawn:
            if kind == "warrior":  # an Allied warrior he treats as his own (RV14)
                g.remove_warriors(self.ally, self.clearing, 1, by=self.defender, trigger=False)
                g.rules(self.defender).removed_enemy(
                    g, self.defender, self.ally, "warrior", 1, False
                )
                self.ally_hits += 1
                self.ally_lost += 1
            else:
                g.rules(seat).take_hit(g, seat, kind)
                self.item_hits += 1
            if seat == self.defender:
                self.to_defender = min(self.to_defender - 1, self._absorbs(g, seat))
            else:
                self.to_attacker = min(self.to_attacker - 1, self._absorbs(g, seat))
            self._next_removal(g)
            return
        self._remove_piece(g, seat, kind)
        if seat == self.defender:
            self.to_defender = self._auto_pieces(g, seat, self.to_defender - 1)
        else:
            self.to_attacker = self._auto_pieces(g, seat, self.to_attacker - 1)
        self._next_removal(g)

    def _next_removal(self, g: RootState) -> None:
        if self.to_defender > 0:
            self.removing = self.defender
            self.stage = "remove"
        elif self.to_attacker > 0:
            self.removing = self.attacker
            self.stage = "remove"
        else:
            self._after_removals(g)

    def _after_removals(self, g: RootState) -> None:
        """All hits are dealt: after the last ones the Despot's point and who has 30 (RT5);
        then the effects the removals trigger (Law 1.5.4: after all removal), Field Hospitals,
        which run before the battle goes on (stage ``triggered``, ``_go_on``)."""
        c = self.clearing
        if self.after == "over":
            self._despot(g)
        if self.dealing:  # all hits dealt, the Despot's point scored: who has 30 (RT5)
            self.dealing = False
            g.check_victory()
        if self.attacker_lost:
            g.rules(self.attacker).warriors_removed(g, self.attacker, c, self.attacker_lost)
        if self.defender_lost:
            g.rules(self.defender).warriors_removed(g, self.defender, c, self.defender_lost)
        if self.ally_lost:
            g.rules(self.ally).warriors_removed(g, self.ally, c, self.ally_lost)
        self.attacker_lost = self.defender_lost = self.ally_lost = 0
        self.stage = "triggered"

    def _go_on(self, g: RootState) -> None:
        """After the triggered effects, the next step of the battle. Law 4.3.1.II: after an
        ambush, "if no attacking warriors or pawns remain, end the battle immediately" - asked
        only now, since warriors Field Hospitals places in the keep's clearing are back at once
        (Law 6.2.3), and the keep's clearing may be the clearing of battle."""
        stage = self.after
        if (
            stage == "roll"
            and not g.rules(self.attacker).pawn  # the pawn always remains (Law 4.3.1.II)
            and g.woodland.warriors(g.faction_of(self.attacker), self.clearing) == 0
        ):
            stage = "over"
            self._despot(g)
        if stage == "over":
            why = "ambush" if self.after == "roll" else "hits"
            if self.ally >= 0:  # Law 9.2.9.2.4: at the end of the battle (RV14)
                from games.root.vagabond import ally_hits_taken

                ally_hits_taken(g, self.attacker, self.ally, self.ally_hits, self.item_hits)
            g.emit("battle_over", clearing=self.clearing, why=why)
        self.stage = stage

    def _despot(self, g: RootState) -> None:
        """The battle is over: the remover's hook (the Despot's extra point, RE11)."""
        for seat, removed in (
            (self.attacker, self.attacker_removed),
            (self.defender, self.defender_removed),
        ):
            if removed:
                g.rules(seat).removed_in_battle(g, seat, removed)

    def _enemy(self, seat: int) -> int:
        return self.defender if seat == self.attacker else self.attacker

    def _allies(self, g: RootState) -> tuple[int, ...]:
        """Allied seats a Vagabond attacker may fight with (Law 9.2.9.2.3, RV14)."""
        if not g.rules(self.attacker).pawn:
            return ()
        from games.root.vagabond import battle_allies  # vagabond.py imports this module

        return battle_allies(g, self.attacker, self.clearing, self.defender)

    def _ally_warriors(self, g: RootState, seat: int) -> int:
        """The Allied warriors ``seat`` treats as its own in the clearing of battle."""
        if seat != self.attacker or self.ally < 0:
            return 0
        return g.woodland.warriors(g.faction_of(self.ally), self.clearing)

    def _absorbs(self, g: RootState, seat: int) -> int:
        """Hits a pawn faction can still take: its undamaged items and any Allied warriors
        it fights with (hits beyond them are lost, Law 9.2.7)."""
        return len(g.rules(seat).hit_choices(g, seat)) + self._ally_warriors(g, seat)


def _distinct(cards: list[str]) -> list[str]:
    """One card per suit: two bird ambushes are the same choice."""
    seen: set[str] = set()
    out = []
    for card_id in cards:
        suit = CARD_BY_ID[card_id].suit
        if suit not in seen:
            seen.add(suit)
            out.append(card_id)
    return out


_REMOVE: dict[str, Option] = {}


@option_cache
def _ally_option(seat: int) -> Option:
    return Option(f"ally:{seat}", f"fight with seat {seat}'s warriors", ("ally", seat))


@option_cache
def _damage_option(item: str) -> Option:
    return Option(f"damage:{item}", f"damage a {item}", ("damage", item))


def _remove_option(kind: str) -> Option:
    found = _REMOVE.get(kind)
    if found is None:
        found = _REMOVE[kind] = Option(f"remove:{kind}", f"remove {kind}", ("remove", kind))
    return found
