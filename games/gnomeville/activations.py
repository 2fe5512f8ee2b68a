"""Building activations: what happens when a deployed gnome moves onto a building.

The seed: every building but the monument activates when a gnome moves onto it, and the
effect is optional. Market: buy one building tile into the bag now (cost: its tier in
mushrooms). House: put a new gnome stand from camp next to the house (8 neighbours; not onto an
enemy, a boulder or an occupied space). Tavern: fill the second-chance stew. Academy: graduate
this gnome if possible (draw 2 ability cards, keep 1, the other to the bottom). Workshop: this
gnome takes a hammer. Armory: a sword. Ballista: destroy one boulder or enemy adjacent to the
ballista (Mazeville's hedges block orthogonal adjacency). Monument: passive, nothing to do.

Ruling G27 shapes the questions: an activation that would change nothing is not offered (a full
stew, a gnome that has its hammer...); an effect with its own choice offers ``none`` in that
choice (``market.buy``, ``house.deploy``, ``ballista.target``); the others ask
``move.activate`` (``activate`` / ``skip``). An echo (an ability) activates without the
``none`` / ``skip``: using the card was the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from games.contract import Option
from games.gnomeville import buying
from games.gnomeville.buildings import NAMES, Tile
from games.gnomeville.content import SIZE, SPACES
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import AROUND, EMPTY, Town, space_name

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

NONE = Option("none", "Do nothing", Act("none"))

#: The 8 neighbours of each space, in space order (options are listed in board order).
_AROUND = tuple(tuple(sorted(ns)) for ns in AROUND)
_ADJACENT: dict[frozenset[tuple[int, int]], tuple[tuple[int, ...], ...]] = {}


def adjacent(town: Town) -> tuple[tuple[int, ...], ...]:
    """Per space, the spaces a ballista there reaches: the 8 neighbours (the seed's
    "adjacent"), less an orthogonal neighbour behind a hedge (Mazeville)."""
    hedges = town.layout.hedges
    found = _ADJACENT.get(hedges)
    if found is None:
        rows: list[tuple[int, ...]] = []
        for space in range(SPACES):
            row, col = divmod(space, SIZE)
            here = []
            for n in AROUND[space]:
                r, c = divmod(n, SIZE)
                orthogonal = r == row or c == col
                if orthogonal and (min(space, n), max(space, n)) in hedges:
                    continue
                here.append(n)
            rows.append(tuple(sorted(here)))
        found = _ADJACENT[hedges] = tuple(rows)
    return found


def targets(town: Town, space: int) -> list[int]:
    """Boulders and trolls a ballista (or a ballista card) at ``space`` may destroy."""
    trolls = town.trolls
    boulders = town.boulders
    return [n for n in adjacent(town)[space] if boulders[n] or n in trolls]


def deploy_spaces(town: Town, house: int) -> list[int]:
    """Where a house at ``house`` may put a new stand: any of its 8 neighbours without an
    enemy, a boulder or a gnome (a building is fine; hedges do not block: ruling G21)."""
    trolls, boulders, gnomes = town.trolls, town.boulders, town.gnome_at
    return [n for n in _AROUND[house] if not boulders[n] and n not in trolls and n not in gnomes]


def camp_gnome(town: Town) -> int:
    """The lowest-numbered gnome in camp, or EMPTY (the stand a house deploys: ruling G21)."""
    for gnome, at in enumerate(town.gnome_at):
        if at == EMPTY:
            return gnome
    return EMPTY


def possible(g: GnomevilleState, town: Town, gnome: int, space: int) -> bool:
    """Whether activating the building on ``space`` for ``gnome`` could change anything."""
    tile = town.tiles[space]
    if tile == Tile.MARKET:
        return bool(buying.affordable(g, town))
    if tile == Tile.HOUSE:
        return camp_gnome(town) != EMPTY and bool(deploy_spaces(town, space))
    if tile == Tile.TAVERN:
        return not town.stew
    if tile == Tile.ACADEMY:
        return not town.graduated[gnome]
    if tile == Tile.WORKSHOP:
        return not town.hammer[gnome]
    if tile == Tile.ARMORY:
        return not town.sword[gnome]
    if tile == Tile.BALLISTA:
        return bool(targets(town, space))
    return False  # the monument is passive; EMPTY has nothing


def arrive(g: GnomevilleState, town: Town, gnome: int, space: int, forced: bool = False) -> None:
    """``gnome`` is on the building at ``space`` (it moved there, or echoes it): push the step
    that offers its activation, if the activation could do anything."""
    if not possible(g, town, gnome, space):
        return
    tile = town.tiles[space]
    seat = town.seat
    if tile == Tile.MARKET:
        g.push(MarketStep(seat, forced))
    elif tile == Tile.HOUSE:
        g.push(HouseStep(seat, space, forced))
    elif tile == Tile.BALLISTA:
        g.push(TargetStep(seat, space, forced))
    else:
        g.push(ActivateStep(seat, gnome, space, forced))


# ---------------------------------------------------------------------- options

_ACTIVATE: dict[int, tuple[Option, Option]] = {}
_WHAT = {
    Tile.TAVERN: "fill your stew",
    Tile.ACADEMY: "graduate this gnome",
    Tile.WORKSHOP: "this gnome takes a hammer",
    Tile.ARMORY: "this gnome takes a sword",
}
_DEPLOY: dict[int, Option] = {}
_TARGET: dict[tuple[int, str], Option] = {}
_KEEP: dict[tuple[str, str], Option] = {}


def activate_options(tile: int) -> tuple[Option, Option]:
    found = _ACTIVATE.get(tile)
    if found is None:
        name = NAMES[Tile(tile)]
        found = _ACTIVATE[tile] = (
            Option("activate", f"Activate the {name}: {_WHAT[Tile(tile)]}", Act("activate")),
            Option("skip", f"Do not activate the {name}", Act("skip")),
        )
    return found


def deploy_option(space: int) -> Option:
    found = _DEPLOY.get(space)
    if found is None:
        name = space_name(space)
        found = _DEPLOY[space] = Option(
            f"deploy:{name}", f"Deploy a gnome from camp on {name}", Act("deploy", space=space)
        )
    return found


def target_option(space: int, what: str) -> Option:
    found = _TARGET.get((space, what))
    if found is None:
        name = space_name(space)
        found = _TARGET[(space, what)] = Option(
            f"target:{name}", f"Destroy the {what} on {name}", Act("target", space=space)
        )
    return found


def keep_option(card: int, ident: str, name: str) -> Option:
    found = _KEEP.get((ident, name))
    if found is None:
        found = _KEEP[(ident, name)] = Option(
            f"keep:{ident}", f"Keep the ability {name}", Act("keep", card=card)
        )
    return found


# ---------------------------------------------------------------------- steps


class ActivateStep(Step):
    """``move.activate``: the tavern, academy, workshop and armory (``activate`` / ``skip``)."""

    __slots__ = ("forced", "gnome", "space")
    name = "move"

    def __init__(self, seat: int, gnome: int, space: int, forced: bool) -> None:
        super().__init__(seat, "activate")
        self.gnome = gnome
        self.space = space
        self.forced = forced

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        tile = town.tiles[self.space]
        options = activate_options(tile)
        return options[:1] if self.forced else options

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        self.stage = "done"
        if cast(Act, value).action != "activate":
            return
        tile, gnome, seat = town.tiles[self.space], self.gnome, town.seat
        if tile == Tile.TAVERN:
            town.stew = True
            g.emit(seat, "stew", seat=seat, gnome=gnome)
        elif tile == Tile.WORKSHOP:
            town.hammer[gnome] = True
            g.emit(seat, "hammer", seat=seat, gnome=gnome)
        elif tile == Tile.ARMORY:
            town.sword[gnome] = True
            g.emit(seat, "sword", seat=seat, gnome=gnome)
        elif tile == Tile.ACADEMY:
            graduate(g, town, gnome)
        else:
            raise AssertionError(f"{tile} is not activated by ActivateStep")


def graduate(g: GnomevilleState, town: Town, gnome: int) -> None:
    """Flip the gnome's tracker and draw 2 cards from the town's own pile (ruling G19): keep
    one (a decision), or the only one; with an empty pile it graduates without (ruling G22)."""
    seat = town.seat
    town.graduated[gnome] = True
    cards = town.take_from_pile(2)
    abilities = g.pack.abilities
    if len(cards) == 2:
        g.emit_private(
            seat, "academy_draw", seat=seat, gnome=gnome, cards=[abilities[c].id for c in cards]
        )
        g.push(AcademyStep(seat, gnome, (cards[0], cards[1])))
        return
    if cards:
        keep(g, town, gnome, cards[0])
    else:
        g.emit(seat, "graduate", seat=seat, gnome=gnome, ability="")


def keep(g: GnomevilleState, town: Town, gnome: int, card: int) -> None:
    town.ability[gnome] = card
    town.ability_used[gnome] = False
    g.emit(town.seat, "graduate", seat=town.seat, gnome=gnome, ability=g.pack.abilities[card].id)


class AcademyStep(Step):
    """``academy.keep``: which of the two drawn ability cards the graduate keeps; the other
    goes to the bottom of the town's pile."""

    __slots__ = ("cards", "gnome")
    name = "academy"

    def __init__(self, seat: int, gnome: int, cards: tuple[int, int]) -> None:
        super().__init__(seat, "keep")
        self.gnome = gnome
        self.cards = cards

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        abilities = g.pack.abilities
        return tuple(keep_option(c, abilities[c].id, abilities[c].name) for c in self.cards)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        card = cast(Act, value).card
        other = self.cards[1] if card == self.cards[0] else self.cards[0]
        keep(g, town, self.gnome, card)
        town.put_under_pile(other, town.seat)  # only this seat saw which card went under
        g.emit_private(
            town.seat, "ability_returned", seat=town.seat, ability=g.pack.abilities[other].id
        )
        self.stage = "done"


class MarketStep(Step):
    """``market.buy``: one building tile into the bag now, or ``none``."""

    __slots__ = ("forced",)
    name = "market"

    def __init__(self, seat: int, forced: bool) -> None:
        super().__init__(seat, "buy")
        self.forced = forced

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        options = buying.buy_options(g, town)
        if not options:
            return FINISHED
        return options if self.forced else options + (NONE,)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = cast(Act, value)
        self.stage = "done"
        if act.action == "buy":
            buying.buy(g, town, act.tile)


class HouseStep(Step):
    """``house.deploy``: a new gnome from camp onto a neighbour of the house, or ``none``. The
    new gnome activates nothing and gains no mushroom; it may use movement still left."""

    __slots__ = ("forced", "house")
    name = "house"

    def __init__(self, seat: int, house: int, forced: bool) -> None:
        super().__init__(seat, "deploy")
        self.house = house
        self.forced = forced

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done" or camp_gnome(town) == EMPTY:
            return FINISHED
        options = tuple(deploy_option(s) for s in deploy_spaces(town, self.house))
        if not options:
            return FINISHED
        return options if self.forced else options + (NONE,)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = cast(Act, value)
        self.stage = "done"
        if act.action == "deploy":
            gnome = camp_gnome(town)
            town.gnome_at[gnome] = act.space
            g.emit(town.seat, "deploy", seat=town.seat, gnome=gnome, space=space_name(act.space))


class TargetStep(Step):
    """``ballista.target``: destroy one boulder or troll adjacent to ``centre`` (a ballista,
    or the gnome using a ballista card), or ``none`` (an activation is optional)."""

    __slots__ = ("centre", "forced")
    name = "ballista"

    def __init__(self, seat: int, centre: int, forced: bool) -> None:
        super().__init__(seat, "target")
        self.centre = centre
        self.forced = forced

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        options = tuple(
            target_option(s, "boulder" if town.boulders[s] else "troll")
            for s in targets(town, self.centre)
        )
        if not options:
            return FINISHED
        return options if self.forced else options + (NONE,)

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        act = cast(Act, value)
        self.stage = "done"
        if act.action != "target":
            return
        space = act.space
        if town.boulders[space]:
            town.boulders[space] = False
            what = "boulder"
        else:
            town.trolls.remove(space)
            what = "troll"
        # Destroyed enemies and boulders go back to the supply (ruling G14: boulders unlimited).
        g.emit(
            town.seat,
            "destroy",
            seat=town.seat,
            what=what,
            space=space_name(space),
            by=space_name(self.centre),
        )
