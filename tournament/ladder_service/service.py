"""The ladder service: connected bots and house bots, kept playing, rated and recorded.

One asyncio loop holds the referee (``server.referee.Referee``) and this service. A connected
bot keeps a Seek stream open (``seek``) and receives assignments; the matchmaker
(``matchmaking.form_groups``) runs whenever something changes (a bot seeks, a match ends) and
at a steady tick. Each match is an ordinary referee match with a secret seed: house bots sit
in it as in-process seats, connected bots join with their tickets over ``Referee/Play``.

Nothing here makes the loop wait, because the loop also runs every match: the database is
written by one thread, in order (``writer.DatabaseWriter``), and read only at start (the bots
are then answered from memory, ``directory.BotDirectory``); ratings are refitted in a worker
process on a copy of the results (``fitter``). The web page is another process
(``web.process``) that reads the database itself and asks this one only for the standings
(``GetStandings``) and the live matches (``Watch``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import structlog
from sqlalchemy.engine import Engine

from games import get_game
from games.contract import GameConfig
from kassen.v1 import ladder_pb2 as lpb
from server.chance import draw_seed
from server.hosting import (
    CannotHost,
    Hosted,
    Hosting,
    MatchEnd,
    MatchPlan,
    RefereeUnavailable,
    SeatPlan,
)
from server.match import reason_to_proto
from server.referee import Referee
from server.results import Reason
from server.settings import FailurePolicy, MatchSettings, TimeControl
from tournament.ladder_service import registry
from tournament.ladder_service.challenges import (
    ChallengeBook,
    ChallengeError,
    ChallengeLimited,
    ChallengeSettings,
    ChallengeUnavailable,
    seat_order,
)
from tournament.ladder_service.directory import BotDirectory
from tournament.ladder_service.fitter import FitWorker, PoolLog, Refitter
from tournament.ladder_service.fleet import EmbeddedReferee, Fleet, FleetSettings, RefereeSlot
from tournament.ladder_service.matchmaking import Candidate, Group, History, form_groups
from tournament.ladder_service.ratings import Rating
from tournament.ladder_service.registry import BotRecord, SeatOutcome
from tournament.ladder_service.submitted import SubmissionSettings, SubmittedBots
from tournament.ladder_service.writer import DatabaseWriter
from tournament.submissions.runner import SandboxRunner

log = structlog.get_logger("kassen.ladder")
T = TypeVar("T")

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
#: Results rated between two ``gc.freeze`` calls (``LadderService._freeze``).
FREEZE_EVERY = 10_000
#: Least seconds between two matchmaking rounds (a round looks at every connected bot).
ROUND_GAP_S = 0.02
#: History points dropped per write when an old database's history is bounded at start.
THINNING_STEP = 2000


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
    #: Seconds an author's bot that could only be seated with house bots waits for another
    #: author's bot of its pool that is connected but busy (``matchmaking.form_groups``).
    gather_s: float = 5.0
    #: Submitted bots (None: the ladder takes connected bots only).
    submissions: SubmissionSettings | None = None
    #: Where its matches are played (default: the ladder's own referee).
    referees: FleetSettings = field(default_factory=FleetSettings)
    #: Unrated matches asked for by authors and by people on the web page.
    challenges: ChallengeSettings = field(default_factory=ChallengeSettings)


@dataclass(slots=True)
class Seeker:
    """A connected bot: its open Seek stream and the matches it plays now."""

    bot: BotRecord
    concurrency: int
    #: Since when it has had a free slot without a break (monotonic seconds): how long it has
    #: been waiting for a match.
    free_since: float
    outbox: asyncio.Queue[lpb.SeekResponse | None]
    active: set[str] = field(default_factory=set)

    @property
    def free_slots(self) -> int:
        return max(0, self.concurrency - len(self.active))


@dataclass(slots=True)
class Pool:
    key: PoolKey
    log: PoolLog
    history: History
    refitter: Refitter
    #: The latest fit (refitted after results, in the fit worker).
    table: list[Rating] = field(default_factory=list)


@dataclass(slots=True)
class Running:
    """A match of the ladder: reserved (its seats taken, a referee being asked) until it is
    placed, then hosted by ``slot``."""

    pool: PoolKey
    seats: tuple[str, ...]
    slot: RefereeSlot | None = None
    hosted: Hosted | None = None
    #: A challenge: who asked, whom it challenged, whether a person plays (never rated).
    challenge: ChallengeAsk | None = None
    #: Resolved once placed (a challenge's caller waits for it).
    placed: asyncio.Future[tuple[RefereeSlot, Hosted]] | None = None

    @property
    def unrated(self) -> bool:
        return self.challenge is not None


@dataclass(frozen=True, slots=True)
class ChallengeAsk:
    """A challenge as asked: by ``challenger`` (a bot that plays it) or by a person."""

    pool: PoolKey
    opponents: tuple[str, ...]
    client: str
    challenger: BotRecord | None = None
    seat: int | None = None

    @property
    def person(self) -> bool:
        return self.challenger is None

    def challenged(self, house: Mapping[str, HouseBot]) -> tuple[str, ...]:
        """The bots challenged (house bots are not: they play any number of matches)."""
        return tuple(b for b in self.opponents if b not in house)


@dataclass(frozen=True, slots=True)
class ChallengeStarted:
    match_id: str
    seat: int
    #: The person's ticket (a challenging bot gets its own in its Assignment).
    ticket: str
    hosted: Hosted
    slot: RefereeSlot
    seat_names: tuple[str, ...]
    time_control: TimeControl


class BotNotAllowed(PermissionError):
    """The bot may not seek (paused or revoked, or the pool is not run); the message says why."""


class LadderService:
    def __init__(
        self,
        engine: Engine,
        referee: Referee,
        settings: LadderSettings,
        remote: Sequence[RefereeSlot] = (),
        embedded: bool = True,
    ) -> None:
        """``remote``: referees beside the ladder's own that host its matches; ``embedded``:
        whether the ladder's own referee hosts matches too (it always may, when ``remote``
        is empty)."""
        self.engine = engine
        self.referee = referee
        self.settings = settings
        self.writer = DatabaseWriter()
        self.fit_worker = FitWorker()
        self.pools: dict[PoolKey, Pool] = {}
        for key in settings.pools:
            pool_log = PoolLog(key.players)
            refitter = Refitter(key.label, pool_log, self.fit_worker, self._applier(key))
            self.pools[key] = Pool(key, pool_log, History(key.players), refitter)
        self.bots = BotDirectory((), {})
        self.seekers: dict[str, Seeker] = {}
        #: By match id once placed; by a reservation key ("reserved-<n>") before.
        self.running: dict[str, Running] = {}
        self._reservations = 0
        self.house: dict[str, HouseBot] = {}
        self.challenges = ChallengeBook(settings.challenges)
        #: Bots a challenge waits for: no ladder match is given to them meanwhile.
        self.claimed: dict[str, int] = {}
        #: The bot under which people's seats are recorded, per game.
        self.people: dict[str, BotRecord] = {}
        #: Grows whenever something the public standings show changes (``GetStandings``
        #: answers from a copy made at one version).
        self.version = 0
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._matchmaker: asyncio.Task[None] | None = None
        self._rng = random.Random(draw_seed())
        self._stopping = False
        #: Where the ladder's own processes reach it (``app.running_ladder`` sets it).
        self.private_address = ""
        self._unfrozen = 0
        self.embedded = EmbeddedReferee(Hosting(referee), settings.max_live_matches)
        slots = [*remote]
        if embedded or not slots:
            slots.insert(0, self.embedded)
        self.fleet = Fleet(slots, on_change=self._wake.set)
        submissions = settings.submissions
        self.submitted = (
            SubmittedBots(
                engine,
                self.writer,
                referee,
                submissions,
                self._validation_table,
                self._host_validation,
            )
            if submissions is not None and submissions.enabled
            else None
        )

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Void what a previous run left running, load the bots and every result, fit each
        pool, start matchmaking."""
        voided = await self.writer.call(self._prepare)
        if voided:
            log.info("voided matches left running", count=voided)
        records = await self.writer.call(registry.list_bots, self.engine)
        hashes = await self.writer.call(registry.token_hashes, self.engine)
        self.bots = BotDirectory(records, hashes)
        await self._ensure_house_bots()
        await self.fleet.start()
        if self.submitted is not None:
            await self.submitted.start({bot.id: bot for bot in self.bots.all()}, self._run_here)
        for pool in self.pools.values():
            key = pool.key
            for bot in self.bots.all(key.game):
                if bot.variant == key.variant and key.players in bot.player_counts:
                    pool.log.add_bot(bot.id)
            results = await self.writer.call(
                registry.results, self.engine, key.game, key.variant, key.players
            )
            for _match_id, seats in results:
                self._rate(pool, seats)
        await asyncio.gather(*(pool.refitter.refit() for pool in self.pools.values()))
        self._freeze()
        self._background(self._thin_history())
        self._matchmaker = asyncio.get_running_loop().create_task(self._matchmaking())

    async def _run_here(self, runner: SandboxRunner) -> None:
        """The ladder's own referee runs submitted seats too (with the ladder's kit)."""
        self.embedded.hosting.run_submitted(runner.seat, runner.runtimes)
        await self.embedded.describe()

    def _prepare(self) -> int:
        registry.create_tables(self.engine)
        return registry.void_running(self.engine)

    async def _thin_history(self) -> None:
        """Bound the history an older Kassen wrote without limit, about ``THINNING_STEP``
        points a write, so the matches' own writes are never queued behind all of it (and
        the series is never read into this process: the database does the thinning)."""
        dropped = 0
        for bot_id, players in await self.writer.call(registry.series_over_bound, self.engine):
            plan = await self.writer.call(
                registry.plan_thinning, self.engine, bot_id, players, THINNING_STEP
            )
            for index in range(len(plan.starts) if plan is not None else 0):
                if self._stopping or plan is None:
                    return
                dropped += await self.writer.call(registry.thin_step, self.engine, plan, index)
        if dropped:
            log.info("rating history thinned", points_dropped=dropped)

    async def stop(self) -> None:
        """Stop matchmaking and end every Seek stream (running matches end with the referee);
        wait for what was written to be written."""
        self._stopping = True
        self._wake.set()
        if self._matchmaker is not None:
            await self._matchmaker
        for seeker in list(self.seekers.values()):
            seeker.outbox.put_nowait(None)
        # The ladder's matches end now (ABORTED, voided), so their ends are written before
        # the writer stops; the referee's own shutdown then finds none of them left.
        for running in list(self.running.values()):
            if running.hosted is not None:
                running.hosted.abort()
        deadline = time.monotonic() + self.referee.settings.shutdown_grace_s + 1
        while self.running and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 30)
        if self.submitted is not None:
            await self.submitted.stop()
        await self.fleet.stop()
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.fit_worker.close)

    async def _ensure_house_bots(self) -> None:
        known = {(b.game, b.name): b for b in self.bots.all()}
        for house in self.settings.house_bots:
            record = known.get((house.game, house.name))
            if record is None:
                made, _ = await self.writer.call(
                    registry.register_bot,
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
                self.bots.put(made)
                record = made
            self.house[record.id] = house

    def _background(self, work: Awaitable[T]) -> None:
        """Run ``work`` as a task the service keeps (and waits for at stop); an exception is
        logged, never left for "Task exception was never retrieved"."""

        async def logged() -> None:
            try:
                await work
            except Exception:
                log.exception("ladder background work failed")

        task = asyncio.get_running_loop().create_task(logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ bots

    async def register(
        self,
        *,
        name: str,
        owner: str,
        game: str,
        variant: str,
        pools: Sequence[PoolKey],
        description: str,
        accepts_challenges: bool = False,
    ) -> tuple[BotRecord, str]:
        """A new bot: on its pools' ladders at once, unrated and provisional, until it plays.
        Raises ``RegistryError`` (``NameTaken``) naming the problem."""
        bot, token = await self.writer.call(
            registry.register_bot,
            self.engine,
            name=name,
            owner=owner,
            game=game,
            variant=variant,
            player_counts=[key.players for key in pools],
            description=description,
            accepts_challenges=accepts_challenges,
        )
        assert token is not None
        self.bots.put(bot)
        self.bots.set_token(bot.id, token)
        for key in pools:
            pool = self.pools[key]
            pool.log.add_bot(bot.id)
            if all(r.bot_id != bot.id for r in pool.table):
                pool.table = [*pool.table, Rating(bot.id, math.nan, -math.inf, math.inf, 0)]
        self.version += 1
        return bot, token

    async def rotate_token(self, bot: BotRecord) -> str:
        token = await self.writer.call(registry.rotate_token, self.engine, bot.id)
        self.bots.set_token(bot.id, token)
        return token

    async def set_status(self, bot_id: str, status: str, reason: str) -> BotRecord:
        """Pause, revoke or reinstate a bot; ``RegistryError`` names a bad status or bot."""
        bot = await self.writer.call(registry.set_status, self.engine, bot_id, status, reason)
        self.bots.put(bot)
        self.status_changed(bot)
        return bot

    def status_changed(self, bot: BotRecord) -> None:
        """A bot that may no longer play loses its Seek stream (its running matches finish)."""
        self.version += 1
        seeker = self.seekers.get(bot.id)
        if seeker is not None:
            seeker.bot = bot
            if bot.status != "active":
                seeker.outbox.put_nowait(None)

    # ------------------------------------------------------------------ seeking

    async def seek(self, bot: BotRecord, concurrency: int) -> AsyncIterator[lpb.SeekResponse]:
        """The messages of one Seek stream, until the client leaves or a newer stream
        replaces this one (which raises ``BotNotAllowed`` at the old one)."""
        if bot.status != "active":
            raise BotNotAllowed(f"bot {bot.name} is {bot.status}: {bot.status_reason}".rstrip(": "))
        if self.submitted is not None and self.submitted.is_submitted(bot.id):
            raise BotNotAllowed(
                f"bot {bot.name} is submitted: the ladder runs it, it does not Seek"
            )
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
        self.version += 1
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
                self.version += 1

    def _accepts(self, bot: BotRecord, key: PoolKey) -> bool:
        return (bot.game, bot.variant) == (key.game, key.variant) and (
            key.players in bot.player_counts
        )

    def online(self, bot_id: str) -> bool:
        """Whether it can be given a match now or soon: connected, house, or submitted with
        a playing version."""
        if bot_id in self.seekers or bot_id in self.house:
            return True
        return self.submitted is not None and self.submitted.playing(bot_id) is not None

    def _validation_table(self, bot: BotRecord) -> tuple[int, list[str]]:
        """A new version's validation match: the bot's smallest pool here, the others'
        seats taken by that pool's house policies (random if it has none)."""
        keys = sorted((k for k in self.pools if self._accepts(bot, k)), key=lambda k: k.players)
        players = keys[0].players if keys else min(bot.player_counts)
        policies = [
            h.policy
            for h in self.settings.house_bots
            if (h.game, h.variant) == (bot.game, bot.variant) and players in h.player_counts
        ] or ["random"]
        return players, [policies[i % len(policies)] for i in range(players - 1)]

    # ------------------------------------------------------------------ matchmaking

    async def _matchmaking(self) -> None:
        """Rounds on every wake-up and tick until ``stop``. No ``asyncio.wait_for`` here: on
        Python 3.11 it can swallow a cancellation that races the event, so ``stop`` asks the
        loop to end (``_stopping`` + a wake-up) instead of cancelling it."""
        loop = asyncio.get_running_loop()
        last = -math.inf
        while not self._stopping:
            waiter = loop.create_task(self._wake.wait())
            await asyncio.wait({waiter}, timeout=self.settings.tick_s)
            waiter.cancel()
            # A burst of wake-ups (many bots connecting, matches ending together) is one
            # round over all of them, not one round over every seeker for each.
            await asyncio.sleep(max(0.0, last + ROUND_GAP_S - loop.time()))
            self._wake.clear()
            if self._stopping:
                return
            last = loop.time()
            try:
                self.matchmaking_round()
            except Exception:  # a bug must not stop the ladder: log it, try again next tick
                log.exception("matchmaking round failed")

    def matchmaking_round(self) -> int:
        """Start every match that can start now; returns how many started."""
        started = 0
        now = time.monotonic()
        for pool in self.pools.values():
            room = self.settings.max_live_matches - len(self.running)
            if room <= 0:
                break
            free, busy = self._connected(pool)
            candidates = self._candidates(pool, free)
            groups = form_groups(
                candidates,
                pool.key.players,
                pool.history,
                limit=room,
                now=now,
                gather_s=self.settings.gather_s,
                coming=self._busy_authors(pool, busy) if candidates else 0,
            )
            for group in groups:
                if self._start(pool, group):
                    started += 1
        return started

    def _connected(self, pool: Pool) -> tuple[list[Seeker], int]:
        """The pool's active connected bots, in one pass over every seeker: those with a free
        slot, and how many have none (a round runs on every wake-up, with up to thousands
        of seekers)."""
        key = pool.key
        free: list[Seeker] = []
        busy = 0
        for seeker in self.seekers.values():
            bot = seeker.bot
            if bot.status != "active" or not self._accepts(bot, key):
                continue
            if len(seeker.active) < seeker.concurrency and bot.id not in self.claimed:
                free.append(seeker)
            else:
                busy += 1
        return free, busy

    def _busy_authors(self, pool: Pool, connected: int) -> int:
        """Authors' bots of ``pool`` with no free slot (``connected`` of them connected):
        each will be free when a match of its ends, and a waiting author's bot may wait for
        it."""
        return connected + sum(
            1
            for bot in self._submitted_of(pool)
            if self.submitted is not None and not self.submitted.free_slots(bot.id)
        )

    def _submitted_of(self, pool: Pool) -> list[BotRecord]:
        """The active submitted bots of ``pool`` that have a playing version."""
        if self.submitted is None:
            return []
        found = []
        for bot_id in self.submitted.bots:
            bot = self.bots.get(bot_id)
            if (
                bot is not None
                and bot.status == "active"
                and self._accepts(bot, pool.key)
                and self.submitted.playing(bot_id) is not None
            ):
                found.append(bot)
        return found

    def _candidates(self, pool: Pool, free: Sequence[Seeker]) -> list[Candidate]:
        """Who could play in ``pool`` now: the ``free`` connected bots, submitted bots with a
        free slot, and the pool's house bots when any of those is there."""
        table = {r.bot_id: r for r in pool.table}
        found = [
            self._candidate(pool, table, s.bot.id, s.free_slots, since=s.free_since) for s in free
        ]
        for bot in self._submitted_of(pool):
            assert self.submitted is not None
            slots = self.submitted.free_slots(bot.id)
            if slots and bot.id not in self.claimed:
                found.append(self._candidate(pool, table, bot.id, slots))
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
        since: float = 0.0,
    ) -> Candidate:
        rating = table.get(bot_id)
        value = rating.rating if rating is not None and math.isfinite(rating.rating) else 1500.0
        games = pool.log.played.get(bot_id, 0)
        return Candidate(bot_id, value, games, slots, since, house)

    def _plan(
        self,
        key: PoolKey,
        bots: Sequence[str],
        time_control: TimeControl | None = None,
        reconnect_ms: int | None = None,
    ) -> MatchPlan:
        """Who sits where: house policies (with seeds of their own), submitted bots (their
        built folders), and connected bots and people that join with their tickets."""
        settings = MatchSettings(
            game=key.game,
            config=GameConfig(players=key.players, variant=key.variant),
            seed=draw_seed(),
            time_control=time_control or self.settings.time_control,
            failure_policy=FailurePolicy.FORFEIT,
            join_timeout_ms=self.settings.join_timeout_ms,
        )
        if reconnect_ms is not None:
            settings = replace(settings, reconnect_ms=reconnect_ms)
        seats = []
        for bot_id in bots:
            house = self.house.get(bot_id)
            record = self.bots.get(bot_id)
            if house is not None:
                seats.append(SeatPlan(house.name, "house", house.policy, self._rng.getrandbits(63)))
            elif self.submitted is not None and self.submitted.playing(bot_id) is not None:
                assert record is not None
                seats.append(self.submitted.seat(record))
            else:
                # Results name the seat by the bot's name on the ladder, not the name its
                # program gives itself when it joins.
                seats.append(SeatPlan(record.name if record is not None else bot_id))
        return MatchPlan(settings, _told_apart(seats))

    def _start(self, pool: Pool, group: Group) -> bool:
        """Reserve the group's seats at once (so the next round does not give them again)
        and place the match on a referee in the background (``_play``)."""
        plan = self._plan(pool.key, group.seats)
        if not self.fleet.can_place(plan):
            return False
        self._reserve(Running(pool.key, group.seats), plan)
        return True

    def _reserve(self, running: Running, plan: MatchPlan) -> None:
        self._reservations += 1
        key = f"reserved-{self._reservations}"
        self.running[key] = running
        for bot in running.seats:
            seeker = self.seekers.get(bot)
            if seeker is not None:
                seeker.active.add(key)
            if self.submitted is not None and self.submitted.is_submitted(bot):
                self.submitted.started(key, bot)
        self._background(self._play(key, running, plan))

    async def _play(self, key: str, running: Running, plan: MatchPlan) -> None:
        """Place the match, tell its connected bots where to play it, wait for its end."""
        try:
            slot, hosted = await self.fleet.place(plan)
        except (RefereeUnavailable, CannotHost) as exc:
            log.warning("ladder match not started", pool=running.pool.label, reason=str(exc))
            # A referee that failed is left out (no busy loop); a plan no referee would play
            # is tried again at the next tick, not at once.
            await self._release(key, running, exc, wake=isinstance(exc, RefereeUnavailable))
            return
        except Exception as exc:  # a bug must not keep the bots reserved for good
            log.exception("ladder match not placed", pool=running.pool.label)
            await self._release(key, running, exc, wake=False)
            return
        if running.placed is not None and not running.placed.done():
            running.placed.set_result((slot, hosted))
        match_id = hosted.match_id
        running.slot, running.hosted = slot, hosted
        # Queued before anything can finish the match, so the writer stores it running first.
        self._background(
            self.writer.call(
                registry.start_match,
                self.engine,
                match_id,
                running.pool.game,
                running.pool.variant,
                running.seats,
            )
        )
        del self.running[key]
        self.running[match_id] = running
        self.version += 1
        for seat, bot in enumerate(running.seats):
            if self.submitted is not None:
                self.submitted.moved(key, match_id, bot)
            seeker = self.seekers.get(bot)
            if seeker is None or key not in seeker.active:
                continue
            seeker.active.discard(key)
            seeker.active.add(match_id)
            seeker.outbox.put_nowait(
                lpb.SeekResponse(
                    assignment=lpb.Assignment(
                        match_id=match_id,
                        seat=seat,
                        ticket=hosted.tickets[seat],
                        setup=hosted.setup,
                        referee_address=slot.address,
                        referee_tls=slot.tls,
                        unrated=running.unrated,
                    )
                )
            )
        log.info(
            "ladder match started",
            match=match_id,
            pool=running.pool.label,
            seats=running.seats,
            referee=slot.label,
        )
        if self._stopping:
            hosted.abort()
        try:
            end = await hosted.ended
        finally:
            self.fleet.release(slot)
        await self._finished(match_id, running, end)

    async def _release(
        self, key: str, running: Running, error: Exception, wake: bool = True
    ) -> None:
        """A reservation that could not be placed: its bots are free again."""
        self.running.pop(key, None)
        self._challenge_over(running)
        if running.placed is not None and not running.placed.done():
            running.placed.set_exception(error)
        for bot in running.seats:
            seeker = self.seekers.get(bot)
            if seeker is not None:
                seeker.active.discard(key)
        if self.submitted is not None:
            await self.submitted.finished(key, running.seats, {})
        if wake:
            self._wake.set()

    async def _host_validation(self, plan: MatchPlan) -> tuple[Hosted, Callable[[], None]]:
        """A submitted version's validation match, on whichever referee can run it."""
        slot, hosted = await self.fleet.place(plan)
        return hosted, lambda: self.fleet.release(slot)

    # ------------------------------------------------------------------ challenges

    async def set_accepts_challenges(self, bot: BotRecord, accept: bool) -> BotRecord:
        made = await self.writer.call(registry.set_accepts_challenges, self.engine, bot.id, accept)
        self.bots.put(made)
        seeker = self.seekers.get(bot.id)
        if seeker is not None:
            seeker.bot = made
        self.version += 1
        return made

    def challengeable(self, key: PoolKey) -> list[BotRecord]:
        """The bots a challenge in ``key`` may name now: its house bots, and its active bots
        that accept challenges and are online."""
        found = []
        for bot in self.bots.all(key.game):
            if bot.status != "active" or not self._accepts(bot, key):
                continue
            if bot.id in self.house or (bot.accepts_challenges and self.online(bot.id)):
                found.append(bot)
        return found

    async def challenge(self, ask: ChallengeAsk) -> ChallengeStarted:
        """Start an unrated match as asked, once every challenged bot has a free slot (up
        to ``challenges.wait_s``). Raises ``ChallengeError`` (``ChallengeLimited``,
        ``ChallengeUnavailable``) naming the problem."""
        key = ask.pool
        if key not in self.pools:
            raise ChallengeError(f"this ladder runs no pool {key.label}")
        own = seat_order(key.players, ask.seat, ask.opponents, self._rng.randrange(key.players))
        challenged = ask.challenged(self.house)
        self._check_opponents(ask, challenged)
        playing = [*challenged, *([ask.challenger.id] if ask.challenger else [])]
        if len(self.running) >= self.settings.max_live_matches:
            raise ChallengeLimited("the ladder is playing as many matches as it may; try later")
        names = {bot_id: self._name(bot_id) for bot_id in challenged}
        self.challenges.admit(ask.client, challenged, ask.person, names=names)
        try:
            person = await self._person_of(key) if ask.person else None
            await self._wait_until_free(playing)
            seats = list(ask.opponents)
            seats.insert(own, person.id if person is not None else ask.challenger.id)  # type: ignore[union-attr]
            settings = self.settings.challenges
            plan = self._plan(
                key,
                seats,
                settings.person_time if ask.person else None,
                settings.person_reconnect_ms if ask.person else None,
            )
            if not self.fleet.can_place(plan):
                raise ChallengeUnavailable("no referee of this ladder can play it now")
        except BaseException:
            self.challenges.done(ask.client, challenged, ask.person)
            raise
        placed: asyncio.Future[tuple[RefereeSlot, Hosted]] = (
            asyncio.get_running_loop().create_future()
        )
        placed.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._reserve(Running(key, tuple(seats), challenge=ask, placed=placed), plan)
        try:
            slot, hosted = await placed
        except (RefereeUnavailable, CannotHost) as exc:
            raise ChallengeUnavailable(f"the match could not be placed: {exc}") from None
        log.info("challenge started", match=hosted.match_id, pool=key.label, by=ask.client)
        return ChallengeStarted(
            match_id=hosted.match_id,
            seat=own,
            ticket=hosted.tickets[own] if ask.person else "",
            hosted=hosted,
            slot=slot,
            seat_names=tuple(seat.name for seat in plan.seats),
            time_control=plan.settings.time_control,
        )

    def _check_opponents(self, ask: ChallengeAsk, challenged: Sequence[str]) -> None:
        key = ask.pool
        challenger = ask.challenger
        if challenger is not None and challenger.id in ask.opponents:
            raise ChallengeError("opponents: a bot cannot challenge itself")
        for bot_id in ask.opponents:
            bot = self.bots.get(bot_id)
            if bot is None or bot.status == "revoked" or bot.person:
                raise ChallengeError(f"opponents: no bot {bot_id[:40]!r} on this ladder")
            if not self._accepts(bot, key):
                raise ChallengeError(f"opponents: bot {bot.name} does not play {key.label}")
            if bot_id in self.house:
                continue
            if not bot.accepts_challenges:
                raise ChallengeUnavailable(f"bot {bot.name} does not accept challenges")
            if bot.status != "active":
                raise ChallengeUnavailable(f"bot {bot.name} is {bot.status}")
            if not self.online(bot_id):
                raise ChallengeUnavailable(f"bot {bot.name} is not connected now")
        if len(set(challenged)) != len(challenged):
            raise ChallengeError("opponents: a bot other than a house bot takes one seat only")
        if challenger is not None:
            if challenger.status != "active" or not self._accepts(challenger, key):
                raise ChallengeError(f"bot {challenger.name} may not play {key.label} here")
            if challenger.id not in self.seekers:
                raise ChallengeUnavailable(
                    f"bot {challenger.name} must keep a Seek stream open to play its challenge"
                )

    async def _person_of(self, key: PoolKey) -> BotRecord:
        found = self.people.get(key.game)
        if found is None:
            found = await self.writer.call(registry.person_bot, self.engine, key.game, key.variant)
            self.people[key.game] = found
            self.bots.put(found)
        return found

    async def _wait_until_free(self, bots: Sequence[str]) -> None:
        """Until each of ``bots`` has a free slot; meanwhile none is given a ladder match."""
        for bot in bots:
            self.claimed[bot] = self.claimed.get(bot, 0) + 1
        try:
            deadline = time.monotonic() + self.settings.challenges.wait_s
            while True:
                busy = [b for b in bots if not self._free_slot(b)]
                if not busy:
                    return
                gone = [b for b in busy if not self.online(b)]
                if gone or time.monotonic() > deadline:
                    names = ", ".join(self._name(b) for b in gone or busy)
                    raise ChallengeUnavailable(
                        f"{names}: not connected any more"
                        if gone
                        else f"{names}: busy for {self.settings.challenges.wait_s:.0f} s; "
                        "try again later"
                    )
                await asyncio.sleep(0.05)
        finally:
            for bot in bots:
                left = self.claimed.get(bot, 1) - 1
                if left > 0:
                    self.claimed[bot] = left
                else:
                    self.claimed.pop(bot, None)

    def _free_slot(self, bot_id: str) -> bool:
        seeker = self.seekers.get(bot_id)
        if seeker is not None:
            return seeker.free_slots > 0
        return self.submitted is not None and self.submitted.free_slots(bot_id) > 0

    def _name(self, bot_id: str) -> str:
        bot = self.bots.get(bot_id)
        return f"bot {bot.name}" if bot is not None else f"bot {bot_id}"

    def _challenge_over(self, running: Running) -> None:
        ask = running.challenge
        if ask is not None:
            self.challenges.done(ask.client, ask.challenged(self.house), ask.person)
            self.challenges.forget_idle()

    # ------------------------------------------------------------------ results

    async def _finished(self, match_id: str, running: Running, end: MatchEnd) -> None:
        """Free the seats, store the result, tell each connected bot, rate it: the bot hears
        ``MatchEnded`` whatever else fails (a database error is logged with the match)."""
        result = end.result
        played = result.reason not in UNRATED and len(result.seats) == len(running.seats)
        rated = played and not running.unrated
        status = ("unrated" if running.unrated else "done") if played else "voided"
        outcomes = [
            SeatOutcome(
                bot,
                seat.rank if played else 0,
                seat.score,
                seat.reason.name if seat.reason in FAILURES else "",
            )
            for bot, seat in zip(running.seats, result.seats, strict=False)
        ]
        # A bot that did not fail here cannot be paused by this result: it is free at once,
        # without waiting for the write (the writer may have a queue).
        failed = {outcome.bot_id for outcome in outcomes if outcome.failure}
        self._free(match_id, [bot for bot in running.seats if bot not in failed])
        try:  # before the others are freed, so that a bot paused by it gets no other match
            await self._store(match_id, running, end, outcomes, status)
        except Exception as exc:
            rated = False  # not stored, so not rated: the table stays what the database says
            log.error(
                "ladder result not stored",
                match=match_id,
                error=f"{type(exc).__name__}: {exc}",
            )
        if self.submitted is not None:
            await self.submitted.finished(match_id, running.seats, end.stderr_tails)
        # Live until here: once it is no longer running, the database has its end.
        del self.running[match_id]
        self._challenge_over(running)
        self.version += 1
        self._free(match_id, running.seats)
        for index, outcome in enumerate(outcomes):
            seeker = self.seekers.get(outcome.bot_id)
            if seeker is not None:
                own = result.seats[index]
                seeker.outbox.put_nowait(
                    lpb.SeekResponse(
                        match_ended=lpb.MatchEnded(
                            match_id=match_id,
                            reason=reason_to_proto(result.reason),
                            rank=outcome.rank,
                            seat=index,
                            seat_reason=reason_to_proto(own.reason),
                            detail=own.detail,
                            score=own.score,
                        )
                    )
                )
        if rated:  # the table follows (refits are paced: fitter.Refitter)
            pool = self.pools[running.pool]
            self._rate(pool, outcomes)
            self._unfrozen += 1
            if self._unfrozen >= FREEZE_EVERY:
                self._freeze()
            await pool.refitter.refit()

    def _free(self, match_id: str, bots: Sequence[str]) -> None:
        """The seats of ``bots`` in ``match_id`` are free: they may be given a match."""
        now = time.monotonic()
        freed = False
        for bot in bots:
            seeker = self.seekers.get(bot)
            if seeker is not None and match_id in seeker.active:
                if not seeker.free_slots:
                    seeker.free_since = now  # it starts waiting now
                seeker.active.discard(match_id)
                freed = True
        if freed:
            self._wake.set()

    async def _store(
        self,
        match_id: str,
        running: Running,
        end: MatchEnd,
        outcomes: list[SeatOutcome],
        status: str,
    ) -> None:
        replay = end.replay_json if status != "voided" else None

        def write() -> tuple[list[str], list[BotRecord]]:
            paused = registry.finish_match(
                self.engine,
                match_id,
                status=status,
                reason=end.result.reason.name,
                decisions=end.decisions,
                seats=outcomes,
                replay_json=replay,
                pause_after=self.settings.pause_after_failures,
            )
            return paused, registry.bots_by_id(self.engine, sorted(set(running.seats)))

        paused, records = await self.writer.call(write)
        for record in records:
            self.bots.put(record)
        for bot_id in paused:
            self._paused(bot_id)

    def _paused(self, bot_id: str) -> None:
        record = self.bots.get(bot_id)
        if record is None:
            return
        self.status_changed(record)
        log.warning("bot paused", bot=bot_id, reason=record.status_reason)

    def _freeze(self) -> None:
        """Every result loaded is kept for good: out of the collector's sight (``gc.freeze``)
        a full collection, a pause of every match, costs what the heap made since, not the
        139 ms it took on a 100,000-match ladder. Done at start and every
        ``FREEZE_EVERY`` results."""
        gc.collect()
        gc.freeze()
        self._unfrozen = 0

    def _rate(self, pool: Pool, outcomes: Sequence[SeatOutcome]) -> None:
        if pool.key.players == 1:
            for outcome in outcomes:
                pool.log.add_score(outcome.bot_id, outcome.score)
            return
        places: dict[int, list[str]] = {}
        for outcome in outcomes:
            places.setdefault(outcome.rank, []).append(outcome.bot_id)
        ranking = [tuple(bots) if len(bots) > 1 else bots[0] for _, bots in sorted(places.items())]
        pool.log.add_ranking(ranking)

    def _applier(self, key: PoolKey) -> Callable[[int, list[Rating], set[str]], None]:
        """What to do with a new table of ``key``: show it, and add a history point for each
        bot whose results it adds to (written by the writer, in order)."""

        def apply(_covered: int, table: list[Rating], moved: set[str]) -> None:
            self.pools[key].table = table
            self.version += 1
            points = [r for r in table if r.bot_id in moved]
            if points and not self._stopping:
                self._background(
                    self.writer.call(registry.add_ratings, self.engine, key.players, points)
                )

        return apply

    # ------------------------------------------------------------------ reading

    def ladder(self, key: PoolKey) -> list[tuple[Rating, BotRecord]]:
        """The pool's bots, best first, with their records (revoked bots left out)."""
        rows = []
        for rating in self.pools[key].table:
            bot = self.bots.get(rating.bot_id)
            if bot is not None and bot.status != "revoked":
                rows.append((rating, bot))
        return rows

    def live_matches(self, key: PoolKey) -> list[str]:
        return [
            match_id
            for match_id, running in self.running.items()
            if running.pool == key and running.hosted is not None
        ]

    def live_referees(self) -> dict[str, tuple[str, bool]]:
        """The live matches another referee than the ladder's own hosts: match id ->
        (its address, whether it speaks TLS)."""
        return {
            match_id: (running.slot.address, running.slot.tls)
            for match_id, running in self.running.items()
            if running.slot is not None and running.slot.address and running.hosted is not None
        }

    def played(self, bot_id: str, game: str) -> int:
        return sum(
            pool.log.played.get(bot_id, 0) for key, pool in self.pools.items() if key.game == game
        )


def _told_apart(seats: Sequence[SeatPlan]) -> tuple[SeatPlan, ...]:
    """Seats named alike (a house bot in several seats of a challenge) numbered from the
    second on ("house-greedy #2"), so results and the page can tell them apart."""
    seen: dict[str, int] = {}
    named = []
    for seat in seats:
        count = seen[seat.name] = seen.get(seat.name, 0) + 1
        named.append(seat if count == 1 else replace(seat, name=f"{seat.name} #{count}"))
    return tuple(named)


def known_pools(games: Sequence[str]) -> list[PoolKey]:
    """Every pool of these games: each variant and player count the game has."""
    pools = []
    for name in games:
        game = get_game(name)
        for variant in game.variants:
            for players in game.player_counts:
                pools.append(PoolKey(name, variant, players))
    return pools
