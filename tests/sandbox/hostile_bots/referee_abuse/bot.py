"""Hostile: use the referee's socket for more than its own seat: every other Referee method
(CreateMatch, ListMatches, GetMatch, Watch, GetReplay, ListGames) and the Ladder's, guessed
tickets and variants of its own, its own ticket on two streams at once; report each on stderr,
then play normally."""

import os
import queue
import secrets
import sys

import grpc

from client_sdk.ticket import seat_ticket
from kassen.v1 import ladder_pb2 as lpb
from kassen.v1 import ladder_pb2_grpc as lrpc
from kassen.v1 import referee_pb2 as pb
from kassen.v1 import referee_pb2_grpc as rpc


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


channel = grpc.insecure_channel(os.environ["KASSEN_ADDRESS"])
stub = rpc.RefereeStub(channel)
ladder = lrpc.LadderStub(channel)
calls = {
    "CreateMatch": lambda: stub.CreateMatch(pb.CreateMatchRequest(game="rumble-nation"), timeout=5),
    "ListMatches": lambda: stub.ListMatches(pb.ListMatchesRequest(), timeout=5),
    "GetMatch": lambda: stub.GetMatch(pb.GetMatchRequest(match_id="x"), timeout=5),
    "Watch": lambda: next(iter(stub.Watch(pb.WatchRequest(match_id="x"), timeout=5))),
    "GetReplay": lambda: stub.GetReplay(pb.GetReplayRequest(match_id="x"), timeout=5),
    "ListGames": lambda: stub.ListGames(pb.ListGamesRequest(), timeout=5),
    "Ladder.ListBots": lambda: ladder.ListBots(lpb.ListBotsRequest(), timeout=5),
}
for name, call in calls.items():
    try:
        call()
        report(f"LEAK: {name} answered")
    except grpc.RpcError as error:
        report(f"refused: {name}: {error.code().name}")


class Stream:
    """A Play stream that sends Join and stays open until ``close``."""

    def __init__(self, ticket: str) -> None:
        self.outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
        self.outbox.put(pb.PlayRequest(join=pb.Join(ticket=ticket, bot_name="intruder")))
        self.responses = stub.Play(iter(self.outbox.get, None), timeout=10)

    def first(self) -> str:
        try:
            response = next(self.responses)
            return response.WhichOneof("message") or "nothing"
        except grpc.RpcError as error:
            return f"{error.code().name}"

    def close(self) -> None:
        self.outbox.put(None)
        self.responses.cancel()


ticket = seat_ticket()  # read once from its pipe; run_bot below finds it again
guesses = [secrets.token_urlsafe(len(ticket) * 3 // 4 or 16) for _ in range(40)]
guesses += [ticket[:-1] + c for c in "AaZz09-_" if ticket[:-1] + c != ticket]
guesses += [ticket[::-1], ticket.upper(), ticket.lower(), "", "0", ticket + "x"]
answers = {}
for guess in guesses:
    stream = Stream(guess)
    answer = stream.first()
    stream.close()
    answers[answer] = answers.get(answer, 0) + 1
joined = {k: v for k, v in answers.items() if not k.isupper()}  # a message, not a status code
report(f"{'LEAK: guessed tickets joined' if joined else 'refused: guessed tickets'}: {answers}")

first, second = Stream(ticket), Stream(ticket)
report(f"own ticket twice: first stream {first.first()}, second stream {second.first()}")
first.close()
second.close()

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-referee"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
