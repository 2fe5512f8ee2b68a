"""Four-player Root (Marquise, Eyrie, Woodland Alliance, Vagabond) over real gRPC on both maps,
with four different bots: the greedy policy in-process, the example Python bot launched as a
command, and two SDK bots over the wire (greedy and random) that record all they receive. The
match plays to the end with a winner (two with a coalition), the replay verifies by
re-simulation, and no seat ever receives another seat's hand, a private event of another
seat, the Alliance's supporters, the quest deck's order or the items under the ruins."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from client_sdk import Request, play
from client_sdk.builtin import PolicyBot
from games import GameConfig
from games.policies import make_policy
from games.root.state import RootState
from games.root.view import RootView
from kassen import wire
from kassen.v1 import referee_pb2 as pb
from server.app import running_server
from server.match import Match
from server.referee import CommandBot, LocalBot
from server.replay import verify_file
from server.results import Reason
from server.settings import MatchSettings

ROOT = Path(__file__).resolve().parents[2]

#: Seat order per map: the two recording bots (seats 2 and 3) play the Vagabond and the
#: Marquise on Autumn, the Alliance and the Eyrie on Winter, so every faction's own view and
#: every other faction's view of the Alliance and the Vagabond are checked.
SEATING = {
    "autumn": "eyrie,alliance,vagabond,marquise",
    "winter": "vagabond,marquise,alliance,eyrie",
}
SEED = {"autumn": 3, "winter": 5}


class RecordingPolicyBot(PolicyBot):
    """A built-in policy over the wire that keeps every request and event it was sent."""

    def __init__(self, policy: str, seed: int) -> None:
        super().__init__(policy, seed)  # its name is the policy's (``random``, ``greedy``)
        self.requests: list[Request] = []
        self.events: list[pb.Event] = []

    def choose(self, request: Request) -> int:
        self.requests.append(request)
        self.events.extend(request.events)
        return super().choose(request)

    def on_events(self, events: tuple[pb.Event, ...]) -> None:
        self.events.extend(events)


def events_each_seat_may_see(match: Match) -> list[Counter[tuple[str, str]]]:
    """Per seat, the (kind, data) of every event it may receive, by re-simulating the match
    from its seed: the public ones and those private to it."""
    state = match.game.new(match.settings.config, match.settings.seed)
    events = list(getattr(state, "setup_events", ()))
    for seat, index in match.state.history:
        events.extend(state.apply(seat, index))
    allowed: list[Counter[tuple[str, str]]] = [Counter() for _ in match.seats]
    for event in events:
        message = wire.event_to_proto(match.game, event)
        for seat, seen in enumerate(allowed):
            if event.private_to in (None, seat):
                seen[message.kind, message.data_json] += 1
    return allowed


def check_hidden(view: RootView, seat: int) -> None:
    """What ``seat`` received shows no other hand, no supporter unless it is the Alliance, and
    of the Vagabond's quest deck and ruins only how many (RV10: hidden from him too)."""
    assert view.viewer == seat
    for player in view.players:
        board = dict(player.board)
        if player.seat != seat:
            assert player.hand == (), f"seat {seat} sees the hand of seat {player.seat}"
        if player.faction == "alliance":
            assert ("supporter_cards" in board) is (player.seat == seat)
        if player.faction == "vagabond":
            assert isinstance(board["quest_deck"], int)
            assert all(isinstance(c, int) for c in board["ruins"])
            if board["character"]:  # set up: his board says which ruins are left
                ruins = [c.id for c in view.clearings if ("", "ruin") in c.buildings]
                assert sorted(board["ruins"]) == ruins


@pytest.mark.parametrize("board", ["autumn", "winter"])
def test_a_four_player_match_with_four_bots_plays_to_the_end_over_grpc(
    board: str, tmp_path: Path
) -> None:
    seed = SEED[board]
    config = GameConfig(4, board, {"factions": SEATING[board]})

    async def scenario() -> None:
        async with running_server(replay_dir=tmp_path) as referee:
            settings = MatchSettings(game="root", config=config, seed=seed)
            example = CommandBot(
                command=[sys.executable, str(ROOT / "examples" / "python" / "bot.py")],
                name="example",
                cwd=str(ROOT),
            )
            match, tickets = referee.create_match(
                settings,
                local={0: LocalBot(make_policy("greedy", "root", seed), "in-process-greedy")},
                commands={1: example},
            )
            recorders = {
                2: RecordingPolicyBot("greedy", seed),
                3: RecordingPolicyBot("random", seed),
            }
            overs = await asyncio.gather(
                *(play(bot, referee.address, tickets[s]) for s, bot in recorders.items())
            )
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert [s.forfeited for s in match.result.seats] == [False] * 4
            state = match.state
            assert isinstance(state, RootState)
            assert [p.faction for p in state.players] == SEATING[board].split(",")
            outcome = state.outcome()
            assert outcome is not None
            winners = outcome.tiebreak["winners"]
            coalition = [p.seat for p in state.players if p.coalition is not None]
            assert len(winners) == 1 + sum(
                state.players[v].coalition == winners[0] for v in coalition
            )
            assert state.players[winners[0]].vp >= 30 or state.players[winners[0]].dominance
            assert outcome.ranking[: len(winners)] == winners
            for over in overs:
                assert over.reason == pb.RESULT_REASON_COMPLETED
                # The winners share first place (two with a coalition, RT23), the others follow.
                ranks = {s.seat: s.rank for s in over.seats}
                assert {ranks[w] for w in winners} == {1}
                assert sorted(ranks.values()) == [1] * len(winners) + list(
                    range(len(winners) + 1, 5)
                )
                assert [s.score for s in over.seats] == list(outcome.scores)
                assert [s.bot_name for s in over.seats] == [
                    "in-process-greedy",
                    "example",
                    "greedy",
                    "random",
                ]
            assert verify_file(Path(overs[0].replay_path)).decisions == match.decisions
            allowed = events_each_seat_may_see(match)
            for seat, bot in recorders.items():
                assert bot.requests and all(r.seat == seat for r in bot.requests)
                for request in bot.requests:
                    assert isinstance(request.observation, RootView)
                    assert request.observation.map == board
                    check_hidden(request.observation, seat)
                received = Counter((e.kind, e.data_json) for e in bot.events)
                assert received and not received - allowed[seat], received - allowed[seat]
                drew = [json.loads(d) for k, d in received if k == "drew"]
                assert drew and all(d["seat"] == seat for d in drew)

    asyncio.run(asyncio.wait_for(scenario(), 180))
