"""Persistent card effects used in a turn's phases (Law 4.1.3 and the card texts).

Battle effects (Armorers, Sappers, Brutal Tactics, Scouting Party) live in ``battle``. Effects
"at start of" a phase are used there; those usable at any point of a phase ("In Birdsong", "Once
in Daylight") are offered at its start, at every action choice of the faction's own part of it
(``phase_effects``, ``use_effect``) and once more at its end (ruling RT7):

- start of Birdsong: Better Burrow Bank (automatic), then a window for Royal Claim and Stand and
  Deliver!; the same two at the end of Birdsong (unless the faction's Birdsong asked nothing);
- start of Daylight: a window for Command Warren, Tax Collector and Codebreakers;
- end of Daylight: a window for Tax Collector and Codebreakers if not used yet this turn;
- start of Evening: a window for Cobbler.

Both Daylight windows, and every Daylight action choice (``phase_effects``), also offer
activating and taking dominance cards (``dominance``, RT17).
Each effect is used at most once per turn (Royal Claim is discarded when used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.root import dominance
from games.root.battle import Battle, battle_clearings
from games.root.cards import CARD_BY_ID
from games.root.dominance import DOMINANCE_WINDOWS
from games.root.faction import BIRDSONG, DAYLIGHT
from games.root.moving import Move, move_origins
from games.root.steps import DONE, FINISHED, Options, Step, clearing_option, seat_option

if TYPE_CHECKING:
    from games.root.state import RootState

#: Effects usable at any point of a phase: "In Birdsong", "Once in Daylight" (RT7).
ANYTIME: dict[str, tuple[str, ...]] = {
    BIRDSONG: ("royal_claim", "stand_and_deliver"),
    DAYLIGHT: ("tax_collector", "codebreakers"),
}

#: Which effects each window offers.
WINDOWS: dict[str, tuple[str, ...]] = {
    "birdsong": ("royal_claim", "stand_and_deliver"),
    "birdsong_end": ("royal_claim", "stand_and_deliver"),
    "daylight_start": ("command_warren", "tax_collector", "codebreakers"),
    "daylight_end": ("tax_collector", "codebreakers"),
    "evening": ("cobbler",),
}

_USE: dict[str, Option] = {
    effect: Option(f"use:{effect}", f"use {CARD_BY_ID[effect + suffix].name}", ("use", effect))
    for effect, suffix in (
        ("royal_claim", ""),
        ("stand_and_deliver", "_1"),
        ("command_warren", "_1"),
        ("tax_collector", "_1"),
        ("codebreakers", "_1"),
        ("cobbler", "_1"),
    )
}


def _others_with_cards(g: RootState, seat: int) -> tuple[int, ...]:
    return tuple(s for s in g.others(seat) if g.players[s].hand)


def usable(g: RootState, seat: int, effect: str) -> bool:
    """Whether ``seat`` has crafted ``effect``, has not used it this turn, and it can act."""
    if effect in g.players[seat].used or g.players[seat].crafted_with(effect) is None:
        return False
    if effect == "royal_claim":
        return True
    if effect in ("stand_and_deliver", "codebreakers"):
        return bool(_others_with_cards(g, seat))
    if effect == "command_warren":
        return bool(battle_clearings(g, seat))
    if effect == "tax_collector":
        return g.woodland.warriors_on_map(g.faction_of(seat)) > 0
    if effect == "cobbler":
        return bool(move_origins(g, seat))
    raise ValueError(f"no window effect {effect!r}")


def phase_effects(g: RootState, seat: int, phase: str) -> list[Option]:
    """``use:`` options of the effects ``seat`` may use now at any point of ``phase`` (RT7),
    and in Daylight the dominance options (``activate:``, ``take:``, RT17), for a faction's
    action choices to offer beside its actions; ``use_option`` applies one."""
    found = []
    if g.players[seat].crafted:
        found = [_USE[e] for e in ANYTIME[phase] if usable(g, seat, e)]
    if phase == DAYLIGHT and dominance.offered(g, seat):
        found += dominance.options(g, seat)
    return found


#: The verbs of the options ``phase_effects`` offers (a faction's ``choose`` hands them to
#: ``use_option``).
EFFECT_VERBS: frozenset[str] = frozenset({"use", *dominance.VERBS})


def use_option(g: RootState, seat: int, value: tuple[Any, ...]) -> None:
    """Apply an option of ``phase_effects``: a card effect or a dominance option."""
    if value[0] in dominance.VERBS:
        dominance.choose(g, seat, value)
    else:
        use_effect(g, seat, value[1])


def use_effect(g: RootState, seat: int, effect: str) -> None:
    """Use a window effect now (an option ``("use", effect)``): mark it used this turn, then
    resolve it (it may push a step: a battle, a move, a target to choose)."""
    player = g.players[seat]
    player.used = (*player.used, effect)
    g.emit("effect", seat=seat, effect=effect)
    if effect == "royal_claim":
        g.discard_crafted(seat, effect)
        g.score(seat, len(g.woodland.ruled_by(g.faction_of(seat))), "royal_claim")
    elif effect == "command_warren":
        g.push(Battle(seat, battle_clearings(g, seat)))
    elif effect == "cobbler":
        g.push(Move(seat, move_origins(g, seat), optional=False))
    else:
        g.push(TargetEffect(seat, effect))


def better_burrow_bank(g: RootState, seat: int) -> None:
    """At start of Birdsong: you and another player each draw a card (RT8: in a two-player game
    the other player is the opponent; with more, the next seat clockwise)."""
    if g.players[seat].crafted_with("better_burrow_bank") is None:
        return
    other = (seat + 1) % g.n
    g.emit("effect", seat=seat, effect="better_burrow_bank", target=other)
    g.draw(seat, 1)
    g.draw(other, 1)


class CardWindow(Step):
    """Offer the usable effects of one window until the seat says done."""

    __slots__ = ("window",)
    name = "cards"

    window: str

    def __init__(self, seat: int, window: str) -> None:
        super().__init__(seat, window)
        self.window = window

    @classmethod
    def open(cls, g: RootState, seat: int, window: str) -> CardWindow | None:
        """A window step if any of its effects is usable now, else None (nothing to ask)."""
        if window in DOMINANCE_WINDOWS and dominance.offered(g, seat):
            return cls(seat, window)  # Law 3.3: activate or take a dominance card (RT17)
        if not g.players[seat].crafted:
            return None
        if any(usable(g, seat, e) for e in WINDOWS[window]):
            return cls(seat, window)
        return None

    def advance(self, g: RootState) -> Options:
        found = [_USE[e] for e in WINDOWS[self.window] if usable(g, self.seat, e)]
        if self.window in DOMINANCE_WINDOWS:
            found += dominance.options(g, self.seat)
        if not found:
            return FINISHED
        return (*found, DONE)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if value[0] == "done":
            g.stack.pop()
            return
        if value[0] in dominance.VERBS:
            dominance.choose(g, self.seat, value)
            return
        use_effect(g, self.seat, value[1])


class TargetEffect(Step):
    """Stand and Deliver!, Codebreakers (choose a player) and Tax Collector (choose a clearing)."""

    __slots__ = ("effect",)
    name = "effect"

    effect: str

    def __init__(self, seat: int, effect: str) -> None:
        super().__init__(seat, effect)
        self.effect = effect

    def advance(self, g: RootState) -> Options:
        if self.effect == "tax_collector":
            faction = g.faction_of(self.seat)
            w = g.woodland
            return tuple(clearing_option(c) for c in range(1, 13) if w.warriors(faction, c))
        return tuple(seat_option(s) for s in _others_with_cards(g, self.seat))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        g.stack.pop()
        seat = self.seat
        if self.effect == "tax_collector":
            g.remove_warriors(seat, value[1], 1, by=seat)
            g.draw(seat, 1)
            return
        target = value[1]
        if self.effect == "codebreakers":
            hand = tuple(g.players[target].hand)
            g.emit("looked_at_hand", private_to=seat, seat=seat, target=target, cards=hand)
            return
        # Stand and Deliver!: a random card from the target's hand; the target scores 1 VP.
        hand = g.players[target].hand
        taken = hand.pop(int(g.rng.random() * len(hand)))
        g.players[seat].hand.append(taken)
        g.emit("card_taken", seat=seat, target=target)
        g.emit("card_taken_detail", private_to=seat, seat=seat, target=target, card=taken)
        g.emit("card_taken_detail", private_to=target, seat=seat, target=target, card=taken)
        g.score(target, 1, "stand_and_deliver")
