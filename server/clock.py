"""A seat's clock, measured on the referee: free time per decision plus a bank."""

from __future__ import annotations

from server.settings import TimeControl


class SeatClock:
    def __init__(self, control: TimeControl) -> None:
        self.decision_ms = control.decision_ms
        self.bank_ms = float(control.bank_ms)
        self.think_time_us = 0
        self.decisions = 0

    def budget_s(self) -> float:
        """The longest the seat may take for the next decision."""
        return (self.decision_ms + max(self.bank_ms, 0.0)) / 1000.0

    def charge(self, elapsed_s: float) -> bool:
        """Record a decision that took ``elapsed_s``; False if it overran the clock."""
        elapsed_s = max(0.0, elapsed_s)
        self.decisions += 1
        self.think_time_us += int(elapsed_s * 1e6)
        over_ms = elapsed_s * 1000.0 - self.decision_ms
        if over_ms > 0:
            self.bank_ms -= over_ms
        return self.bank_ms >= 0
