"""A hostile launched bot: ``python ticket_thief.py REPORT``.

It joins its own seat, waits until every seat of its match has joined (so every other bot is
running and has its ticket), then reads every ``/proc/*/environ`` and ``/proc/*/cmdline`` it
can, as any process of the referee's user can. Each ``KASSEN_TICKET=`` it finds (and the word
after a ``--ticket`` argument) it tries as a ticket: a ``Joined`` means it took that seat. It
writes a JSON report to REPORT (how many files it read, the SHA-256 of every word in them, so
the test can look for any ticket without the thief writing other processes' secrets anywhere,
and the seats it took), then plays its own seat to the end with option 0. It only reads: it
never opens another process's descriptors (reading a pipe would take its data away).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import grpc

from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc

WORDS = re.compile(rb"[\s=]+")


def scan() -> tuple[int, set[str], set[str]]:
    """Files read, the digests of every word in them, and the tickets worth trying."""
    read = 0
    digests: set[str] = set()
    candidates: set[str] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        for name in ("environ", "cmdline"):
            try:
                data = Path(f"/proc/{entry}/{name}").read_bytes()
            except OSError:
                continue  # gone, or not ours
            read += 1
            items = data.split(b"\0")
            for position, item in enumerate(items):
                for word in WORDS.split(item):
                    if word:
                        digests.add(hashlib.sha256(word).hexdigest())
                if item.startswith(b"KASSEN_TICKET="):
                    candidates.add(item.partition(b"=")[2].decode("utf-8", "replace"))
                if item == b"--ticket" and position + 1 < len(items):
                    candidates.add(items[position + 1].decode("utf-8", "replace"))
                elif item.startswith(b"--ticket="):
                    candidates.add(item.partition(b"=")[2].decode("utf-8", "replace"))
    return read, digests, candidates


async def answer_all(call: grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse]) -> None:
    """Play a seat with option 0 until MatchOver (or the stream ends)."""
    while True:
        message = await call.read()
        if message is grpc.aio.EOF or message.HasField("match_over"):
            break
        if message.HasField("decision"):
            answer = pb.Answer(request_id=message.decision.request_id, option_index=0)
            await call.write(pb.PlayRequest(answer=answer))
        elif message.HasField("ping"):
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
    await call.done_writing()


def own_ticket() -> str:
    """Its own seat's ticket, wherever the referee put it."""
    path = os.environ.get("KASSEN_TICKET_FILE")
    return Path(path).read_text().strip() if path else os.environ["KASSEN_TICKET"]


async def main(report: Path) -> int:
    mine = own_ticket()
    async with grpc.aio.insecure_channel(os.environ["KASSEN_ADDRESS"]) as channel:
        stub = rpc.RefereeStub(channel)
        own = stub.Play()
        await own.write(pb.PlayRequest(join=pb.Join(ticket=mine, bot_name="thief")))
        joined = await own.read()
        assert joined is not grpc.aio.EOF and joined.HasField("joined"), joined
        while True:  # every other bot is running, and has read its ticket, once it has joined
            summary = await stub.GetMatch(pb.GetMatchRequest(match_id=joined.joined.match_id))
            if all(summary.match.joined):
                break
            await asyncio.sleep(0.05)
        read, digests, candidates = scan()
        stolen: list[int] = []
        playing = [asyncio.create_task(answer_all(own))]
        for ticket in sorted(candidates - {mine}):
            call = stub.Play()
            await call.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="thief")))
            try:
                first = await call.read()
            except grpc.aio.AioRpcError:
                continue  # refused: not a live ticket
            if first is not grpc.aio.EOF and first.HasField("joined"):
                stolen.append(first.joined.seat)
                playing.append(asyncio.create_task(answer_all(call)))
        report.write_text(
            json.dumps(
                {
                    "files_read": read,
                    "digests": sorted(digests),
                    "tried": len(candidates - {mine}),
                    "stolen": stolen,
                }
            )
        )
        await asyncio.gather(*playing)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]))))
