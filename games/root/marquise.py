"""The Marquise de Cat (Law 6): keep, Field Hospitals, wood, buildings and the Daylight actions.

The Marquise's turn reads like her faction board:

- Birdsong (Law 6.4): one wood at each sawmill;
- Daylight (Law 6.5): craft with workshops, then up to three actions (Battle, March, Recruit,
  Build, Overwork), plus one per bird card spent (Hawks for Hire); Tax Collector and
  Codebreakers are offered beside the actions (RT7);
- Evening (Law 6.6): draw 1 + the uncovered draw bonuses of the recruiter track, then discard
  down to five.

Her state (``MarquiseBoard``) is only the wood left in her supply and where the keep is; the
buildings left on her tracks are derived from the buildings on the map (``tracks.build_cost``).
Decisions are small: one clearing, one building type or one card at a time, and when several
identical pieces are to be placed or paid (wood, recruits) the clearings are asked in ascending
order, so each way to do it is offered once (RM8). Every option offered can be completed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.root.battle import Battle, battle_clearings
from games.root.card_effects import EFFECT_VERBS, phase_effects, use_option
from games.root.cards import CARD_BY_ID
from games.root.crafting import Craft
from games.root.faction import BIRDSONG, DAYLIGHT, EVENING, Faction, FactionBoard
from games.root.hand_limit import HandLimit
from games.root.maps import CLEARING_IDS, OPPOSITE_CORNER
from games.root.moving import Move, move_origins
from games.root.steps import (
    DONE,
    FINISHED,
    PASS,
    Options,
    Step,
    card_option,
    clearing_option,
)
from games.root.suits import BIRD
from games.root.tracks import (
    BUILDING_TYPES,
    MARQUISE_ACTIONS,
    MARQUISE_BUILDINGS_PER_TYPE,
    MARQUISE_WARRIORS,
    MARQUISE_WOOD_TOKENS,
    RECRUITER,
    SAWMILL,
    WORKSHOP,
    build_cost,
    marquise_draws,
)
from games.root.woodland import KEEP, MARQUISE, WOOD

if TYPE_CHECKING:
    from games.root.state import RootState

MARQUISE_RULINGS: dict[str, str] = {
    "RM1": "Field Hospitals applies to every removal of Marquise warriors, also from the keep's "
    "own clearing and by her own effects (Tax Collector): Law 6.2.3 names no exception.",
    "RM2": "Field Hospitals is offered after all simultaneous removal (Law 1.4): if the keep was "
    "removed in the same battle or favor, it can no longer be used.",
    "RM3": "One Field Hospitals card moves all the warriors removed from that clearing by one "
    "removal (seed: one card moves several); each removal event is a separate offer.",
    "RM4": "Birdsong with too little wood in supply: the Marquise chooses which sawmills get "
    "the wood there is (place as many as possible, Law 1.4 Limits).",
    "RM5": "Recruit is offered only with a warrior in supply and a recruiter on the map; with "
    "too few warriors the Marquise chooses which recruiters get them.",
    "RM6": "Hawks for Hire (spend a bird card for an extra action) is offered only when no "
    "actions are left and some action could then be taken: spending earlier gains nothing.",
    "RM7": "Once March is chosen its first move is mandatory and the second optional (a March "
    "of zero moves would only waste an action).",
    "RM8": "Wood to pay, sawmills short of wood and recruiters short of warriors are chosen one "
    "clearing at a time in ascending order, so each combination is offered exactly once.",
    "RM9": "Overwork needs a wood token in supply (it places one); it is not offered otherwise.",
    "RM10": "Setup: the keep goes only to a corner where the three starting buildings fit in "
    "open slots of it and its adjacent clearings (ruins fill slots).",
    "RM11": "Wood paid for a building and wood removed by an enemy go back to the supply; the "
    "keep, once removed, leaves the game (Law 6.2.2) and the Marquise can never place it again.",
    "RM12": "The Marquise may end Daylight at any time while actions remain (the actions are "
    "'up to three').",
}


class MarquiseBoard(FactionBoard):
    """Wood in supply and the keep's clearing (0: not on the map, so out of the game)."""

    __slots__ = ("keep", "wood")

    def __init__(self, wood: int = MARQUISE_WOOD_TOKENS, keep: int = 0) -> None:
        self.wood = wood
        self.keep = keep

    def copy(self) -> MarquiseBoard:
        return MarquiseBoard(self.wood, self.keep)

    def canonical(self) -> tuple[Any, ...]:
        return (self.wood, self.keep)

    @classmethod
    def from_public(cls, values: dict[str, Any]) -> MarquiseBoard:
        return cls(int(values["wood"]), int(values["keep"]))

    def public(self) -> dict[str, Any]:
        """Wood in supply, the keep's clearing (0: none) and whether the keep is still in play."""
        return {"wood": self.wood, "keep": self.keep, "keep_in_game": self.keep != 0}


def _board(g: RootState, seat: int) -> MarquiseBoard:
    board = g.players[seat].board
    assert isinstance(board, MarquiseBoard)
    return board


def keep_clearing(g: RootState) -> int | None:
    """Where the Marquise's keep is (her starting corner), or None if no Marquise or no keep.

    The Eyrie set up in the corner diagonally opposite this one (Law 7.3 step 2)."""
    seat = g.seat_of.get(MARQUISE)
    if seat is None:
        return None
    return _board(g, seat).keep or None


# -- the map, as the Marquise sees it ------------------------------------------------------------


def marquise_buildings(g: RootState) -> dict[str, tuple[int, ...]]:
    """Building type -> clearings holding one, once per building there, ascending (one scan of
    the map: the counts are also what has left the tracks)."""
    sites = g.woodland.building_sites
    return {kind: sites(MARQUISE, kind) for kind in BUILDING_TYPES}


def building_clearings(g: RootState, kind: str) -> tuple[int, ...]:
    """Clearings holding a Marquise ``kind``, once per building there, ascending."""
    return g.woodland.building_sites(MARQUISE, kind)


def buildings_on_map(g: RootState) -> dict[str, int]:
    """Marquise buildings on the map by type (the rest are on the tracks)."""
    return {kind: len(cs) for kind, cs in marquise_buildings(g).items()}


def wood_at(g: RootState, c: int) -> int:
    return g.woodland.count_tokens(MARQUISE, WOOD, c)


def _ruled(g: RootState) -> list[bool]:
    return [r == MARQUISE for r in g.woodland.rulers()]


def _connected(g: RootState, start: int, ruled: list[bool]) -> list[int]:
    """``start`` and every clearing linked to it through clearings the Marquise rules
    (Law 6.5.4.2: where wood for a building may come from)."""
    seen = [start]
    todo = [start]
    neighbours = g.board.neighbours
    while todo:
        c = todo.pop()
        for n in neighbours[c]:
            if ruled[n] and n not in seen:
                seen.append(n)
                todo.append(n)
    return seen


def _wood_by_region(
    g: RootState, ruled: list[bool], starts: list[int] | tuple[int, ...] = CLEARING_IDS
) -> list[int]:
    """For each ruled clearing of ``starts`` (and its region), the wood reachable from it
    through ruled clearings (-1 where not traced)."""
    reach = [-1] * (len(CLEARING_IDS) + 1)
    for c in starts:
        if ruled[c] and reach[c] < 0:
            region = _connected(g, c, ruled)
            total = sum(wood_at(g, r) for r in region)
            for r in region:
                reach[r] = total
    return reach


def build_sites(
    g: RootState,
    seat: int,
    ruled: list[bool] | None = None,
    built: dict[str, tuple[int, ...]] | None = None,
) -> dict[str, list[int]]:
    """Building type -> clearings where it can be built now: ruled, an open slot, placement
    allowed, enough connected wood (Law 6.5.4). Types with no site are left out. ``ruled`` and
    ``built`` may be passed when the caller has them already."""
    if ruled is None:
        ruled = _ruled(g)
    if not any(ruled):
        return {}
    w = g.woodland
    open_ruled = [c for c in CLEARING_IDS if ruled[c] and w.free_slots(c) > 0]
    if not open_ruled:
        return {}
    open_ruled = [c for c in open_ruled if g.may_place(seat, c)]
    if built is None:
        built = marquise_buildings(g)
    costs = [
        build_cost(kind, len(built[kind]))[0]
        for kind in BUILDING_TYPES
        if len(built[kind]) < MARQUISE_BUILDINGS_PER_TYPE
    ]
    if not open_ruled or not costs or min(costs) > MARQUISE_WOOD_TOKENS - _board(g, seat).wood:
        return {}  # not enough wood on the whole map: no need to trace the regions
    reach = _wood_by_region(g, ruled, open_ruled)
    sites: dict[str, list[int]] = {}
    for kind in BUILDING_TYPES:
        on_map = len(built[kind])
        if on_map >= MARQUISE_BUILDINGS_PER_TYPE:
            continue
        wood, _ = build_cost(kind, on_map)
        found = [c for c in open_ruled if reach[c] >= wood]
        if found:
            sites[kind] = found
    return sites


def overwork_sites(
    g: RootState,
    seat: int,
    without: str | None = None,
    sawmills: tuple[int, ...] | None = None,
) -> list[int]:
    """Sawmill clearings where Overwork can place wood (Law 6.5.5): wood in supply, a card
    matching the clearing in hand (``without``: not counting that card)."""
    if _board(g, seat).wood <= 0:
        return []
    hand = [CARD_BY_ID[c].suit for c in g.players[seat].hand if c != without]
    if not hand:
        return []
    if sawmills is None:
        sawmills = building_clearings(g, SAWMILL)
    found: list[int] = []
    for c in sawmills:
        if found and found[-1] == c:
            continue
        suit = g.clearing_suit(c)
        if any(s in (BIRD, suit) for s in hand) and g.may_place(seat, c):
            found.append(c)
    return found


def _recruit_sites(
    g: RootState, seat: int, recruiters: tuple[int, ...] | None = None
) -> tuple[int, ...]:
    if recruiters is None:
        recruiters = building_clearings(g, RECRUITER)
    return tuple(c for c in recruiters if g.may_place(seat, c))


def _can_battle(g: RootState, seat: int) -> bool:
    """Whether some clearing has Marquise warriors and an enemy to battle (``battle_clearings``:
    an enemy's piece or pawn, never a coalition partner's)."""
    return bool(battle_clearings(g, seat))


def _can_move(g: RootState, ruled: list[bool]) -> bool:
    """Whether some Marquise warriors can move (Law 4.2.1: rule the origin or destination);
    ``move_origins`` without recomputing rule per path."""
    w = g.woodland
    neighbours = g.board.neighbours
    for c in CLEARING_IDS:
        if w.warriors(MARQUISE, c) and (ruled[c] or any(ruled[n] for n in neighbours[c])):
            return True
    return False


def ordered_picks(pool: tuple[int, ...], need: int) -> tuple[int, ...]:
    """Clearings of the ascending ``pool`` that can be picked next when ``need`` more picks are
    due in ascending order: enough entries at or after it must remain (RM8)."""
    found: list[int] = []
    n = len(pool)
    for i, c in enumerate(pool):
        if n - i < need:
            break
        if i == 0 or pool[i - 1] != c:
            found.append(c)
    return tuple(found)


def _after_pick(pool: tuple[int, ...], c: int) -> tuple[int, ...]:
    return pool[pool.index(c) + 1 :]


def place_wood(g: RootState, seat: int, c: int) -> None:
    board = _board(g, seat)
    board.wood -= 1
    g.woodland.add_token(MARQUISE, WOOD, c)
    g.emit("place", seat=seat, piece=WOOD, clearing=c, count=1)


def place_building(g: RootState, seat: int, kind: str, c: int) -> None:
    g.woodland.add_building(MARQUISE, kind, c)
    g.emit("place", seat=seat, piece=kind, clearing=c, count=1)


# -- the faction -----------------------------------------------------------------------------------


class Marquise(Faction):
    """Rules of the Marquise de Cat (Law 6)."""

    name: ClassVar[str] = MARQUISE
    warriors: ClassVar[int] = MARQUISE_WARRIORS
    setup_order: ClassVar[int] = 0

    def new_board(self) -> MarquiseBoard:
        return MarquiseBoard()

    def setup(self, g: RootState, seat: int) -> Step | None:
        return MarquiseSetup(seat)

    def keep_clearing(self, g: RootState, seat: int) -> int | None:
        """The keep's clearing, or None once it has left the game (or before setup)."""
        return _board(g, seat).keep or None

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        if phase == BIRDSONG:
            return self._birdsong(g, seat)
        if phase == DAYLIGHT:
            return Daylight(seat)
        if phase == EVENING:
            # Law 6.6: draw 1 + uncovered draw bonuses, then the hand limit.
            g.draw(seat, marquise_draws(buildings_on_map(g)[RECRUITER]))
            return HandLimit(seat)
        raise ValueError(f"no phase {phase!r}")

    def _birdsong(self, g: RootState, seat: int) -> Step | None:
        """Law 6.4: one wood per sawmill; too little wood: choose where (RM4)."""
        sawmills = tuple(c for c in building_clearings(g, SAWMILL) if g.may_place(seat, c))
        wood = _board(g, seat).wood
        if not sawmills or wood <= 0:
            return None
        if wood >= len(sawmills):
            for c in sawmills:
                place_wood(g, seat, c)
            return None
        return Picks(seat, "sawmills", sawmills, wood)

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        """Workshops by the suit of their clearing (Law 6.2.1)."""
        pieces: dict[str, int] = {}
        for c in building_clearings(g, WORKSHOP):
            suit = g.clearing_suit(c)
            pieces[suit] = pieces.get(suit, 0) + 1
        return pieces

    def warriors_removed(self, g: RootState, seat: int, c: int, count: int) -> None:
        """Field Hospitals (Law 6.2.3; RM1-RM3): offer to spend a matching card."""
        if _board(g, seat).keep and g.hand_cards(seat, g.clearing_suit(c)):
            g.push(FieldHospitals(seat, c, count))

    def piece_removed(
        self, g: RootState, seat: int, c: int, kind: str, by: int | None = None
    ) -> None:
        """Wood returns to supply; the keep leaves the game (Law 6.2.2, RM11)."""
        board = _board(g, seat)
        if kind == WOOD:
            board.wood += 1
        elif kind == KEEP:
            board.keep = 0

    def blocks_placement(self, g: RootState, seat: int, placer: int, c: int) -> bool:
        """The Keep (Law 6.2.2): no one else places pieces in its clearing."""
        return placer != seat and c == _board(g, seat).keep


# -- steps -----------------------------------------------------------------------------------------


def _setup_region(g: RootState, keep: int) -> tuple[int, ...]:
    return (keep, *g.board.neighbours[keep])


class MarquiseSetup(Step):
    """Law 6.3: keep in a corner, a warrior everywhere but the opposite corner, then one
    sawmill, workshop and recruiter in the keep's clearing and/or adjacent ones."""

    __slots__ = ()
    name = "marquise"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "keep")

    def advance(self, g: RootState) -> Options:
        w = g.woodland
        if self.stage == "keep":
            return tuple(
                clearing_option(c)
                for c in g.board.corners
                if sum(w.free_slots(r) for r in _setup_region(g, c)) >= len(BUILDING_TYPES)
            )
        if self.stage in BUILDING_TYPES:
            keep = _board(g, self.seat).keep
            return tuple(clearing_option(c) for c in _setup_region(g, keep) if w.free_slots(c))
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        c: int = value[1]
        seat = self.seat
        if self.stage == "keep":
            _board(g, seat).keep = c
            g.woodland.add_token(MARQUISE, KEEP, c)
            g.emit("place", seat=seat, piece=KEEP, clearing=c, count=1)
            opposite = OPPOSITE_CORNER[c]
            for clearing in CLEARING_IDS:
                if clearing != opposite:
                    g.place_warriors(seat, clearing, 1)
            self.stage = BUILDING_TYPES[0]
            return
        place_building(g, seat, self.stage, c)
        i = BUILDING_TYPES.index(self.stage) + 1
        self.stage = BUILDING_TYPES[i] if i < len(BUILDING_TYPES) else "over"


class Picks(Step):
    """Place ``need`` identical pieces among the clearings in ``pool`` (ascending, one entry per
    building) when there are too few for all, one clearing at a time in ascending order (RM8).

    Stages: ``sawmills`` (Birdsong wood), ``recruiters`` (Recruit warriors)."""

    __slots__ = ("need", "pool")
    name = "marquise"

    pool: tuple[int, ...]
    need: int

    def __init__(self, seat: int, stage: str, pool: tuple[int, ...], need: int) -> None:
        super().__init__(seat, stage)
        self.pool = pool
        self.need = need

    def advance(self, g: RootState) -> Options:
        if self.need <= 0:
            return FINISHED
        return tuple(clearing_option(c) for c in ordered_picks(self.pool, self.need))

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        c: int = value[1]
        self.pool = _after_pick(self.pool, c)
        self.need -= 1
        if self.stage == "sawmills":
            place_wood(g, self.seat, c)
        else:
            g.place_warriors(self.seat, c, 1)


class FieldHospitals(Step):
    """Law 6.2.3: spend a card matching ``clearing`` to put the ``count`` warriors removed
    there in the keep's clearing instead of the supply, or pass."""

    __slots__ = ("clearing", "count")
    name = "marquise"

    clearing: int
    count: int

    def __init__(self, seat: int, clearing: int, count: int) -> None:
        super().__init__(seat, "field_hospitals")
        self.clearing = clearing
        self.count = count

    def advance(self, g: RootState) -> Options:
        if self.stage != "field_hospitals" or not _board(g, self.seat).keep:
            return FINISHED
        cards = g.hand_cards(self.seat, g.clearing_suit(self.clearing))
        if not cards:
            return FINISHED
        return (*(card_option(c, "hospital") for c in cards), PASS)

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        self.stage = "over"
        if value[0] == "pass":
            return
        seat = self.seat
        g.spend(seat, value[1], "field_hospitals")
        g.place_warriors(seat, _board(g, seat).keep, self.count)


_ACTIONS: dict[str, Option] = {
    a: Option(f"action:{a}", a, ("action", a))
    for a in ("battle", "march", "recruit", "build", "overwork")
}
_BUILD: dict[str, Option] = {
    kind: Option(f"build:{kind}", f"build a {kind}", ("build", kind)) for kind in BUILDING_TYPES
}


class Daylight(Step):
    """Law 6.5: craft with workshops, then actions until none are left or the Marquise ends
    Daylight; bird cards buy extra actions (Hawks for Hire, RM6)."""

    __slots__ = ("actions", "recruited")
    name = "marquise"

    actions: int
    recruited: int

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "craft")
        self.actions = MARQUISE_ACTIONS
        self.recruited = 0

    def possible(self, g: RootState) -> list[str]:
        """The actions that can be taken (and completed) now."""
        seat = self.seat
        ruled = _ruled(g)
        built = marquise_buildings(g)
        found: list[str] = []
        if _can_battle(g, seat):
            found.append("battle")
        if _can_move(g, ruled):
            found.append("march")
        if (
            not self.recruited
            and built[RECRUITER]
            and g.warriors_in_supply(seat) > 0
            and _recruit_sites(g, seat, built[RECRUITER])
        ):
            found.append("recruit")
        if build_sites(g, seat, ruled, built):
            found.append("build")
        if built[SAWMILL] and overwork_sites(g, seat, sawmills=built[SAWMILL]):
            found.append("overwork")
        return found

    def _hawks(self, g: RootState, possible: list[str]) -> list[Option]:
        """Bird cards that may be spent for an extra action that could then be taken."""
        birds = [c for c in g.players[self.seat].hand if CARD_BY_ID[c].suit == BIRD]
        if not birds:
            return []
        if any(a != "overwork" for a in possible):
            return [card_option(c, "hawks") for c in birds]
        return [card_option(c, "hawks") for c in birds if overwork_sites(g, self.seat, c)]

    def advance(self, g: RootState) -> Options:
        seat = self.seat
        if self.stage == "craft":
            self.stage = "action"
            pieces = g.rules(seat).crafting_pieces(g, seat)
            if pieces:
                g.push(Craft(seat, pieces))
                return FINISHED
        if self.stage != "action":
            return FINISHED
        possible = self.possible(g)
        if not possible:
            return FINISHED
        # Tax Collector and Codebreakers may be used between actions too (RT7).
        effects = phase_effects(g, seat, DAYLIGHT)
        if self.actions > 0:
            return (*(_ACTIONS[a] for a in possible), *effects, DONE)
        hawks = self._hawks(g, possible)
        return (*hawks, *effects, DONE) if hawks else FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        seat = self.seat
        verb = value[0]
        if verb == "done":
            self.stage = "over"
            return
        if verb == "hawks":
            g.spend(seat, value[1], "hawks_for_hire")
            self.actions += 1
            return
        if verb in EFFECT_VERBS:  # a card effect or dominance, not an action (RT7, RT17)
            use_option(g, seat, value)
            return
        action = value[1]
        self.actions -= 1
        g.emit("action", seat=seat, action=action)
        if action == "battle":
            g.push(Battle(seat, battle_clearings(g, seat)))
        elif action == "march":
            # Law 6.5.2: up to two moves; the first is mandatory once chosen (RM7).
            g.push(Move(seat, CLEARING_IDS, optional=True))
            g.push(Move(seat, move_origins(g, seat)))
        elif action == "recruit":
            self.recruited = 1
            self._recruit(g)
        elif action == "build":
            g.push(Build(seat))
        elif action == "overwork":
            g.push(Overwork(seat))

    def _recruit(self, g: RootState) -> None:
        """Law 6.5.3: a warrior at each recruiter; too few warriors: choose where (RM5)."""
        seat = self.seat
        sites = _recruit_sites(g, seat)
        supply = g.warriors_in_supply(seat)
        if supply >= len(sites):
            for c in sorted(set(sites)):
                g.place_warriors(seat, c, sites.count(c))
        else:
            g.push(Picks(seat, "recruiters", sites, supply))


class Build(Step):
    """Law 6.5.4: building type, then clearing, then which wood to pay (when there is a choice);
    place the building and score the VP uncovered on its track."""

    __slots__ = ("building", "clearing", "need", "pool")
    name = "marquise"

    building: str
    clearing: int
    pool: tuple[int, ...]
    need: int

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "build")
        self.building = ""
        self.clearing = 0
        self.pool = ()
        self.need = 0

    def advance(self, g: RootState) -> Options:
        if self.stage == "build":
            return tuple(_BUILD[k] for k in build_sites(g, self.seat))
        if self.stage == "build_clearing":
            sites = build_sites(g, self.seat).get(self.building, [])
            return tuple(clearing_option(c) for c in sites)
        if self.stage == "pay_wood":
            return tuple(clearing_option(c) for c in ordered_picks(self.pool, self.need))
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        seat = self.seat
        if self.stage == "build":
            self.building = value[1]
            self.stage = "build_clearing"
            return
        if self.stage == "build_clearing":
            c: int = value[1]
            self.clearing = c
            self.need, _ = build_cost(self.building, buildings_on_map(g)[self.building])
            pool: list[int] = []
            for r in sorted(_connected(g, c, _ruled(g))):
                pool.extend([r] * wood_at(g, r))
            self.pool = tuple(pool)
            self.stage = "pay_wood"
        else:
            c = value[1]
            self.pool = _after_pick(self.pool, c)
            self.need -= 1
            g.remove_piece(seat, c, WOOD, by=seat)
        if self.need <= 0:
            self._place(g)

    def _place(self, g: RootState) -> None:
        on_map = buildings_on_map(g)[self.building]
        _, vp = build_cost(self.building, on_map)
        place_building(g, self.seat, self.building, self.clearing)
        self.stage = "over"
        g.score(self.seat, vp, f"build_{self.building}")


class Overwork(Step):
    """Law 6.5.5: spend a card matching a sawmill's clearing to place a wood there."""

    __slots__ = ("clearing",)
    name = "marquise"

    clearing: int

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "overwork")
        self.clearing = 0

    def advance(self, g: RootState) -> Options:
        if self.stage == "overwork":
            return tuple(clearing_option(c) for c in overwork_sites(g, self.seat))
        if self.stage == "overwork_card":
            cards = g.hand_cards(self.seat, g.clearing_suit(self.clearing))
            return tuple(card_option(c, "spend") for c in cards)
        return FINISHED

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        if self.stage == "overwork":
            self.clearing = value[1]
            self.stage = "overwork_card"
            return
        g.spend(self.seat, value[1], "overwork")
        place_wood(g, self.seat, self.clearing)
        self.stage = "over"
