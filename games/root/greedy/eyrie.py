"""The Eyrie Dynasties: grow the Decree only as far as the map can carry it.

A card goes into a Decree column only if, on the current map, every card of the Decree can
still be resolved (``Decree.feasible``), and preferably for the next Daylights too; when
resolving, recruits and builds that would make a later card impossible are avoided (moves and
battles: see ``moves`` and ``battle``). Leaders are chosen by which Viziers the map can carry
(Despot, Commander, Charismatic, Builder in that order of preference).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.greedy.cards import card_value
from games.root.greedy.decree import TURMOIL, Decree, card_suit, counts_ok, remaining_decree
from games.root.greedy.map_model import EYRIE, MARQUISE
from games.root.greedy.position import position
from games.root.greedy.turn import Scorer, Turn
from games.root.maps import CLEARING_IDS
from games.root.suits import BIRD
from games.root.tracks import DECREE_COLUMNS, EYRIE_ROOSTS, LEADER_BY_ID, roost_vp

LEADER_PREFERENCE = ("despot", "commander", "charismatic", "builder")


def full_decree(turn: Turn, leader: str | None = None) -> Decree:
    """The whole Decree, as it will be resolved next Daylight (with a new ``leader``: only
    that leader's Viziers)."""
    cards: list[tuple[str, str]] = []
    if leader is None:
        for name in DECREE_COLUMNS:
            cards.extend((name, card_suit(x)) for x in turn.board.get(f"decree_{name}", ()))
        leader = str(turn.board.get("leader", ""))
    else:
        cards = [
            (col, BIRD) for col in sorted(LEADER_BY_ID[leader].viziers, key=DECREE_COLUMNS.index)
        ]
    return Decree(cards, leader, turn.player.warriors_in_supply)


def planning_decree(turn: Turn) -> Decree:
    """The whole Decree, asked to hold for three Daylights where it can."""
    base = full_decree(turn)
    twice = Decree(base.cards, base.leader, base.supply, 3)
    return twice if twice.feasible(turn.map) else base


def column_value(turn: Turn, column: str, suit: str, decree: Decree) -> float:
    """How much a card of ``suit`` in ``column`` is worth if the Decree can carry it."""
    m = turn.map
    if not decree.feasible(m):
        return -TURMOIL
    # Better if the new card does not rely on this turn's moves: its column works on the
    # map as it is now.
    same = [(col, s) for col, s in decree.cards if col == column]
    risk = 3.0 if column != "recruit" and not counts_ok(m, same) else 0.0
    # Each card is an action owed every Daylight: the more a column holds, the less the
    # next one is worth (recruits drain the supply, builds need a new clearing each time).
    already = sum(1 for col, _ in decree.cards if col == column) - 1
    if column == "recruit":
        return 1.4 + (0.6 if suit == BIRD else 0.0) - 0.5 * already
    if column == "move":
        return 0.8 - 0.2 * already - risk
    if column == "battle":
        targets = sum(
            m.pieces(MARQUISE, c) for c in m.matching(suit) if m.w(EYRIE, c) > m.w(MARQUISE, c)
        )
        return 0.7 + 0.5 * min(targets, 2) - 0.4 * already - risk
    roosts = sum(1 for c in CLEARING_IDS if m.has_roost(c))
    if roosts + 2 * (already + 1) > EYRIE_ROOSTS:
        return -1.0
    return 1.5 + roost_vp(roosts + 1) - roost_vp(roosts) - 1.2 * already - risk


def best_column(turn: Turn, card_id: str) -> tuple[float, str]:
    """The best column for a card, as (``column_value``, column)."""
    suit = card_suit(card_id)
    base = planning_decree(turn)
    best = (-1e9, "")
    for column in DECREE_COLUMNS:
        value = column_value(turn, column, suit, base.with_card(column, suit))
        if value > best[0]:
            best = (value, column)
    return best


def _eyrie_decree_card(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        if o.value[0] == "done":
            yield 1.2
            continue
        if o.value[0] == "use":  # a card effect beside the Decree (RT7): left to the windows
            yield -1000.0
            continue
        card_id = o.value[1]
        value, _ = best_column(turn, card_id)
        if value <= -TURMOIL:
            # Every place for this card ends in turmoil: give up a non-bird card, late.
            value = -TURMOIL - (5.0 if card_suit(card_id) == BIRD else 0.0)
        yield value - 0.3 * card_value(turn, card_id)


def _eyrie_decree_column(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    card_id = turn.fields.get("card", "")
    suit = card_suit(card_id) if card_id else BIRD
    base = planning_decree(turn)
    for o in options:
        column = DECREE_COLUMNS[o.value[1]]
        value = column_value(turn, column, suit, base.with_card(column, suit))
        # With turmoil certain, the later the failure the more of the Decree is taken.
        yield value + 0.01 * DECREE_COLUMNS.index(column)


def _eyrie_leader(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        leader = o.value[1]
        value = float(len(LEADER_PREFERENCE) - LEADER_PREFERENCE.index(leader))
        decree = full_decree(turn, leader)
        if not decree.feasible(turn.map):
            value -= 10.0
        decree.turns = 3
        if not decree.feasible(turn.map):
            value -= 1.5
        yield value


def _eyrie_order(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    decree = remaining_decree(turn)
    column = DECREE_COLUMNS[int(turn.field("column", EYRIE) or 0)]
    for o in options:
        if o.value[0] == "use":  # a card effect between Decree cards (RT7): left to the windows
            yield -1000.0
            continue
        suit = o.value[1]
        value = 0.0 if suit == BIRD else 1.0
        if decree is not None:
            cards = list(decree.cards)
            cards.remove((column, suit))
            first = Decree([(column, suit), *cards], decree.leader, decree.supply)
            if not first.feasible(turn.map):
                value -= 10.0
        yield value


def _eyrie_recruit(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    per = 2 if turn.board.get("leader") == "charismatic" else 1
    for o in options:
        c = o.value[1]
        trial = m.copy()
        trial.add(EYRIE, c, per)
        value = -turn.safety(c) * 0.2 + position(trial, EYRIE, MARQUISE)
        if decree is not None and not decree.feasible(trial):
            value -= TURMOIL
        yield value


def _eyrie_build(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    m = turn.map
    decree = remaining_decree(turn)
    roost_suits = [m.suit[c] for c in CLEARING_IDS if m.has_roost(c)]
    for o in options:
        c = o.value[1]
        trial = m.copy()
        trial.buildings[c].append((EYRIE, "roost"))
        value = turn.safety(c) + (1.0 if m.suit[c] not in roost_suits else 0.0)
        if decree is not None and not decree.feasible(trial):
            value -= TURMOIL
        yield value


def _eyrie_roost(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield turn.safety(o.value[1])


def _eyrie_corner(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield turn.safety(o.value[1])


SCORERS: dict[str, Scorer] = {
    "eyrie.leader": _eyrie_leader,
    "eyrie.decree_card": _eyrie_decree_card,
    "eyrie.decree_column": _eyrie_decree_column,
    "eyrie.order": _eyrie_order,
    "eyrie.recruit": _eyrie_recruit,
    "eyrie.build": _eyrie_build,
    "eyrie.roost": _eyrie_roost,
    "eyrie.corner": _eyrie_corner,
}
