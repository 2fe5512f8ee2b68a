"""Phase 4, step 4 (multiplayer only): the special delivery.

The seed: reveal a special delivery card; every player with fewer VP than the leader (the
current first) compares their score with the leader's and gets the card's bonus groups for
more than 5, 10 and 15 VP behind (the gaps are fixed before any bonus applies, G12). A bonus
that cannot be taken (or is not wanted) gives 1 mushroom instead, each icon once. Removal
bonuses (the red-outlined icons) take something off the player's own town. The card is
discarded after the round (``refresh.refresh_round``).

Each player behind works through ``DeliveryStep`` (``delivery.bonus``: ``take``,
``take:<space>`` for the gnome that takes a sword or hammer, ``remove:<space>``, or
``mushroom``). A mushrooms bonus is never asked about: it gives at least the 1 mushroom the
alternative would (ruling G45).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import Option
from games.gnomeville.buildings import NAMES, Tile
from games.gnomeville.content import SPACES, Bonus
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import EMPTY, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def begin_deliveries(g: GnomevilleState) -> None:
    """Reveal the next delivery card and give every player behind the leader its groups."""
    if g.solo or not g.delivery_deck:
        return
    g.delivery_card = g.delivery_deck.pop(0)
    card = g.pack.deliveries[g.delivery_card]
    leader = max(town.vp for town in g.towns)
    gaps = g.pack.components.delivery_gaps
    # G12: every gap is measured now, before any bonus applies.
    earned = [sum(1 for gap in gaps if leader - town.vp > gap) for town in g.towns]
    g.emit(None, "delivery", card=card.id, leader=leader, groups=earned)
    g.open_phase()
    for town, groups in zip(g.towns, earned, strict=True):
        if groups:
            g.push(DeliveryStep(town.seat, groups))


# ---------------------------------------------------------------------- options

_OPTIONS: dict[tuple[str, int, int], Option] = {}


def _option(action: str, space: int = -1, gnome: int = -1) -> Option:
    found = _OPTIONS.get((action, space, gnome))
    if found is None:
        if action == "mushroom":
            found = Option("mushroom", "Take 1 mushroom instead", Act("mushroom"))
        elif action == "take" and space < 0:
            found = Option("take", "Take the bonus", Act("take"))
        elif action == "take":
            name = space_name(space)
            found = Option(
                f"take:{name}",
                f"The gnome on {name} takes it",
                Act("take", space=space, gnome=gnome),
            )
        else:
            name = space_name(space)
            found = Option(f"remove:{name}", f"Remove it from {name}", Act("remove", space=space))
        _OPTIONS[(action, space, gnome)] = found
    return found


MUSHROOM = _option("mushroom")
TAKE = _option("take")


def bonus_options(g: GnomevilleState, town: Town, bonus: Bonus) -> Options:
    """The ways to take ``bonus`` now (empty: it cannot be taken)."""
    kind = bonus.kind
    if kind == "tile":
        assert bonus.tile is not None
        return (TAKE,) if g.can_take(town, bonus.tile) else ()
    if kind == "stew":
        return () if town.stew else (TAKE,)
    if kind in ("sword", "hammer"):
        has = town.has_sword if kind == "sword" else town.has_hammer
        return tuple(
            _option("take", town.gnome_at[gnome], gnome)
            for gnome in town.deployed()
            if not has(gnome, g.pack)
        )
    if kind == "remove_boulder":
        return tuple(_option("remove", s) for s in range(SPACES) if town.boulders[s])
    if kind == "remove_troll":
        return tuple(_option("remove", s) for s in sorted(town.trolls))
    raise AssertionError(f"bonus {kind!r} is not asked about")


class DeliveryStep(Step):
    """``delivery.bonus``: one player's bonuses, group by group, icon by icon."""

    __slots__ = ("group", "groups", "index")
    name = "delivery"

    def __init__(self, seat: int, groups: int) -> None:
        super().__init__(seat, "bonus")
        #: How many groups the player earned (1-3), and the bonus now due.
        self.groups = groups
        self.group = 0
        self.index = 0

    def _bonus(self, g: GnomevilleState) -> Bonus | None:
        card = g.pack.deliveries[g.delivery_card]
        while self.group < self.groups:
            bonuses = card.groups[self.group]
            if self.index < len(bonuses):
                return bonuses[self.index]
            self.group += 1
            self.index = 0
        return None

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        while True:
            bonus = self._bonus(g)
            if bonus is None:
                return FINISHED
            if bonus.kind == "mushrooms":
                self._gain(g, town, bonus, "mushrooms", max(1, bonus.amount))
                continue
            options = bonus_options(g, town, bonus)
            if options:
                return (*options, MUSHROOM)
            self._gain(g, town, bonus, "mushroom", 1)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        bonus = self._bonus(g)
        assert bonus is not None
        act = Act(*value)
        if act.action == "mushroom":
            self._gain(g, town, bonus, "mushroom", 1)
            return
        kind = bonus.kind
        if kind == "tile":
            assert bonus.tile is not None
            g.take(town, bonus.tile)
            town.bag[bonus.tile] += 1
        elif kind == "stew":
            town.stew = True
        elif kind == "sword":
            town.sword[act.gnome] = True
        elif kind == "hammer":
            town.hammer[act.gnome] = True
        elif kind == "remove_boulder":
            town.boulders[act.space] = False
        elif kind == "remove_troll":
            town.trolls.remove(act.space)
        self._taken(g, town, bonus, act.space)

    def _gain(self, g: GnomevilleState, town: Town, bonus: Bonus, how: str, amount: int) -> None:
        town.mushrooms += amount
        g.emit(
            town.seat,
            "delivery_bonus",
            seat=town.seat,
            bonus=bonus.kind,
            taken=how,
            mushrooms=amount,
        )
        self.index += 1

    def _taken(self, g: GnomevilleState, town: Town, bonus: Bonus, space: int) -> None:
        data: dict[str, Any] = {"seat": town.seat, "bonus": bonus.kind, "taken": "bonus"}
        if bonus.tile is not None:
            data["tile"] = NAMES[Tile(bonus.tile)]
        if space != EMPTY:
            data["space"] = space_name(space)
        g.emit(town.seat, "delivery_bonus", **data)
        self.index += 1
