"""Fuzzed unary and spectator calls against a real ``kassen serve``: CreateMatch, GetMatch,
ListMatches, GetReplay, ListGames and Watch.

Every answer is a reply or a documented error code (never UNKNOWN or INTERNAL, which mean an
exception of ours escaped); every match the referee accepts is played to its end by seats
that answer at once and then forfeit, and GetMatch must show it finished; after each case
the referee is alive, has logged nothing alarming and stays under its memory bound.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from kassen.v1 import referee_pb2 as pb
from tests.fuzz.harness import (
    DOCUMENTED_ERRORS,
    Served,
    connected,
    fuzz,
    play_out,
    run,
    wait_finished,
)
from tests.fuzz.strategies import messages

pytestmark = pytest.mark.system

GAMES = ("rumble-nation", "root", "gnomeville")
VARIANTS = ("", "base", "advanced", "autumn", "winter", "standard", "turn-by-turn", "master-build")
OPTION_KEYS = ("games", "factions", "turn_by_turn", "master_build", "sides", "towns", "content")
OPTION_VALUES = ("", "0", "1", "2", "1,2", "3,1", "5", "choose", "true", "marquise,eyrie")
#: A match accepted with the generous clocks a fuzzed request may ask for still ends this
#: soon: its seats answer at once, then forfeit, and the referee plays on for them.
PLAY_OUT_S = 60.0
WATCH_S = 3.0

CREATE_HINTS: dict[str, st.SearchStrategy[Any]] = {
    "kassen.v1.CreateMatchRequest.game": st.sampled_from(GAMES),
    "kassen.v1.CreateMatchRequest.variant": st.sampled_from(VARIANTS),
    "kassen.v1.CreateMatchRequest.players": st.integers(0, 5),
    "kassen.v1.CreateMatchRequest.seed": st.integers(0, 2**63 - 1),
    "kassen.v1.CreateMatchRequest.join_timeout_ms": st.integers(0, 2_000),
    "kassen.v1.CreateMatchRequest.max_decisions": st.integers(0, 60),
    "kassen.v1.CreateMatchRequest.watch_delay_ms": st.integers(0, 200),
    "kassen.v1.CreateMatchRequest.failure_policy": st.integers(0, 2),
    "kassen.v1.CreateMatchRequest.OptionsEntry.key": st.sampled_from(OPTION_KEYS),
    "kassen.v1.CreateMatchRequest.OptionsEntry.value": st.sampled_from(OPTION_VALUES),
    "kassen.v1.CreateMatchRequest.options": st.just({}),
    "kassen.v1.TimeControl.decision_ms": st.integers(0, 500),
    "kassen.v1.TimeControl.bank_ms": st.integers(0, 2_000),
}


def _setups() -> list[pb.CreateMatchRequest]:
    """Every game, variant and player count the referee offers, as a request."""
    from games import games

    return [
        pb.CreateMatchRequest(game=game.name, variant=variant, players=players)
        for game in games().values()
        for variant in game.variants
        for players in game.player_counts
    ]


def _over(base: pb.CreateMatchRequest, fuzzed: pb.CreateMatchRequest) -> pb.CreateMatchRequest:
    merged = pb.CreateMatchRequest()
    merged.CopyFrom(base)
    merged.MergeFrom(fuzzed)  # the fuzzed fields that are set win
    return merged


#: Fuzzed requests, half of them on top of a playable setup (otherwise nearly all would be
#: refused for their game or player count, and no match would be fuzzed past creation).
CREATE_REQUESTS = st.one_of(
    messages(pb.CreateMatchRequest.DESCRIPTOR, CREATE_HINTS),
    st.builds(
        _over, st.sampled_from(_setups()), messages(pb.CreateMatchRequest.DESCRIPTOR, CREATE_HINTS)
    ),
)


@fuzz(default_examples=60, fast_examples=20)
@given(
    request=CREATE_REQUESTS,
    honest=st.integers(0, 30),
    watch=messages(pb.WatchRequest.DESCRIPTOR),
)
def test_create_match_with_fuzzed_requests(
    served: Served, request: pb.CreateMatchRequest, honest: int, watch: pb.WatchRequest
) -> None:
    async def case() -> None:
        async with connected(served) as (_, stub):
            try:
                created = await stub.CreateMatch(request, timeout=30)
            except grpc.aio.AioRpcError as error:
                event(f"CreateMatch refused: {error.code().name}")
                assert error.code() in DOCUMENTED_ERRORS, (error.code(), error.details())
                return
            event(f"CreateMatch accepted: {created.setup.game}")
            players = created.setup.players
            assert len(created.tickets) == players and all(created.tickets), created
            served.match_ids.append(created.match_id)
            watch.match_id = created.match_id
            spectator = asyncio.create_task(watch_until_over(stub, watch))
            overs = await play_out(stub, list(created.tickets), honest, PLAY_OUT_S)
            summary = await wait_finished(stub, created.match_id, PLAY_OUT_S)
            for seat, over in zip(summary.result.seats, overs, strict=True):
                if over is None:  # refused: the match ended before this seat's join
                    event("a seat joined after its match had ended")
                    if summary.result.reason == pb.RESULT_REASON_VOIDED:
                        # With FAILURE_POLICY_VOID the first NO_SHOW voids the match and the
                        # other absent seats keep reason COMPLETED (docs/reliability.md).
                        continue
                    assert seat.reason == pb.RESULT_REASON_NO_SHOW, summary.result
                else:
                    assert over.reason == summary.result.reason, (over, summary.result)
            served.old_tickets.extend(created.tickets)
            await spectator
            await get_replay(stub, created.match_id, summary)

    run(case())
    served.check()


async def watch_until_over(stub: Any, request: pb.WatchRequest) -> None:
    """Spectate for up to WATCH_S (a fuzzed delay may be an hour): every message is well
    formed, and one with match_over is the last."""
    over = False
    try:
        async for update in stub.Watch(request, timeout=WATCH_S):
            assert not over, "a Watch message after the one with match_over"
            over = update.HasField("match_over")
        event(f"Watch: {'to the end' if over else 'ended without match_over'}")
    except grpc.aio.AioRpcError as error:
        event(f"Watch: {error.code().name}")
        allowed = DOCUMENTED_ERRORS | {grpc.StatusCode.DEADLINE_EXCEEDED}
        assert error.code() in allowed, (error.code(), error.details())


async def get_replay(stub: Any, match_id: str, summary: pb.MatchSummary) -> None:
    """A finished standalone match's replay is public; its recorded result is the summary's."""
    reply = await stub.GetReplay(pb.GetReplayRequest(match_id=match_id), timeout=30)
    assert reply.replay_json.startswith("{"), reply.replay_json[:100]
    assert summary.result.seed_reveal.salt, "a standalone match reveals its seed at the end"


QUERIES = st.one_of(
    messages(pb.GetMatchRequest.DESCRIPTOR),
    messages(pb.ListMatchesRequest.DESCRIPTOR),
    messages(pb.GetReplayRequest.DESCRIPTOR),
    messages(pb.ListGamesRequest.DESCRIPTOR),
    messages(pb.WatchRequest.DESCRIPTOR),
)


@fuzz(default_examples=60, fast_examples=20)
@given(
    queries=st.lists(
        st.tuples(QUERIES, st.one_of(st.none(), st.integers(0, 10**6))), min_size=1, max_size=6
    )
)
def test_queries_with_fuzzed_arguments(
    served: Served, queries: list[tuple[Any, int | None]]
) -> None:
    """Each query's match_id is fuzzed, or (when an index is drawn) one of the matches
    created so far, finished or not."""

    async def case() -> None:
        async with connected(served) as (_, stub):
            for request, known in queries:
                if known is not None and served.match_ids and hasattr(request, "match_id"):
                    request.match_id = served.match_ids[known % len(served.match_ids)]
                await query(stub, request)

    run(case())
    served.check()


async def query(stub: Any, request: Any) -> None:
    calls = {
        pb.GetMatchRequest: stub.GetMatch,
        pb.ListMatchesRequest: stub.ListMatches,
        pb.GetReplayRequest: stub.GetReplay,
        pb.ListGamesRequest: stub.ListGames,
    }
    if isinstance(request, pb.WatchRequest):
        await watch_until_over(stub, request)
        return
    try:
        reply = await calls[type(request)](request, timeout=30)
    except grpc.aio.AioRpcError as error:
        event(f"{type(request).__name__}: {error.code().name}")
        assert error.code() in DOCUMENTED_ERRORS, (error.code(), error.details())
        return
    event(f"{type(request).__name__}: OK")
    if isinstance(request, pb.ListMatchesRequest):
        assert len(reply.matches) <= (request.limit or 100)
    elif isinstance(request, pb.GetMatchRequest):
        assert reply.match.match_id == request.match_id
    elif isinstance(request, pb.ListGamesRequest):
        assert {g.name for g in reply.games} >= set(GAMES)
