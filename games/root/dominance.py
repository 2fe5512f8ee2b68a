"""Dominance cards (Law 3.3): another way to win, for three or more players.

The Law (Vagabottos/root, ``en-US.yml``, Victory > Dominance Cards; numbered in its order):

- 3.3.1 Activating: during your Daylight, with at least 10 VP, you may activate a dominance card
  from your hand by placing it in your play area; your score marker leaves the track and you can
  no longer score VP.
  - 3.3.1.1 Mouse, rabbit or fox dominance: you win at once if you rule three clearings of its
    suit at the start of your Birdsong.
  - 3.3.1.2 Bird dominance: you win at once if you rule two clearings in opposite corners at the
    start of your Birdsong.
- 3.3.2 Activated cards: not in your hand (no hand limit), never removed, never replaced.
- 3.3.3 Using dominance cards: a dominance card may be spent for its suit; whenever one would go
  to the discard pile it goes beside the map instead, **available**.
- 3.3.4 Taking available cards: during your Daylight you may take an available dominance card
  into your hand by spending a card of its suit (birds are wild, but the bird dominance needs a
  bird card).

- Coalitions (the Vagabond, Law 9.2.8): the Vagabond cannot activate a dominance card for its
  own victory. Instead, with four or more players, he may activate one to form a coalition with
  another player, who must have fewer VP than each other player except him and cannot be in a
  coalition; on a tie he chooses one of the tied. He scores no more, and if that player wins,
  he wins too (RT22, RT23).

The Japanese rules summary (【圧倒カード】) says the same. Two-player games leave the four cards
out of the deck (``cards.standard_deck``), so none of this ever comes up there; the rules below
do not look at the player count, only at where the cards are.

Where (rulings in ``rulings.py``): the two Daylight card windows of every turn (start and end
of Daylight, ``card_effects``) and every Daylight action choice of a faction
(``card_effects.phase_effects``) offer ``activate:<card>`` and ``take:<card>:<spent>`` (RT17);
the victory check runs first thing in Birdsong (``turn.Turn``, RT18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.root.cards import (
    CARD_BY_ID,
    DOMINANCE_IDS,
    DOMINANCE_MIN_VP,
    SUIT_DOMINANCE_CLEARINGS,
)
from games.root.maps import OPPOSITE_CORNER
from games.root.steps import option_cache
from games.root.suits import BIRD, matches

if TYPE_CHECKING:
    from games.root.state import RootState

#: The card windows (``card_effects.WINDOWS``) that also offer dominance: "during your Daylight".
DOMINANCE_WINDOWS: frozenset[str] = frozenset({"daylight_start", "daylight_end"})
#: Option verbs of the dominance options (answered by ``choose``).
VERBS: frozenset[str] = frozenset({"activate", "take", "coalition"})
#: Coalitions need four or more players (Law 9.2.8).
COALITION_MIN_PLAYERS = 4
_DOMINANCE: frozenset[str] = frozenset(DOMINANCE_IDS)


@option_cache
def activate_option(card: str) -> Option:
    return Option(
        f"activate:{card}", f"activate {CARD_BY_ID[card].name} ({card})", ("activate", card)
    )


@option_cache
def take_option(card: str, spent: str) -> Option:
    return Option(f"take:{card}:{spent}", f"take {card} by spending {spent}", ("take", card, spent))


@option_cache
def coalition_option(card: str, partner: int) -> Option:
    return Option(
        f"coalition:{card}:{partner}",
        f"activate {CARD_BY_ID[card].name} ({card}) to form a coalition with seat {partner}",
        ("coalition", card, partner),
    )


def coalition_partners(g: RootState, seat: int) -> tuple[int, ...]:
    """The seats ``seat`` may form a coalition with (Law 9.2.8, RT22): those with the fewest VP
    among the other players whose score marker is on the track (a seat that activated a
    dominance card, or is in a coalition, is neither a partner nor compared); all of them on a
    tie. Empty with fewer than four players."""
    if g.n < COALITION_MIN_PLAYERS:
        return ()
    on_track = [p for p in g.players if p.seat != seat and p.dominance is None]
    if not on_track:
        return ()
    fewest = min(p.vp for p in on_track)
    return tuple(p.seat for p in on_track if p.vp == fewest)


def is_dominance(card_id: str) -> bool:
    return card_id in _DOMINANCE


def can_pay(card_id: str, spent: str) -> bool:
    """Whether spending ``spent`` takes the available ``card_id`` (Law 3.3.4)."""
    suit = CARD_BY_ID[card_id].suit
    paid = CARD_BY_ID[spent].suit
    return paid == BIRD if suit == BIRD else matches(paid, suit)


def _distinct(cards: list[str]) -> list[str]:
    """One card id per set of identical copies (RT13: which copy is spent changes nothing)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for card_id in sorted(cards):
        card = CARD_BY_ID[card_id]
        if (card.name, card.suit) not in seen:
            seen.add((card.name, card.suit))
            out.append(card_id)
    return out


def options(g: RootState, seat: int) -> list[Option]:
    """The dominance options of ``seat`` now (only asked in its Daylight windows)."""
    player = g.players[seat]
    found: list[Option] = []
    if player.dominance is None and player.vp >= DOMINANCE_MIN_VP:
        mine = [c for c in sorted(set(player.hand)) if c in _DOMINANCE]
        if g.rules(seat).can_form_coalition:  # the Vagabond: a coalition instead (RT22)
            partners = coalition_partners(g, seat) if mine else ()
            found.extend(coalition_option(c, s) for c in mine for s in partners)
        else:
            found.extend(activate_option(c) for c in mine)
    if g.available:
        hand = _distinct(player.hand)
        for card_id in sorted(g.available):
            found.extend(take_option(card_id, c) for c in hand if can_pay(card_id, c))
    return found


def offered(g: RootState, seat: int) -> bool:
    """Cheaply: whether ``options`` may be non-empty (a dominance card in hand or available)."""
    return bool(g.available) or any(c in _DOMINANCE for c in g.players[seat].hand)


def choose(g: RootState, seat: int, value: tuple[Any, ...]) -> None:
    """Apply an ``activate`` or ``take`` option."""
    player = g.players[seat]
    if value[0] == "activate":
        card_id = value[1]
        player.hand.remove(card_id)
        player.dominance = card_id
        g.emit("dominance_activated", seat=seat, card=card_id, vp=player.vp)
        return
    if value[0] == "coalition":
        card_id, partner = value[1], value[2]
        player.hand.remove(card_id)
        player.dominance = card_id  # in his play area for good; he scores no more (RT19)
        player.coalition = partner
        g.rules(seat).coalition_formed(g, seat, partner)
        g.emit("coalition_formed", seat=seat, card=card_id, partner=partner, vp=player.vp)
        return
    card_id, spent = value[1], value[2]
    g.spend(seat, spent, "take_dominance")
    g.available.remove(card_id)
    player.hand.append(card_id)
    g.emit("dominance_taken", seat=seat, card=card_id, spent=spent)


def ruled_goal(g: RootState, seat: int) -> tuple[int, ...]:
    """The clearings that fulfil ``seat``'s activated dominance (empty if not fulfilled)."""
    card_id = g.players[seat].dominance
    if card_id is None or g.players[seat].coalition is not None:
        return ()  # a coalition's card wins nothing by itself (RT22)
    suit = CARD_BY_ID[card_id].suit
    faction = g.faction_of(seat)
    w = g.woodland
    if suit == BIRD:
        for corner in sorted(OPPOSITE_CORNER):
            other = OPPOSITE_CORNER[corner]
            if corner < other and w.rules(faction, corner) and w.rules(faction, other):
                return (corner, other)
        return ()
    ruled = tuple(c for c in w.ruled_by(faction) if g.clearing_suit(c) == suit)
    return ruled if len(ruled) >= SUIT_DOMINANCE_CLEARINGS else ()


def check_victory(g: RootState, seat: int) -> None:
    """Start of ``seat``'s Birdsong: win by its activated dominance card (Law 3.3.1)."""
    if g.players[seat].dominance is None or g.winner is not None:
        return
    clearings = ruled_goal(g, seat)
    if clearings:
        card_id = g.players[seat].dominance
        g.emit("dominance_victory", seat=seat, card=card_id, clearings=clearings)
        g.winner = seat
