"""Challenges: unrated matches someone asks for, against bots that accept them.

A challenge is asked for by a bot (its author, with the bot's token: the bot plays) or by a
person on the ladder's web page (the page, trusted with its relay token, holds the seat). The
other seats are house bots or bots that said they accept challenges. The match is an ordinary
ladder match with a secret seed, recorded with its replay, but ``unrated``: no rating moves
and no failure counts against a bot's record.

What this module decides, before anything is reserved: whether the request is valid
(``ChallengeError`` naming the field), and whether the asker may have another one now
(``ChallengeLimited``): so many at once and per hour per client (a bot's id or a visitor's
address), so many at once per challenged bot (a bot cannot be flooded), so many people's
games on the whole ladder. A challenged bot that is busy is waited for (``wait_s``) and
kept from new ladder matches meanwhile.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from server.settings import TimeControl


class ChallengeError(ValueError):
    """The challenge asks for something impossible; the message names what."""


class ChallengeLimited(ChallengeError):
    """A limit was reached; the message names it and when to try again if that helps."""


class ChallengeUnavailable(ChallengeError):
    """A challenged bot cannot play it now (offline, busy past the wait, not accepting)."""


#: A person's clock: time to read the board, and a bank for a long turn.
PERSON_TIME = TimeControl(decision_ms=60_000, bank_ms=600_000)


@dataclass(frozen=True, slots=True)
class ChallengeSettings:
    """The limits of challenges and people's games (``[challenges]`` in ladder.toml)."""

    #: Challenges one client (a bot, or a visitor's address) has running at once.
    per_client_at_once: int = 2
    #: Challenges one client may start per hour.
    per_client_per_hour: int = 20
    #: Challenges one challenged bot plays at once (beyond them: refused, never queued).
    per_bot_at_once: int = 1
    #: Games with a person in them on the whole ladder at once.
    people_at_once: int = 8
    #: How long a challenge waits for a busy challenged bot to have a free slot.
    wait_s: float = 30.0
    #: A person's clock.
    person_time: TimeControl = PERSON_TIME
    #: How long a person's seat may be away (a reload) before a decision fails
    #: DISCONNECTED (on the ladder's own referee; others use their own setting).
    person_reconnect_ms: int = 15_000


@dataclass(slots=True)
class ClientTally:
    running: int = 0
    started: deque[float] = field(default_factory=deque)


class ChallengeBook:
    """Who has which challenges running, and the hour's starts per client."""

    def __init__(self, settings: ChallengeSettings) -> None:
        self.settings = settings
        self.clients: dict[str, ClientTally] = {}
        #: Challenged bot id -> challenges it is in (reserved or playing).
        self.bots: dict[str, int] = {}
        self.people = 0

    def admit(
        self,
        client: str,
        challenged: Sequence[str],
        person: bool,
        now: float | None = None,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """Count a new challenge, or raise ``ChallengeLimited`` naming the limit (and a busy
        bot by its name in ``names``)."""
        settings = self.settings
        now = time.monotonic() if now is None else now
        tally = self.clients.get(client) or ClientTally()
        while tally.started and tally.started[0] <= now - 3600:
            tally.started.popleft()
        if person and self.people >= settings.people_at_once:
            raise ChallengeLimited(
                f"{settings.people_at_once} games with people are being played on this "
                "ladder (challenges.people_at_once); try again later"
            )
        if tally.running >= settings.per_client_at_once:
            raise ChallengeLimited(
                f"{client} has {tally.running} challenges running "
                f"(challenges.per_client_at_once); finish one first"
            )
        if len(tally.started) >= settings.per_client_per_hour:
            wait = int(tally.started[0] + 3600 - now) + 1
            raise ChallengeLimited(
                f"{client} started {len(tally.started)} challenges this hour "
                f"(challenges.per_client_per_hour); try again in {wait} s"
            )
        for bot_id in set(challenged):
            if self.bots.get(bot_id, 0) >= settings.per_bot_at_once:
                raise ChallengeLimited(
                    f"{(names or {}).get(bot_id, f'bot {bot_id}')} is already playing "
                    f"{settings.per_bot_at_once} "
                    "challenge(s) (challenges.per_bot_at_once); try again later"
                )
        tally.running += 1
        tally.started.append(now)
        self.clients[client] = tally
        for bot_id in set(challenged):
            self.bots[bot_id] = self.bots.get(bot_id, 0) + 1
        if person:
            self.people += 1

    def done(self, client: str, challenged: Sequence[str], person: bool) -> None:
        """A challenge admitted before has ended (or never started)."""
        tally = self.clients.get(client)
        if tally is not None:
            tally.running = max(0, tally.running - 1)
            if not tally.running and not tally.started:
                del self.clients[client]
        for bot_id in set(challenged):
            left = self.bots.get(bot_id, 0) - 1
            if left > 0:
                self.bots[bot_id] = left
            else:
                self.bots.pop(bot_id, None)
        if person:
            self.people = max(0, self.people - 1)

    def forget_idle(self, now: float | None = None) -> None:
        """Drop clients with nothing running and no start within the hour (bounded memory)."""
        now = time.monotonic() if now is None else now
        for client, tally in list(self.clients.items()):
            if not tally.running and (not tally.started or tally.started[-1] <= now - 3600):
                del self.clients[client]


def seat_order(players: int, own_seat: int | None, opponents: Sequence[str], pick: int) -> int:
    """The asker's seat: the one asked for (checked), else ``pick`` (a random draw)."""
    if len(opponents) != players - 1:
        raise ChallengeError(
            f"opponents: {len(opponents)} given; a {players}-player game needs {players - 1}"
        )
    if own_seat is None:
        return pick % players
    if not 0 <= own_seat < players:
        raise ChallengeError(f"seat: {own_seat} is not a seat of a {players}-player game")
    return own_seat
