"""A local policy that thinks (``thinks = True``: a search bot) runs off the referee's event
loop, so the other seats and matches it serves are not held up while it thinks, in turn-based
and simultaneous play alike (server/match.py ``_decide_local_off_loop``)."""

from __future__ import annotations

import asyncio
import time

from games import GameConfig
from games.policies import make_policy
from games.policies.base import DecisionContext
from server.app import running_server
from server.referee import LocalBot
from server.replay import replay_record, verify_record
from server.results import Reason
from server.settings import MatchSettings
from tests.server.test_end_to_end import run

THINK_S = 0.4


class SlowThinker:
    """Blocks its thread for ``THINK_S`` on its first decision (as a CPU-bound search does),
    then answers like random."""

    thinks = True

    def __init__(self, seed: int) -> None:
        self.inner = make_policy("random", "", seed)
        self.slept = False

    def choose(self, ctx: DecisionContext) -> int:
        if not self.slept:
            self.slept = True
            time.sleep(THINK_S)
        return self.inner.choose(ctx)


async def _worst_loop_lag(stop: asyncio.Event) -> float:
    """The longest the event loop took to come back to a 10 ms sleep until ``stop``."""
    worst = 0.0
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        worst = max(worst, time.monotonic() - before - 0.01)
    return worst


def test_a_thinking_seat_does_not_hold_up_the_event_loop() -> None:
    async def scenario() -> float:
        async with running_server() as referee:
            stop = asyncio.Event()
            lag = asyncio.create_task(_worst_loop_lag(stop))
            await asyncio.sleep(0.05)  # the lag probe is waiting on the loop
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=3)
            local = {seat: LocalBot(SlowThinker(seat), f"thinker-{seat}") for seat in range(2)}
            match, _ = referee.create_match(settings, local=local)
            await match.finished.wait()
            stop.set()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert not any(s.forfeited for s in match.result.seats)
            return await lag

    # Blocking the loop would show a lag of at least THINK_S.
    assert run(scenario()) < THINK_S / 2


def test_thinking_seats_in_simultaneous_phases_finish_and_replay() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            settings = MatchSettings(game="gnomeville", config=GameConfig(3, "standard"), seed=2)
            local = {seat: LocalBot(SlowThinker(seat), f"thinker-{seat}") for seat in range(3)}
            match, _ = referee.create_match(settings, local=local)
            await asyncio.wait_for(match.finished.wait(), 60)
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert not any(s.forfeited for s in match.result.seats)
            assert verify_record(replay_record(match)).decisions == match.decisions

    run(scenario())
