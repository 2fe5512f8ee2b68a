"""The referee's clock: free time per decision, then the bank."""

from __future__ import annotations

from server.clock import SeatClock
from server.settings import TimeControl


def test_time_over_the_free_allowance_comes_out_of_the_bank() -> None:
    clock = SeatClock(TimeControl(decision_ms=100, bank_ms=300))
    assert clock.budget_s() == 0.4
    assert clock.charge(0.05) and clock.bank_ms == 300
    assert clock.charge(0.3) and round(clock.bank_ms) == 100
    assert not clock.charge(0.25)  # 150 ms over, only 100 left
    assert clock.decisions == 3 and clock.think_time_us == 600_000


def test_an_answer_stamped_before_the_send_returned_costs_nothing() -> None:
    # A fast bot's answer can be read before the referee's write call returns.
    clock = SeatClock(TimeControl(decision_ms=100, bank_ms=0))
    assert clock.charge(-0.0002)
    assert clock.think_time_us == 0
