"""A greedy Gnomeville player: a one-decision lookahead on its own town, no search.

It sees only what a remote bot sees: the decision (options carry ``Act`` values) and its
seat's ``GnomevilleView`` (or the part of it it reads, ``SeatSight``, which a search's rollouts
build faster). Each option is scored by what the town would look like right after
it, judged with a few readable rules:

- **upgrades**: a placement that completes a group of three scores the stack it makes (ruling
  G2) and the tier it gains; one that joins a pair scores its promise;
- **mushrooms**: a step onto an empty space is a mushroom; steps go where they gain most;
- **defence**: spaces the round's troll card will hit (boulders, spawns, the first row of each
  arrow's path) are avoided for buildings; gnomes take swords and hammers when they can;
- drawing stops when the next gnome tile would leave the town stuck and one is likely.

Ties break with the player's own seeded generator, so it is deterministic given its seed.
"""

from __future__ import annotations

import random
from functools import cache

from games.contract import Option
from games.gnomeville.buildings import LINE_OF, TIER_OF, Tile
from games.gnomeville.content import SIZE, SPACES, ContentError, TrollCard, default_pack
from games.gnomeville.steps import Act
from games.gnomeville.town import AROUND, ORTHOGONAL
from games.gnomeville.view import GnomevilleView, SeatSight, TownView
from games.policies.base import DecisionContext

#: What the player reads: a seat's whole view, or just the part it needs.
Sight = GnomevilleView | SeatSight

#: Value of one victory point, in the units every rule below uses.
VP = 10.0
MUSHROOM = 3.0
#: Above this chance that the next draw is a gnome tile, a town with two stumps covered passes.
STUCK_RISK = 0.3
#: Abilities, most useful first.
ABILITY_ORDER = (
    "movement",
    "sprint",
    "forager",
    "ballista",
    "sword",
    "hammer",
    "bargain",
    "diagonal",
    "redraw",
    "stew",
    "echo",
)


def stack_points(height: int) -> int:
    """Ruling G2."""
    return height + min(max(height - 4, 0), 5)


@cache
def _cards() -> dict[str, TrollCard]:
    try:
        return {card.id: card for card in default_pack().troll_cards}
    except ContentError:  # pragma: no cover - the shipped pack always loads
        return {}


def threatened(view: Sight) -> frozenset[int]:
    """Spaces the round's troll card hits first: its boulders and spawns (a card of another
    content pack is unknown to this player: nothing is threatened then)."""
    card = _cards().get(view.round_card)
    if card is None or view.phase not in ("build", "sides"):
        return frozenset()
    return frozenset(card.boulders) | frozenset(card.spawns)


def group_after(tiles: tuple[int, ...] | list[int], space: int, tile: int) -> int:
    """Size of the group of ``tile`` that a tile on ``space`` would join (itself included)."""
    seen = {space}
    todo = [space]
    while todo:
        here = todo.pop()
        for n in ORTHOGONAL[here]:
            if n not in seen and tiles[n] == tile:
                seen.add(n)
                todo.append(n)
    return len(seen)


class GreedyPolicy:
    """Scores every option of a decision and takes the best (seeded ties)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ctx: DecisionContext) -> int:
        view: Sight = ctx.observation
        options = ctx.decision.options
        scores = [self.score(view, ctx.decision.kind, option) for option in options]
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        return ties[int(self.rng.random() * len(ties))]

    # ------------------------------------------------------------------ rules per action

    def score(self, view: Sight, kind: str, option: Option) -> float:
        act = Act(*option.value)
        assert view.seat is not None
        town = view.towns[view.seat]
        action = act.action
        if action == "draw":
            return self.draw_value(view, town)
        if action == "pass":
            return 0.0
        if action == "stew":
            return 1.0 if not town.stew else -1.0
        if action == "keep":
            if act.card >= 0:
                return self.ability_value(act.card)
            return self.keep_value(view, town)
        if action in ("return", "redraw"):
            return -self.keep_value(view, town)
        if action == "place":
            return self.place_value(view, town, act.space, view.drawn)
        if action == "move":
            return self.move_value(view, town, act.gnome, act.direction)
        if action == "sprint":  # ruling G55: more steps, each a mushroom or an activation
            return MUSHROOM
        if action in ("activate", "echo", "ballista", "target", "take"):
            return 2.0 * MUSHROOM
        if action == "buy":
            return self.buy_value(town, act.tile)
        if action in ("line", "upgrade"):
            return self.upgrade_value(view, town, act)
        if action == "deploy":
            return self.safe_value(view, town, act.space) + (
                1.0 if town.tiles[act.space] < 0 else 0
            )
        if action in ("spawn", "restand"):
            return self.safe_value(view, town, act.space)
        if action == "remove":
            return 2.0 * MUSHROOM if act.space in town.trolls else MUSHROOM * 1.5
        if action == "mushroom":
            return MUSHROOM
        if action == "side":
            return 1.0 if act.amount == 1 else 0.0
        return 0.0  # stop, skip, none, done: the default when nothing gains

    def draw_value(self, view: Sight, town: TownView) -> float:
        """Draw unless the next gnome tile would likely leave the town stuck."""
        size = sum(town.bag)
        if size == 0:
            return -1.0
        gnome_chance = town.bag[Tile.GNOME] / size
        if town.stumps >= 2 and gnome_chance > STUCK_RISK:
            return -1.0
        empty = sum(1 for s in range(SPACES) if self.is_empty(town, s))
        return 1.0 if empty > 0 or gnome_chance > 0 else -1.0

    def keep_value(self, view: Sight, town: TownView) -> float:
        """Keep a drawn tile unless it is the gnome tile that makes the town stuck, or a
        building with nowhere good to go."""
        drawn = view.drawn
        if drawn == Tile.GNOME:
            return -1.0 if town.stumps >= 2 else 1.0
        best = max(
            (
                self.place_value(view, town, s, drawn)
                for s in range(SPACES)
                if self.is_empty(town, s)
            ),
            default=-10.0,
        )
        return 1.0 if best > 0 else -1.0

    def place_value(self, view: Sight, town: TownView, space: int, tile: int) -> float:
        if tile < 0:
            return 0.0
        value = TIER_OF[tile] * 1.0
        size = group_after(town.tiles, space, tile) if tile != Tile.MONUMENT else 1
        if size >= 3:
            value += VP * (stack_points(size) + 1)
        elif size == 2:
            value += 6.0
        value += sum(1.0 for n in ORTHOGONAL[space] if town.tiles[n] >= 0)
        if space in threatened(view):
            value -= 4.0 * TIER_OF[tile]
        return value

    def move_value(self, view: Sight, town: TownView, gnome: int, direction: str) -> float:
        start = town.gnomes[gnome].space
        target = _step(start, direction)
        if target is None:
            return 0.0
        value = 0.5
        tile = town.tiles[target]
        if target in town.trolls or town.boulders[target]:
            value += MUSHROOM + 4.0
        elif tile < 0:
            value += MUSHROOM
        else:
            value += self.activation_value(town, gnome, tile)
        if target in threatened(view):
            value -= 2.0
        return value

    def activation_value(self, town: TownView, gnome: int, tile: int) -> float:
        me = town.gnomes[gnome]
        if tile == Tile.MARKET:
            return MUSHROOM if town.mushrooms >= 2 else 0.5
        if tile == Tile.HOUSE:
            return 5.0 if any(g.space < 0 for g in town.gnomes) else 0.5
        if tile == Tile.TAVERN:
            return 4.0 if not town.stew else 0.5
        if tile == Tile.ACADEMY:
            return 8.0 if not me.graduated else 0.5
        if tile == Tile.WORKSHOP:
            return 4.0 if not me.hammer else 0.5
        if tile == Tile.ARMORY:
            return 5.0 if not me.sword else 0.5
        if tile == Tile.BALLISTA:
            return 4.0 if town.trolls else 1.0
        return 0.5

    def buy_value(self, town: TownView, tile: int) -> float:
        """Tiles that join what the board already has are worth most; mushrooms kept are
        worth something too (ties, the next market)."""
        on_board = sum(1 for t in town.tiles if t == tile)
        return TIER_OF[tile] * 2.0 + 2.0 * min(on_board, 2) - MUSHROOM * TIER_OF[tile] * 0.5

    def upgrade_value(self, view: Sight, town: TownView, act: Act) -> float:
        if act.action == "line":
            defence = LINE_OF.get(Tile(act.tile)) == "defence"
            return sum(1.0 for t in town.tiles if t == act.tile) * 3 + (1.0 if defence else 0.0)
        space = act.space
        tile = act.tile
        return sum(2.0 for n in ORTHOGONAL[space] if tile >= 0 and town.tiles[n] == tile) - (
            3.0 if space in threatened(view) else 0.0
        )

    def safe_value(self, view: Sight, town: TownView, space: int) -> float:
        value = 0.0
        if town.tiles[space] >= 0:
            value -= TIER_OF[town.tiles[space]]
        if any(g.space == space for g in town.gnomes):
            value -= 3.0
        value -= 0.2 * sum(1 for n in AROUND[space] if town.tiles[n] >= 0)
        return value

    def ability_value(self, card: int) -> float:
        try:
            effect = default_pack().abilities[card].effect
        except (IndexError, ContentError):
            return 0.0
        return float(len(ABILITY_ORDER) - ABILITY_ORDER.index(effect))

    @staticmethod
    def is_empty(town: TownView, space: int) -> bool:
        return (
            town.tiles[space] < 0
            and not town.boulders[space]
            and space not in town.trolls
            and all(g.space != space for g in town.gnomes)
        )


_DELTA = {
    "N": (-1, 0),
    "E": (0, 1),
    "S": (1, 0),
    "W": (0, -1),
    "NE": (-1, 1),
    "SE": (1, 1),
    "SW": (1, -1),
    "NW": (-1, -1),
}


def _step(space: int, direction: str) -> int | None:
    if space < 0 or direction not in _DELTA:
        return None
    dr, dc = _DELTA[direction]
    row, col = divmod(space, SIZE)
    r, c = row + dr, col + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None
