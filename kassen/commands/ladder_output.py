"""What ``kassen bot ladder`` prints: a line per match (the game, the opponents, this bot's
rank, score and failure), a line per reconnect, and what was played in all."""

from __future__ import annotations

from client_sdk.ladder import LadderMatch, LadderRun, Retry
from kassen.commands.match_output import reason_text
from kassen.v1 import referee_pb2 as pb


def match_line(played: LadderMatch) -> str:
    """``match 3f2a over: rumble-nation/base, 2 players, seat 1 vs house-random: rank 1 of 2,
    score 53`` (and ``failed: illegal_answer: ...`` when this bot's seat failed; ``2 players,
    unrated`` for a challenge)."""
    assignment = played.assignment
    setup = assignment.setup
    game = f"{setup.game}/{setup.variant}, {_count(setup.players, 'player')}"
    if assignment.unrated:
        game += ", unrated"
    opponents = ", ".join(name or "?" for name in played.opponents) or "nobody (solo)"
    seat = played.seat_result
    if played.result is None or seat is None:
        error = played.error or "no result"
        return f"match {assignment.match_id} not played ({game}, seat {assignment.seat}): {error}"
    parts = [f"rank {seat.rank} of {setup.players}" if seat.rank else "no rank"]
    parts.append(f"score {seat.score}")
    if played.result.reason != pb.RESULT_REASON_COMPLETED:
        parts.append(f"match {reason_text(played.result.reason)}")
    if seat.forfeited:
        parts.append(f"failed: {reason_text(seat.reason)}: {seat.detail}".rstrip(": "))
    elif seat.reason == pb.RESULT_REASON_NOT_JOINED:
        parts.append("it had not joined")
    return (
        f"match {assignment.match_id} over: {game}, seat {assignment.seat} vs {opponents}: "
        + ", ".join(parts)
    )


def retry_line(retry: Retry) -> str:
    """``cannot reach the ladder at 127.0.0.1:1 (...), retrying in 0.2 s``."""
    return f"{retry.problem}, retrying in {retry.delay_s:.1f} s"


def summary_line(run: LadderRun) -> str:
    """``played 1 match``, ``played 3 matches (1 failed)``; matches the bot could not play
    are counted apart."""
    played = [m for m in run.matches if m.result is not None]
    failed = sum(1 for m in played if (seat := m.seat_result) is not None and seat.forfeited)
    line = f"played {_count(len(played), 'match')}"
    if failed:
        line += f" ({failed} failed)"
    unplayed = len(run.matches) - len(played)
    if unplayed:
        line += f", {unplayed} could not be played"
    return line


def _count(n: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{n} {noun if n == 1 else plural}"
