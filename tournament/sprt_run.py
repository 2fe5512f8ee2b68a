"""Play a candidate against a baseline until a sequential probability ratio test decides.

Every match seats the candidate and the baseline (and, with more players, bots drawn from a
field), rotated through the seats over a seed block: one seed, one match per rotation. A match
scores 1 if the candidate finished above the baseline, 0 if below; the test sees each block as
one observation, the mean of its match scores (``Sprt.add_block``), because matches on the same
seed are correlated. A voided match leaves its block one game shorter; a block with every match
voided is not recorded.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

from tournament.config import BotEntry, TournamentConfig
from tournament.ratings import Sprt
from tournament.runner import play_on_referee
from tournament.schedule import ScheduledMatch, block_seed, rotations


def candidate_score(
    ranking: Sequence[str | tuple[str, ...]], candidate: str, baseline: str
) -> float | None:
    """1 if the candidate finished above the baseline, 0 if below, 0.5 if they shared a place
    (a Root coalition), None for a voided match."""
    place = {bot: i for i, entry in enumerate(ranking) for bot in _bots(entry)}
    if candidate not in place or baseline not in place:
        return None  # voided: no ranking
    if place[candidate] == place[baseline]:
        return 0.5
    return 1.0 if place[candidate] < place[baseline] else 0.0


def _bots(entry: str | tuple[str, ...]) -> tuple[str, ...]:
    return (entry,) if isinstance(entry, str) else entry


def block_scores(
    rankings: Sequence[Sequence[str | tuple[str, ...]]], candidate: str, baseline: str
) -> list[float]:
    """The candidate's score in every ranked match of one seed block (voided ones left out)."""
    scores = (candidate_score(ranking, candidate, baseline) for ranking in rankings)
    return [score for score in scores if score is not None]


async def run_sprt(
    config: TournamentConfig,
    candidate: str,
    baseline: str,
    test: Sprt,
    max_games: int,
    on_result: Callable[[Sprt], None] | None = None,
) -> Sprt:
    from server.app import running_server

    bots: dict[str, BotEntry] = {b.name: b for b in config.bots}
    field = [b.name for b in config.bots if b.name not in (candidate, baseline)]
    rng = random.Random(config.base_seed)
    async with running_server("127.0.0.1:0") as referee:
        gate = asyncio.Semaphore(config.concurrency)

        async def one(spec: ScheduledMatch) -> list[str | tuple[str, ...]]:
            async with gate:
                record, _ = await play_on_referee(referee, config, bots, spec)
                return record.ranking if record.reason != "voided" else []

        played = block = 0
        while test.verdict is None and played < max_games:
            others = rng.sample(field, config.players - 2) if config.players > 2 else []
            seed = block_seed(config.base_seed, block)
            specs = [
                ScheduledMatch(played + i, block, seed, seats)
                for i, seats in enumerate(rotations([candidate, baseline, *others]))
            ]
            block += 1
            rankings = await asyncio.gather(*(one(spec) for spec in specs))
            played += len(rankings)
            scores = block_scores(rankings, candidate, baseline)
            if scores and test.verdict is None:
                test.add_block(scores)
                if on_result is not None:
                    on_result(test)
    return test
