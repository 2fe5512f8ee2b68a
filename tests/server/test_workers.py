"""``kassen serve --workers 2`` as a real process on loopback: every call about a match
reaches the worker that created it, whichever worker the caller's connection landed on.

Seats and queries each open their own connection (a local subchannel pool: gRPC would
otherwise share one connection between the channels of a process), so the kernel spreads
them over both workers and some of them are forwarded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from kassen.cli import main
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.replay import verify_record
from tests.certs import make_certs
from tests.server.bots import Action, BotLog, FirstOptionBot, HoldBot, RejoinBot
from tests.test_cli_serve import TOKEN, _env, _free_port, kassen_all

pytestmark = pytest.mark.system

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
MATCHES = 8
#: A channel with this option has a connection of its own.
APART = [("grpc.use_local_subchannel_pool", 1)]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


@contextlib.contextmanager
def workers(folder: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """``kassen serve --workers 2`` until the block exits: the process, its address and its
    log lines (up to "serving" at first; all of them once it has exited)."""
    address = f"127.0.0.1:{_free_port()}"
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--workers", "2", "--address", address]
        + ["--store", str(folder / "referee.sqlite"), "--replays", str(folder / "replays")]
        + list(flags),
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=folder,
    )
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stderr or ()])
    reader.start()
    try:
        log.append(lines.get(timeout=30))
        while '"serving"' not in log[-1]:
            assert process.poll() is None, log
            log.append(lines.get(timeout=30))
        yield process, address, log
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=5)
        while not lines.empty():
            log.append(lines.get())


@contextlib.asynccontextmanager
async def connection(address: str) -> AsyncIterator[rpc.RefereeStub]:
    """A stub on a connection of its own."""
    async with grpc.aio.insecure_channel(address, options=APART) as channel:
        yield rpc.RefereeStub(channel)


async def play_apart(bot: FirstOptionBot, address: str, ticket: str) -> BotLog:
    """``bot.play``, each of the bot's streams on a new connection of its own."""
    bot.ticket = ticket
    action: Action | None = Action.REJOIN
    while action is Action.REJOIN:
        async with grpc.aio.insecure_channel(address, options=APART) as channel:
            action = await bot._stream(channel, ticket)
    return bot.log


async def create(stub: rpc.RefereeStub, count: int, **fields: Any) -> list[pb.CreateMatchResponse]:
    return [
        await stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation", players=4, **fields))
        for _ in range(count)
    ]


async def on_both_workers(address: str) -> list[pb.CreateMatchResponse]:
    """One match created on each worker (connections until both have answered)."""
    found: dict[str, pb.CreateMatchResponse] = {}
    for _ in range(64):
        async with connection(address) as stub:
            [created] = await create(stub, 1)
        found.setdefault(created.match_id[:3], created)
        if len(found) == 2:
            return sorted(found.values(), key=lambda c: c.match_id)
    raise AssertionError(f"only {sorted(found)} answered")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    # The least --max-message-bytes: it bounds what clients send, never what a relayed
    # answer may carry (a replay is far longer).
    folder = tmp_path_factory.mktemp("workers")
    with workers(folder, "--max-message-bytes", "1024") as (process, address, log):
        yield address, log
    assert process.returncode == 0, log


def test_matches_of_one_channel_are_played_by_seats_on_any_connection(
    server: tuple[str, list[str]],
) -> None:
    address, _ = server

    async def scenario() -> tuple[list[pb.CreateMatchResponse], list[list[BotLog]], list[Any]]:
        async with connection(address) as stub:
            created = await create(stub, MATCHES)
            logs = await asyncio.gather(
                *(
                    asyncio.gather(*(play_apart(FirstOptionBot(), address, t) for t in c.tickets))
                    for c in created
                )
            )
            summaries = [
                (await stub.GetMatch(pb.GetMatchRequest(match_id=c.match_id))).match
                for c in created
            ]
        return created, list(logs), summaries

    created, logs, summaries = run(scenario())
    assert len({c.match_id[:3] for c in created}) == 1  # one channel: one worker created all
    for match, seats, summary in zip(created, logs, summaries, strict=True):
        assert [log.joined[0].match_id for log in seats] == [match.match_id] * 4
        # no stream ended in error, not even after its last answer (grpc/grpc#36066: a
        # status that overtakes a seat's write hides the MatchOver; the relay waits for the
        # seat's half-close)
        assert [log.error for log in seats] == [None] * 4, [log.error_details for log in seats]
        results = [log.match_over for log in seats]
        assert all(r is not None and r.reason == pb.RESULT_REASON_COMPLETED for r in results), (
            results
        )
        ranks = [[(s.rank, s.score) for s in r.seats] for r in results if r is not None]
        assert all(r == ranks[0] for r in ranks)  # every seat heard the same result
        assert summary.status == "finished"
        assert [(s.rank, s.score) for s in summary.result.seats] == ranks[0]


def test_a_seat_rejoins_from_a_new_connection(server: tuple[str, list[str]]) -> None:
    address, _ = server

    async def scenario() -> list[list[BotLog]]:
        async with connection(address) as stub:
            created = await create(stub, 4)
        return list(
            await asyncio.gather(
                *(
                    asyncio.gather(*(play_apart(RejoinBot(), address, t) for t in c.tickets))
                    for c in created
                )
            )
        )

    for seats in run(scenario()):
        assert [log.streams for log in seats] == [2] * 4
        assert all(len(log.joined) == 2 for log in seats)
        assert all(
            log.match_over and log.match_over.reason == pb.RESULT_REASON_COMPLETED for log in seats
        )


def test_a_match_is_found_by_id_from_any_connection(server: tuple[str, list[str]]) -> None:
    address, _ = server

    async def scenario() -> None:
        created = await on_both_workers(address)
        for match in created:
            await asyncio.gather(*(play_apart(FirstOptionBot(), address, t) for t in match.tickets))
        for match in created:
            for _ in range(4):  # four connections: both workers answer for both matches
                async with connection(address) as stub:
                    request = pb.GetMatchRequest(match_id=match.match_id)
                    summary = (await stub.GetMatch(request)).match
                    assert summary.status == "finished"
                    replay = await stub.GetReplay(pb.GetReplayRequest(match_id=match.match_id))
                    verified = verify_record(json.loads(replay.replay_json))
                    assert verified.scores == [s.score for s in summary.result.seats]
                    updates = [
                        u async for u in stub.Watch(pb.WatchRequest(match_id=match.match_id))
                    ]
                    assert updates[-1].match_over.seats == summary.result.seats
        async with connection(address) as stub:
            with pytest.raises(grpc.aio.AioRpcError) as missing:
                await stub.GetMatch(pb.GetMatchRequest(match_id="w1-000000000000"))
            assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        for ticket in ["w0-unknown", "w1-unknown"] * 2:  # refused by its owner, wherever
            log = await play_apart(FirstOptionBot(), address, ticket)
            assert log.error == grpc.StatusCode.PERMISSION_DENIED, log

    run(scenario())


def test_list_matches_sees_the_matches_of_both_workers(server: tuple[str, list[str]]) -> None:
    address, _ = server

    async def scenario() -> None:
        created = await on_both_workers(address)
        for _ in range(4):
            async with connection(address) as stub:
                listed = (await stub.ListMatches(pb.ListMatchesRequest(limit=100))).matches
            ids = [m.match_id for m in listed]
            assert {c.match_id for c in created} <= set(ids)
            assert len(ids) == len(set(ids))

    run(scenario())


def test_a_second_server_cannot_share_the_port_of_the_workers(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    """SO_REUSEPORT lets the workers share the port; nothing else may join them there."""
    address, _ = server
    serve = ["serve", "--address", address, "--store", "none"]
    runs = [(serve, None, tmp_path), ([*serve, "--workers", "2"], None, tmp_path)]
    single, several = kassen_all(runs)
    # (a single referee's error comes after gRPC's own log line of the failed bind)
    assert single.returncode == 2 and f"cannot listen on {address}" in single.stderr, single
    assert several.returncode == 2, several
    assert several.stderr.count("\n") == 1 and f"cannot listen on {address}" in several.stderr


def test_sigterm_aborts_the_matches_of_every_worker_and_exits_0(tmp_path: Path) -> None:
    with workers(tmp_path) as (process, address, log):

        async def spectate(match_id: str) -> list[pb.WatchResponse]:
            async with connection(address) as stub:
                return [u async for u in stub.Watch(pb.WatchRequest(match_id=match_id))]

        async def scenario() -> tuple[list[BotLog], list[list[pb.WatchResponse]]]:
            created = await on_both_workers(address)
            # a spectator of each match on two connections: live Watch streams, some relayed
            watching = [
                asyncio.ensure_future(spectate(c.match_id)) for c in created for _ in range(4)
            ]
            bots = [HoldBot(misbehave_at=1) for _ in range(8)]
            tickets = [t for c in created for t in c.tickets]
            playing = [
                asyncio.ensure_future(play_apart(b, address, t))
                for b, t in zip(bots, tickets, strict=True)
            ]
            # both matches are running: a seat of each was asked (and holds its answer)
            while not all(any(b.misbehaved.is_set() for b in bots[i : i + 4]) for i in (0, 4)):
                await asyncio.sleep(0.02)
            process.send_signal(signal.SIGTERM)
            return list(await asyncio.gather(*playing)), list(await asyncio.gather(*watching))

        seats, spectators = run(scenario())
        assert process.wait(timeout=20) == 0
    assert all(s.match_over and s.match_over.reason == pb.RESULT_REASON_ABORTED for s in seats), (
        seats
    )
    for updates in spectators:
        assert updates[-1].match_over.reason == pb.RESULT_REASON_ABORTED, updates[-1]
    streams = [json.loads(line) for line in log if '"worker_streams"' in line]
    assert sorted(s["worker"] for s in streams) == [0, 1]
    assert sum(s["forwarded"] + s["own"] for s in streams) == 8
    # 8 seats and 8 spectators on connections of their own: some were forwarded (all 16
    # landing on their match's owner has a chance of 1 in 65,536)
    assert sum(s["forwarded"] + s["forwarded_watches"] for s in streams) > 0, streams


def test_organiser_token_tls_and_launched_bots(tmp_path: Path) -> None:
    """``kassen match --server`` against two workers over TLS with the organiser token: the
    referee launches a ``kassen bot run`` seat, which connects to the public port."""
    certs = make_certs(tmp_path)
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    tls = ["--tls-cert", str(certs.cert), "--tls-key", str(certs.key), "--tls-ca", str(certs.ca)]
    with workers(tmp_path, "--admin-token-file", str(token), *tls) as (_, address, log):
        assert '"tls": true' in log[-1] and '"organiser_token": true' in log[-1]
        bot = f"cmd:{sys.executable} -m kassen bot run greedy"
        match = ["match", "rumble-nation", "--server", address, "--seat", "random"]
        match += ["--seat", bot, "--admin-token-file", str(token), "--tls-ca", str(certs.ca)]
        *played, refused = kassen_all([(match, None, ROOT)] * 2 + [(match[:-4], None, ROOT)])
    for each in played:
        assert each.returncode == 0, each.stderr
        assert "commitment verified" in each.stdout, each.stdout
    assert refused.returncode != 0  # no token, no CA


def test_a_worker_that_dies_stops_the_others_and_exit_1(tmp_path: Path) -> None:
    with workers(tmp_path) as (process, _, log):
        pids = json.loads(log[-1])["pids"]
        os.kill(pids[0], signal.SIGKILL)
        assert process.wait(timeout=30) == 1
    assert any('"worker_died"' in line for line in log), log
    assert log[-1].startswith("kassen: worker 0 ended on its own"), log[-1]
    for pid in pids[1:]:  # the other worker has ended (and been waited for) too
        assert not Path(f"/proc/{pid}").exists()


@pytest.mark.parametrize("value", ["0", "-1", "x", "1.5", "65", ""])
def test_a_bad_worker_count_is_one_line_and_exit_2(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--workers", value, "--store", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers must be a whole number from 1 to 64" in err, err


def test_a_busy_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        address = f"127.0.0.1:{busy.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-m", "kassen", "serve", "--workers", "2", "--address", address]
            + ["--store", "none"],
            capture_output=True,
            text=True,
            env=_env(),
            cwd=tmp_path,
            timeout=30,
        )
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and f"cannot listen on {address}" in done.stderr
