"""Replay frames for the viewer: a stored replay re-simulated into public views, one per decision.

Frame 0 is the position before the first decision (with the public setup events); frame i is
the position after decision i, with the public events that decision caused and the seat that
made it. Everything shown comes from ``observe(None)`` and events without ``private_to``: a
frame never holds a hand, a hidden card or the index of an option (an option's label may name a
private card).

A replay is only public once its match is over and its seed revealed (``ReplayNotPublic``
otherwise). Re-simulating is the engine's own cost per decision (a Root game of ~1,500
decisions takes about a second), so the frames of the last few replays viewed are kept, and a
request only simulates as far as it needs. Callers run ``FrameCache.frames`` in a thread.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.json_format import MessageToDict

from games import GameConfig, get_game
from games.contract import Event, Game, GameState
from kassen import wire


class ReplayNotPublic(LookupError):
    """The replay cannot be shown (still secret, or not a replay); the message says why."""


def public_view(game: str, view: Any) -> dict[str, Any]:
    """A public observation as plain JSON (every field present, proto field names)."""
    message = wire.observation_to_proto(game, view)
    inner = message.WhichOneof("game")
    if inner is None:
        return {}
    return MessageToDict(
        getattr(message, inner),
        always_print_fields_with_no_presence=True,
        preserving_proto_field_name=True,
    )


def public_events(game: Game, events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [game.describe(e) for e in events if e.private_to is None]


@dataclass(slots=True)
class _Simulation:
    """One replay being re-simulated: the state so far and the frames made from it."""

    game: Game
    state: GameState
    decisions: list[tuple[int, int]]
    #: Each frame as JSON text (a Root game's frames take ~5 MB so, ~50 MB as dicts).
    frames: list[str]
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def total(self) -> int:
        return len(self.decisions) + 1

    def extend_to(self, end: int) -> None:
        """Simulate until ``end`` frames exist (at most all of them)."""
        with self.lock:
            while len(self.frames) < min(end, self.total):
                seat, index = self.decisions[len(self.frames) - 1]
                try:
                    events = self.state.apply(seat, index)
                except ValueError as exc:  # IllegalDecision: the record is damaged
                    raise ReplayNotPublic(
                        f"the stored replay does not re-simulate: {exc}"
                    ) from None
                self.frames.append(self._frame(len(self.frames), seat, events))

    def _frame(self, number: int, seat: int | None, events: tuple[Event, ...]) -> str:
        frame = {
            "n": number,
            "seat": seat,
            "events": public_events(self.game, events),
            "view": public_view(self.game.name, self.state.observe(None)),
        }
        return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def start_simulation(replay_json: str) -> _Simulation:
    """Read a stored replay and set up its re-simulation (frame 0 made at once)."""
    try:
        record = json.loads(replay_json)
        if record.get("seed") is None:
            raise ReplayNotPublic("the replay's seed is not revealed yet")
        game = get_game(str(record["game"]))
        config = GameConfig(
            players=int(record["players"]),
            variant=str(record["variant"]),
            options=dict(record.get("options") or {}),
        )
        decisions = [(int(s), int(i)) for s, i in record["decisions"]]
        state = game.new(config, int(record["seed"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayNotPublic(f"the stored replay cannot be read: {exc}") from None
    simulation = _Simulation(game, state, decisions, [])
    setup = tuple(getattr(state, "setup_events", ()))
    simulation.frames.append(simulation._frame(0, None, setup))
    return simulation


class FrameCache:
    """The simulations of the last ``capacity`` replays viewed (thread-safe)."""

    def __init__(self, capacity: int = 4) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._simulations: OrderedDict[str, _Simulation] = OrderedDict()

    def frames(
        self, match_id: str, replay_json: str, start: int, count: int
    ) -> tuple[int, list[str]]:
        """Frames ``start .. start+count-1`` as JSON texts (fewer at the end) and the number
        of frames."""
        simulation = self._simulation(match_id, replay_json)
        simulation.extend_to(start + count)
        return simulation.total, simulation.frames[start : start + count]

    def _simulation(self, match_id: str, replay_json: str) -> _Simulation:
        with self._lock:
            found = self._simulations.get(match_id)
            if found is not None:
                self._simulations.move_to_end(match_id)
                return found
        made = start_simulation(replay_json)
        with self._lock:
            found = self._simulations.setdefault(match_id, made)
            self._simulations.move_to_end(match_id)
            while len(self._simulations) > self.capacity:
                self._simulations.popitem(last=False)
        return found
