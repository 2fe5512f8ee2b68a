"""A minimal Kassen bot in Python: place as many soldiers as the dice allow, else play randomly.

Run it against a referee (see docs/writing-a-bot.md):

    KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... python examples/python/bot.py

or let `kassen match` launch it:

    kassen match rumble-nation --seat "cmd:python examples/python/bot.py" --seat random
"""

from __future__ import annotations

import random

from client_sdk import Bot, Request, run_bot


class MostSoldiersBot(Bot):
    name = "most-soldiers"

    def __init__(self) -> None:
        self.rng = random.Random(7)

    def choose(self, request: Request) -> int:
        # Option keys are stable: "place:<castle>:<soldiers>" after a roll (docs/games/).
        placements = [i for i, o in enumerate(request.options) if o.key.startswith("place:")]
        if placements and request.game == "rumble-nation":  # other games place other things
            return max(placements, key=lambda i: int(request.options[i].key.split(":")[2]))
        if "roll" in [o.key for o in request.options]:
            return request.index_of("roll")
        return self.rng.randrange(len(request.options))


if __name__ == "__main__":
    result = run_bot(MostSoldiersBot())  # reads KASSEN_ADDRESS and KASSEN_TICKET
    mine = [s for s in result.seats if s.bot_name == MostSoldiersBot.name]
    print(f"match over: rank {mine[0].rank if mine else '?'}")
