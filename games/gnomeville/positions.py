"""Hand-built Gnomeville positions for the conformance kit, which starts matches from them so
that a bot meets the rare decisions (ability cards, activations, upgrades, troll spawns, a lost
last gnome, special deliveries...) and not only the draws and placements of every game.

A position is a real game (``GAME.new``, the default content pack) whose towns are then changed
by hand, as the rule tests do, and whose driver is settled again, so that seat 0 has the wanted
decision pending, or reaches it by answers given here with the engine's own ``apply``. Every
hand change keeps the game whole: building tiles come from the supply and go back to it, an
ability card is taken out of the ability piles (ruling G19), and the supply is split into fair
shares again (G18) and the public picture of the towns retaken. So play goes on from each
position to the end of the game, and a determinization of it stays possible.
"""

from __future__ import annotations

from typing import Any

from games.contract import GameConfig
from games.gnomeville.build import BuildStep
from games.gnomeville.buildings import BY_NAME
from games.gnomeville.game import GAME
from games.gnomeville.hidden import DEALT, Replay
from games.gnomeville.state import GnomevilleState
from games.gnomeville.town import EMPTY, SPACE_NAMES, Town

__all__ = ["decision_scenarios", "give_ability", "position", "seat_zero_faces"]

#: Answers that end a seat's part of a phase quickly, for the seats driven here.
_QUIET = ("pass", "done", "stop", "none", "skip", "keep", "mushroom")


def _space(name: str) -> int:
    return SPACE_NAMES.index(name)


def _tile(name: str) -> int:
    return int(BY_NAME[name])


def position(
    players: int, variant: str = "standard", seed: int = 0, **options: Any
) -> GnomevilleState:
    """A new game, stopped at its first decisions (every seat's first draw, or its side)."""
    return GAME.new(GameConfig(players, variant, options), seed)


def clear(g: GnomevilleState, town: Town, gnome: str = "c3") -> None:
    """Empty a new game's ``town`` (its buildings back to the supply, Boulderville's boulders
    off) and put its gnome 0 on ``gnome``; the others stay in camp."""
    for space, tile in enumerate(town.tiles):
        if tile != EMPTY:
            g.supply[tile] += 1
            town.tiles[space] = EMPTY
    town.boulders[:] = [False] * len(town.boulders)
    town.trolls.clear()
    assert all(card == EMPTY for card in town.ability), "a new game's gnomes hold no ability"
    town.gnome_at[:] = [EMPTY] * len(town.gnome_at)
    town.gnome_at[0] = _space(gnome)


def put(g: GnomevilleState, town: Town, name: str, *spaces: str) -> None:
    """Building tiles from the supply onto ``spaces``."""
    tile = _tile(name)
    for space in spaces:
        assert g.supply[tile] > 0, f"no {name} left in the supply"
        g.supply[tile] -= 1
        town.tiles[_space(space)] = tile


def give_ability(g: GnomevilleState, town: Town, gnome: int, effect: str) -> None:
    """Graduate ``gnome`` with a card of ``effect`` taken out of the ability piles (ruling G19:
    every card is in one place). A card from another seat's pile is replaced there by the
    bottom card of this town's pile, so the piles keep their sizes."""
    abilities = g.pack.abilities
    for other in sorted(g.towns, key=lambda t: t.seat != town.seat):
        for card in other.ability_pile:
            if abilities[card].effect == effect:
                other.ability_pile.remove(card)
                if other is not town and town.ability_pile:
                    other.ability_pile.append(town.ability_pile.pop())
                town.graduated[gnome] = True
                town.ability[gnome] = card
                town.ability_used[gnome] = False
                return
    raise AssertionError(f"no {effect} ability card left in the piles")


def set_round_card(g: GnomevilleState, card_id: str) -> None:
    """Make ``card_id`` this round's troll card (swapped with the one dealt, so the deck keeps
    every card once)."""
    card = next(i for i, c in enumerate(g.pack.troll_cards) if c.id == card_id)
    if card != g.round_card:
        g.troll_deck[g.troll_deck.index(card)] = g.round_card
        g.round_card = card


def next_delivery(g: GnomevilleState, card_id: str) -> None:
    """Put the special delivery ``card_id`` on top of its deck."""
    card = next(i for i, c in enumerate(g.pack.deliveries) if c.id == card_id)
    g.delivery_deck.remove(card)
    g.delivery_deck.insert(0, card)


def drawn(g: GnomevilleState, seat: int, name: str) -> None:
    """``seat`` has drawn ``name`` (out of its bag) and kept it: its build step places it next."""
    town = g.towns[seat]
    tile = _tile(name)
    assert town.bag[tile] > 0, f"no {name} in seat {seat}'s bag"
    town.bag[tile] -= 1
    town.drawn = tile
    step = g.stacks[seat][-1]
    assert isinstance(step, BuildStep) and step.stage == "draw", step.kind()
    step.stage = "place"


def settle(g: GnomevilleState) -> GnomevilleState:
    """Resume the driver after hand changes: split the supply into shares again (G18) if seats
    work independently, retake the public picture of the towns, and run every seat's steps up
    to its next decision (or on to the next phase if nobody has one). Called before anyone
    answers in the phase: the shares are split anew from the supply as it stands."""
    assert not any(any(t.taken) for t in g.towns), "settle before any seat takes a tile"
    if g.independent:
        g.open_phase()
    g._take_snapshot()
    for seat in range(g.players):
        g._decisions[seat] = None
        if g.stacks[seat]:
            g._settle(seat)
    if all(d is None for d in g._decisions):
        g._barrier()
    else:
        g._pending = tuple(d for d in g._decisions if d is not None)
    _record_starts_here(g)
    return g


def _record_starts_here(g: GnomevilleState) -> None:
    """Make this position the start of the game's record for determinization.

    ``determinize`` replays a game's record from its seed to learn where each seat last saw
    the others and which pile cards it saw (ruling G51); a position set up by hand is not where
    its record leads, and the answers given from it would not replay on the dealt game. So the
    replay is started here: the position counts as a barrier (the towns were just retaken for
    everyone) with every pile card unseen, and later answers extend it as usual.
    """
    here = g.clone()
    here.__dict__.pop("_replay", None)
    marks = tuple(tuple([DEALT] * len(t.ability_pile)) for t in g.towns)
    history = tuple(g.history)
    g.__dict__["_replay"] = Replay(history, here, len(history), here, marks, marks)


def answer(g: GnomevilleState, seat: int, key: str) -> None:
    """Answer ``seat``'s pending decision with the option ``key``."""
    for d in g.pending():
        if d.seat == seat:
            keys = [o.key for o in d.options]
            assert key in keys, f"no {key!r} in {d.kind}: {keys}"
            g.apply(seat, keys.index(key))
            return
    raise AssertionError(f"seat {seat} has no decision pending")


def seat_zero_faces(g: GnomevilleState, kind: str, limit: int = 200) -> GnomevilleState:
    """Answer every decision quietly (pass, done, stop...; else the first option) until seat 0
    is asked ``kind``. The game's record stays a real one: every answer goes through
    ``apply``."""
    for _ in range(limit):
        pending = g.pending()
        if any(d.seat == 0 and d.kind == kind for d in pending):
            return g
        assert pending, f"the game ended before seat 0 was asked {kind}"
        d = pending[0]
        keys = [o.key for o in d.options]
        quiet = next((k for k in _QUIET if k in keys), keys[0])
        g.apply(d.seat, keys.index(quiet))
    raise AssertionError(f"seat 0 was not asked {kind} within {limit} answers")


# ---------------------------------------------------------------------- the build phase


def _crossroads(players: int, seed: int) -> GnomevilleState:
    """Seat 0's gnome 0 on c3 among four buildings that each ask something when entered:
    a market north (3 mushrooms to spend), a house east (two gnomes in camp), a ballista south
    (a boulder on b5 and a troll on d5 beside it) and an academy west; it has just drawn a
    gnome tile, so ``move.step`` with 1 movement is pending."""
    g = position(players, seed=seed)
    town = g.towns[0]
    clear(g, town)
    put(g, town, "market", "c2")
    put(g, town, "house", "d3")
    put(g, town, "ballista", "c4")
    put(g, town, "academy", "b3")
    town.boulders[_space("b5")] = True
    town.trolls.append(_space("d5"))
    town.mushrooms = 3
    drawn(g, 0, "gnome")
    return settle(g)


def _step_cards() -> GnomevilleState:
    """``move.step`` with every kind of option: gnome 0 stands on a tavern with an echo card
    and an empty stew (the echo would fill it), gnome 1 has a ballista card beside a troll and
    a boulder, gnome 2 may step diagonally; a gnome tile was just drawn."""
    g = position(3, seed=4)
    town = g.towns[0]
    clear(g, town)
    put(g, town, "tavern", "c3")
    town.stew = False
    give_ability(g, town, 0, "echo")
    town.gnome_at[1] = _space("b1")
    give_ability(g, town, 1, "ballista")
    town.trolls.append(_space("a1"))
    town.boulders[_space("c1")] = True
    town.gnome_at[2] = _space("d4")
    give_ability(g, town, 2, "diagonal")
    drawn(g, 0, "gnome")
    return settle(g)


def _upgrade(tile: str, variant: str, players: int, seed: int) -> GnomevilleState:
    """Two ``tile``s on a1 and b1, a third just drawn and placed on c1: the group upgrades."""
    g = position(players, variant, seed=seed)
    town = g.towns[0]
    clear(g, town)
    put(g, town, tile, "a1", "b1")
    drawn(g, 0, tile)
    settle(g)
    answer(g, 0, "place:c1")
    return g


def _second_chance(players: int, variant: str, redraw: bool, seed: int) -> GnomevilleState:
    """Seat 0 has just drawn with its stew full (as every game starts), and with ``redraw``
    a redraw ability card as well."""
    g = position(players, variant, seed=seed)
    if redraw:
        give_ability(g, g.towns[0], 0, "redraw")
        settle(g)
    answer(g, 0, "draw")
    return g


def _stew_card() -> GnomevilleState:
    """Solo: an empty stew and a stew ability card, so the draw may begin with ``stew``."""
    g = position(1, seed=6)
    town = g.towns[0]
    town.stew = False
    give_ability(g, town, 0, "stew")
    return settle(g)


# ---------------------------------------------------------------------- phases 3-5


def _spawn() -> GnomevilleState:
    """One troll already on seat 0's board and a card spawning four: which two appear is the
    player's choice (ruling G42)."""
    g = position(2, seed=7)
    clear(g, g.towns[0])
    g.towns[0].trolls.append(_space("b4"))
    set_round_card(g, "troll-04")
    settle(g)
    return seat_zero_faces(g, "enemy.spawn")


def _restand() -> GnomevilleState:
    """Solo: the only gnome stands where the round's boulder falls, so a new stand is placed
    (ruling G11)."""
    g = position(1, seed=8)
    clear(g, g.towns[0], gnome="e3")
    set_round_card(g, "troll-02")  # a boulder on e3
    settle(g)
    return seat_zero_faces(g, "enemy.restand")


def _delivery(players: int, card_id: str, seed: int, **town: Any) -> GnomevilleState:
    """Seat 0 far behind the leader (seat 1, 20 VP) as the special delivery ``card_id`` is
    revealed: it takes all three bonus groups. ``town`` sets up seat 0's board."""
    g = position(players, seed=seed)
    home = g.towns[0]
    clear(g, home)
    set_round_card(g, "troll-15")  # four spawns on b1, d1, b5, d5, one step west
    g.towns[1].vp = 20
    for seat in range(2, players):
        g.towns[seat].vp = 6 * seat
    next_delivery(g, card_id)
    home.stew = town.get("stew", home.stew)
    for gnome, space in enumerate(town.get("gnomes", ())):
        home.gnome_at[gnome] = _space(space)
    for space in town.get("boulders", ()):
        home.boulders[_space(space)] = True
    for space in town.get("trolls", ()):
        home.trolls.append(_space(space))
    settle(g)
    return seat_zero_faces(g, "delivery.bonus")


def _buy() -> GnomevilleState:
    """Riverville (its river washed first) with 6 mushrooms to spend in phase 5."""
    g = position(2, seed=9, towns="3,2")
    g.towns[0].mushrooms = 6
    settle(g)
    return seat_zero_faces(g, "buy.tile")


def decision_scenarios() -> dict[str, GnomevilleState]:
    """Positions where seat 0 must answer each rare kind of decision, named by the kind (and
    what is special about it); in each, seat 0 has that decision pending. Random games meet
    the common draws, placements and purchases, but seldom an ability card, a graduation or a
    delivery; these cover every option shape (echo and ballista cards, each delivery bonus, a
    redraw card...), solo and 2-4 seats, and all three variants. Play goes on from each to the
    end of the game."""
    found: dict[str, GnomevilleState] = {}
    found["setup.side"] = position(4, seed=1, sides="choose")
    found["setup.side solo"] = position(1, seed=2, sides="choose")
    found["build.second_chance"] = _second_chance(3, "turn-by-turn", False, seed=3)
    found["build.second_chance redraw"] = _second_chance(2, "standard", True, seed=3)
    found["build.draw stew"] = _stew_card()
    found["move.step cards"] = _step_cards()
    for kind, way, players, seed in (
        ("market.buy", "N", 2, 5),
        ("house.deploy", "E", 3, 6),
        ("ballista.target", "S", 4, 7),
        ("move.activate", "W", 2, 8),
        ("academy.keep", "W", 3, 9),
    ):
        g = _crossroads(players, seed)
        answer(g, 0, f"move:0:{way}")
        if kind == "academy.keep":
            answer(g, 0, "activate")
        found[kind] = g
    found["upgrade.line"] = _upgrade("market", "master-build", 2, seed=11)
    found["upgrade.space"] = _upgrade("house", "standard", 3, seed=12)
    found["enemy.spawn"] = _spawn()
    found["enemy.restand solo"] = _restand()
    found["delivery.bonus take"] = _delivery(3, "delivery-03", 13, stew=False, gnomes=("c3", "a3"))
    found["delivery.bonus remove"] = _delivery(
        4, "delivery-04", 14, boulders=("a1", "e1"), trolls=("e4",)
    )
    found["buy.tile"] = _buy()
    return found
