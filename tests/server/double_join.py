"""A launched bot that takes its own seat over: ``python double_join.py [ANSWERS]``.

It joins with its ticket on one stream, answers ANSWERS (default 2) decisions with option 0,
then, holding the next request unanswered, joins again on a second stream with the same
ticket (the first hears ``displaced``) and plays the match to the end there. To the referee
this is exactly what a second process that had the ticket would do.
"""

from __future__ import annotations

import asyncio
import os
import sys

import grpc

from client_sdk.ticket import seat_ticket
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc


async def answer(
    call: grpc.aio.StreamStreamCall[pb.PlayRequest, pb.PlayResponse], upto: int
) -> str:
    """Answer decisions with option 0 until ``upto`` were answered (0: no end); then return
    "asked", or "over" at MatchOver, or "displaced"."""
    answered = 0
    while True:
        message = await call.read()
        if message is grpc.aio.EOF or message.HasField("match_over"):
            return "over"
        if message.HasField("notice") and message.notice.code == "displaced":
            return "displaced"
        if message.HasField("ping"):
            await call.write(pb.PlayRequest(pong=pb.Pong(nonce=message.ping.nonce)))
        elif message.HasField("decision"):
            if upto and answered == upto:
                return "asked"
            reply = pb.Answer(request_id=message.decision.request_id, option_index=0)
            await call.write(pb.PlayRequest(answer=reply))
            answered += 1


async def main(answers: int) -> int:
    ticket = seat_ticket()
    async with grpc.aio.insecure_channel(os.environ["KASSEN_ADDRESS"]) as channel:
        stub = rpc.RefereeStub(channel)
        first = stub.Play()
        await first.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="double")))
        if await answer(first, answers) != "asked":
            return 5
        second = stub.Play()
        await second.write(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="double")))
        if await answer(first, 0) != "displaced":
            return 6
        first.cancel()
        await answer(second, 0)
        await second.done_writing()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)))
