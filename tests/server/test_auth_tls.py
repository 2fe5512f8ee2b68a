"""Who may do what, over real gRPC on loopback: the organiser token guards CreateMatch, every
public call works without it, TLS refuses plaintext, and launched bots get the CA but never
the token."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from client_sdk import BotError, RandomBot, open_channel, play
from games import GameConfig
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc
from server.app import Unprotected, running_server
from server.auth import bearer, bot_environment, is_loopback
from server.referee import CommandBot
from server.results import Reason
from server.settings import MatchSettings, ServerSettings
from tests.certs import make_certs

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
TOKEN = "organiser-s3cret"
CREATE = pb.CreateMatchRequest(game="rumble-nation", players=2)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))


async def _code(call: Coroutine[Any, Any, Any]) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call
    return refused.value.code()


def test_create_match_needs_the_organiser_token() -> None:
    async def scenario() -> None:
        async with (
            running_server(settings=ServerSettings(admin_token=TOKEN)) as referee,
            open_channel(referee.address) as channel,
        ):
            stub = rpc.RefereeStub(channel)
            assert await _code(stub.CreateMatch(CREATE)) == grpc.StatusCode.UNAUTHENTICATED
            basic = (("authorization", f"Basic {TOKEN}"),)
            no_bearer = await _code(stub.CreateMatch(CREATE, metadata=basic))
            assert no_bearer == grpc.StatusCode.UNAUTHENTICATED
            wrong = await _code(stub.CreateMatch(CREATE, metadata=bearer(TOKEN + "x")))
            assert wrong == grpc.StatusCode.PERMISSION_DENIED
            assert not referee.matches  # nothing was created by a refused call
            created = await stub.CreateMatch(CREATE, metadata=bearer(TOKEN))
            assert created.match_id in referee.matches and len(created.tickets) == 2

    run(scenario())


def test_public_calls_and_play_need_no_token() -> None:
    async def scenario() -> None:
        async with (
            running_server(settings=ServerSettings(admin_token=TOKEN)) as referee,
            open_channel(referee.address) as channel,
        ):
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2, "base"), seed=4)
            match, tickets = referee.create_match(settings)
            stub = rpc.RefereeStub(channel)
            games = await stub.ListGames(pb.ListGamesRequest())
            assert "rumble-nation" in [g.name for g in games.games]
            watch = stub.Watch(pb.WatchRequest(match_id=match.id))
            await watch.read()  # the public history so far
            overs = await asyncio.gather(
                *(play(RandomBot(i), referee.address, t) for i, t in enumerate(tickets))
            )
            assert all(o.reason == pb.RESULT_REASON_COMPLETED for o in overs)
            listed = await stub.ListMatches(pb.ListMatchesRequest())
            assert [m.match_id for m in listed.matches] == [match.id]
            summary = await stub.GetMatch(pb.GetMatchRequest(match_id=match.id))
            assert summary.match.status == "finished"
            replay = await stub.GetReplay(pb.GetReplayRequest(match_id=match.id))
            assert json.loads(replay.replay_json)["seed"] == 4
            health = health_pb2_grpc.HealthStub(channel)
            status = await health.Check(health_pb2.HealthCheckRequest(service=""))
            assert status.status == health_pb2.HealthCheckResponse.SERVING
            reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
            answers = reflect.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")])
            )
            services = [s.name async for a in answers for s in a.list_services_response.service]
            assert "kassen.v1.Referee" in services
            watch.cancel()

    run(scenario())


def test_tls_refuses_plaintext_and_plays_a_match_with_the_ca(tmp_path: Path) -> None:
    certs = make_certs(tmp_path)
    stranger = make_certs(tmp_path, prefix="other-")
    settings = ServerSettings(
        admin_token=TOKEN,
        tls_cert_chain=certs.cert.read_bytes(),
        tls_private_key=certs.key.read_bytes(),
    )

    async def scenario() -> None:
        async with running_server(settings=settings) as referee:
            for ca in (None, stranger.ca_pem):  # plaintext, and TLS trusting another CA
                async with open_channel(referee.address, ca) as channel:
                    call = rpc.RefereeStub(channel).ListGames(pb.ListGamesRequest(), timeout=5)
                    assert await _code(call) == grpc.StatusCode.UNAVAILABLE
            async with open_channel(referee.address, certs.ca_pem) as channel:
                created = await rpc.RefereeStub(channel).CreateMatch(CREATE, metadata=bearer(TOKEN))
            with pytest.raises(BotError, match="UNAVAILABLE"):
                await play(RandomBot(0), referee.address, created.tickets[0], rejoins=0)
            overs = await asyncio.gather(
                *(
                    play(RandomBot(i), referee.address, t, tls_ca=certs.ca_pem)
                    for i, t in enumerate(created.tickets)
                )
            )
            assert [o.reason for o in overs] == [pb.RESULT_REASON_COMPLETED] * 2
            assert not any(s.forfeited for s in overs[0].seats)

    run(scenario())


def test_a_launched_bot_gets_the_ca_but_never_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    certs = make_certs(tmp_path)
    monkeypatch.setenv("KASSEN_ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("KASSEN_ADMIN_PASSWORD", "also secret")
    monkeypatch.setenv("KASSEN_TICKET", "the organiser's own")  # never passed on
    seen = tmp_path / "env.json"
    # Writes what it was given, then plays its seat over TLS with `kassen bot run`.
    script = (
        "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'));"
        " os.execv(sys.executable, [sys.executable, '-m', 'kassen', 'bot', 'run', 'random'])"
    )
    settings = ServerSettings(
        admin_token=TOKEN,
        tls_cert_chain=certs.cert.read_bytes(),
        tls_private_key=certs.key.read_bytes(),
        tls_ca_file=str(certs.ca),
    )

    async def scenario() -> None:
        async with running_server(settings=settings) as referee:
            command = CommandBot([sys.executable, "-c", script, str(seen)], "launched", str(ROOT))
            match_settings = MatchSettings(
                game="rumble-nation", config=GameConfig(2, "base"), seed=9
            )
            match, tickets = referee.create_match(match_settings, commands={1: command})
            await play(RandomBot(0), referee.address, tickets[0], tls_ca=certs.ca_pem)
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert not any(s.forfeited for s in match.result.seats)  # it joined over TLS

    run(scenario())
    env = json.loads(seen.read_text())
    assert not [key for key in env if key.startswith("KASSEN_ADMIN")]
    assert TOKEN not in env.values()
    assert env["KASSEN_TLS_CA"] == str(certs.ca)
    # The ticket came on a pipe; the organiser's KASSEN_TICKET is gone.
    assert env["KASSEN_TICKET_FILE"] == "/dev/fd/3" and "KASSEN_TICKET" not in env


def test_bot_environment_drops_secrets_tickets_and_a_stale_ca() -> None:
    base = {
        "PATH": "/bin",
        "KASSEN_ADMIN_TOKEN": "t",
        "KASSEN_TLS_CA": "/old.pem",
        "KASSEN_TICKET": "mine",
        "KASSEN_TICKET_FILE": "/home/me/ticket",
    }
    plain = bot_environment("127.0.0.1:1", None, base)
    assert plain == {"PATH": "/bin", "KASSEN_ADDRESS": "127.0.0.1:1"}
    assert bot_environment("h:1", "/ca.pem", base)["KASSEN_TLS_CA"] == "/ca.pem"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.5.0.9", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("[::]", False),
        ("", False),
        ("10.0.0.1", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_no_token_no_listening_beyond_loopback() -> None:
    async def scenario() -> None:
        async with running_server("0.0.0.0:0"):
            pass

    with pytest.raises(Unprotected, match="not a loopback address"):
        run(scenario())
