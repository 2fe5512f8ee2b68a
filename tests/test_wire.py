"""Engine views and options survive the wire unchanged, for every decision of many games."""

from __future__ import annotations

import random

import pytest

from games import GameConfig
from games.rumble_nation import GAME
from kassen import wire
from kassen.wire.rumble_nation import ViewEncoder, view_to_proto


@pytest.mark.parametrize("variant", ["base", "advanced"])
def test_views_and_options_round_trip_and_incremental_encoding_matches(variant: str) -> None:
    kinds = set()
    for seed in range(40):
        state = GAME.new(GameConfig(4, variant), seed)
        encoders = [ViewEncoder() for _ in range(4)]
        rng = random.Random(seed)
        while state.pending():
            decision = state.pending()[0]
            kinds.add(decision.kind)
            for option in decision.options:
                assert wire.option_from_proto(wire.option_to_proto(GAME.name, option)) == option
            if state.phase != "draft":
                view = state.observe(decision.seat)
                message = encoders[decision.seat].encode(view)
                assert message == view_to_proto(view)
                assert (
                    wire.observation_from_proto(wire.observation_to_proto(GAME.name, view)) == view
                )
            state.apply(decision.seat, rng.randrange(len(decision.options)))
    # The games above reached card steps as well as turns (the round trip covers them).
    assert {"turn", "after_roll"} < kinds and any("." in k for k in kinds)


def test_every_card_option_round_trips() -> None:
    from games.rumble_nation import options as opt
    from games.rumble_nation.board import AREA_COUNT
    from games.rumble_nation.cards import DAIMYO_CARDS, TACTIC_CARDS

    every = [opt.ROLL, opt.REROLL, opt.STOP, opt.ESCORT, opt.ALONE]
    every += [opt.tactic(c.id) for c in TACTIC_CARDS] + [
        opt.daimyo_card(c.id) for c in DAIMYO_CARDS
    ]
    every += [opt.draft(c.id) for c in DAIMYO_CARDS] + [opt.seat(p) for p in range(4)]
    every += [opt.area(a) for a in range(AREA_COUNT)]
    every += [opt.piece_to(p, a) for p in ("soldier", "daimyo") for a in range(AREA_COUNT)]
    every += [opt.place(c, n, d) for c in range(2, 13) for n in range(4) for d in (False, True)]
    for option in every:
        assert wire.option_from_proto(wire.option_to_proto(GAME.name, option)) == option
    assert len({o.key for o in every}) == len(every)
