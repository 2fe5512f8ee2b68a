"""Clients of a ladder under load, each run as a process of its own by the load tests:

    python -m tests.ladder.load_clients bots ADDRESS SECONDS TOKEN...
    python -m tests.ladder.load_clients web URL SECONDS PATH...
    python -m tests.ladder.load_clients watch ADDRESS SECONDS COUNT
    python -m tests.ladder.load_clients people URL SECONDS COUNT

``bots``: each token a connected bot (Seek, then every assignment played at once by a random
bot); prints one JSON line: per bot its assignments, its MatchEnded messages and the reasons
its own seat ended with. ``web``: loops over the paths as fast as the page answers (four
requests at a time) until SECONDS have passed; prints the count of answers per status.
``watch``: COUNT spectators, each watching a live match (``Referee/Watch``, as any gRPC
client may) and another when it ends; prints how many watches were answered, refused and
how many messages came. ``people``: COUNT scripted people on the page, each starting a game
against a house bot of the first pool and answering every decision as soon as it comes, one
game after another; prints the games, decisions and refusals. The web clients, spectators and
people run at a lower priority: they stand for visitors on other machines, whose CPU would not
be the ladder's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections import Counter
from typing import Any


async def bots(address: str, seconds: float, tokens: list[str]) -> dict[str, Any]:
    import grpc

    from client_sdk.builtin import RandomBot
    from client_sdk.ladder import bearer
    from client_sdk.runner import play
    from kassen.v1 import ladder_pb2 as lpb
    from kassen.v1 import ladder_pb2_grpc as lrpc
    from kassen.v1 import referee_pb2 as pb

    deadline = time.monotonic() + seconds
    report: dict[str, Any] = {}

    async def one(token: str, seed: int) -> None:
        mine: dict[str, Any] = {"assigned": 0, "ended": 0, "reasons": Counter()}
        report[token[-8:]] = mine
        async with grpc.aio.insecure_channel(address) as channel:
            seek = lrpc.LadderStub(channel).Seek(
                lpb.SeekRequest(concurrency=1), metadata=bearer(token)
            )
            games: list[asyncio.Task[None]] = []

            async def game(assignment: lpb.Assignment) -> None:
                over = await play(RandomBot(seed), address, assignment.ticket)
                seat = over.seats[assignment.seat]
                mine["reasons"][pb.ResultReason.Name(seat.reason)] += 1

            async def read() -> None:
                # A read is never cancelled (in grpc.aio that cancels the whole call).
                async for message in seek:
                    if message.HasField("assignment"):
                        if time.monotonic() < deadline:
                            mine["assigned"] += 1
                            games.append(
                                asyncio.get_running_loop().create_task(game(message.assignment))
                            )
                    elif message.HasField("match_ended"):
                        mine["ended"] += 1

            reader = asyncio.get_running_loop().create_task(read())
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            await asyncio.gather(*games)
            # The MatchEnded of the last games may come a little after their MatchOver.
            for _ in range(300):
                if mine["ended"] >= mine["assigned"] or reader.done():
                    break
                await asyncio.sleep(0.1)
            seek.cancel()
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await reader

    await asyncio.gather(*(one(token, i) for i, token in enumerate(tokens)))
    return report


async def web(url: str, seconds: float, paths: list[str]) -> dict[str, Any]:
    import httpx

    deadline = time.monotonic() + seconds
    statuses: Counter[str] = Counter()

    async def loop(client: httpx.AsyncClient, offset: int) -> None:
        i = offset
        while time.monotonic() < deadline:
            path = paths[i % len(paths)]
            i += 1
            try:
                answer = await client.get(path)
                await answer.aread()
                statuses[str(answer.status_code)] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1

    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        await asyncio.gather(*(loop(client, k) for k in range(4)))
    return {"statuses": dict(statuses)}


async def watch(address: str, seconds: float, count: list[str]) -> dict[str, Any]:
    import grpc

    from kassen.v1 import ladder_pb2 as lpb
    from kassen.v1 import ladder_pb2_grpc as lrpc
    from kassen.v1 import referee_pb2 as pb
    from kassen.v1 import referee_pb2_grpc as rpc

    deadline = time.monotonic() + seconds
    found: Counter[str] = Counter()

    async def spectator(channel: grpc.aio.Channel, k: int) -> None:
        referee, ladder = rpc.RefereeStub(channel), lrpc.LadderStub(channel)
        while time.monotonic() < deadline:
            standings = await ladder.GetStandings(lpb.GetStandingsRequest())
            live = [m for pool in standings.pools for m in pool.live_match_ids]
            if not live:
                await asyncio.sleep(0.2)
                continue
            call = referee.Watch(pb.WatchRequest(match_id=live[k % len(live)]))
            try:
                async for _ in call:
                    found["messages"] += 1
                    if time.monotonic() >= deadline:
                        call.cancel()
                        break
                found["watched"] += 1
            except grpc.aio.AioRpcError as exc:
                found[exc.code().name] += 1
                await asyncio.sleep(0.5)

    channels = [grpc.aio.insecure_channel(address) for _ in range(8)]
    try:
        n = int(count[0])
        await asyncio.gather(*(spectator(channels[k % 8], k) for k in range(n)))
    finally:
        for channel in channels:
            await channel.close()
    return dict(found)


async def people(url: str, seconds: float, count: list[str]) -> dict[str, Any]:
    import httpx

    deadline = time.monotonic() + seconds
    found: Counter[str] = Counter()

    async def person(client: httpx.AsyncClient, pool: dict[str, Any]) -> None:
        house = [o["bot_id"] for o in pool["opponents"] if o["house"]]
        ask = {
            "game": pool["game"],
            "variant": pool["variant"],
            "players": pool["players"],
            "opponents": house[: pool["players"] - 1],
        }
        while time.monotonic() < deadline:
            made = await client.post("/api/play", json=ask)
            if made.status_code != 200:
                found[f"refused {made.status_code}"] += 1
                await asyncio.sleep(0.5)
                continue
            key = made.json()["url"].rsplit("/", 1)[-1]
            async with client.stream("GET", f"/api/play/{key}/events") as stream:
                kind = ""
                async for line in stream.aiter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:") and kind == "decision":
                        request = json.loads(line[5:])["request_id"]
                        answer = {"request_id": request, "option": 0}
                        await client.post(f"/api/play/{key}/answer", json=answer)
                        found["decisions"] += 1
                    elif line.startswith("data:") and kind in ("over", "gone"):
                        found[f"games {kind}"] += 1
                        break

    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        pools = (await client.get("/api/play/pools")).json()["pools"]
        await asyncio.gather(*(person(client, pools[0]) for _ in range(int(count[0]))))
    return dict(found)


def main() -> None:
    role, target, seconds, *rest = sys.argv[1:]
    if role != "bots":
        # Visitors stand for other machines: their CPU here must not be the ladder's.
        os.nice(10)
    run = {"bots": bots, "web": web, "watch": watch, "people": people}[role]
    print(json.dumps(asyncio.run(run(target, float(seconds), rest))), flush=True)


if __name__ == "__main__":
    main()
