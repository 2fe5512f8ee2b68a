"""Replay files: the seed and every decision of a match, verified by re-simulation.

Format (JSON, ``"format": "kassen-replay/1"``, documented field by field in
docs/protocol.md): game, variant, players, the game's options (text; a file written before
options travelled has none and is verified without), the seed commitment and (once revealed)
seed and salt, the decisions as ``[seat, option_index]`` pairs in the order they were applied
(in a simultaneous phase, the order the answers arrived; including the random answers played
for a forfeited seat), the final scores and ranking of the game, the digest of the final
state, and the referee's result per seat (with every takeover of the seat: before which
decision, and when; a file written before takeovers were recorded has none).

A replay written while its seed is still secret (a tournament match whose seed block has
matches to play) has ``"seed": null`` and ``"salt": null``; ``reveal_in_file`` fills them in
when the block is over. Such a file cannot be verified until then.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from games import GameConfig, IllegalDecision, InvalidConfig, get_game, replay
from server.chance import check_commitment, commitment_of
from server.results import Takeover

if TYPE_CHECKING:
    from server.match import Match


def options_text(options: Mapping[str, Any]) -> dict[str, str]:
    """Game options as text, as the wire and the replay carry them."""
    return {str(k): v if isinstance(v, str) else str(v) for k, v in options.items()}


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
        "options": options_text(match.settings.config.options),
        "seed_commitment": commitment_of(match.settings.seed, match.settings.salt),
        "seed": match.settings.seed if match.seed_revealed else None,
        "salt": match.settings.salt if match.seed_revealed else None,
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
                    "takeovers": [takeover_record(t) for t in r.takeovers],
                }
                for r in result.seats
            ]
            if result
            else [],
        },
    }


def takeover_record(takeover: Takeover) -> dict[str, Any]:
    """A takeover as the replay records it: before which decision, and when (UTC, ISO 8601)."""
    at = datetime.fromtimestamp(takeover.at, UTC).isoformat(timespec="milliseconds")
    return {"before_decision": takeover.before_decision, "at": at.replace("+00:00", "Z")}


def write_replay(directory: Path, match: Match) -> Path:
    """Write atomically (a reader never sees half a file)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{match.id}.json"
    _write_atomically(path, replay_record(match))
    return path


def _write_atomically(path: Path, record: dict[str, Any]) -> None:
    """Whole or not at all: a write that fails (a full disk) leaves no temporary behind and
    the previous file as it was."""
    tmp = path.with_suffix(".json.tmp")
    try:
        tmp.write_text(json.dumps(record, indent=1))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def reveal_record(record: dict[str, Any], seed: int, salt: str) -> dict[str, Any]:
    """The record with its seed revealed; refuses a seed that is not the committed one."""
    if not check_commitment(seed, salt, str(record.get("seed_commitment", ""))):
        raise ReplayError("the seed and salt do not match the replay's commitment")
    return {**record, "seed": seed, "salt": salt}


def reveal_in_file(path: Path, seed: int, salt: str) -> None:
    """Write the now-public seed and salt into a replay file (atomically)."""
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return  # the file is gone or was never complete: nothing to reveal in
    if record.get("seed") is not None:
        return  # revealed already
    _write_atomically(path, reveal_record(record, seed, salt))


class ReplayError(ValueError):
    """A replay that cannot be read, or that does not re-simulate to what it records."""


@dataclass(frozen=True, slots=True)
class Verified:
    game: str
    decisions: int
    digest: str
    scores: list[int] | None
    #: True when the record carried a commitment and the revealed seed matched it.
    commitment_checked: bool = False
    #: Seats taken over: (seat, before_decision, at) in the record's order.
    takeovers: list[tuple[int, int, str]] = field(default_factory=list)


def verify_record(record: dict[str, Any]) -> Verified:
    if record.get("format") != FORMAT:
        raise ReplayError(f"not a {FORMAT} file (format: {record.get('format')!r})")
    if record.get("seed") is None:
        raise ReplayError("the seed is not revealed yet (its seed block is still being played)")
    commitment = record.get("seed_commitment")
    if commitment is not None and not _matches_commitment(record, str(commitment)):
        raise ReplayError(
            "the seed does not match the commitment the seats were shown "
            f"(sha256 of seed:salt != {commitment})"
        )
    try:
        game = get_game(record["game"])
        config = GameConfig(
            players=int(record["players"]),
            variant=str(record["variant"]),
            options=_options(record.get("options")),
        )
        decisions = [(int(s), int(i)) for s, i in record["decisions"]]
        state = replay(game, config, int(record["seed"]), decisions)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, IllegalDecision):
            raise ReplayError(f"re-simulation failed: {exc}") from None
        if isinstance(exc, InvalidConfig):
            raise ReplayError(f"the game cannot be set up: {exc}") from None
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
    return Verified(
        game.name,
        len(decisions),
        state.digest(),
        scores,
        commitment is not None,
        _takeovers(record.get("result"), len(decisions)),
    )


def _takeovers(result: Any, decisions: int) -> list[tuple[int, int, str]]:
    """The takeovers a record's result lists, checked for shape (none in a replay written
    before they were recorded)."""
    found: list[tuple[int, int, str]] = []
    seats = result.get("seats", []) if isinstance(result, dict) else []
    for index, seat in enumerate(seats if isinstance(seats, list) else []):
        takeovers = seat.get("takeovers", []) if isinstance(seat, dict) else []
        if not isinstance(takeovers, list):
            raise ReplayError("malformed replay: a seat's takeovers must be a list")
        for each in takeovers:
            before = each.get("before_decision") if isinstance(each, dict) else None
            if not _whole(before) or not 0 <= before <= decisions:
                raise ReplayError(
                    f"malformed replay: a takeover's before_decision must be 0..{decisions}"
                )
            number = seat.get("seat")
            found.append((number if _whole(number) else index, before, str(each.get("at", ""))))
    return found


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _options(found: Any) -> dict[str, str]:
    """The game options of a record (none in replays written before options travelled)."""
    if found is None:
        return {}
    if not isinstance(found, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in found.items()
    ):
        raise ReplayError("malformed replay: options must map names to texts")
    return found


def _matches_commitment(record: dict[str, Any], commitment: str) -> bool:
    try:
        return check_commitment(int(record["seed"]), str(record.get("salt")), commitment)
    except (TypeError, ValueError):
        raise ReplayError(f"malformed seed {record.get('seed')!r}") from None


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
