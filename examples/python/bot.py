"""A minimal Kassen bot in Python: place as many soldiers as the dice allow, else play randomly.

Run it against a referee (see docs/writing-a-bot.md):

    KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... python examples/python/bot.py

or let `kassen match` launch it:

    kassen match rumble-nation --seat "cmd:python examples/python/bot.py" --seat random

`run_bot` reads the ticket from the file named by KASSEN_TICKET_FILE if it is set (a bot the
referee launches gets it that way: a pipe it can read once, so no other process finds the ticket
in its environment), else from KASSEN_TICKET.
"""

from __future__ import annotations

import random
import sys

from client_sdk import Bot, BotError, Request, run_bot


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
    try:
        # KASSEN_ADDRESS, and the ticket from KASSEN_TICKET_FILE, else KASSEN_TICKET.
        result = run_bot(MostSoldiersBot())
    except BotError as exc:
        sys.exit(f"{MostSoldiersBot.name}: {exc}")
    mine = [s for s in result.seats if s.bot_name == MostSoldiersBot.name]
    print(f"match over: rank {mine[0].rank if mine else '?'}")
