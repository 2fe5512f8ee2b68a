"""The conformance kit behind ``kassen bot check``: run a bot program through a battery of
scripted situations on an embedded referee and say, check by check, what it got wrong.

Every check launches the bot as the referee launches any bot (``KASSEN_ADDRESS``, and its
ticket on a pipe named by ``KASSEN_TICKET_FILE``), in seat 0, against built-in random
opponents.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games import GameConfig, games, get_game
from games.contract import Game, GameState, hooks_of, load_hook
from games.policies import make_policy
from server.app import running_server
from server.match import Match
from server.referee import CommandBot, LocalBot, Referee
from server.seats import RemoteSeat
from server.settings import MatchSettings, TimeControl

#: After MatchOver a bot has this long to exit with code 0.
EXIT_WITHIN_S = 5.0
#: The stale request and the dropped stream happen after this many answers.
PROBE_AFTER = 3


GROUPS = frozenset({"games", "kinds", "probe", "deadline"})


@dataclass(slots=True)
class Check:
    """One line of the report. A check whose precondition never happened (the bot never
    reached MatchOver, never answered the request a probe needs) fails: it proved nothing."""

    name: str
    passed: bool
    #: What this check saw, e.g. "412 decisions" or "not checked: it never reached MatchOver".
    detail: str = ""
    #: The bot's failure as the referee recorded it ("reason: detail", one line), if any.
    #: The same failure usually fails several checks; a report shows it in full once.
    error: str = ""

    @property
    def reason(self) -> str:
        """The result reason of ``error`` (``bot_crashed``, ``timeout``, ...)."""
        return self.error.split(":", 1)[0]


@dataclass(slots=True)
class Battery:
    command: Sequence[str]
    game: str = "rumble-nation"
    decision_ms: int = 2000
    deadline_ms: int = 300
    cwd: str | None = None
    #: Which groups of checks to run: games, kinds, probe (stale + rejoin), deadline.
    only: frozenset[str] = GROUPS
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)


class ProbeMatch(Match):
    """A match that, after seat 0's ``PROBE_AFTER``-th answer, re-sends that answered request
    (a stale request the bot must ignore) and then drops the bot's stream (it must rejoin)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: Whether the stale request went out on a connected stream (and the stream was then
        #: dropped): without it neither probe check has anything to judge.
        self.probed = False

    async def _decide_remote(self, seat: RemoteSeat, decision: object) -> int | None:
        index = await super()._decide_remote(seat, decision)  # type: ignore[arg-type]
        if (
            seat.index == 0
            and not self.probed
            and index is not None
            and seat.connected
            and seat.clock.decisions >= PROBE_AFTER
        ):
            self.probed = True
            stale = seat.last_request
            await seat.send(stale)
            await asyncio.sleep(0.3)  # time for a wrong answer to arrive, counted as duplicate
            seat.end_stream()
        return index


async def _play(
    referee: Referee,
    battery: Battery,
    config: GameConfig,
    seed: int,
    *,
    decision_ms: int | None = None,
    bank_ms: int = 10_000,
    match_class: type[Match] = Match,
    state: GameState | None = None,
) -> tuple[Match, str | None]:
    """One match with the bot in seat 0; returns it and how the bot's process ended, in
    words, if not with code 0 within ``EXIT_WITHIN_S`` of the end (None: it did)."""
    settings = MatchSettings(
        game=battery.game,
        config=config,
        seed=seed,
        time_control=TimeControl(decision_ms=decision_ms or battery.decision_ms, bank_ms=bank_ms),
        join_timeout_ms=30_000,
    )
    local = {
        p: LocalBot(make_policy("random", battery.game, seed + p), "random")
        for p in range(1, config.players)
    }
    command = CommandBot(command=list(battery.command), name="bot", cwd=battery.cwd)
    match, _ = referee.create_match(
        settings, local, {0: command}, match_class=match_class, state=state
    )
    await match.finished.wait()
    seat = match.seats[0]
    assert isinstance(seat, RemoteSeat)
    try:
        await asyncio.wait_for(seat.exited.wait(), EXIT_WITHIN_S)
    except TimeoutError:
        return match, f"still running {EXIT_WITHIN_S:g} s after MatchOver"
    return match, exit_text(seat.process.returncode if seat.process else None)


def exit_text(code: int | None) -> str | None:
    """How a finished bot process ended, in words; None for exit code 0."""
    if code == 0:
        return None
    if code is None:
        return "could not be started"
    if code < 0:
        return f"was killed by signal {-code}"
    return f"exited with code {code}"


def one_line(text: str) -> str:
    return " ".join(text.split())


def _verdict(match: Match) -> str:
    """The bot's failure in this match as "reason: detail" ("" if it played it through)."""
    assert match.result is not None
    mine = match.result.seats[0]
    if mine.forfeited:
        return one_line(f"{mine.reason.value}: {mine.detail}")
    if mine.decisions == 0:  # the match ended before asking it anything: nothing was shown
        return "not_asked: the match ended before the bot answered anything"
    return ""


def whole_games(game: Game) -> list[GameConfig]:
    """The whole games a bot plays: the game's own list if it registers ``check_games``
    (Root: both maps with two players, then autumn with three and with four), else the first
    variant with the fewest players, then each other variant with the most (Rumble Nation:
    2-player base, 4-player advanced)."""
    ref = hooks_of(game).check_games
    if ref is not None:
        return list(load_hook(ref)(game))
    found = [GameConfig(game.player_counts[0], game.variants[0])]
    found += [GameConfig(game.player_counts[-1], v) for v in game.variants[1:]]
    return found


def decision_scenarios(game: str) -> dict[str, GameState]:
    """Prepared positions that make seat 0 meet the game's rare kinds of decision: the
    game's registered ``decision_scenarios`` (none if it registers none)."""
    ref = hooks_of(games().get(game)).decision_scenarios
    if ref is None:
        return {}
    return dict(load_hook(ref)())


def kinds_check(kinds_met: int, results: Sequence[tuple[str, str]]) -> Check:
    """The verdict over the prepared positions, (name, error) each: one line however many
    fail, naming the first failure's error once."""
    name = f"answers every kind of decision ({kinds_met} kinds met)"
    failed = [(position, error) for position, error in results if error]
    if not failed:
        return Check(name, True)
    names = ", ".join(position for position, _ in failed[:3])
    more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
    detail = f"failed in {len(failed)} of {len(results)} positions ({names}{more})"
    others = len({error for _, error in failed}) - 1
    if others:
        detail += f"; {others} other error{'s' * (others != 1)} besides the first"
    return Check(name, False, detail, failed[0][1])


async def run_battery(battery: Battery, on_check: Callable[[Check], None] | None = None) -> Battery:
    game = get_game(battery.game)
    first = GameConfig(game.player_counts[0], game.variants[0])

    def record(check: Check) -> None:
        battery.checks.append(check)
        if on_check is not None:
            on_check(check)

    async with running_server("127.0.0.1:0") as referee:
        # 1. Whole games: the smallest first, then each other variant.
        for index, config in enumerate(whole_games(game) if "games" in battery.only else ()):
            players, variant = config.players, config.variant
            match, exit_wrong = await _play(referee, battery, config, seed=11 + players + index)
            error = _verdict(match)
            name = f"plays a {players}-player {variant} game to the end"
            if error:
                record(Check(name, False, error=error))
            else:
                record(Check(name, True, f"{match.decisions} decisions"))
            if index == 0:
                name = "exits with code 0 after MatchOver"
                if error:  # it never reached MatchOver: its exit says nothing
                    record(Check(name, False, "not checked: it never reached MatchOver", error))
                else:
                    record(Check(name, exit_wrong is None, exit_wrong or ""))
        # 2. Every kind of decision, from prepared positions (four at a time).
        scenarios = decision_scenarios(battery.game) if "kinds" in battery.only else {}
        if scenarios:
            gate = asyncio.Semaphore(4)

            async def one(name: str) -> tuple[str, str, set[str]]:
                async with gate:
                    state = scenarios[name]
                    match, _ = await _play(referee, battery, state.config, seed=5, state=state)
                    return name, _verdict(match), {kind for seat, kind in match.asked if seat == 0}

            results = await asyncio.gather(*(one(name) for name in scenarios))
            asked = set().union(*(r[2] for r in results))
            record(kinds_check(len(asked), [(name, error) for name, error, _ in results]))
        # 3. A stale request to ignore, then a dropped stream to survive.
        if "probe" in battery.only:
            await _probe(referee, battery, first, record)
        # 4. A tight clock: every decision within the deadline, no bank.
        if "deadline" in battery.only:
            started = time.monotonic()
            match, _ = await _play(
                referee, battery, first, seed=31, decision_ms=battery.deadline_ms, bank_ms=0
            )
            error = _verdict(match)
            name = f"answers within a {battery.deadline_ms} ms deadline"
            if error:
                record(Check(name, False, error=error))
            else:
                elapsed = time.monotonic() - started
                record(Check(name, True, f"{match.decisions} decisions in {elapsed:.1f} s"))
    return battery


async def _probe(
    referee: Referee, battery: Battery, config: GameConfig, record: Callable[[Check], None]
) -> None:
    match, _ = await _play(referee, battery, config, seed=21, match_class=ProbeMatch)
    assert isinstance(match, ProbeMatch)
    seat = match.seats[0]
    assert isinstance(seat, RemoteSeat)
    error = _verdict(match)
    stale = "ignores a stale (already answered) request"
    rejoin = "rejoins after its stream is dropped"
    if not match.probed:  # the bot never got as far as the probe: neither check was made
        answered = seat.clock.decisions
        why = f"not checked: the probe comes after {PROBE_AFTER} answers, it gave {answered}"
        record(Check(stale, False, why, error))
        record(Check(rejoin, False, why, error))
        return
    if seat.duplicates:
        record(Check(stale, False, f"answered it {seat.duplicates} time(s)"))
    else:
        record(Check(stale, True))
    if seat.stream_generation < 2:
        record(Check(rejoin, False, "never rejoined", error))
    else:
        record(Check(rejoin, not error, "", error))
