"""Matchmaking for a continuous ladder: which available bots play together next, in which seats.

One pool is one game, variant and player count. Each round of matchmaking takes the bots that
are available now and forms as many groups as it can, one at a time:

1. the *anchor* of the next group is the neediest bot: fewest games so far, then the one that
   has waited longest (this is what keeps play counts fair over time);
2. its partners are every other author's bot available before any house bot; among each
   kind, those that cost least: close ratings, few games, not the opponents it just played
   (no immediate rematch);
3. a group that needs house bots waits while another author's bot of the pool is connected
   but busy (``coming``), until one of its authors' bots has waited ``gather_s``: bots whose
   matches end at different times then still meet, and once they have met they are free
   together and meet again;
4. seats are rotated: the group's bots take the seat permutation that gives each bot the seat
   it has taken least often.

House bots are always available, with unlimited concurrency, so a lone bot (no other author's
bot connected) gets games at once; a connected bot plays at most as many matches at once as it
declared. Pure logic, no I/O: the service feeds it and acts on the groups, and a simulation
test checks its fairness.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Elo points that cost as much as one game of difference in experience.
ELO_PER_GAME = 8.0
#: The cost of meeting a bot one has just played (one of its last ``REMATCH_MEMORY`` opponents).
REMATCH_COST = 400.0
#: Opponents remembered per bot, to avoid immediate rematches.
REMATCH_MEMORY = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """A bot that could play now."""

    bot_id: str
    rating: float
    games: int
    #: Matches it may still start now (connected bots declare a concurrency; house bots: many).
    free_slots: int
    #: Since when it has been waiting (monotonic seconds): among equals, who waited longest
    #: goes first, and an author's bot that waited ``gather_s`` is no longer held.
    waiting_since: float
    house: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """One match to start: bot ids in seat order."""

    seats: tuple[str, ...]


@dataclass(slots=True)
class History:
    """What matchmaking remembers between rounds: recent opponents and seats taken."""

    players: int
    recent: dict[str, deque[str]] = field(default_factory=dict)
    seat_counts: dict[str, list[int]] = field(default_factory=dict)

    def record(self, group: Group) -> None:
        for seat, bot in enumerate(group.seats):
            self.seat_counts.setdefault(bot, [0] * self.players)[seat] += 1
            memory = self.recent.setdefault(bot, deque(maxlen=REMATCH_MEMORY))
            memory.extend(other for other in group.seats if other != bot)

    def just_played(self, bot: str, other: str) -> bool:
        return other in self.recent.get(bot, ())

    def seats_taken(self, bot: str) -> list[int]:
        return self.seat_counts.get(bot, [0] * self.players)


def pair_cost(history: History, a: Candidate, b: Candidate) -> float:
    """How much we would rather not put ``a`` and ``b`` in one match (0 = ideal); authors'
    bots come before house bots whatever their cost (``form_groups``)."""
    cost = abs(a.rating - b.rating) + ELO_PER_GAME * b.games
    if history.just_played(a.bot_id, b.bot_id):
        cost += REMATCH_COST
    return cost


def form_groups(
    candidates: Iterable[Candidate],
    players: int,
    history: History,
    limit: int | None = None,
    *,
    now: float = 0.0,
    gather_s: float = 0.0,
    coming: int = 0,
) -> list[Group]:
    """Groups to start now (at most ``limit``), each recorded in ``history``.

    A bot appears at most once per group and in at most ``free_slots`` groups. A group is
    formed only around an author's bot: house bots never play only among themselves.
    ``coming``: authors' bots of the pool that are connected but have no free slot now (an
    author's bot that runs out of free slots in this round counts too). While there is one, a
    group that would need a house bot is formed only once one of its authors' bots has waited
    ``gather_s`` (since ``waiting_since``, at ``now``); until then its bots wait for it.
    """
    if players < 1:
        raise ValueError(f"players must be at least 1, not {players}")
    slots = {c.bot_id: c for c in candidates if c.free_slots > 0}
    free = {bot: c.free_slots for bot, c in slots.items()}
    for bot in _left_waiting(slots.values(), players, now, gather_s, coming):
        free[bot] = 0
    authors = _Authors([c for c in slots.values() if not c.house and free[c.bot_id] > 0])
    houses = [c for c in slots.values() if c.house and free[c.bot_id] > 0]
    groups: list[Group] = []
    while limit is None or len(groups) < limit:
        anchor = authors.neediest()
        if anchor is None:
            break
        if len(authors) - 1 + len(houses) < players - 1:
            # The neediest bot cannot be seated: nobody else can be either with fewer choices.
            break
        # Every other author's bot before any house bot; among each kind, the cheapest.
        members = [anchor, *authors.closest(anchor, players - 1, history)]
        needed = players - len(members)
        if needed:
            costs = sorted(houses, key=lambda c: (pair_cost(history, anchor, c), c.bot_id))
            members.extend(costs[:needed])
        seated = [m for m in members if not m.house]
        if (
            coming > 0
            and len(seated) < len(members)
            and all(now - m.waiting_since < gather_s for m in seated)
        ):
            # Every free author's bot is in this group (they come before house bots): rather
            # than fill it with house bots, wait for one of the busy ones.
            break
        group = Group(seat_order(history, [m.bot_id for m in members]))
        for member in members:
            free[member.bot_id] -= 1
            if free[member.bot_id] == 0:
                if member.house:
                    houses.remove(member)
                else:
                    authors.remove(member)
                    coming += 1  # busy from now on: it will be free again when this match ends
        history.record(group)
        groups.append(group)
    return groups


class _Authors:
    """The authors' bots with a free slot in one round, kept in two orders so that forming
    each group does not look at every bot: by need (the next anchor first) and by rating
    (its closest partners are found by walking outward from its rating)."""

    def __init__(self, bots: list[Candidate]) -> None:
        self._by_need = sorted(bots, key=lambda c: (c.games, c.waiting_since, c.bot_id))
        self._next = 0
        self._by_rating = sorted(bots, key=lambda c: (c.rating, c.bot_id))
        self._keys = [(c.rating, c.bot_id) for c in self._by_rating]
        self._gone: set[str] = set()
        #: No bot's cost can be below its rating distance plus this (``pair_cost``).
        self._least_games_cost = ELO_PER_GAME * min((c.games for c in bots), default=0)

    def __len__(self) -> int:
        return len(self._by_rating)

    def neediest(self) -> Candidate | None:
        """Fewest games, then the longest waiting (then its id): the next anchor."""
        while self._next < len(self._by_need) and self._by_need[self._next].bot_id in self._gone:
            self._next += 1
        return self._by_need[self._next] if self._next < len(self._by_need) else None

    def remove(self, bot: Candidate) -> None:
        """``bot`` has no free slot left this round."""
        self._gone.add(bot.bot_id)
        index = bisect.bisect_left(self._keys, (bot.rating, bot.bot_id))
        del self._keys[index], self._by_rating[index]

    def closest(self, anchor: Candidate, count: int, history: History) -> list[Candidate]:
        """Up to ``count`` other bots that cost ``anchor`` least, in order of (cost, id): as
        sorting them all by ``pair_cost`` would, looking only at bots whose rating distance
        alone does not already rule them out."""
        if count <= 0:
            return []
        here = bisect.bisect_left(self._keys, (anchor.rating, anchor.bot_id))
        below, above = here - 1, here + 1
        best: list[tuple[float, str, Candidate]] = []
        while below >= 0 or above < len(self._by_rating):
            down = anchor.rating - self._by_rating[below].rating if below >= 0 else math.inf
            up = (
                self._by_rating[above].rating - anchor.rating
                if above < len(self._keys)
                else math.inf
            )
            if down <= up:
                other, distance, below = self._by_rating[below], down, below - 1
            else:
                other, distance, above = self._by_rating[above], up, above + 1
            if len(best) == count and abs(distance) + self._least_games_cost > best[-1][0]:
                break  # every bot further out costs more than the ones kept
            entry = (pair_cost(history, anchor, other), other.bot_id, other)
            if len(best) < count or entry[:2] < best[-1][:2]:
                bisect.insort(best, entry, key=lambda e: e[:2])
                del best[count:]
        return [other for _, _, other in best]


def _left_waiting(
    candidates: Iterable[Candidate], players: int, now: float, gather_s: float, coming: int
) -> list[str]:
    """The authors' bots that wait this round because they are one too few for a table of
    authors: the most played (then the latest to start waiting), so that waiting costs the
    bots with most games, not always the same ones. None once one of them has waited
    ``gather_s``, or when nobody busy is coming and nobody is seated now. Only when each has
    one free slot: a bot with more stays free after a match starts, and partners them all."""
    authors = sorted(
        (c for c in candidates if not c.house), key=lambda c: (c.games, c.waiting_since, c.bot_id)
    )
    if any(c.free_slots > 1 for c in authors):
        return []
    spare = len(authors) % players
    if not spare or gather_s <= 0 or (coming == 0 and len(authors) < players):
        return []
    waiting = authors[-spare:]
    if any(now - c.waiting_since >= gather_s for c in waiting):
        return []
    return [c.bot_id for c in waiting]


def seat_order(history: History, bots: Sequence[str]) -> tuple[str, ...]:
    """The permutation of ``bots`` over the seats that each has taken least (ties: as given).

    Exhaustive: at most 4! = 24 orders for the games we have.
    """
    counts: Mapping[str, list[int]] = {bot: history.seats_taken(bot) for bot in bots}
    best = min(
        itertools.permutations(bots),
        key=lambda order: (
            sum(counts[bot][seat] for seat, bot in enumerate(order)),
            max(counts[bot][seat] for seat, bot in enumerate(order)),
        ),
    )
    return tuple(best)
