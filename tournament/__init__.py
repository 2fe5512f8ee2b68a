"""Tournaments and ladders: schedules, the match runner, storage, ratings and reports."""
