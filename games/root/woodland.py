"""The pieces on the map: warriors, buildings, ruins, tokens and the Vagabond pawn (game state).

``Woodland`` is the mutable part of the map, laid over a frozen ``Board`` from ``maps``. It knows
who rules each clearing and where a faction may move, and nothing about cards, supplies, turns or
costs: those belong to the faction and turn layers, which ask this class what is legal.

Rules, from the Law of Root (section numbers as in the Vagabottos/root copy,
``src/assets/i18n/rules/en-US.yml``, whose order gives the numbering; digest §1 and §5 agree):
- Law 2.2 (Clearings and Paths): clearings are adjacent only along paths; placing a building
  fills an open slot and a clearing with none takes no building; "R" slots start with ruins,
  which stay until something (the Vagabond's Explore, Law 9.5.3) says to remove them.
- Law 2.3 (Rivers): rivers are not paths, so they never make clearings adjacent here.
- Law 2.5 (Rule): a player rules a clearing with more warriors plus buildings there than each
  other player; tokens and pawns do not count; a tie means no one rules.
- Law 7.2.2 (Lords of the Forest): the Eyrie rule a clearing where they are tied for the most
  warriors plus buildings and have at least one Eyrie piece there.
- Law 9.2.2 (Lone Wanderer): the Vagabond pawn is not a warrior: it neither rules nor stops
  anyone ruling.
- Law 4.2 (Move): move more than zero of your warriors from one clearing to one adjacent one;
  Law 4.2.1 (You Must Rule): you must rule the origin, the destination or both.
- Law 9.2.3 (Nimble): the Vagabond moves regardless of who rules either clearing.
- Law 8.2.5.1: a clearing holds at most one sympathy token.

Data choices:
- Factions are the strings ``marquise``, ``eyrie``, ``alliance``, ``vagabond``; an unknown
  faction, building or token kind is a ``ValueError`` (typos fail loudly, not silently).
- Building kinds: Marquise ``sawmill``/``workshop``/``recruiter`` (``tracks.BUILDING_TYPES``),
  Eyrie ``roost``, Alliance ``fox_base``/``rabbit_base``/``mouse_base`` (a base's printed suit
  matters when it is removed, Law 8.2.4, so it is part of the kind). Token kinds: Marquise
  ``wood`` and ``keep`` (the keep is a token, so it does not count toward rule), Alliance
  ``sympathy``.
- A ruin is kept in the clearing's slot list as ``(None, "ruin")``: it fills a slot, has no owner
  and so never counts toward rule. ``Woodland(board)`` places one in every ``Clearing.ruin``
  clearing (Law 5.1 step 4); ``remove_ruin`` frees the slot.
- Warriors are a ``dict`` per clearing holding only non-zero counts, so rule is computed over
  the factions actually present. Index 0 of every per-clearing list is unused (no clearing 0),
  as in ``maps``.
- The pawn's place is a clearing id (``int``), a forest id (``str``, Law 9.3.2 puts it in a
  forest) or ``None`` (no Vagabond in the game).

Rulings:
- The Vagabond has no warriors in the base game, so it cannot be given warriors or buildings.
  Its "move" is the pawn's (Law 4.2 counts pawns): ``can_move("vagabond", a, b)`` holds when the
  pawn is in clearing ``a`` and ``b`` is adjacent by path, ruled by anyone (Nimble). Boots,
  Hostile costs and moves into or out of forests (Slip) are the Vagabond layer's business.
- "Piece" in Lords of the Forest is read as warrior or building: the Eyrie have no tokens, and
  a tie for most at a positive count already implies one. With no pieces anywhere nobody rules,
  Eyrie included.
- Movement legality is judged on the board as it is now (before the move), as Law 4.2.1 reads.
- Not enforced here (left to the faction layer): supply limits (25 Marquise warriors etc.), the
  Keep's ban on others placing pieces in its clearing, one roost per clearing (an Eyrie build
  condition), and the Outrage cost of moving into a sympathetic clearing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.root.maps import BOARDS, CLEARING_IDS, Board
from games.root.tracks import BUILDING_TYPES

MARQUISE = "marquise"
EYRIE = "eyrie"
ALLIANCE = "alliance"
VAGABOND = "vagabond"
FACTIONS: tuple[str, ...] = (MARQUISE, EYRIE, ALLIANCE, VAGABOND)

#: Factions that have warriors (and buildings) on the map in the base game.
WARRIOR_FACTIONS: tuple[str, ...] = (MARQUISE, EYRIE, ALLIANCE)

ROOST = "roost"
FOX_BASE = "fox_base"
RABBIT_BASE = "rabbit_base"
MOUSE_BASE = "mouse_base"
RUIN = "ruin"

WOOD = "wood"
KEEP = "keep"
SYMPATHY = "sympathy"

#: Building kinds each faction can place.
BUILDINGS: Mapping[str, tuple[str, ...]] = {
    MARQUISE: BUILDING_TYPES,
    EYRIE: (ROOST,),
    ALLIANCE: (FOX_BASE, RABBIT_BASE, MOUSE_BASE),
}

#: Token kinds each faction can place.
TOKENS: Mapping[str, tuple[str, ...]] = {MARQUISE: (WOOD, KEEP), ALLIANCE: (SYMPATHY,)}

#: One slot's content: (owner, kind). A ruin has no owner.
Slot = tuple[str | None, str]
Token = tuple[str, str]

RUIN_SLOT: Slot = (None, RUIN)


class Woodland:
    """Warriors, buildings, ruins, tokens and the pawn on ``board``; ``copy()`` is cheap."""

    __slots__ = (
        "_on_map",
        "_pawn",
        "_rulers",
        "_sites",
        "_slots",
        "_tokens",
        "_warriors",
        "board",
        "memo",
    )

    board: Board
    _warriors: list[dict[str, int]]
    _slots: list[list[Slot]]
    _tokens: list[list[Token]]
    _pawn: int | str | None
    #: Rule per clearing, computed when asked and forgotten when warriors or buildings change
    #: there (rule is asked for far more often than pieces change).
    _rulers: list[str | None]
    #: Warriors on the map per faction, kept up to date as they are placed and removed.
    _on_map: dict[str, int]
    #: (faction, building kind) -> clearings holding one, computed when asked, forgotten when
    #: any building is placed or removed.
    _sites: dict[Slot, tuple[int, ...]]
    #: Per clearing, what a reader derived from its pieces (the observation's clearing view),
    #: forgotten whenever a piece there changes: a seat's view is built for every decision
    #: and most clearings are as they were.
    memo: list[Any]

    def __init__(self, board: Board, *, ruins: bool = True) -> None:
        self.board = board
        n = len(CLEARING_IDS) + 1
        self._warriors = [{} for _ in range(n)]
        self._slots = [[] for _ in range(n)]
        self._tokens = [[] for _ in range(n)]
        self._pawn = None
        self._rulers = [_UNKNOWN] * n
        self.memo = [None] * n
        self._on_map = {}
        self._sites = {}
        if ruins:
            for cl in board.clearings:
                if cl.ruin:
                    self._slots[cl.id].append(RUIN_SLOT)

    def copy(self) -> Woodland:
        """An independent copy (the frozen board is shared)."""
        new = Woodland.__new__(Woodland)
        new.board = self.board
        new._warriors = [dict(w) for w in self._warriors]
        new._slots = [list(s) for s in self._slots]
        new._tokens = [list(t) for t in self._tokens]
        new._pawn = self._pawn
        new._rulers = list(self._rulers)
        new.memo = list(self.memo)
        new._on_map = dict(self._on_map)
        new._sites = dict(self._sites)
        return new

    # -- reading -----------------------------------------------------------------------------

    def warriors(self, faction: str, c: int) -> int:
        if not 0 < c < 13:
            _clearing(c)
        return self._warriors[c].get(faction, 0)

    def warriors_on_map(self, faction: str) -> int:
        return self._on_map.get(faction, 0)

    def building_sites(self, faction: str, kind: str) -> tuple[int, ...]:
        """Clearings holding a ``kind`` building of ``faction``, once per building, ascending."""
        key = (faction, kind)
        found = self._sites.get(key)
        if found is None:
            found = self._sites[key] = tuple(
                c for c in CLEARING_IDS for slot in self._slots[c] if slot == key
            )
        return found

    def buildings(self, c: int) -> tuple[Slot, ...]:
        """Filled slots of clearing ``c`` in placement order, ruins included."""
        if not 0 < c < 13:
            _clearing(c)
        return tuple(self._slots[c])

    def tokens(self, c: int) -> tuple[Token, ...]:
        if not 0 < c < 13:
            _clearing(c)
        return tuple(self._tokens[c])

    def pieces(self, faction: str, c: int) -> list[str]:
        """Kinds of ``faction``'s buildings then tokens in ``c`` (what hits reach after
        warriors, Law 4.3.4)."""
        if not 0 < c < 13:
            _clearing(c)
        found = [kind for owner, kind in self._slots[c] if owner == faction]
        for owner, kind in self._tokens[c]:
            if owner == faction:
                found.append(kind)
        return found

    def has_other_pieces(self, faction: str, c: int) -> bool:
        """Whether any faction other than ``faction`` has a warrior, building or token in
        ``c`` (ruins belong to no one)."""
        if not 0 < c < 13:
            _clearing(c)
        warriors = self._warriors[c]
        if len(warriors) > 1 or (warriors and faction not in warriors):
            return True
        for owner, _ in self._slots[c]:
            if owner is not None and owner != faction:
                return True
        return any(owner != faction for owner, _ in self._tokens[c])

    def count_tokens(self, faction: str, kind: str, c: int) -> int:
        if not 0 < c < 13:
            _clearing(c)
        return self._tokens[c].count((faction, kind))

    def has_pieces(self, faction: str, c: int) -> bool:
        """Whether ``faction`` has any warrior, building or token in ``c``."""
        if not 0 < c < 13:
            _clearing(c)
        if faction in self._warriors[c]:
            return True
        return any(owner == faction for owner, _ in self._slots[c]) or any(
            owner == faction for owner, _ in self._tokens[c]
        )

    def has_ruin(self, c: int) -> bool:
        _clearing(c)
        return RUIN_SLOT in self._slots[c]

    def free_slots(self, c: int) -> int:
        """Open building slots in ``c``: the board's slots less buildings and ruins there."""
        if not 0 < c < 13:
            _clearing(c)
        return _CAPACITY[self.board.name][c] - len(self._slots[c])

    def rulers(self) -> list[str | None]:
        """``ruler(c)`` for every clearing at once, indexed by clearing id (entry 0 unused)."""
        rulers = self._rulers
        for c in CLEARING_IDS:
            if rulers[c] is _UNKNOWN:
                rulers[c] = self._compute_ruler(c)
        return rulers

    @property
    def pawn(self) -> int | str | None:
        """Where the Vagabond pawn is: a clearing id, a forest id, or None."""
        return self._pawn

    def presence(self, faction: str, c: int) -> int:
        """Warriors plus buildings of ``faction`` in ``c``: what counts toward rule (Law 2.5)."""
        _clearing(c)
        return self._warriors[c].get(faction, 0) + sum(1 for o, _ in self._slots[c] if o == faction)

    # -- rule (Law 2.5, 7.2.2, 9.2.2) --------------------------------------------------------

    def ruler(self, c: int) -> str | None:
        """The faction ruling ``c``, or None (nobody there, or a tie the Eyrie are not in)."""
        if not 0 < c < 13:
            _clearing(c)
        found = self._rulers[c]
        if found is _UNKNOWN:
            found = self._rulers[c] = self._compute_ruler(c)
        return found

    def _compute_ruler(self, c: int) -> str | None:
        counts = dict(self._warriors[c])
        for owner, _ in self._slots[c]:
            if owner is not None:
                counts[owner] = counts.get(owner, 0) + 1
        best = max(counts.values(), default=0)
        if best == 0:
            return None
        top = [f for f, n in counts.items() if n == best]
        if len(top) == 1:
            return top[0]
        return EYRIE if EYRIE in top else None

    def rules(self, faction: str, c: int) -> bool:
        return self.ruler(c) == faction

    def ruled_by(self, faction: str) -> tuple[int, ...]:
        """Clearings ``faction`` rules, ascending."""
        return tuple(c for c in CLEARING_IDS if self.ruler(c) == faction)

    # -- movement (Law 4.2, 4.2.1, 9.2.3) ----------------------------------------------------

    def can_move(self, faction: str, a: int, b: int) -> bool:
        """Whether ``faction`` may move now from ``a`` to ``b`` (adjacent by path)."""
        _faction(faction)
        _clearing(a)
        _clearing(b)
        if b not in self.board.neighbours[a]:
            return False
        if faction == VAGABOND:
            return self._pawn == a
        if self._warriors[a].get(faction, 0) == 0:
            return False
        return self.ruler(a) == faction or self.ruler(b) == faction

    def move_destinations(self, faction: str, a: int) -> tuple[int, ...]:
        """Clearings ``faction`` may move to from ``a`` right now, ascending."""
        _faction(faction)
        _clearing(a)
        neighbours = self.board.neighbours[a]
        if faction == VAGABOND:
            return neighbours if self._pawn == a else ()
        if self._warriors[a].get(faction, 0) == 0:
            return ()
        if self.ruler(a) == faction:
            return neighbours
        return tuple(b for b in neighbours if self.ruler(b) == faction)

    def move_sources(self, faction: str) -> tuple[int, ...]:
        """Clearings ``faction`` can move out of right now (some legal destination), ascending."""
        return tuple(a for a in CLEARING_IDS if self.move_destinations(faction, a))

    def move(self, faction: str, a: int, b: int, count: int = 1) -> None:
        """Move ``count`` warriors (the Vagabond: its pawn; ``count`` must be 1) from a to b."""
        if not self.can_move(faction, a, b):
            raise ValueError(f"{faction} cannot move from {a} to {b}")
        if faction == VAGABOND:
            if count != 1:
                raise ValueError("the Vagabond moves its one pawn")
            self._pawn = b
            return
        self.remove_warriors(faction, a, count)
        self.place_warriors(faction, b, count)

    # -- changing pieces ---------------------------------------------------------------------

    def place_warriors(self, faction: str, c: int, count: int = 1) -> None:
        _warrior_faction(faction)
        _clearing(c)
        _positive(count)
        w = self._warriors[c]
        w[faction] = w.get(faction, 0) + count
        self._on_map[faction] = self._on_map.get(faction, 0) + count
        self._rulers[c] = _UNKNOWN
        self.memo[c] = None

    def remove_warriors(self, faction: str, c: int, count: int = 1) -> None:
        _warrior_faction(faction)
        _clearing(c)
        _positive(count)
        w = self._warriors[c]
        have = w.get(faction, 0)
        if have < count:
            raise ValueError(f"{faction} has {have} warriors in {c}, not {count}")
        if have == count:
            del w[faction]
        else:
            w[faction] = have - count
        self._on_map[faction] -= count
        self._rulers[c] = _UNKNOWN
        self.memo[c] = None

    def add_building(self, faction: str, kind: str, c: int) -> None:
        """Place a building in an open slot; ValueError if there is none (ruins fill slots)."""
        _warrior_faction(faction)
        if kind not in BUILDINGS[faction]:
            raise ValueError(f"{faction} has no building {kind!r}")
        if self.free_slots(c) <= 0:
            raise ValueError(f"clearing {c} has no open building slot")
        self._slots[c].append((faction, kind))
        self._rulers[c] = _UNKNOWN
        self.memo[c] = None
        self._sites.clear()

    def remove_building(self, faction: str, kind: str, c: int) -> None:
        _clearing(c)
        try:
            self._slots[c].remove((faction, kind))
        except ValueError:
            raise ValueError(f"no {faction} {kind} in clearing {c}") from None
        self._rulers[c] = _UNKNOWN
        self.memo[c] = None
        self._sites.clear()

    def add_ruin(self, c: int) -> None:
        """Put a ruin in an open slot of ``c`` (setup does this itself; for rebuilt positions)."""
        if self.free_slots(c) <= 0:
            raise ValueError(f"clearing {c} has no open building slot")
        self._slots[c].append(RUIN_SLOT)
        self.memo[c] = None

    def remove_ruin(self, c: int) -> None:
        """Remove the ruin in ``c`` (only when told to, e.g. the last item explored)."""
        _clearing(c)
        if RUIN_SLOT not in self._slots[c]:
            raise ValueError(f"no ruin in clearing {c}")
        self._slots[c].remove(RUIN_SLOT)
        self.memo[c] = None

    def add_token(self, faction: str, kind: str, c: int) -> None:
        _faction(faction)
        _clearing(c)
        if kind not in TOKENS.get(faction, ()):
            raise ValueError(f"{faction} has no token {kind!r}")
        if kind == SYMPATHY and (faction, kind) in self._tokens[c]:
            raise ValueError(f"clearing {c} already holds a sympathy token")
        self._tokens[c].append((faction, kind))
        self.memo[c] = None

    def remove_token(self, faction: str, kind: str, c: int) -> None:
        _clearing(c)
        try:
            self._tokens[c].remove((faction, kind))
        except ValueError:
            raise ValueError(f"no {faction} {kind} token in clearing {c}") from None
        self.memo[c] = None

    def place_pawn(self, where: int | str) -> None:
        """Put the Vagabond pawn in a clearing (id) or forest (forest id) of the board."""
        if isinstance(where, int):
            _clearing(where)
        elif where not in {f.id for f in self.board.forests}:
            raise ValueError(f"no forest {where!r} on {self.board.name}")
        self._pawn = where


_UNKNOWN: str | None = "?"
#: Building slots per clearing id, per board (entry 0 unused): looked up on every build check.
_CAPACITY: dict[str, tuple[int, ...]] = {
    b.name: (0, *(cl.slots for cl in b.clearings)) for b in BOARDS.values()
}


def _clearing(c: int) -> None:
    if not 1 <= c <= len(CLEARING_IDS):
        raise ValueError(f"no clearing {c}")


def _faction(faction: str) -> None:
    if faction not in FACTIONS:
        raise ValueError(f"unknown faction {faction!r}")


def _warrior_faction(faction: str) -> None:
    _faction(faction)
    if faction not in WARRIOR_FACTIONS:
        raise ValueError(f"{faction} has no warriors or buildings on the map")


def _positive(count: int) -> None:
    if count < 1:
        raise ValueError("count must be at least 1")
