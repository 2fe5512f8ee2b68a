"""Setting up a game: the supply, each player's town board and bag, and the decks.

The seed: each player is dealt one of the four town boards at random; the front of every
board is the symmetric town #1, each back a different asymmetric town (#2-#5), and each player
independently plays the front or the back of their own board. The match configuration fixes
that choice for everyone (``sides = "front"`` (default) or ``"back"``), leaves it to each seat
(``"choose"``: a ``setup.side`` decision), or names every seat's town (``towns = "1,3,5,1"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.contract import InvalidConfig, Option
from games.gnomeville.buildings import BUILDINGS
from games.gnomeville.steps import FINISHED, Act, Options, Step
from games.gnomeville.town import Town

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState

SIDES = ("front", "back", "choose")
#: The asymmetric backs of the four boards.
BACKS = (2, 3, 4, 5)


def parse_towns(value: Any, players: int) -> tuple[int, ...] | None:
    """The ``towns`` option: one town number per seat (1 = front; each back at most once)."""
    if value is None or value == "":
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    try:
        towns = tuple(int(str(item).strip()) for item in items)
    except ValueError:
        raise InvalidConfig(
            f"towns must be town numbers 1-5, one per seat, not {value!r}"
        ) from None
    if len(towns) != players:
        raise InvalidConfig(f"towns names {len(towns)} towns for {players} players")
    for number in towns:
        if number not in (1, *BACKS):
            raise InvalidConfig(f"towns: there is no town #{number} (choose from 1-5)")
    backs = [n for n in towns if n != 1]
    if len(backs) != len(set(backs)):
        raise InvalidConfig(
            "towns: each asymmetric town (#2-#5) is the back of one board, so at most one seat "
            "can play it"
        )
    return towns


def deal(g: GnomevilleState) -> None:
    """Fill the supply and the bags, deal boards, shuffle the decks, lay out events and goals."""
    from games.gnomeville.state import stream_seed

    pack, rng, options = g.pack, g.rng, g.config.options
    comp = pack.components
    sides = str(options.get("sides", "front"))
    if sides not in SIDES:
        raise InvalidConfig(f"sides must be one of {', '.join(SIDES)}, not {sides!r}")
    towns = parse_towns(options.get("towns"), g.players)
    for tile in BUILDINGS:
        g.supply[tile] = comp.supply.get(tile, 0) - g.players * comp.starting_bag.get(tile, 0)
        if g.supply[tile] < 0:
            raise InvalidConfig(f"the supply has too few {tile.name.lower()} tiles for the bags")
    backs = list(BACKS)
    rng.shuffle(backs)
    #: The back of the board dealt to each seat (the setup decision offers it).
    g.dealt_backs = tuple(backs[: g.players]) if g.players <= len(backs) else ()
    if g.players > len(BACKS):
        raise InvalidConfig(f"gnomeville has {len(BACKS)} town boards")
    for seat in range(g.players):
        if towns is not None:
            number = towns[seat]
        elif sides == "back":
            number = g.dealt_backs[seat]
        else:
            number = 1  # "choose" starts on the front until the seat decides
        town = Town(seat, pack.towns[number], pack, stream_seed(g.seed, f"bag:{seat}"))
        g.towns.append(town)
        place_town_features(town)
    g.choose_sides = sides == "choose" and towns is None
    g.troll_deck = list(range(len(pack.troll_cards)))
    rng.shuffle(g.troll_deck)
    deal_abilities(g)
    event_deck = list(range(len(pack.solo_events if g.solo else pack.multi_events)))
    rng.shuffle(event_deck)
    g.events = event_deck[:3]
    if not g.solo:
        g.delivery_deck = list(range(len(pack.deliveries)))
        rng.shuffle(g.delivery_deck)
        goal_deck = list(range(len(pack.goals)))
        rng.shuffle(goal_deck)
        pairs = (
            [(0, 1)] * 3 if g.players == 2 else [(s, (s + 1) % g.players) for s in range(g.players)]
        )
        for a, b in pairs:
            g.goals.append((min(a, b), max(a, b), goal_deck.pop(), int(rng.random() < 0.5)))


def deal_abilities(g: GnomevilleState) -> None:
    """Ruling G19: the shuffled ability deck is dealt into one pile per seat."""
    deck = list(range(len(g.pack.abilities)))
    g.rng.shuffle(deck)
    each = len(deck) // g.players
    for seat, town in enumerate(g.towns):
        town.ability_pile = deck[seat * each : (seat + 1) * each]


def place_town_features(town: Town) -> None:
    """Boulderville's starting boulders (the only feature that puts pieces on the board)."""
    for space in town.layout.boulder_marks:
        town.boulders[space] = True


def set_town(g: GnomevilleState, town: Town, number: int) -> None:
    """Switch a town (still empty but for its first gnome) to the side ``number``."""
    from games.gnomeville.town import Geometry

    layout = g.pack.towns[number]
    town.layout = layout
    town.geometry = Geometry(layout)
    town.boulders = [False] * len(town.boulders)
    town.gnome_at[0] = layout.centre
    place_town_features(town)


def begin_sides(g: GnomevilleState) -> None:
    """Each seat chooses the front or the back of its own board (if the match lets it)."""
    if not g.choose_sides:
        return
    g.open_phase()
    for seat in range(g.players):
        g.push(SideStep(seat))


class SideStep(Step):
    """``setup.side``: play the symmetric front (#1) or the asymmetric back of your board."""

    __slots__ = ()
    name = "setup"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, "side")

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        if self.stage == "done":
            return FINISHED
        back = g.dealt_backs[self.seat]
        return (
            Option("front", "Play the front: town #1 (symmetric)", Act("side", amount=1)),
            Option(
                f"back:{back}",
                f"Play the back: town #{back} ({g.pack.towns[back].name})",
                Act("side", amount=back),
            ),
        )

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        number = Act(*value).amount
        set_town(g, town, number)
        g.emit(self.seat, "side", seat=self.seat, town=number)
        self.stage = "done"
