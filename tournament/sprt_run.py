"""Play a candidate against a baseline until a sequential probability ratio test decides.

Every match seats the candidate and the baseline (and, with more players, bots drawn from a
field), rotated through the seats over a seed block; the test sees one result per match: 1 if
the candidate finished above the baseline, 0 if below.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from tournament.config import BotEntry, TournamentConfig
from tournament.ratings import Sprt
from tournament.runner import play_on_referee
from tournament.schedule import ScheduledMatch, block_seed, rotations


def candidate_score(ranking: list[str], candidate: str, baseline: str) -> float | None:
    if candidate not in ranking or baseline not in ranking:
        return None  # voided: no ranking
    return 1.0 if ranking.index(candidate) < ranking.index(baseline) else 0.0


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
    rng = random.Random(config.seed)
    async with running_server("127.0.0.1:0") as referee:
        gate = asyncio.Semaphore(config.concurrency)

        async def one(spec: ScheduledMatch) -> list[str]:
            async with gate:
                record, _ = await play_on_referee(referee, config, bots, spec)
                return record.ranking if record.reason != "voided" else []

        played = block = 0
        while test.verdict is None and played < max_games:
            others = rng.sample(field, config.players - 2) if config.players > 2 else []
            seed = block_seed(config.seed, block)
            specs = [
                ScheduledMatch(played + i, block, seed, seats)
                for i, seats in enumerate(rotations([candidate, baseline, *others]))
            ]
            block += 1
            for ranking in await asyncio.gather(*(one(spec) for spec in specs)):
                played += 1
                score = candidate_score(ranking, candidate, baseline)
                if score is not None and test.verdict is None:
                    test.add(score)
                    if on_result is not None:
                        on_result(test)
    return test
