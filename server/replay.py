"""Replay files: the seed and every decision of a match, verified by re-simulation.

Format (JSON, ``"format": "kassen-replay/1"``): game, variant, players, seed, the decisions as
``[seat, option_index]`` pairs in the order they were applied (including the random answers
played for a forfeited seat), the final scores and ranking of the game, the digest of the
final state, and the referee's result per seat.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games import GameConfig, IllegalDecision, get_game, replay

if TYPE_CHECKING:
    from server.match import Match

FORMAT = "kassen-replay/1"


def replay_record(match: Match) -> dict[str, Any]:
    state = match.state
    outcome = state.outcome()
    result = match.result
    return {
        "format": FORMAT,
        "match_id": match.id,
        "game": match.game.name,
        "variant": match.settings.config.variant,
        "players": match.settings.config.players,
        "seed": match.settings.seed,
        "decisions": [list(d) for d in state.history],
        "finished": outcome is not None,
        "scores": list(outcome.scores) if outcome else None,
        "ranking": list(outcome.ranking) if outcome else None,
        "digest": state.digest(),
        "result": {
            "reason": result.reason.value if result else None,
            "seats": [
                {
                    "seat": r.seat,
                    "rank": r.rank,
                    "bot": r.bot_name,
                    "reason": r.reason.value,
                    "detail": r.detail,
                    "stderr_tail": getattr(match.seats[r.seat], "stderr_tail", b"").decode(
                        "utf-8", "replace"
                    )[-2000:],
                }
                for r in result.seats
            ]
            if result
            else [],
        },
    }


def write_replay(directory: Path, match: Match) -> Path:
    """Write atomically (a reader never sees half a file)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{match.id}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(replay_record(match), indent=1))
    os.replace(tmp, path)
    return path


class ReplayError(ValueError):
    """A replay that cannot be read, or that does not re-simulate to what it records."""


@dataclass(frozen=True, slots=True)
class Verified:
    game: str
    decisions: int
    digest: str
    scores: list[int] | None


def verify_record(record: dict[str, Any]) -> Verified:
    if record.get("format") != FORMAT:
        raise ReplayError(f"not a {FORMAT} file (format: {record.get('format')!r})")
    try:
        game = get_game(record["game"])
        config = GameConfig(players=int(record["players"]), variant=str(record["variant"]))
        decisions = [(int(s), int(i)) for s, i in record["decisions"]]
        state = replay(game, config, int(record["seed"]), decisions)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, IllegalDecision):
            raise ReplayError(f"re-simulation failed: {exc}") from None
        raise ReplayError(f"malformed replay: {exc}") from None
    if state.digest() != record.get("digest"):
        raise ReplayError(
            f"final state differs: digest {state.digest()} != recorded {record.get('digest')}"
        )
    outcome = state.outcome()
    scores = list(outcome.scores) if outcome else None
    if scores != record.get("scores") or (list(outcome.ranking) if outcome else None) != record.get(
        "ranking"
    ):
        raise ReplayError("final scores or ranking differ from the recorded ones")
    return Verified(game.name, len(decisions), state.digest(), scores)


def verify_file(path: Path) -> Verified:
    try:
        record = json.loads(path.read_text())
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{path} is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise ReplayError(f"{path} is not a replay object")
    return verify_record(record)
