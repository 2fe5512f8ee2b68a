"""Run a tournament's matches through the referee and store every result as it comes.

Two execution paths, the same referee rules in both:
* only built-in bots: matches run in worker processes (one per ``concurrency``), each an
  in-process referee with trusted local seats - no network, all cores busy;
* any Python-class or command-line bot: one embedded gRPC referee on a loopback port,
  ``concurrency`` matches at a time; command bots are launched per match and connect back.
Results are committed in small batches. A match that was not committed is simply run again
on resume, with the same seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import shlex
import time
from collections.abc import AsyncGenerator, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import Engine

from games import get_game
from games.policies import make_policy
from games.policies.base import Budgeted, Policy
from games.policies.ismcts_params import is_spec
from kassen.errors import WriteFailed
from kassen.replay_files import write_when_decided
from server.clock import SeatClock
from server.match import Match
from server.referee import CommandBot, LocalBot, Referee
from server.results import MatchResult
from server.seats import LocalSeat, Seat
from server.settings import FailurePolicy, MatchSettings, TimeControl
from tournament import storage
from tournament.config import BotEntry, TournamentConfig
from tournament.schedule import ScheduledMatch, swiss_round
from tournament.seed_blocks import SeedBlocks, match_salt

Finished = tuple[storage.MatchRecord, list[storage.SeatRecord]]
#: How many finished matches are committed together (and how often, at the latest).
COMMIT_EVERY = 50
COMMIT_SECONDS = 1.0


def policy_seed(match_seed: int, seat: int, bot: str) -> int:
    """Built-in bots' own randomness, derived from the match: reruns reproduce the match. The
    bot's name is part of it, so two entries of one built-in (``random`` and ``r2=random``)
    are two bots, not one playing twice: on a solo seed they would otherwise play the same
    game move for move."""
    digest = hashlib.sha256(f"{match_seed}:{seat}:{bot}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def builtin_policy(config: TournamentConfig, target: str, seed: int) -> Policy:
    """A built-in bot for one seat; a search bot is told the clock's free time per decision
    (``decision_ms``) as its budget."""
    policy = make_policy(target, config.game, seed)
    return Budgeted(policy, config.decision_ms / 1000.0) if is_spec(target) else policy


def match_settings(config: TournamentConfig, spec: ScheduledMatch) -> MatchSettings:
    """A tournament match's settings: the game's options included, so the referee (and the
    replay it writes) sets the game up as the tournament says. With a secret base seed,
    MatchOver does not reveal the seed: the runner reveals it when every match of its seed
    block is over (``SeedBlocks``)."""
    return MatchSettings(
        game=config.game,
        config=config.game_config,
        seed=spec.seed,
        salt=match_salt(config, spec.idx),
        reveal_seed=not config.secret_seed,
        time_control=TimeControl(decision_ms=config.decision_ms, bank_ms=config.bank_ms),
        failure_policy=FailurePolicy(config.failure_policy),
        max_decisions=config.max_decisions,
    )


def to_records(
    spec: ScheduledMatch,
    result: MatchResult,
    decisions: int,
    duration_ms: float,
    replay_error: str = "",
) -> Finished:
    """The records of a finished match; ``replay_error``: why its replay is missing."""
    seats = [
        storage.SeatRecord(
            seat=r.seat,
            bot=spec.seats[r.seat],
            rank=r.rank,
            score=r.score,
            forfeited=r.forfeited,
            reason=r.reason.value,
            detail=r.detail,
            think_time_us=r.think_time_us,
        )
        for r in result.seats
    ]
    record = storage.MatchRecord(
        idx=spec.idx,
        round=spec.round,
        seed=spec.seed,
        seats=spec.seats,
        status="done",
        reason=result.reason.value,
        decisions=decisions,
        duration_ms=duration_ms,
        replay_path=result.replay_path or None,
        results=tuple(seats),
        replay_error=replay_error,
    )
    return record, seats


# ---------------------------------------------------------------------- built-in bots only


async def play_builtin(
    config: TournamentConfig,
    bots: dict[str, BotEntry],
    spec: ScheduledMatch,
    replay_dir: Path | None,
    match_id: str,
) -> Finished:
    """One match of built-in policies on an in-process referee (no network); its replay is
    written whole or not at all (``kassen.replay_files``)."""
    settings = match_settings(config, spec)
    seats: list[Seat] = [
        LocalSeat(
            i,
            SeatClock(settings.time_control),
            builtin_policy(config, bots[name].target, policy_seed(spec.seed, i, name)),
            name,
        )
        for i, name in enumerate(spec.seats)
    ]
    match = Match(match_id, get_game(config.game), settings, seats)
    problems = write_when_decided(match, replay_dir) if replay_dir is not None else []
    started = time.perf_counter()
    result = await match.run()
    duration_ms = (time.perf_counter() - started) * 1000
    return to_records(spec, result, match.decisions, duration_ms, _first_reason(problems))


def _worker(
    config_data: dict[str, object],
    batch: list[ScheduledMatch],
    replay_dir: str | None,
    tournament_id: str,
) -> list[Finished]:
    """Runs in a worker process: a batch of built-in matches, one after another."""
    from server.logs import configure

    configure("error")
    config = TournamentConfig.from_dict(dict(config_data))
    bots = {b.name: b for b in config.bots}
    directory = Path(replay_dir) if replay_dir else None

    async def run_all() -> list[Finished]:
        return [
            await play_builtin(config, bots, spec, directory, f"{tournament_id}-{spec.idx}")
            for spec in batch
        ]

    return asyncio.run(run_all())


def _run_batch(
    job: tuple[dict[str, object], list[ScheduledMatch], str | None, str],
) -> list[Finished]:
    """``_worker`` with its arguments in one tuple (what ``Pool.imap_unordered`` passes)."""
    return _worker(*job)


def _grpc_worker(
    config_data: dict[str, object],
    batch: list[ScheduledMatch],
    replay_dir: str | None,
    tournament_id: str,
) -> list[Finished]:
    """Runs where a Ray task runs: a batch with Python-class or command bots on an embedded
    referee of its own (command bots are launched on that machine), two matches at a time."""
    from server.app import running_server
    from server.logs import configure

    configure("error")
    config = TournamentConfig.from_dict(dict(config_data))
    bots = {b.name: b for b in config.bots}
    directory = Path(replay_dir) if replay_dir else None

    async def run_all() -> list[Finished]:
        async with running_server("127.0.0.1:0") as referee:
            gate = asyncio.Semaphore(2)

            async def one(spec: ScheduledMatch) -> Finished:
                async with gate:
                    return await play_on_referee(referee, config, bots, spec, replay_dir=directory)

            async with contextlib.aclosing(as_finished([one(s) for s in batch])) as results:
                return [finished async for finished in results]

    return asyncio.run(run_all())


# ---------------------------------------------------------------------- the runner


@dataclass
class Progress:
    """What the runner reports as it goes (the CLI draws a progress bar from it)."""

    total: int
    done: int = 0


class TournamentRunner:
    def __init__(
        self,
        engine: Engine,
        tournament_id: str,
        config: TournamentConfig,
        on_progress: Callable[[Progress], None] | None = None,
        ray_address: str | None = None,
    ) -> None:
        """``ray_address``: run the matches as Ray tasks on that cluster (``auto``,
        ``local`` or an address; tournament/ray_pool.py) instead of local processes."""
        self.engine = engine
        self.ray_address = ray_address
        self.id = tournament_id
        self.config = config
        self.bots = {b.name: b for b in config.bots}
        self.on_progress = on_progress
        self.replay_dir = (
            Path(config.output) / tournament_id / "replays" if config.replays else None
        )
        self._buffer: list[Finished] = []
        self._last_commit = time.monotonic()
        self.progress = Progress(total=0)
        #: Why each replay file of this run that could not be written, or given its revealed
        #: seed, failed (a full disk): the command reports them when the run is over.
        self.replay_problems: list[str] = []
        self.blocks = self._seed_blocks(storage.load_matches(engine, tournament_id))

    @property
    def builtin_only(self) -> bool:
        return all(b.kind == "builtin" for b in self.config.bots)

    def run(self) -> None:
        """Play every match that is not done yet (all rounds, for Swiss), storing as it goes."""
        storage.set_status(self.engine, self.id, "running")  # a resumed run is running again
        try:
            if self.config.format == "swiss":
                self._run_swiss()
            else:
                self._execute([m for m in storage.load_matches(self.engine, self.id)])
            storage.set_status(self.engine, self.id, "finished")
        except BaseException:
            self._commit()
            storage.set_status(self.engine, self.id, "interrupted")
            raise

    def _run_swiss(self) -> None:
        for round_number in range(self.config.rounds):
            known = storage.load_matches(self.engine, self.id)
            if not any(m.round == round_number for m in known):
                points: dict[str, float] = {}
                met: dict[frozenset[str], int] = {}
                for m in known:
                    group = frozenset(m.seats)
                    met[group] = met.get(group, 0) + 1
                    for r in m.results:
                        points[r.bot] = points.get(r.bot, 0.0) + (len(m.seats) - r.rank) / max(
                            1, len(m.seats) - 1
                        ) * (r.rank > 0)
                new = swiss_round(
                    [b.name for b in self.config.bots],
                    self.config.players,
                    round_number,
                    points,
                    met,
                    self.config.base_seed,
                    first_idx=len(known),
                    deals=self.config.deals,
                )
                storage.add_matches(
                    self.engine, self.id, [(m.idx, m.round, m.seed, m.seats) for m in new]
                )
                known = storage.load_matches(self.engine, self.id)
                self.blocks = self._seed_blocks(known)
            self._execute([m for m in known if m.round == round_number])

    def _execute(self, scheduled: Sequence[storage.MatchRecord]) -> None:
        pending = [
            ScheduledMatch(m.idx, m.round, m.seed, m.seats) for m in scheduled if m.status != "done"
        ]
        self.progress = Progress(total=len(scheduled), done=len(scheduled) - len(pending))
        self._report()
        if not pending:
            return
        if self.ray_address is not None:
            self._run_on_ray(pending)
        elif self.builtin_only:
            self._run_in_processes(pending)
        else:
            asyncio.run(self._run_over_grpc(pending))
        self._commit()

    def _finished(self, finished: Finished) -> None:
        self._buffer.append(finished)
        self.progress.done += 1
        if (
            len(self._buffer) >= COMMIT_EVERY
            or time.monotonic() - self._last_commit > COMMIT_SECONDS
        ):
            self._commit()
        self._report()

    def _commit(self) -> None:
        """Store finished matches; then (never before) reveal the seeds of finished blocks."""
        if self._buffer:
            storage.record_results(self.engine, self.id, self._buffer)
            for record, _ in self._buffer:
                if self.replay_dir is not None and not record.replay_path:
                    self.replay_problems.append(record.replay_error)
                self.blocks.finished(record.idx, record.seed, record.replay_path)
            self._buffer = []
            self._take_unrevealed()
        self._last_commit = time.monotonic()

    def _seed_blocks(self, known: Sequence[storage.MatchRecord]) -> SeedBlocks:
        """The seed blocks of ``known`` (revealing those a stopped run left finished)."""
        blocks = SeedBlocks(self.config, known)
        self.replay_problems += blocks.unrevealed
        blocks.unrevealed = []
        return blocks

    def _take_unrevealed(self) -> None:
        self.replay_problems += self.blocks.unrevealed
        self.blocks.unrevealed = []

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress)

    def _run_on_ray(self, pending: list[ScheduledMatch]) -> None:
        """Every batch a Ray task (tournament/ray_pool.py); results come back here, the one
        writer. Batches of up to 100 matches keep Ray's per-task cost (a few ms) small."""
        from tournament import ray_pool

        assert self.ray_address is not None
        batch = max(1, min(100, len(pending) // 16 or 1))
        config_data = self.config.to_dict()
        replay_dir = str(self.replay_dir) if self.replay_dir else None
        jobs = [
            (config_data, pending[i : i + batch], replay_dir, self.id)
            for i in range(0, len(pending), batch)
        ]
        function = _worker if self.builtin_only else _grpc_worker

        def stored(finished_batch: list[Finished]) -> None:
            for finished in finished_batch:
                self._finished(finished)

        ray_pool.run_batches(self.ray_address, function, jobs, stored)

    def _run_in_processes(self, pending: list[ScheduledMatch]) -> None:
        workers = self.config.concurrency
        batch = max(1, min(40, len(pending) // (workers * 8) or 1))
        batches = [pending[i : i + batch] for i in range(0, len(pending), batch)]
        config_data = self.config.to_dict()
        replay_dir = str(self.replay_dir) if self.replay_dir else None
        if workers == 1:
            for chunk in batches:
                for finished in _worker(config_data, chunk, replay_dir, self.id):
                    self._finished(finished)
            return
        context = multiprocessing.get_context("spawn")
        jobs = [(config_data, chunk, replay_dir, self.id) for chunk in batches]
        # A Pool, not a ProcessPoolExecutor: leaving the block (done, Ctrl-C, SIGTERM, an
        # error) terminates the workers, so none outlives the runner. Batches in flight are
        # not stored and run again on resume, with the same seeds.
        with context.Pool(processes=workers) as pool:
            for finished_batch in pool.imap_unordered(_run_batch, jobs):
                for finished in finished_batch:
                    self._finished(finished)

    async def _run_over_grpc(self, pending: list[ScheduledMatch]) -> None:
        from server.app import running_server

        async with running_server("127.0.0.1:0") as referee:
            gate = asyncio.Semaphore(self.config.concurrency)

            async def one(spec: ScheduledMatch) -> Finished:
                def held(match: Match) -> None:
                    self.blocks.hold(spec.idx, match)

                async with gate:
                    return await play_on_referee(
                        referee,
                        self.config,
                        self.bots,
                        spec,
                        on_created=held,
                        replay_dir=self.replay_dir,
                    )

            async with contextlib.aclosing(as_finished([one(s) for s in pending])) as results:
                async for finished in results:
                    self._finished(finished)


async def as_finished(
    plays: Sequence[Coroutine[object, object, Finished]],
) -> AsyncGenerator[Finished, None]:
    """Each match's records as it finishes. When the consumer stops early (Ctrl-C cancels it,
    or an error), the matches not finished are cancelled before this returns, so none starts
    any more: a match waiting for its turn would otherwise start, and launch its bots, while
    the referee shuts down, which kills them mid-match (their deaths then looked like crashes)."""
    tasks = [asyncio.ensure_future(play) for play in plays]
    try:
        for next_done in asyncio.as_completed(tasks):
            yield await next_done
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def play_on_referee(
    referee: Referee,
    config: TournamentConfig,
    bots: dict[str, BotEntry],
    spec: ScheduledMatch,
    on_created: Callable[[Match], None] | None = None,
    replay_dir: Path | None = None,
) -> Finished:
    """One match on a running referee: built-in bots in-process, Python classes over gRPC in
    this process, command lines launched as processes that connect back. ``replay_dir``: its
    replay is written there, whole or not at all (``kassen.replay_files``)."""
    from client_sdk import play
    from client_sdk.loading import load_bot

    local: dict[int, LocalBot] = {}
    commands: dict[int, CommandBot] = {}
    python: dict[int, str] = {}
    for seat, name in enumerate(spec.seats):
        bot = bots[name]
        if bot.kind == "builtin":
            local[seat] = LocalBot(
                builtin_policy(config, bot.target, policy_seed(spec.seed, seat, name)), name
            )
        elif bot.kind == "command":
            commands[seat] = CommandBot(
                command=shlex.split(bot.target), name=name, limits=config.bot_limits(bot)
            )
        else:
            python[seat] = bot.target
    started = time.perf_counter()
    match, tickets = referee.create_match(match_settings(config, spec), local, commands)
    problems = write_when_decided(match, replay_dir) if replay_dir is not None else []
    if on_created is not None:
        on_created(match)
    for seat, name in enumerate(spec.seats):
        match.seats[seat].bot_name = name
    players = [
        asyncio.create_task(play(load_bot(target), referee.address, tickets[seat]))
        for seat, target in python.items()
    ]
    await match.finished.wait()
    await asyncio.gather(*players, return_exceptions=True)
    assert match.result is not None
    duration_ms = (time.perf_counter() - started) * 1000
    return to_records(spec, match.result, match.decisions, duration_ms, _first_reason(problems))


def _first_reason(problems: Sequence[WriteFailed]) -> str:
    """Why a match's replay could not be written ("" when it was)."""
    return problems[0].reason if problems else ""


def schedule_rows(matches: Iterable[ScheduledMatch]) -> list[tuple[int, int, int, tuple[str, ...]]]:
    return [(m.idx, m.round, m.seed, m.seats) for m in matches]
