"""The greedy Vagabond: quests first, then explores, aid and crafting; he avoids fights.

Each Daylight action is scored by its verb alone (a quest or a ruin is VP now; aid builds
relationships and VP; battle and Strike make enemies and are left to the last), moves are
preferred to ending Daylight while boots are ready, a quest pays VP, and an item offered by
Aid is taken.

Coalitions (Law 9.2.8, RT22, RT23; four players): he takes every available dominance card he
can (spending his least useful card of its suit), since holding one is what lets him form a
coalition, and forms one when the partner offered is more likely to win than he is alone
(``forms_coalition``). In a coalition he scores no more, so he plays for his partner: he aids
the partner only, never battles or strikes the partner, and battles the leader among the others
(RT23: he wins when the partner wins).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.contract import Option
from games.root.greedy.cards import card_value
from games.root.greedy.turn import Scorer, Turn

#: A random partner's chance to win a four-player game once the greedy Vagabond is in a
#: coalition with it and scores no more, by faction. Measured 2026-12-01 on 600 Autumn games of
#: the greedy Vagabond against three random bots, forming a coalition whenever offered one with
#: that faction: with the Eyrie (which scores by its roosts every turn, and often has the fewest
#: VP after turmoil) 190 of 331 won when formed at 10-14 VP, with the Marquise 16 of 61; a random
#: Alliance won 12% of all-random games. A faction not listed counts as 0.
PARTNER_CHANCE: dict[str, float] = {"eyrie": 0.55, "marquise": 0.25, "alliance": 0.10}
#: His own chance to win alone at 10 VP (the least a coalition needs, Law 3.3.1) against three
#: random bots, and what each VP above it adds (the greedy Vagabond wins 43-45% alone).
SOLO_CHANCE_AT_10 = 0.40
SOLO_CHANCE_PER_VP = 0.02
#: Scores of the dominance options (policy.py leaves the others aside).
FORM = 1000.0
TAKE = 20.0
LEAVE = -1000.0

_ACTION: dict[str, float] = {
    "quest": 10.0,
    "explore": 9.0,
    "craft": 7.0,
    "aid": 6.0,
    "repair": 5.0,
    "steal": 4.0,
    "day_labor": 4.0,
    "hideout": 1.0,
    "move": 2.0,
    "done": 0.0,
    "strike": -3.0,
    "battle": -5.0,
}


_TRACK = frozenset({"tea", "coin", "bag"})


def _hostile(turn: Turn) -> set[str]:
    """Factions Hostile to me (my public board's relationships)."""
    return {str(f) for f, v in turn.board.get("relations", ()) if int(v) < 0}


def _ready(turn: Turn) -> list[str]:
    """My face-up undamaged items (public board texts like ``boot``, ``boot:exhausted``)."""
    return [str(t) for t in turn.board.get("items", ()) if ":" not in str(t)]


def solo_chance(vp: int) -> float:
    """His estimated chance to win alone with ``vp`` VP (against random bots)."""
    return min(0.95, SOLO_CHANCE_AT_10 + SOLO_CHANCE_PER_VP * max(0, vp - 10))


def forms_coalition(turn: Turn, partner: int) -> bool:
    """Law 9.2.8 (RT22): a coalition with ``partner`` when its chance to win is higher than his
    own alone (a coalition wins when the partner wins, RT23)."""
    faction = turn.view.players[partner].faction
    return PARTNER_CHANCE.get(faction, 0.0) > solo_chance(turn.player.vp)


def partner(turn: Turn) -> int:
    """The seat I am in a coalition with, -1 if none."""
    return turn.player.coalition


def dominance_score(turn: Turn, option: Option) -> float:
    """A dominance option of the Vagabond: form a coalition (the best partner first) when
    ``forms_coalition``; take an available dominance card unless already in a coalition (the
    least useful card spent first); leave anything else."""
    verb = option.value[0]
    if verb == "coalition":
        seat = int(option.value[2])
        if partner(turn) < 0 and forms_coalition(turn, seat):
            return FORM + PARTNER_CHANCE.get(turn.view.players[seat].faction, 0.0)
        return LEAVE
    if verb == "take" and partner(turn) < 0:
        return TAKE - card_value(turn, str(option.value[2]))
    return LEAVE


def _leader(turn: Turn, ally: int) -> int:
    """The seat other than me and ``ally`` most likely to win: an activated dominance card
    first, then most VP (-1 if none)."""
    others = [p for p in turn.view.players if p.seat not in (turn.seat, ally)]
    if not others:
        return -1
    return max(others, key=lambda p: (bool(p.dominance), p.vp, -p.seat)).seat


def _here(turn: Turn) -> set[str]:
    """Factions with a piece in my pawn's clearing (none in a forest)."""
    where = str(turn.board.get("pawn", ""))
    if not where.isdigit():
        return set()
    c = int(where)
    found: set[str] = set()
    for clearing in turn.view.clearings:
        if clearing.id == c:
            found.update(f for f, n in clearing.warriors if n)
            found.update(owner for owner, _ in clearing.buildings if owner)
            found.update(owner for owner, _ in clearing.tokens if owner)
    found.discard(turn.me)
    return found


def _coalition_action(turn: Turn, options: Sequence[Option], ally: int) -> Iterable[float]:
    """In a coalition: aid the partner, fight the leader, never harm the partner."""
    players = turn.view.players
    leader = _leader(turn, ally)
    here = _here(turn)
    ally_faction = players[ally].faction
    leader_faction = players[leader].faction if leader >= 0 else ""
    for o in options:
        verb = str(o.value[0])
        if verb == "aid":
            yield 8.0 if int(o.value[1]) == ally else -2.0
        elif verb == "strike":
            target = int(o.value[1])
            yield -10.0 if target == ally else (6.0 if target == leader else 3.0)
        elif verb == "battle":
            # The defender is chosen next (``_defender``): the leader if here, never the ally.
            if leader_faction in here:
                yield 6.0
            elif here - {ally_faction}:
                yield 3.0
            else:
                yield -10.0
        else:
            yield _ACTION.get(verb, 0.0)


def _defender(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Whom he battles: in a coalition the leader first, never the partner; else anyone."""
    ally = partner(turn)
    leader = _leader(turn, ally) if ally >= 0 else -1
    for o in options:
        seat = int(o.value[1])
        yield -10.0 if seat == ally >= 0 else (1.0 if seat == leader else 0.0)


def _action(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    ally = partner(turn)
    if ally >= 0:
        yield from _coalition_action(turn, options, ally)
        return
    hostile = _hostile(turn)
    # Aid would exhaust a tea, coin or bag, costing refreshes, cards or capacity (RV1).
    costly_aid = all(i in _TRACK for i in _ready(turn))
    for o in options:
        verb = str(o.value[0])
        if verb == "aid":
            receiver = turn.view.players[int(o.value[1])]
            if receiver.faction in hostile and not receiver.items:
                yield -1.0  # a Hostile faction never improves: only its items are worth it
                continue
            if costly_aid:
                yield 0.5
                continue
        yield _ACTION.get(verb, 0.0)


def _reward(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 2.0 if o.value[1] == "vp" else 1.0


def _take(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[0] == "take" else 0.0


def _keep_out(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Fights with an ally's warriors risk the alliance (RV14): the greedy fights alone, and
    moves alone."""
    for o in options:
        yield 1.0 if o.value[0] == "pass" else 0.0


#: Items kept longest over capacity (the first removed is the least useful).
_KEEP = ("boot", "torch", "sword", "hammer", "bag", "tea", "coin", "crossbow")


def _capacity(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Over capacity, remove the kind he holds most of, the less useful first."""
    held = [str(t).split(":")[0] for t in turn.board.get("items", ())]
    for o in options:
        item = str(o.value[1])
        yield held.count(item) - 0.1 * (_KEEP.index(item) if item in _KEEP else 0)


#: Ready items he would rather keep face up: tea, coins and bags only count on their tracks
#: face up (RV1), boots and torches carry his turn.
_READY_WORTH = {"tea": 5.0, "coin": 5.0, "bag": 4.0, "boot": 3.0, "torch": 2.0, "sword": 1.0}


def _exhaust(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Aid exhausts the item least worth keeping face up."""
    for o in options:
        yield -_READY_WORTH.get(str(o.value[1]), 0.0)


def _refresh(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    """Refresh undamaged items first, those worth most face up first."""
    for o in options:
        damaged = len(o.value) > 2 and bool(o.value[2])
        yield _READY_WORTH.get(str(o.value[1]), 0.5) - (10.0 if damaged else 0.0)


def _character(turn: Turn, options: Sequence[Option]) -> Iterable[float]:
    for o in options:
        yield 1.0 if o.value[1] == "thief" else 0.0


#: Decision kinds only the Vagabond meets.
SCORERS: dict[str, Scorer] = {
    "vagabond.action": _action,
    "vagabond.quest_reward": _reward,
    "vagabond.aid_take": _take,
    "vagabond.character": _character,
    "vagabond.capacity": _capacity,
    "vagabond.aid_item": _exhaust,
    "vagabond.refresh": _refresh,
    "battle.ally": _keep_out,
    "battle.defender": _defender,
    "vagabond.escort": _keep_out,
}
