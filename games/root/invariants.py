"""What every Root position satisfies, whether reached by play or prepared by hand.

``check_invariants`` is asserted by the property tests every few decisions of random games and
by ``positions.position`` on every prepared position, so a hand-built test position can never
hold what a real game cannot (a keep the Marquise's board does not know about, wood on the map
that is also still in her supply, a card in two places...).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from games.root.cards import standard_deck
from games.root.items import ITEM_SUPPLY
from games.root.maps import CLEARING_IDS
from games.root.moving import move_origins
from games.root.tracks import (
    ALLIANCE_SYMPATHY_TOKENS,
    ALLIANCE_WARRIORS,
    EYRIE_ROOSTS,
    MARQUISE_BUILDINGS_PER_TYPE,
    MARQUISE_WOOD_TOKENS,
)
from games.root.woodland import (
    ALLIANCE,
    EYRIE,
    FOX_BASE,
    KEEP,
    MARQUISE,
    MOUSE_BASE,
    RABBIT_BASE,
    ROOST,
    SYMPATHY,
    WOOD,
)

if TYPE_CHECKING:
    from games.root.state import RootState


def check_invariants(g: RootState) -> None:
    """Raise ``AssertionError`` naming the first invariant ``g`` breaks."""
    w = g.woodland
    # Pieces: never more on the map than the box holds; slots never overfilled.
    for p in g.players:
        limit = g.rules(p.seat).warriors
        _require(w.warriors_on_map(p.faction) <= limit, f"more than {limit} {p.faction} warriors")
    kinds = Counter(kind for c in CLEARING_IDS for _owner, kind in w.buildings(c))
    _require(kinds[ROOST] <= EYRIE_ROOSTS, "more roosts than the Eyrie have")
    for building in ("sawmill", "workshop", "recruiter"):
        _require(kinds[building] <= MARQUISE_BUILDINGS_PER_TYPE, f"too many {building}s")
    for c in CLEARING_IDS:
        _require(w.free_slots(c) >= 0, f"clearing {c} holds more buildings than slots")
        roosts = sum(1 for slot in w.buildings(c) if slot == (EYRIE, ROOST))
        _require(roosts <= 1, f"two roosts in clearing {c}")
    # The woodland's caches (rule, warriors on the map, building sites) match a fresh count.
    for p in g.players:
        counted = sum(w.warriors(p.faction, c) for c in CLEARING_IDS)
        _require(w.warriors_on_map(p.faction) == counted, f"{p.faction} warrior count cache")
    for faction, kind in ((EYRIE, ROOST), (MARQUISE, "sawmill"), (MARQUISE, "recruiter")):
        expected = tuple(c for c in CLEARING_IDS for s in w.buildings(c) if s == (faction, kind))
        _require(w.building_sites(faction, kind) == expected, f"{faction} {kind} sites cache")
    for p in g.players:
        expected = tuple(
            c
            for c in CLEARING_IDS
            if w.warriors(p.faction, c) and w.move_destinations(p.faction, c)
        )
        _require(move_origins(g, p.seat) == expected, f"{p.faction} move origins")
    for c in CLEARING_IDS:
        _require(w.ruler(c) == w._compute_ruler(c), f"ruler cache of clearing {c}")
    _marquise(g)
    _alliance(g)
    _cards(g)
    # Items: the supply plus crafted items is the printed supply.
    crafted = Counter(item for p in g.players for item in p.items)
    for p in g.players:  # the Vagabond's supply items taken by Aid or lost (RV12)
        crafted += Counter(getattr(p.board, "taken", ())) + Counter(getattr(p.board, "lost", ()))
    _require(Counter(g.supply) + crafted == Counter(ITEM_SUPPLY), "items not conserved")
    _require(all(p.vp >= 0 for p in g.players), "a score below 0")


def _marquise(g: RootState) -> None:
    """Her board knows where the keep is (0: not on the map), and the wood in her supply plus
    the wood tokens on the map are the eight tokens of the box."""
    seat = g.seat_of.get(MARQUISE)
    if seat is None:
        return
    w = g.woodland
    board = dict(g.players[seat].board.public())
    keeps = [c for c in CLEARING_IDS for t in w.tokens(c) if t == (MARQUISE, KEEP)]
    _require(len(keeps) <= 1, f"keep tokens in clearings {keeps}")
    _require(board["keep"] == (keeps[0] if keeps else 0), "the Marquise's board misplaces the keep")
    wood_on_map = sum(1 for c in CLEARING_IDS for t in w.tokens(c) if t == (MARQUISE, WOOD))
    _require(board["wood"] >= 0, "wood in supply below 0")
    _require(board["wood"] + wood_on_map == MARQUISE_WOOD_TOKENS, "wood tokens not conserved")


def _alliance(g: RootState) -> None:
    """At most ten sympathy tokens, one per clearing; each base at most once, in a clearing of
    its suit; warriors on the map plus officers within the ten of the box."""
    seat = g.seat_of.get(ALLIANCE)
    if seat is None:
        return
    w = g.woodland
    tokens = [w.count_tokens(ALLIANCE, SYMPATHY, c) for c in CLEARING_IDS]
    _require(max(tokens) <= 1, "two sympathy tokens in a clearing")
    _require(sum(tokens) <= ALLIANCE_SYMPATHY_TOKENS, "more sympathy tokens than the Alliance has")
    for kind in (FOX_BASE, RABBIT_BASE, MOUSE_BASE):
        sites = w.building_sites(ALLIANCE, kind)
        _require(len(sites) <= 1, f"two {kind}s")
        suit = kind.removesuffix("_base")
        _require(all(g.clearing_suit(c) == suit for c in sites), f"a {kind} off its suit")
    officers = g.players[seat].board.warriors_off_map()
    _require(officers >= 0, "officers below 0")
    _require(
        w.warriors_on_map(ALLIANCE) + officers <= ALLIANCE_WARRIORS,
        "more Alliance warriors and officers than the box holds",
    )


def _cards(g: RootState) -> None:
    """Each card of the deck is in exactly one place: deck, discard pile, a hand, a play area,
    the Eyrie's Decree, face down on a faction board (the Alliance's supporters), or (dominance
    cards, with three or more players) available beside the map or activated."""
    places = Counter(g.deck) + Counter(g.discard) + Counter(getattr(g, "available", ()))
    for p in g.players:
        places += Counter(p.hand) + Counter(p.crafted)
        activated = getattr(p, "dominance", None)
        if activated is not None:
            places[activated] += 1
        hidden = getattr(p.board, "hidden_cards", None)  # face down (the Alliance's supporters)
        if hidden is not None:
            places += Counter(hidden())
        for name, column in p.board.public().items():
            if name.startswith("decree_"):
                places += Counter(c for c in column if not c.startswith("loyal_vizier"))
    deck = Counter(c.id for c in standard_deck(g.n))
    _require(places == deck, f"cards not conserved: {places - deck} extra, {deck - places} lost")
    # Law 2.1 (RT25): an empty deck takes the discard pile at once.
    _require(bool(g.deck) or not g.discard, "an empty deck beside a discard pile holding cards")


def _require(holds: bool, what: str) -> None:
    if not holds:
        raise AssertionError(f"Root invariant broken: {what}")
