"""What ``kassen match`` prints, from wire messages only, so an embedded referee and a
remote one (``--server``) read the same: the header, the spectator's view, the result."""

from __future__ import annotations

import sys

from games.contract import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.chance import check_commitment

#: Hex digits of the commitment shown at the start (enough to compare by eye).
SHOWN_DIGITS = 16


def print_header(title: str, config: GameConfig, setup: pb.MatchSetup, seed: int | None) -> None:
    """The match as announced; a seed the referee drew stays secret, only its commitment shows."""
    from tournament.options import options_note

    who = "1 player (solo)" if config.players == 1 else f"{config.players} players"
    line = f"{title}, {who}, {config.variant} rules"
    note = options_note(config.options)
    if seed is not None:
        print(f"{line}, seed {seed}{note}")
        return
    print(line + note)
    print(f"seed: secret until the end (commitment {setup.seed_commitment[:SHOWN_DIGITS]}…)")
    sys.stdout.flush()


async def print_watch(stub: rpc.RefereeAsyncStub, match_id: str) -> None:
    """Print the public events as a spectator receives them, until MatchOver."""
    async for update in stub.Watch(pb.WatchRequest(match_id=match_id)):
        for event in update.events:
            print(event.text)
        sys.stdout.flush()


def reason_text(reason: pb.ResultReason.ValueType) -> str:
    """``RESULT_REASON_BOT_CRASHED`` -> ``bot_crashed`` (the names of server.results.Reason)."""
    return pb.ResultReason.Name(reason).removeprefix("RESULT_REASON_").lower()


def print_result(summary: pb.MatchSummary, specs: list[str], commitment: str) -> bool:
    """Print the ranking, the replay and the revealed seed, checked against ``commitment``
    (the one announced at the start). Returns False if the seed does not match it."""
    result = summary.result
    print(f"Result: {reason_text(result.reason)} after {summary.decisions} decisions")
    for seat in sorted(result.seats, key=lambda r: (r.rank or 99, r.seat)):
        status = (
            f"  [forfeited: {reason_text(seat.reason)}: {seat.detail}]" if seat.forfeited else ""
        )
        think_ms = seat.think_time_us / 1000
        print(
            f"  {seat.rank}. Player {seat.seat + 1} ({specs[seat.seat]}) score {seat.score},"
            f" {seat.decisions} decisions, {think_ms:.0f} ms{status}"
        )
    for seat in result.seats:
        if seat.takeovers:
            times = "once" if seat.takeovers == 1 else f"{seat.takeovers} times"
            print(
                f"Player {seat.seat + 1} ({specs[seat.seat]}) was taken over {times}: another"
                " connection joined with its ticket while its own still held the seat"
                " (the replay says before which decision)"
            )
    if result.replay_path:
        print(f"Replay: {result.replay_path}")
    if not result.HasField("seed_reveal"):
        print("Seed: not revealed by the referee")
        return True
    reveal = result.seed_reveal
    if check_commitment(reveal.seed, reveal.salt, commitment):
        print(f"Seed: {reveal.seed} (salt {reveal.salt}, commitment verified)")
        return True
    print(f"Seed: {reveal.seed} (salt {reveal.salt}, does NOT match the commitment {commitment})")
    return False
