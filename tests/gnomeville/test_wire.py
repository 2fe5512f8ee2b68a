"""Gnomeville views and options survive the wire unchanged, a seat's observation on the wire
holds nothing of another seat's secrets (its drawn tile before the reveal, its ability pile but
the cards seen going under), and it holds the public facts a player remembers (the cards used,
what lies beside each board, the tiles revealed turn by turn).

The games are walked in a shuffled answer order (seats of a simultaneous phase answer in any
order, as they do over the network), and every seat's and the spectator's view is checked at
every step. The checks grow with the engine: whatever fields the views fill, they must round-trip.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from games import GameConfig
from games.contract import Option
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.buildings import BY_NAME, Tile
from games.gnomeville.steps import Act
from games.gnomeville.view import StepView
from kassen import wire
from kassen.v1 import gnomeville_pb2 as gpb
from kassen.wire.gnomeville import (
    ViewEncoder,
    option_to_proto,
    option_value_from_proto,
    view_from_proto,
    view_to_proto,
)

SETUPS = [(4, "standard"), (3, "turn-by-turn"), (2, "master-build"), (1, "standard")]


def walk(players: int, variant: str, seed: int) -> Iterator[GnomevilleState]:
    """Every position of one random game, answering a random pending seat each time."""
    state = GAME.new(GameConfig(players, variant), seed)
    rng = random.Random(seed)
    while state.pending():
        yield state
        decision = rng.choice(state.pending())
        state.apply(decision.seat, rng.randrange(len(decision.options)))
    yield state


@pytest.mark.parametrize(("players", "variant"), SETUPS)
def test_views_and_options_round_trip(players: int, variant: str) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        encoders = {seat: ViewEncoder() for seat in [*range(players), None]}
        for state in walk(players, variant, seed):
            for decision in state.pending():
                kinds.add(decision.kind)
                for option in decision.options:
                    assert isinstance(option.value, Act)
                    sent = wire.option_to_proto(GAME.name, option)
                    assert sent.WhichOneof("detail") == "gnomeville"
                    assert wire.option_from_proto(sent) == option
            for seat in encoders:
                view = state.observe(seat)
                message = wire.observation_to_proto(GAME.name, view)
                assert wire.observation_from_proto(message) == view
                # The referee's incremental encoder gives the same message as a full encoding.
                assert encoders[seat].encode(view) == view_to_proto(view)
    assert kinds  # the games asked something


def test_tiles_keep_the_engine_numbers_and_none_is_unset() -> None:
    assert [(t.name, t.value) for t in Tile] == [
        (name.removeprefix("TILE_"), number) for name, number in gpb.Tile.items()
    ]
    act = Act("place", space=0, tile=int(Tile.MARKET))
    message = option_to_proto(Option("k", "l", act))
    assert message.HasField("space") and message.space == 0
    assert message.HasField("tile") and message.tile == gpb.TILE_MARKET
    assert not message.HasField("gnome") and not message.HasField("card")
    assert option_value_from_proto(message) == act
    bare = option_to_proto(Option("pass", "Pass", Act("pass")))
    assert bare == gpb.GnomevilleOption(action="pass")
    assert option_value_from_proto(bare) == Act("pass")


def test_every_public_fact_round_trips_in_every_shape() -> None:
    """The facts a rebuild needs, filled by hand where random games rarely get: a known pile
    card, a full board, an ambush, a market (tile 0) revealed; the incremental encoder too."""
    state = GAME.new(GameConfig(3, "turn-by-turn"), 2)
    view = state.observe(1)
    pack = state.pack
    town = dataclasses.replace(
        view.towns[0],
        set_aside=(1, 0, 2, 0, 0, 0, 0, 0, 3),
        full=True,
        pile=7,
        pile_known=((5, pack.abilities[3].id), (6, pack.abilities[0].id)),
        revealed=int(Tile.MARKET),
        discard=(pack.abilities[8].id, pack.abilities[2].id),
    )
    odd = dataclasses.replace(
        view,
        towns=(town, *view.towns[1:]),
        turn_by_turn_rounds=(1, 3),
        troll_cards=((1, pack.troll_cards[4].id, False), (1, pack.troll_cards[0].id, True)),
        deliveries=(pack.deliveries[2].id,),
        backs=(2, 5, 3),
    )
    message = view_to_proto(odd)
    assert view_from_proto(message) == odd
    assert message.towns[0].HasField("revealed") and message.towns[0].revealed == gpb.TILE_MARKET
    assert not message.towns[1].HasField("revealed")
    assert [(k.position, k.ability) for k in message.towns[0].pile_known] == list(town.pile_known)
    assert list(message.towns[0].discard) == list(town.discard)
    encoder = ViewEncoder()
    for shown in (view, odd, view, odd):
        assert encoder.encode(shown) == view_to_proto(shown)


@pytest.mark.parametrize(("players", "variant"), [(3, "turn-by-turn"), (4, "standard")])
def test_views_list_the_cards_revealed_and_only_tiles_revealed(players: int, variant: str) -> None:
    """Every view (seats and spectators) lists the troll and delivery cards in the order the
    public events revealed them, and another town's revealed tile is the one the ``reveal``
    event showed, only in the place stage: never a drawn tile before the reveal."""
    rounds = (1, 2, 3, 4, 5) if variant == "turn-by-turn" else ()
    tiles_seen = 0
    for seed in range(3):
        state = GAME.new(GameConfig(players, variant), seed)
        trolls: list[tuple[int, str, bool]] = []
        deliveries: list[str] = []
        revealed = [-1] * players
        rng = random.Random(seed)
        events = list(state.setup_events)
        while True:
            for event in events:
                if event.private_to is not None:
                    continue
                if event.kind == "round":
                    trolls.append((event.data["round"], event.data["troll_card"], False))
                elif event.kind == "ambush":
                    trolls.append((state.round, event.data["card"], True))
                elif event.kind == "delivery":
                    deliveries.append(event.data["card"])
                elif event.kind == "reveal":
                    revealed = [int(BY_NAME[t]) if t else -1 for t in event.data["tiles"]]
            for seat in [*range(players), None]:
                view = state.observe(seat)
                assert view.turn_by_turn_rounds == rounds
                assert view.troll_cards == tuple(trolls) and view.deliveries == tuple(deliveries)
                assert view.troll_deck + len(trolls) == len(state.pack.troll_cards)
                for town in view.towns:
                    if town.seat == seat:
                        continue
                    shown = revealed[town.seat] if view.stage == "place" else -1
                    assert town.revealed == shown, (seat, town.seat, view.stage)
                    tiles_seen += town.revealed != -1
            if not state.pending():
                break
            decision = rng.choice(state.pending())
            events = list(state.apply(decision.seat, rng.randrange(len(decision.options))))
        assert trolls and (deliveries or players == 1)
    assert tiles_seen or variant != "turn-by-turn"


def test_step_fields_of_every_plain_shape_round_trip() -> None:
    state = GAME.new(GameConfig(2, "standard"), 1)
    view = state.observe(0)
    fields = (
        ("a", 3),
        ("b", -7),
        ("c", True),
        ("d", "text"),
        ("e", None),
        ("f", ()),
        ("g", (1, (2, "x"), (), None, False)),
    )
    odd = dataclasses.replace(view, steps=(StepView("odd.stage", fields),))
    assert view_from_proto(view_to_proto(odd)) == odd
    with pytest.raises(TypeError, match="no wire form"):
        view_to_proto(dataclasses.replace(view, steps=(StepView("x", (("f", 1.5),)),)))


@pytest.mark.parametrize(("players", "variant"), [(4, "standard"), (3, "turn-by-turn")])
def test_a_seat_never_receives_another_seats_drawn_tile_or_ability_pile(
    players: int, variant: str
) -> None:
    others_drawing = 0
    for seed in range(4):
        for state in walk(players, variant, seed):
            pack = state.pack
            public_abilities = (
                {g.ability for town in state.snapshot for g in town.gnomes if g.ability}
                | {pack.abilities[a].id for town in state.towns for a in town.ability if a >= 0}
                | {pack.abilities[c].id for town in state.towns for _, c in town.pile_known(None)}
            )
            for seat in range(players):
                message = wire.observation_to_proto(GAME.name, state.observe(seat)).gnomeville
                own = state.towns[seat]
                # The one drawn tile on the wire is the viewer's own.
                if own.drawn < 0:
                    assert not message.HasField("drawn")
                else:
                    assert message.drawn == own.drawn
                assert message.ability_pile == len(own.ability_pile)
                texts = set(strings(view_from_proto(message)))
                for other in range(players):
                    if other == seat:
                        continue
                    if state.towns[other].drawn >= 0:
                        others_drawing += 1
                    hidden = (
                        {pack.abilities[a].id for a in state.towns[other].ability_pile}
                        - public_abilities
                        - {pack.abilities[a].id for a in own.ability_pile}
                    )
                    assert not hidden & texts, (seat, other, hidden & texts)
            spectator = wire.observation_to_proto(GAME.name, state.observe(None)).gnomeville
            assert not spectator.HasField("viewer") and not spectator.HasField("drawn")
            assert spectator.ability_pile == 0 and not spectator.share and not spectator.steps
    # Not a vacuous check once the engine draws tiles (the skeleton may not yet).
    if any(k.startswith("build.place") for k in _kinds(players, variant)):
        assert others_drawing > 0


def strings(value: object) -> Iterator[str]:
    """Every text anywhere in a view (card ids, names, step fields)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from strings(item)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from strings(getattr(value, name))


def _kinds(players: int, variant: str) -> set[str]:
    return {d.kind for state in walk(players, variant, 0) for d in state.pending()}
