"""The referee: creates matches, hands out seat tickets, launches bot processes, runs each
match as its own asyncio task, and keeps finished matches for queries and replays."""

from __future__ import annotations

import asyncio
import secrets
import shlex
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import structlog

from games import get_game
from games.contract import GameState, check_config
from games.policies.base import Policy
from server.auth import bot_environment
from server.bot_box import DEFAULT_LIMITS, BoxedBot, BoxLimits, kill_group, start
from server.clock import SeatClock
from server.match import Match
from server.results import MatchResult
from server.seats import Incoming, LocalSeat, RemoteSeat, Seat, describe_exit
from server.settings import MatchSettings, ServerSettings

log = structlog.get_logger("kassen.referee")

KEEP_FINISHED = 10_000


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


async def spawn_bot(bot: CommandBot, env: Mapping[str, str]) -> asyncio.subprocess.Process:
    """Start a bot program in its box (server/bot_box.py: own session, limits, a watchdog):
    no stdin, stdout discarded, stderr piped (its tail explains a crash). Raises ``OSError``
    when the program cannot start."""
    return await start(bot.command, env, bot.cwd, bot.limits, asyncio.subprocess.PIPE)


class TooManyMatches(RuntimeError):
    """The referee already runs as many matches as its organiser allowed."""


class Referee:
    def __init__(
        self, replay_dir: Path | None = None, settings: ServerSettings | None = None
    ) -> None:
        self.replay_dir = replay_dir
        self.settings = settings or ServerSettings()
        self.address = ""
        self.matches: OrderedDict[str, Match] = OrderedDict()
        self.tickets: dict[str, tuple[Match, RemoteSeat]] = {}
        self._tasks: set[asyncio.Task[MatchResult]] = set()
        self._launches: set[asyncio.Task[None]] = set()

    def create_match(
        self,
        settings: MatchSettings,
        local: Mapping[int, LocalBot] | None = None,
        commands: Mapping[int, CommandBot] | None = None,
        match_class: type[Match] = Match,
        state: GameState | None = None,
    ) -> tuple[Match, list[str]]:
        """Create and start a match. Returns it and one ticket per seat ("" for local seats).

        Raises ``UnknownGame`` / ``InvalidConfig`` for a configuration that cannot be played.
        """
        game = get_game(settings.game)
        check_config(game, settings.config)
        if settings.watch_delay_ms < self.settings.min_watch_delay_ms:
            settings = replace(settings, watch_delay_ms=self.settings.min_watch_delay_ms)
        alive = len(self._tasks)
        if alive >= self.settings.max_live_matches:
            raise TooManyMatches(
                f"{alive} matches are alive, the limit of this referee "
                f"(kassen serve --max-live-matches {self.settings.max_live_matches})"
            )
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
                seats.append(remote)
                tickets.append(remote.ticket)
        match_id = secrets.token_hex(6)
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
        for each in seats:
            if isinstance(each, RemoteSeat):
                self.tickets[each.ticket] = (match, each)
        match.on_finish.append(self._forget_tickets)
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
        self._trim()
        return match, tickets

    def seat_for(self, ticket: str) -> tuple[Match, RemoteSeat] | None:
        return self.tickets.get(ticket)

    def _forget_tickets(self, match: Match) -> None:
        for seat in match.seats:
            if isinstance(seat, RemoteSeat):
                self.tickets.pop(seat.ticket, None)

    def _trim(self) -> None:
        while len(self.matches) > KEEP_FINISHED:
            oldest = next(iter(self.matches.values()))
            if oldest.status != "finished":
                break
            self.matches.popitem(last=False)

    async def _launch(self, match: Match, seat: RemoteSeat, bot: CommandBot) -> None:
        """Start a bot process with KASSEN_ADDRESS, KASSEN_TICKET (and KASSEN_TLS_CA when the
        referee speaks TLS) but never the organiser's KASSEN_ADMIN_* secrets; watch it until
        it exits (reported at once, from its own exit status); once the match is over, give it
        ``EXIT_GRACE_S`` to exit, then kill its process group (server/bot_box.py)."""
        env = bot_environment(self.address, seat.ticket, self.settings.tls_ca_file)

        def keep(tail: bytes) -> None:
            seat.stderr_tail = tail

        try:
            box = await BoxedBot.launch(bot.command, env, bot.cwd, bot.limits, keep, bot.name)
        except OSError as exc:
            seat.stderr_tail = (
                f"cannot start {shlex.join(bot.command)}: {exc.strerror or exc}".encode()
            )
            seat.inbox.put_nowait(
                Incoming(
                    "exited", asyncio.get_running_loop().time(), detail=seat.stderr_tail.decode()
                )
            )
            seat.process = None
            seat.exited.set()
            return
        seat.process = box.process
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
            elif match.result is None:
                seat.inbox.put_nowait(
                    Incoming(
                        "exited",
                        asyncio.get_running_loop().time(),
                        detail=describe_exit(exited.result(), seat.stderr_tail),
                    )
                )
        finally:
            seat.exited.set()
            await box.close()

    async def shutdown(self) -> None:
        """Abort running matches and stop launched processes."""
        for task in list(self._tasks):
            task.cancel()
        for match in self.matches.values():
            for seat in match.seats:
                if (
                    isinstance(seat, RemoteSeat)
                    and seat.process
                    and seat.process.returncode is None
                ):
                    kill_group(seat.process)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._launches:  # wait for killed processes, so none outlives the referee
            await asyncio.wait(self._launches, timeout=5)
