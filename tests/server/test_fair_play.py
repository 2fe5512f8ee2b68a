"""Fair play: an adversarial seat records everything the referee lets it see while playing a
Root contest, an advanced Rumble Nation game and a 3-player Gnomeville game, then tries to
recover the secret seed from it (and with it the opponent's hand, the daimyo cards, every
future roll, the troll deck, the bags' draws and the ability piles). It must fail.

The attack is real: it harvests every integer and every hex or decimal string in every
message (Joined, requests, events, notices, GetMatch, ListMatches, Watch, attempted
GetReplay) and re-deals the game from each candidate. A positive control shows the same
attack succeeds as soon as the seed is among the candidates.

Gnomeville's seats play at the same time, so a fast seat could also try to peek at a slow one:
over the wire, a seat's picture of the other towns stays the one of the last barrier whatever
the others do meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Coroutine, Iterable
from typing import Any, TypeVar

import grpc
import pytest
from google.protobuf.message import Message

from client_sdk import RandomBot, play
from games import GameConfig, get_game
from games.gnomeville import GAME as GNOMEVILLE
from games.gnomeville.state import stream_seed
from kassen.v1 import gnomeville_pb2 as gpb
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import running_server
from server.chance import check_commitment

T = TypeVar("T")

NUMBER = re.compile(r"\d+")
HEX = re.compile(r"[0-9a-fA-F]{16,}")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 120))


def harvest(message: Message, into: set[int]) -> None:
    """Every integer an attacker could try as a seed, from any field of ``message``."""
    for _field, value in message.ListFields():
        values = (
            value
            if isinstance(value, Iterable) and not isinstance(value, str | bytes | Message)
            else [value]
        )
        for item in values:
            if isinstance(item, Message):
                harvest(item, into)
            elif isinstance(item, bool):
                continue
            elif isinstance(item, int):
                into.add(item)
            elif isinstance(item, str):
                harvest_text(item, into)
            elif isinstance(item, bytes):
                harvest_text(item.hex(), into)


def harvest_text(text: str, into: set[int]) -> None:
    for digits in NUMBER.findall(text):
        into.add(int(digits))
    for hexes in HEX.findall(text):
        into.add(int(hexes, 16))
        for width in (8, 16):  # 32- and 64-bit slices, as a seed derived from a hash might be
            for start in range(0, len(hexes) - width + 1, width):
                into.add(int(hexes[start : start + width], 16))


def seeds_matching(
    game_name: str, config: GameConfig, seat: int, seen_setup: list[str], candidates: Iterable[int]
) -> list[int]:
    """The candidates that deal the same start as the seat saw (its own and public setup)."""
    game = get_game(game_name)
    found = []
    for candidate in candidates:
        if not 0 <= candidate < 2**64:
            continue
        state = game.new(config, candidate)
        dealt = [
            json.dumps(dict(e.data), sort_keys=True)
            for e in getattr(state, "setup_events", ())
            if e.private_to in (None, seat)
        ]
        if dealt == seen_setup:
            found.append(candidate)
    return found


class Adversary:
    """Plays a seat at random over the raw stub, and asks the referee everything it can
    while playing: GetMatch, ListMatches, GetReplay (refused), and a Watch stream."""

    def __init__(self, stub: rpc.RefereeStub, match_id: str, seed: int) -> None:
        self.stub = stub
        self.match_id = match_id
        self.rng = random.Random(seed)
        self.seen: list[Message] = []
        self.replay_refusals: list[grpc.StatusCode] = []
        #: The events of the first request: the setup (and whatever happened before it).
        self.first_events: list[str] = []
        self.seat = -1
        self.over: pb.MatchOver | None = None

    async def play(self, ticket: str) -> None:
        call = self.stub.Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="adversary")))
        first_request = True
        async for message in call:
            which = message.WhichOneof("message")
            if which == "match_over":
                self.over = message.match_over  # the end may reveal the seed: not harvested
                break
            self.seen.append(message)
            if which == "joined":
                self.seat = message.joined.seat
            elif which == "ping":
                await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
            elif which == "decision":
                request = message.decision
                if first_request:
                    first_request = False
                    self.first_events = [
                        json.dumps(json.loads(e.data_json), sort_keys=True) for e in request.events
                    ]
                await self._snoop()
                index = await self.choose(request)
                await call.write(
                    pb.PlayRequest(
                        answer=pb.Answer(request_id=request.request_id, option_index=index)
                    )
                )
        await call.done_writing()

    async def choose(self, request: pb.DecisionRequest) -> int:
        return self.rng.randrange(len(request.options))

    async def _snoop(self) -> None:
        self.seen.append(await self.stub.GetMatch(pb.GetMatchRequest(match_id=self.match_id)))
        self.seen.append(await self.stub.ListMatches(pb.ListMatchesRequest()))
        try:
            self.seen.append(await self.stub.GetReplay(pb.GetReplayRequest(match_id=self.match_id)))
        except grpc.aio.AioRpcError as exc:
            self.replay_refusals.append(exc.code())

    async def watch(self) -> None:
        async for update in self.stub.Watch(pb.WatchRequest(match_id=self.match_id)):
            if update.HasField("match_over"):
                return
            self.seen.append(update)

    def candidates(self) -> set[int]:
        found: set[int] = set()
        for message in self.seen:
            harvest(message, found)
        return found


@pytest.mark.parametrize(
    ("game", "variant", "players"),
    [
        ("root", "autumn", 2),
        ("root", "winter", 3),
        ("root", "autumn", 4),
        ("rumble-nation", "advanced", 4),
    ],
)
def test_an_adversarial_seat_cannot_recover_the_seed_from_anything_it_receives(
    game: str, variant: str, players: int
) -> None:
    config = GameConfig(players, variant)

    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game=game, variant=variant, players=players)
            )
            match = referee.matches[created.match_id]
            seed = match.settings.seed
            adversary = Adversary(stub, created.match_id, 1)
            watcher = asyncio.create_task(adversary.watch())
            others = [
                play(RandomBot(seat), referee.address, created.tickets[seat])
                for seat in range(1, players)
            ]
            await asyncio.gather(adversary.play(created.tickets[0]), *others)
            await watcher

            assert adversary.seat == 0 and adversary.over is not None
            # The setup as the adversary saw it: public events and its own (e.g. its hand).
            fresh = get_game(game).new(config, seed)
            setup_count = sum(1 for e in fresh.setup_events if e.private_to in (None, 0))
            seen_setup = adversary.first_events[:setup_count]
            assert len(seen_setup) == setup_count > 0
            # GetReplay was refused at every decision while the match ran.
            assert adversary.replay_refusals
            assert set(adversary.replay_refusals) == {grpc.StatusCode.FAILED_PRECONDITION}
            candidates = adversary.candidates()
            assert len(candidates) > 50, len(candidates)  # the attacker collected plenty to try
            print(f"{game}: {len(candidates)} candidate seeds tried")
            assert seed not in candidates
            assert seeds_matching(game, config, 0, seen_setup, candidates) == []
            # Positive control: the same attack finds the seed once it is among the candidates.
            assert seeds_matching(
                game, config, 0, seen_setup, [*sorted(candidates)[:20], seed]
            ) == [seed]
            # At the end, MatchOver reveals seed and salt, and they match the commitment.
            reveal = adversary.over.seed_reveal
            assert reveal.seed == seed
            assert check_commitment(reveal.seed, reveal.salt, created.setup.seed_commitment)

    run(scenario())


# ---------------------------------------------------------------------- Gnomeville

GNOMEVILLE_CONFIG = GameConfig(3, "standard")


def gnomeville_chance(config: GameConfig, seed: int) -> dict[str, Any]:
    """The hidden chance a seed deals: the troll deck's order, the special delivery deck, the
    ability piles and each town's bag stream (what its draws will be). The face-down events
    (3 of 7 cards, 210 ways) come from the same shuffles but are too few to tell a seed by."""
    state = GNOMEVILLE.new(config, seed)
    chance: dict[str, Any] = {
        "troll deck": (state.round_card, *state.troll_deck),
        "deliveries": tuple(state.delivery_deck),
        "piles": tuple(tuple(t.ability_pile) for t in state.towns),
    }
    for town in state.towns:
        chance[f"bag {town.seat}"] = town.rng.getstate()
    return chance


def reproducing(config: GameConfig, seed: int, candidates: Iterable[int]) -> list[int]:
    """The candidates that give any part of the game's hidden chance: dealt as the game's seed,
    or used as the seed of one of its random streams (the table's shuffles, a bag)."""
    truth = gnomeville_chance(config, seed)
    streams = {stream_seed(seed, "table")} | {
        stream_seed(seed, f"bag:{p}") for p in range(config.players)
    }
    found = []
    for candidate in candidates:
        if not 0 <= candidate < 2**64:
            continue
        dealt = gnomeville_chance(config, candidate)
        if candidate in streams or any(dealt[part] == truth[part] for part in truth):
            found.append(candidate)
    return found


def test_an_adversarial_gnomeville_seat_cannot_recover_the_hidden_chance() -> None:
    async def scenario() -> None:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="gnomeville", variant="standard", players=3)
            )
            match = referee.matches[created.match_id]
            seed, config = match.settings.seed, match.settings.config
            assert config == GNOMEVILLE_CONFIG
            adversary = Adversary(stub, created.match_id, 1)
            watcher = asyncio.create_task(adversary.watch())
            others = [
                play(RandomBot(seat), referee.address, created.tickets[seat]) for seat in (1, 2)
            ]
            await asyncio.gather(adversary.play(created.tickets[0]), *others)
            await watcher

            assert adversary.seat == 0 and adversary.over is not None
            assert adversary.replay_refusals
            assert set(adversary.replay_refusals) == {grpc.StatusCode.FAILED_PRECONDITION}
            candidates = adversary.candidates()
            assert len(candidates) > 50, len(candidates)
            print(f"gnomeville: {len(candidates)} candidate seeds tried")
            assert seed not in candidates
            assert reproducing(config, seed, candidates) == []
            # Positive control: the same attack finds the seed once it is among the candidates.
            assert reproducing(config, seed, [*sorted(candidates)[:20], seed]) == [seed]
            reveal = adversary.over.seed_reveal
            assert reveal.seed == seed
            assert check_commitment(reveal.seed, reveal.salt, created.setup.seed_commitment)

    run(scenario())


class SlowBuilder(Adversary):
    """Seat 0 keeps building (it draws whenever it may) and thinks a while before each build
    answer, so the other seats run ahead of it; it records every observation it is sent."""

    THINK_S = 0.02

    def __init__(self, stub: rpc.RefereeStub, match_id: str, seed: int) -> None:
        super().__init__(stub, match_id, seed)
        self.observations: list[gpb.GnomevilleObservation] = []

    async def _snoop(self) -> None:
        """No snooping here: only the observations matter."""

    async def choose(self, request: pb.DecisionRequest) -> int:
        seen = request.observation.gnomeville
        self.observations.append(seen)
        keys = [option.key for option in request.options]
        if seen.phase == "build":
            await asyncio.sleep(self.THINK_S)
            if "draw" in keys:
                return keys.index("draw")
        return self.rng.randrange(len(keys))


def test_a_gnomeville_seat_sees_the_other_towns_only_as_of_the_last_barrier() -> None:
    """However far the other seats get while seat 0 thinks, seat 0's observation shows their
    towns as the spectator's view did when the phase opened, and it changes only when the
    phase (or the round) does."""
    from games.gnomeville.state import GnomevilleState
    from kassen.wire.gnomeville import town_to_proto

    async def scenario() -> tuple[SlowBuilder, list[tuple[int, int]], GameConfig, int]:
        async with (
            running_server() as referee,
            grpc.aio.insecure_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(game="gnomeville", variant="standard", players=3)
            )
            match = referee.matches[created.match_id]
            slow = SlowBuilder(stub, created.match_id, 2)
            others = [
                play(RandomBot(seat), referee.address, created.tickets[seat]) for seat in (1, 2)
            ]
            await asyncio.gather(slow.play(created.tickets[0]), *others)
            await match.finished.wait()
            return slow, list(match.state.history), match.settings.config, match.settings.seed

    slow, history, config, seed = run(scenario())
    assert slow.over is not None and slow.over.reason == pb.RESULT_REASON_COMPLETED
    # The picture of every phase at its opening, from the record: the spectator's view of the
    # towns right after each barrier, and who answered in which phase.
    state = GNOMEVILLE.new(config, seed)
    assert isinstance(state, GnomevilleState)

    def phase_key(g: GnomevilleState) -> tuple[int, str, str]:
        return g.round, g.phase, g.stage

    opened = {phase_key(state): [town_to_proto(t) for t in state.observe(None).towns]}
    answers: dict[tuple[int, str, str], list[int]] = {}
    for seat, index in history:
        answers.setdefault(phase_key(state), []).append(seat)
        state.apply(seat, index)
        opened.setdefault(phase_key(state), [town_to_proto(t) for t in state.observe(None).towns])
    pictures: dict[tuple[int, str, str], list[list[gpb.GnomevilleTown]]] = {}
    for seen in slow.observations:
        pictures.setdefault((seen.round, seen.phase, seen.stage), []).append(list(seen.towns))
    overtaken = 0  # build phases in which seat 0 was asked again after another seat answered
    for key, seen_towns in pictures.items():
        for towns in seen_towns:
            for other in (1, 2):
                assert towns[other] == opened[key][other], (key, other)
        if key[1] == "build":
            order = answers[key]
            mine = [i for i, seat in enumerate(order) if seat == 0]
            # Seat 0's last request went out when its last-but-one answer was applied.
            overtaken += len(mine) > 1 and any(seat != 0 for seat in order[: mine[-2]])
    builds = [key for key in pictures if key[1] == "build"]
    assert len(builds) >= 2 and overtaken >= 2, (builds, overtaken)
    # The picture does change at the barriers: the other towns after round 1's build phase
    # are not those of its opening.
    after = [key for key in pictures if key > builds[0] and key[1] != "build"]
    assert any(pictures[key][0][1:] != pictures[builds[0]][0][1:] for key in after)
