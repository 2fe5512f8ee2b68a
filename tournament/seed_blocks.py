"""Seed blocks and when their seeds become public.

A seed block plays one deal in every seat rotation (and, in a round-robin, in every group), so
an earlier match of a block must not give away the deal of a later one. With a secret base
seed, a match's seed is therefore revealed (in its replay file, and in ``GetReplay`` /
``MatchOver`` of a live referee) only when every match of its block is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kassen.replay_files import reveal_in_replay
from server.chance import derived_salt
from server.match import Match
from tournament import storage
from tournament.config import TournamentConfig


def match_salt(config: TournamentConfig, idx: int) -> str:
    """The salt of match ``idx``'s seed commitment: secret while the base seed is, and the same
    on resume (so it need not be stored)."""
    return derived_salt(config.base_seed, f"{idx}")


class SeedBlocks:
    """Tracks the matches each seed still has to play, and reveals a seed when none is left."""

    def __init__(self, config: TournamentConfig, matches: Iterable[storage.MatchRecord]) -> None:
        self.config = config
        self._left: dict[int, set[int]] = {}
        self._finished: dict[int, list[tuple[int, str | None]]] = {}
        self._live: dict[int, Match] = {}
        #: Why each replay that could not be given its revealed seed failed (a full disk).
        self.unrevealed: list[str] = []
        for m in matches:
            self._left.setdefault(m.seed, set())
            self._finished.setdefault(m.seed, [])
            if m.status == "done":
                self._finished[m.seed].append((m.idx, m.replay_path))
            else:
                self._left[m.seed].add(m.idx)
        # A run killed between storing a block's last result and revealing it: reveal now.
        for seed, left in self._left.items():
            if not left:
                self._reveal(seed)

    @property
    def secret(self) -> bool:
        return self.config.secret_seed

    def hold(self, idx: int, match: Match) -> None:
        """A match on a live referee: its MatchOver/GetReplay reveal the seed with its block."""
        if self.secret:
            self._live[idx] = match

    def finished(self, idx: int, seed: int, replay_path: str | None) -> None:
        left = self._left.setdefault(seed, set())
        left.discard(idx)
        self._finished.setdefault(seed, []).append((idx, replay_path))
        if not left:
            self._reveal(seed)

    def is_public(self, seed: int) -> bool:
        """True when ``seed`` may be shown (reports): its block is over, or nothing is secret."""
        return not self.secret or not self._left.get(seed)

    def _reveal(self, seed: int) -> None:
        if not self.secret:
            return
        for idx, path in self._finished.get(seed, []):
            problem = ""
            if path:  # whole or not at all (kassen.replay_files)
                problem = reveal_in_replay(Path(path), seed, match_salt(self.config, idx))
            live = self._live.pop(idx, None)
            if live is not None:
                self._reveal_live(live, file_failed=bool(problem))
            if problem:
                self.unrevealed.append(problem)

    @staticmethod
    def _reveal_live(match: Match, file_failed: bool) -> None:
        """The seed in the live referee's GetReplay and GetMatch. Its file is revealed by now
        (the referee then finds nothing to write); if that failed (a full disk), the referee is
        not sent to write the file a second time, with a writer that would leave a temporary."""
        path = match.result.replay_path if match.result is not None else ""
        if file_failed and match.result is not None:
            match.result.replay_path = ""
        try:
            match.reveal_seed()
        finally:
            if match.result is not None:
                match.result.replay_path = path
