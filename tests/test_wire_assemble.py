"""A DecisionRequest written from parts encoded once parses to the message the referee used to
build field by field (kassen.wire.assemble), for every game."""

from __future__ import annotations

import random

import pytest

from games import games
from games.contract import GameConfig
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from kassen.wire import assemble

SETUPS = [("rumble-nation", "base", 4), ("root", "autumn", 4), ("gnomeville", "standard", 3)]


@pytest.mark.parametrize(("name", "variant", "players"), SETUPS)
def test_assembled_requests_parse_to_the_built_message(
    name: str, variant: str, players: int
) -> None:
    game = games()[name]
    state = game.new(GameConfig(players, variant), 5)
    rng = random.Random(5)
    observations = [pb.Observation() for _ in range(players)]
    encoders = [wire.ObservationEncoder(name, o) for o in observations]
    undelivered: list[list[pb.Event]] = [[] for _ in range(players)]
    checked = 0
    for request_id in range(1, 400):
        pending = state.pending()
        if not pending:
            break
        decision = pending[0]
        view = state.observe(decision.seat)
        encoders[decision.seat].encode(view)
        bank_ms = rng.choice([0, 1, 2**40])
        events = undelivered[decision.seat]
        built = pb.PlayResponse()
        request = built.decision
        request.request_id, request.kind, request.seat = request_id, decision.kind, decision.seat
        request.options.extend(wire.options_to_proto(name, decision))
        request.observation.CopyFrom(wire.observation_to_proto(name, view))
        request.clock.decision_ms, request.clock.bank_ms = 1000, bank_ms
        request.events.extend(events)
        assembled = assemble.decision_message(
            request_id,
            decision,
            assemble.options_field(name, decision),
            observations[decision.seat].SerializeToString(),
            1000,
            bank_ms,
            [assemble.event_bytes(e) for e in events],
        )
        assert pb.PlayResponse.FromString(assembled) == built
        undelivered[decision.seat] = []
        for event in state.apply(decision.seat, rng.randrange(len(decision.options))):
            message = wire.event_to_proto(game, event)
            for seat in range(players):
                if event.private_to in (None, seat):
                    undelivered[seat].append(message)
        checked += 1
    assert checked > 20


def test_match_over_carries_the_undelivered_events_after_its_own() -> None:
    result = pb.MatchOver(match_id="m1", reason=pb.RESULT_REASON_COMPLETED)
    events = [pb.Event(kind="roll", data_json='{"dice":[1,2]}', text="rolled"), pb.Event()]
    message = pb.PlayResponse.FromString(
        assemble.match_over_message(result, [assemble.event_bytes(e) for e in events])
    )
    assert message.match_over.match_id == "m1"
    assert list(message.match_over.events) == events


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**32, 2**63 - 1])
def test_varints_read_back(value: int) -> None:
    message = pb.Clock.FromString(assemble.varint_field(2, value))
    assert message.bank_ms == value
