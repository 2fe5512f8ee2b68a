"""Deliberately broken bots for the conformance kit's own tests: ``python broken.py FAULT``.

Faults: answers-stale (answers every request, even one already answered), no-rejoin (gives up
when its stream drops), slow (0.5 s per decision), bad-exit (exit code 3 after MatchOver),
card-crash (crashes on the first card step), lingers (plays well, then keeps running for 8 s
after MatchOver; the kit waits 5 s).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import grpc

from client_sdk import Bot, Request, run_bot
from client_sdk.ticket import seat_ticket
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc


class First(Bot):
    name = "broken"

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def choose(self, request: Request) -> int:
        if self.fault == "slow":
            time.sleep(0.5)
        if self.fault == "card-crash" and "." in request.kind:
            raise SystemExit(4)
        return 0


async def answer_everything() -> None:
    """No stale rule, no rejoin: answers whatever request arrives."""
    async with grpc.aio.insecure_channel(os.environ["KASSEN_ADDRESS"]) as channel:
        call = rpc.RefereeStub(channel).Play()
        await call.write(pb.PlayRequest(join=pb.Join(ticket=seat_ticket(), bot_name="stale")))
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                return
            assert isinstance(message, pb.PlayResponse)
            if message.HasField("decision"):
                await call.write(
                    pb.PlayRequest(
                        answer=pb.Answer(request_id=message.decision.request_id, option_index=0)
                    )
                )
            elif message.HasField("match_over"):
                await call.done_writing()
                return


def main() -> int:
    fault = sys.argv[1]
    if fault == "answers-stale":
        asyncio.run(answer_everything())
        return 0
    run_bot(First(fault), rejoins=0 if fault == "no-rejoin" else 5)
    if fault == "lingers":
        time.sleep(8)
    return 3 if fault == "bad-exit" else 0


if __name__ == "__main__":
    raise SystemExit(main())
