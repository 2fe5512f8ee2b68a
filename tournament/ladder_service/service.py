"""The ladder service: connected bots and house bots, kept playing, rated and recorded.

One asyncio loop holds the referee (``server.referee.Referee``), this service and the web
page. A connected bot keeps a Seek stream open (``seek``) and receives assignments; the
matchmaker (``matchmaking.form_groups``) runs whenever something changes (a bot seeks, a
match ends) and at a steady tick. Each match is an ordinary referee match with a secret seed:
house bots sit in it as in-process seats, connected bots join with their tickets over
``Referee/Play``. When a match ends its result is written in one transaction, the pool's
ratings are refitted off the loop (``asyncio.to_thread``) and each seat's bot hears
``MatchEnded``.

Database calls are synchronous and short (one small transaction per match start and end);
they run on the loop, which keeps their order obvious.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field

import structlog
from sqlalchemy.engine import Engine

from games import get_game
from games.contract import GameConfig
from games.policies.registry import make_policy
from kassen.v1 import ladder_pb2 as lpb
from server.chance import draw_seed
from server.match import Match, reason_to_proto
from server.referee import LocalBot, Referee, TooManyMatches
from server.results import MatchResult, Reason
from server.settings import FailurePolicy, MatchSettings, TimeControl
from tournament.ladder_service import registry
from tournament.ladder_service.matchmaking import Candidate, Group, History, form_groups
from tournament.ladder_service.ratings import PoolRatings, Rating
from tournament.ladder_service.registry import BotRecord, SeatOutcome

log = structlog.get_logger("kassen.ladder")

#: Seat reasons that count as the bot's failure (a clean loss is not one).
FAILURES = frozenset(
    {
        Reason.TIMEOUT,
        Reason.ILLEGAL_ANSWER,
        Reason.MALFORMED_MESSAGE,
        Reason.STALE_REQUEST,
        Reason.DISCONNECTED,
        Reason.BOT_CRASHED,
        Reason.NO_SHOW,
        Reason.FLOODED,
    }
)
#: Match reasons after which nobody is rated.
UNRATED = frozenset({Reason.VOIDED, Reason.ABORTED})
MAX_CONCURRENCY = 16
#: A house bot may sit in this many matches at once (it is in-process: cheap, but not free).
HOUSE_SLOTS = 64


@dataclass(frozen=True, slots=True)
class PoolKey:
    """One ladder: a game, a variant and a player count."""

    game: str
    variant: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.game}/{self.variant}/{self.players}p"


@dataclass(frozen=True, slots=True)
class HouseBot:
    """A built-in bot the organiser keeps on the ladder (``policy``: "greedy", "random")."""

    name: str
    policy: str
    game: str
    variant: str
    player_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LadderSettings:
    pools: tuple[PoolKey, ...]
    house_bots: tuple[HouseBot, ...] = ()
    time_control: TimeControl = field(default_factory=TimeControl)
    join_timeout_ms: int = 10_000
    #: Failed matches in a row after which an author's bot is paused (0: never).
    pause_after_failures: int = 5
    #: Matches the ladder runs at once at most.
    max_live_matches: int = 100
    #: Seconds between matchmaking rounds when nothing else wakes the matchmaker.
    tick_s: float = 0.5


@dataclass(slots=True)
class Seeker:
    """A connected bot: its open Seek stream and the matches it plays now."""

    bot: BotRecord
    concurrency: int
    since: float
    outbox: asyncio.Queue[lpb.SeekResponse | None]
    active: set[str] = field(default_factory=set)

    @property
    def free_slots(self) -> int:
        return max(0, self.concurrency - len(self.active))


@dataclass(slots=True)
class Pool:
    key: PoolKey
    ratings: PoolRatings
    history: History
    #: The latest fit (refitted after results, off the loop).
    table: list[Rating] = field(default_factory=list)
    refit_s: float = 0.0


@dataclass(slots=True)
class Running:
    pool: PoolKey
    seats: tuple[str, ...]


class BotNotAllowed(PermissionError):
    """The bot may not seek (paused or revoked, or the pool is not run); the message says why."""


class LadderService:
    def __init__(self, engine: Engine, referee: Referee, settings: LadderSettings) -> None:
        self.engine = engine
        self.referee = referee
        self.settings = settings
        self.pools: dict[PoolKey, Pool] = {
            key: Pool(key, PoolRatings(key.players), History(key.players)) for key in settings.pools
        }
        self.seekers: dict[str, Seeker] = {}
        self.running: dict[str, Running] = {}
        self.house: dict[str, HouseBot] = {}
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._matchmaker: asyncio.Task[None] | None = None
        self._rng = random.Random(draw_seed())
        self._stopping = False

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Void what a previous run left running, load every result, start matchmaking."""
        registry.create_tables(self.engine)
        voided = registry.void_running(self.engine)
        if voided:
            log.info("voided matches left running", count=voided)
        self._ensure_house_bots()
        for pool in self.pools.values():
            self._load(pool)
            pool.table = pool.ratings.ratings()
        self._matchmaker = asyncio.get_running_loop().create_task(self._matchmaking())

    async def stop(self) -> None:
        """Stop matchmaking and end every Seek stream (running matches end with the referee)."""
        self._stopping = True
        self._wake.set()
        if self._matchmaker is not None:
            await self._matchmaker
        for seeker in list(self.seekers.values()):
            seeker.outbox.put_nowait(None)
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task

    def _ensure_house_bots(self) -> None:
        known = {(b.game, b.name): b for b in registry.list_bots(self.engine)}
        for house in self.settings.house_bots:
            record = known.get((house.game, house.name))
            if record is None:
                record, _ = registry.register_bot(
                    self.engine,
                    name=house.name,
                    owner="house",
                    game=house.game,
                    variant=house.variant,
                    player_counts=house.player_counts,
                    description=f"built-in {house.policy} bot",
                    house=True,
                    spec=house.policy,
                )
            self.house[record.id] = house

    def _load(self, pool: Pool) -> None:
        key = pool.key
        for bot in registry.list_bots(self.engine, key.game):
            if bot.variant == key.variant and key.players in bot.player_counts:
                pool.ratings.add_bot(bot.id)
        for match_id, seats in registry.results(self.engine, key.game, key.variant, key.players):
            self._rate(pool, match_id, seats)

    # ------------------------------------------------------------------ seeking

    async def seek(self, bot: BotRecord, concurrency: int) -> AsyncIterator[lpb.SeekResponse]:
        """The messages of one Seek stream, until the client leaves or a newer stream
        replaces this one (which raises ``BotNotAllowed`` at the old one)."""
        if bot.status != "active":
            raise BotNotAllowed(f"bot {bot.name} is {bot.status}: {bot.status_reason}".rstrip(": "))
        if not any(self._accepts(bot, key) for key in self.pools):
            raise BotNotAllowed(
                f"this ladder runs no pool for {bot.game}/{bot.variant} with "
                f"{', '.join(map(str, bot.player_counts))} players"
            )
        concurrency = min(max(concurrency, 1), MAX_CONCURRENCY)
        previous = self.seekers.get(bot.id)
        seeker = Seeker(bot, concurrency, time.monotonic(), asyncio.Queue())
        # Its matches still running count against its concurrency, also after a reconnect.
        seeker.active = {m for m, running in self.running.items() if bot.id in running.seats}
        if previous is not None:
            previous.outbox.put_nowait(None)
        self.seekers[bot.id] = seeker
        self._wake.set()
        try:
            yield lpb.SeekResponse(seeking=lpb.Seeking(bot_id=bot.id, concurrency=concurrency))
            while True:
                message = await seeker.outbox.get()
                if message is None:
                    if self._stopping:
                        return
                    if seeker.bot.status != "active":
                        raise BotNotAllowed(
                            f"bot {bot.name} is {seeker.bot.status}: {seeker.bot.status_reason}"
                        )
                    raise BotNotAllowed("another Seek stream of this bot replaced this one")
                yield message
        finally:
            if self.seekers.get(bot.id) is seeker:
                del self.seekers[bot.id]

    def _accepts(self, bot: BotRecord, key: PoolKey) -> bool:
        return (bot.game, bot.variant) == (key.game, key.variant) and (
            key.players in bot.player_counts
        )

    def online(self, bot_id: str) -> bool:
        return bot_id in self.seekers or bot_id in self.house

    # ------------------------------------------------------------------ matchmaking

    async def _matchmaking(self) -> None:
        """Rounds on every wake-up and tick until ``stop``. No ``asyncio.wait_for`` here: on
        Python 3.11 it can swallow a cancellation that races the event, so ``stop`` asks the
        loop to end (``_stopping`` + a wake-up) instead of cancelling it."""
        loop = asyncio.get_running_loop()
        while not self._stopping:
            waiter = loop.create_task(self._wake.wait())
            await asyncio.wait({waiter}, timeout=self.settings.tick_s)
            waiter.cancel()
            self._wake.clear()
            if self._stopping:
                return
            try:
                self.matchmaking_round()
            except Exception:  # a bug must not stop the ladder: log it, try again next tick
                log.exception("matchmaking round failed")

    def matchmaking_round(self) -> int:
        """Start every match that can start now; returns how many started."""
        started = 0
        for pool in self.pools.values():
            room = self.settings.max_live_matches - len(self.running)
            if room <= 0:
                break
            candidates = self._candidates(pool)
            for group in form_groups(candidates, pool.key.players, pool.history, limit=room):
                if self._start(pool, group):
                    started += 1
        return started

    def _candidates(self, pool: Pool) -> list[Candidate]:
        table = {r.bot_id: r for r in pool.table}
        found = []
        for seeker in self.seekers.values():
            if (
                seeker.free_slots
                and seeker.bot.status == "active"
                and self._accepts(seeker.bot, pool.key)
            ):
                found.append(self._candidate(pool, table, seeker.bot.id, seeker.free_slots))
                found[-1] = _waiting(found[-1], seeker.since)
        if not found:
            return []
        for bot_id, house in self.house.items():
            if (
                house.game == pool.key.game
                and house.variant == pool.key.variant
                and (pool.key.players in house.player_counts)
            ):
                found.append(self._candidate(pool, table, bot_id, HOUSE_SLOTS, house=True))
        return found

    def _candidate(
        self,
        pool: Pool,
        table: Mapping[str, Rating],
        bot_id: str,
        slots: int,
        house: bool = False,
    ) -> Candidate:
        rating = table.get(bot_id)
        value = rating.rating if rating is not None and math.isfinite(rating.rating) else 1500.0
        games = pool.ratings.played.get(bot_id, 0)
        return Candidate(bot_id, value, games, slots, 0.0, house)

    def _start(self, pool: Pool, group: Group) -> bool:
        key = pool.key
        settings = MatchSettings(
            game=key.game,
            config=GameConfig(players=key.players, variant=key.variant),
            seed=draw_seed(),
            time_control=self.settings.time_control,
            failure_policy=FailurePolicy.FORFEIT,
            join_timeout_ms=self.settings.join_timeout_ms,
        )
        local = {
            seat: LocalBot(
                make_policy(self.house[bot].policy, key.game, self._rng.getrandbits(63)),
                self.house[bot].name,
            )
            for seat, bot in enumerate(group.seats)
            if bot in self.house
        }
        try:
            match, tickets = self.referee.create_match(settings, local=local)
        except TooManyMatches as exc:
            log.warning("ladder match not started", reason=str(exc))
            return False
        registry.start_match(self.engine, match.id, key.game, key.variant, group.seats)
        self.running[match.id] = Running(key, group.seats)
        setup = match.setup_proto()
        for seat, bot in enumerate(group.seats):
            seeker = self.seekers.get(bot)
            if bot in self.house or seeker is None:
                continue
            seeker.active.add(match.id)
            seeker.outbox.put_nowait(
                lpb.SeekResponse(
                    assignment=lpb.Assignment(
                        match_id=match.id, seat=seat, ticket=tickets[seat], setup=setup
                    )
                )
            )
        match.on_finish.append(self._on_finish)
        log.info("ladder match started", match=match.id, pool=key.label, seats=group.seats)
        return True

    # ------------------------------------------------------------------ results

    def _on_finish(self, match: Match) -> None:
        task = asyncio.get_running_loop().create_task(self._finished(match))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finished(self, match: Match) -> None:
        running = self.running.pop(match.id, None)
        if running is None:
            return
        result = match.result or MatchResult(match.id, Reason.ABORTED, [])
        rated = result.reason not in UNRATED and len(result.seats) == len(running.seats)
        outcomes = [
            SeatOutcome(
                bot,
                seat.rank if rated else 0,
                seat.score,
                seat.reason.name if seat.reason in FAILURES else "",
            )
            for bot, seat in zip(running.seats, result.seats, strict=False)
        ]
        replay = _replay_json(match) if rated else None
        paused = registry.finish_match(
            self.engine,
            match.id,
            status="done" if rated else "voided",
            reason=result.reason.name,
            decisions=len(match.state.history),
            seats=outcomes,
            replay_json=replay,
            pause_after=self.settings.pause_after_failures,
        )
        for bot_id in paused:
            self._paused(bot_id)
        for bot in running.seats:
            seeker = self.seekers.get(bot)
            if seeker is not None:
                seeker.active.discard(match.id)
        self._wake.set()  # its bots are free now: matchmaking need not wait for the refit
        pool = self.pools[running.pool]
        if rated:
            self._rate(pool, match.id, outcomes)
            await self._refit(pool, running.seats)
        for outcome in outcomes:
            seeker = self.seekers.get(outcome.bot_id)
            if seeker is not None:
                seeker.outbox.put_nowait(
                    lpb.SeekResponse(
                        match_ended=lpb.MatchEnded(
                            match_id=match.id,
                            reason=reason_to_proto(result.reason),
                            rank=outcome.rank,
                        )
                    )
                )
        self._wake.set()

    def registered(self, bot: BotRecord, pools: Sequence[PoolKey]) -> None:
        """A new bot: on its pools' ladders at once, unrated and provisional, until it plays."""
        for key in pools:
            pool = self.pools[key]
            pool.ratings.add_bot(bot.id)
            pool.table = [*pool.table, Rating(bot.id, math.nan, -math.inf, math.inf, 0)]

    def status_changed(self, bot: BotRecord) -> None:
        """The organiser paused, revoked or reinstated ``bot``: a bot that may no longer play
        loses its Seek stream (its running matches finish)."""
        seeker = self.seekers.get(bot.id)
        if seeker is not None:
            seeker.bot = bot
            if bot.status != "active":
                seeker.outbox.put_nowait(None)

    def _paused(self, bot_id: str) -> None:
        seeker = self.seekers.get(bot_id)
        record = registry.bot_by_id(self.engine, bot_id)
        if seeker is not None and record is not None:
            seeker.bot = record
            seeker.outbox.put_nowait(None)
        log.warning("bot paused", bot=bot_id, reason=record.status_reason if record else "")

    def _rate(self, pool: Pool, match_id: str, outcomes: Sequence[SeatOutcome]) -> None:
        if pool.ratings.solo:
            for outcome in outcomes:
                pool.ratings.add_score(outcome.bot_id, outcome.score)
            return
        places: dict[int, list[str]] = {}
        for outcome in outcomes:
            places.setdefault(outcome.rank, []).append(outcome.bot_id)
        ranking = [tuple(bots) if len(bots) > 1 else bots[0] for _, bots in sorted(places.items())]
        pool.ratings.add(ranking, match_id)

    async def _refit(self, pool: Pool, bots: Sequence[str]) -> None:
        began = time.perf_counter()
        pool.table = await asyncio.to_thread(pool.ratings.ratings)
        pool.refit_s = time.perf_counter() - began
        registry.add_ratings(
            self.engine, pool.key.players, [r for r in pool.table if r.bot_id in bots]
        )

    # ------------------------------------------------------------------ reading

    def ladder(self, key: PoolKey) -> list[tuple[Rating, BotRecord]]:
        """The pool's bots, best first, with their records (revoked bots left out)."""
        bots = {b.id: b for b in registry.list_bots(self.engine, key.game)}
        pool = self.pools[key]
        rows = []
        for rating in pool.table:
            bot = bots.get(rating.bot_id)
            if bot is not None and bot.status != "revoked":
                rows.append((rating, bot))
        return rows


def _waiting(candidate: Candidate, since: float) -> Candidate:
    return Candidate(
        candidate.bot_id,
        candidate.rating,
        candidate.games,
        candidate.free_slots,
        since,
        candidate.house,
    )


def _replay_json(match: Match) -> str | None:
    import json

    from server.replay import replay_record

    try:
        return json.dumps(replay_record(match), separators=(",", ":"))
    except Exception:  # a replay that cannot be written must not lose the result
        log.exception("ladder replay not recorded", match=match.id)
        return None


def known_pools(games: Sequence[str]) -> list[PoolKey]:
    """Every pool of these games: each variant and player count the game has."""
    pools = []
    for name in games:
        game = get_game(name)
        for variant in game.variants:
            for players in game.player_counts:
                pools.append(PoolKey(name, variant, players))
    return pools
