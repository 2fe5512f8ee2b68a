"""The referee: creates matches, hands out seat tickets, launches bot processes, runs each
match as its own asyncio task, and answers for finished matches (a few recent ones from
memory, the others from the store: server/store.py).

Every match alive or waiting for its bots counts against limits per referee and per caller
(``ServerSettings``); a match that ends lets go of its seats and tickets at once.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shlex
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import structlog

from games import get_game
from games.contract import GameState, check_config
from games.policies.base import Policy
from server.auth import bot_environment
from server.bot_box import DEFAULT_LIMITS, BoxedBot, BoxLimits, start
from server.clock import SeatClock
from server.match import Match
from server.replay import replay_record
from server.results import MatchResult
from server.sandbox.process import SandboxedBot, SandboxedCommand
from server.seats import Incoming, LocalSeat, RemoteSeat, Seat, describe_exit
from server.settings import MatchSettings, ServerSettings
from server.store import Archive, MatchStore, StoredMatch
from server.watcher_limits import WatcherLimits

if TYPE_CHECKING:
    from server.hosting import Hosting

log = structlog.get_logger("kassen.referee")


@dataclass(frozen=True, slots=True)
class LocalBot:
    """An in-process seat: a trusted Python policy."""

    policy: Policy
    name: str


@dataclass(frozen=True, slots=True)
class CommandBot:
    """A seat played by a launched process that connects back over gRPC."""

    command: Sequence[str]
    name: str
    cwd: str | None = None
    limits: BoxLimits = DEFAULT_LIMITS
    #: A submitted bot: started in its sandbox from this (``command``, ``cwd`` and ``limits``
    #: are then unused; server/sandbox/process.py).
    sandbox: SandboxedCommand | None = None


async def spawn_bot(
    bot: CommandBot, env: Mapping[str, str], ticket: str
) -> asyncio.subprocess.Process:
    """Start a bot program in its box (server/bot_box.py: own session, limits, a watchdog,
    its seat's ``ticket`` on an inherited pipe): no stdin, stdout discarded, stderr piped (its
    tail explains a crash). Raises ``OSError`` when the program cannot start."""
    return await start(bot.command, env, bot.cwd, bot.limits, asyncio.subprocess.PIPE, ticket)


class TooManyMatches(RuntimeError):
    """The referee already runs as many matches as its organiser allowed (the message names
    the limit and its ``kassen serve`` flag)."""


class Stopping(TooManyMatches):
    """The referee is shutting down: it has room for no new match (whoever handles a full
    referee handles this one too; over gRPC it is UNAVAILABLE)."""


class Referee:
    def __init__(
        self,
        replay_dir: Path | None = None,
        settings: ServerSettings | None = None,
        store: MatchStore | None = None,
        id_prefix: str = "",
    ) -> None:
        self.replay_dir = replay_dir
        #: What starts every match id and seat ticket this referee hands out: one worker of
        #: ``kassen serve --workers N`` names itself there (server/forwarding.py).
        self.id_prefix = id_prefix
        self.settings = settings or ServerSettings()
        self.address = ""
        #: Matches alive and the few most recently finished, in order of creation.
        self.matches: OrderedDict[str, Match] = OrderedDict()
        self.tickets: dict[str, tuple[Match, RemoteSeat]] = {}
        #: Finished matches older than the recent ones are answered from here.
        self.archive = Archive(store)
        self._tasks: set[asyncio.Task[MatchResult]] = set()
        self._launches: set[asyncio.Task[None]] = set()
        #: Matches alive (not finished), and the ones of each caller.
        #: How this referee hosts a ladder's matches (server/app.py sets it when it does).
        self.hosting: Hosting | None = None
        self._live: dict[str, Match] = {}
        self._by_caller: dict[str, dict[str, Match]] = {}
        #: Finished matches still in ``matches``, oldest first.
        self._recent: OrderedDict[str, None] = OrderedDict()
        #: The spectators of this process's matches, per match and per caller.
        self.watchers = WatcherLimits(self.settings)
        #: Launched bots still running (``shutdown`` stops them).
        self._boxes: set[BoxedBot | SandboxedBot] = set()
        #: Set by ``shutdown``: no match starts any more, and a bot that ends meanwhile ended
        #: because its match was aborted, or was killed with it, not because it crashed.
        self.stopping = False

    def check_room(self, caller: str | None = None) -> None:
        """Raise ``TooManyMatches`` naming the limit a new match would exceed: matches alive
        or waiting for their bots, on this referee or of ``caller`` (None: the referee's own
        use, e.g. a tournament, which only the referee's limits bound)."""
        limits = self.settings
        checks = [
            (self._live, limits.max_live_matches, "--max-live-matches", "matches are alive"),
            (
                self._live,
                limits.max_waiting_matches,
                "--max-waiting-matches",
                "matches are waiting for their bots to join",
            ),
        ]
        if caller is not None:
            mine = self._by_caller.get(caller, {})
            checks += [
                (
                    mine,
                    limits.max_live_per_caller,
                    "--max-live-per-caller",
                    f"matches of {caller} are alive",
                ),
                (
                    mine,
                    limits.max_waiting_per_caller,
                    "--max-waiting-per-caller",
                    f"matches of {caller} are waiting for their bots to join",
                ),
            ]
        for matches, limit, flag, what in checks:
            if "waiting" in flag:
                count = sum(1 for m in matches.values() if m.status == "waiting")
            else:
                count = len(matches)
            if count >= limit:
                raise TooManyMatches(
                    f"{count} {what}, the limit of this referee (kassen serve {flag} {limit})"
                )

    def create_match(
        self,
        settings: MatchSettings,
        local: Mapping[int, LocalBot] | None = None,
        commands: Mapping[int, CommandBot] | None = None,
        match_class: type[Match] = Match,
        state: GameState | None = None,
        caller: str | None = None,
    ) -> tuple[Match, list[str]]:
        """Create and start a match. Returns it and one ticket per seat ("" for local seats).

        Raises ``UnknownGame`` / ``InvalidConfig`` for a configuration that cannot be played,
        ``TooManyMatches`` when a limit is reached (``caller``: whose limits also count, see
        ``check_room``).
        """
        if self.stopping:
            raise Stopping("the referee is shutting down")
        game = get_game(settings.game)
        check_config(game, settings.config)
        if settings.watch_delay_ms < self.settings.min_watch_delay_ms:
            settings = replace(settings, watch_delay_ms=self.settings.min_watch_delay_ms)
        self.check_room(caller)
        local = local or {}
        commands = commands or {}
        seats: list[Seat] = []
        tickets: list[str] = []
        for index in range(settings.config.players):
            clock = SeatClock(settings.time_control)
            if index in local:
                seats.append(LocalSeat(index, clock, local[index].policy, local[index].name))
                tickets.append("")
            else:
                remote = RemoteSeat(index, clock, settings.game)
                remote.ticket = self.id_prefix + remote.ticket
                seats.append(remote)
                tickets.append(remote.ticket)
        match_id = self.id_prefix + secrets.token_hex(6)
        match = match_class(
            match_id,
            game,
            settings,
            seats,
            self.replay_dir,
            state=state,
            ping_interval_ms=self.settings.ping_interval_ms,
        )
        self.matches[match_id] = match
        self._live[match_id] = match
        if caller is not None:
            self._by_caller.setdefault(caller, {})[match_id] = match
        for each in seats:
            if isinstance(each, RemoteSeat):
                self.tickets[each.ticket] = (match, each)
        match.on_result.append(self._forget_tickets)
        match.on_finish.append(self._finished)
        match.on_reveal.append(self._revealed)
        for index, bot in commands.items():
            launched = seats[index]
            assert isinstance(launched, RemoteSeat)
            launched.bot_name = bot.name
            launch = asyncio.get_running_loop().create_task(self._launch(match, launched, bot))
            self._launches.add(launch)
            launch.add_done_callback(self._launches.discard)
        task = asyncio.get_running_loop().create_task(match.run(), name=f"match-{match_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return match, tickets

    def seat_for(self, ticket: str) -> tuple[Match, RemoteSeat] | None:
        return self.tickets.get(ticket)

    def _forget_tickets(self, match: Match) -> None:
        """The result is decided: the seats' tickets open nothing any more."""
        for seat in match.seats:
            if isinstance(seat, RemoteSeat):
                self.tickets.pop(seat.ticket, None)

    def _finished(self, match: Match) -> None:
        """The match has ended: it no longer counts against any limit, goes to the store,
        and stays in memory only while it is among the most recent ones."""
        self._forget_tickets(match)
        self._live.pop(match.id, None)
        for caller, mine in list(self._by_caller.items()):
            if mine.pop(match.id, None) is not None and not mine:
                del self._by_caller[caller]
        if match.result is not None and self.archive.store is not None:
            self.archive.put(stored_match(match))
        self._recent[match.id] = None
        # Finished matches leave in the order they finished: one match waiting in a long
        # join window never holds the others in memory.
        while len(self._recent) > self.settings.recent_matches:
            oldest, _ = self._recent.popitem(last=False)
            self.matches.pop(oldest, None)

    def _revealed(self, match: Match) -> None:
        if match.status == "finished":
            self.archive.reveal(match.id, match.settings.seed, match.settings.salt)

    async def find(self, match_id: str) -> Match | StoredMatch | None:
        """A match in memory, else as stored, else None."""
        match = self.matches.get(match_id)
        if match is not None:
            return match
        return await self.archive.get(match_id)

    async def newest(self, limit: int) -> list[Match | StoredMatch]:
        """The ``limit`` most recently created matches, in memory or stored, newest first."""
        found: list[Match | StoredMatch] = []
        found.extend([*reversed(self.matches.values())][:limit])
        seen = {m.id for m in self.matches.values()}
        if len(found) < limit:
            found += [s for s in await self.archive.newest(limit) if s.match_id not in seen]
        found.sort(key=lambda m: m.created_at, reverse=True)
        return found[:limit]

    async def _launch(self, match: Match, seat: RemoteSeat, bot: CommandBot) -> None:
        """Start a bot process with KASSEN_ADDRESS, its ticket on a pipe named by
        KASSEN_TICKET_FILE (and KASSEN_TLS_CA when the referee speaks TLS) but never the
        organiser's KASSEN_ADMIN_* secrets; watch it until it exits (reported at once, from its
        own exit status); once the match is over, give it ``EXIT_GRACE_S`` to exit, then kill
        its process group (server/bot_box.py)."""
        env = bot_environment(self.address, self.settings.tls_ca_file)

        def keep(tail: bytes) -> None:
            seat.stderr_tail = tail

        box: BoxedBot | SandboxedBot
        try:
            if bot.sandbox is not None:
                box = await SandboxedBot.launch(bot.sandbox, keep, bot.name, ticket=seat.ticket)
            else:
                box = await BoxedBot.launch(
                    bot.command, env, bot.cwd, bot.limits, keep, bot.name, ticket=seat.ticket
                )
        except OSError as exc:
            what = "its sandbox" if bot.sandbox is not None else shlex.join(bot.command)
            seat.stderr_tail = f"cannot start {what}: {exc.strerror or exc}".encode()
            seat.inbox.put_nowait(
                Incoming(
                    "exited", asyncio.get_running_loop().time(), detail=seat.stderr_tail.decode()
                )
            )
            seat.process = None
            seat.exited.set()
            return
        seat.process = box.process
        self._boxes.add(box)
        try:
            over = asyncio.ensure_future(match.finished.wait())
            exited = asyncio.ensure_future(box.wait())
            try:
                await asyncio.wait({over, exited}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                over.cancel()
                running = not exited.done()
                exited.cancel()
            if running:  # the match is over and the bot still runs
                await box.end()
            elif match.result is None and not self.stopping:
                seat.inbox.put_nowait(
                    Incoming(
                        "exited",
                        asyncio.get_running_loop().time(),
                        detail=describe_exit(exited.result(), seat.stderr_tail),
                    )
                )
        finally:
            seat.exited.set()
            self._boxes.discard(box)
            await box.close()

    async def shutdown(self) -> None:
        """End running matches ``ABORTED``, every seat told (MatchOver) within the grace
        period, stop launched processes, and write what the store still has pending. No match
        starts meanwhile (``create_match`` raises ``Stopping``): its bots would be killed
        mid-match."""
        self.stopping = True
        for match in list(self._live.values()):
            match.abort()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=self.settings.shutdown_grace_s)
            for task in stuck:  # a match that could not end in time (a local policy thinking)
                task.cancel()
        for box in list(self._boxes):
            box.kill()  # marked as killed by the referee: no note blames a limit for it
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._launches:  # wait for killed processes, so none outlives the referee
            await asyncio.wait(self._launches, timeout=5)
        await self.archive.close()


def stored_match(match: Match) -> StoredMatch:
    """What the store keeps of a finished match: its public summary and replay record; the
    seed and salt only if they are public already."""
    summary = match.summary()
    summary.result.ClearField("seed_reveal")
    record = replay_record(match)
    record["seed"] = record["salt"] = None
    revealed = match.seed_revealed
    return StoredMatch(
        match_id=match.id,
        created_at=match.created_at,
        summary=summary.SerializeToString(),
        replay_json=json.dumps(record),
        seed=match.settings.seed if revealed else None,
        salt=match.settings.salt if revealed else None,
    )
