"""What a ``CreateMatchRequest`` asks for becomes the match's settings, within bounds
(docs/protocol.md, "Creating a match")."""

from __future__ import annotations

import pytest

from kassen.v1 import referee_pb2 as pb
from server.limits import InvalidSetting, settings_from_request
from server.settings import DEFAULT_RECONNECT_MS, MAX_RECONNECT_MS


def request(reconnect_ms: int = 0) -> pb.CreateMatchRequest:
    return pb.CreateMatchRequest(game="rumble-nation", players=2, reconnect_ms=reconnect_ms)


def test_the_reconnect_window_defaults_to_five_seconds() -> None:
    assert settings_from_request(request()).reconnect_ms == DEFAULT_RECONNECT_MS == 5_000


def test_the_creator_sets_the_reconnect_window() -> None:
    assert settings_from_request(request(reconnect_ms=15_000)).reconnect_ms == 15_000
    assert settings_from_request(request(reconnect_ms=MAX_RECONNECT_MS)).reconnect_ms == 600_000


def test_a_reconnect_window_above_its_bound_is_refused_by_name() -> None:
    with pytest.raises(InvalidSetting, match=r"^reconnect_ms = 600001 is above its limit 600000"):
        settings_from_request(request(reconnect_ms=MAX_RECONNECT_MS + 1))
