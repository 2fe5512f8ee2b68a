"""``kassen ladder challenges on|off`` and ``kassen ladder challenge``: unrated matches.

``challenges on`` lets others challenge your bot (its token); ``challenge`` asks for a match of
your bot against bots that accept challenges or house bots, named by name or id. Your bot
plays it through its Seek stream (``kassen bot ladder`` must be running for it); the match is
recorded unrated and changes no rating.
"""

from __future__ import annotations

import argparse

from kassen.commands.ladder_calls import bot_flags, bot_token, call_ladder
from kassen.errors import UsageError


def add_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    toggle = actions.add_parser(
        "challenges", help="whether others may challenge your bot to unrated matches"
    )
    toggle.add_argument(
        "state", choices=("on", "off"), help="on: accept challenges; off: refuse them"
    )
    bot_flags(toggle)
    toggle.set_defaults(run=run_toggle)

    challenge = actions.add_parser(
        "challenge",
        help="an unrated match of your bot against bots that accept challenges or house bots",
        description="Ask the ladder for an unrated match of your bot (its token) against the "
        "bots named (by name or id: bots that accept challenges and are online, or house "
        "bots). Your bot plays it through its Seek stream, which must be open (kassen bot "
        "ladder). A busy bot is waited for a while; the ladder limits challenges per bot.",
    )
    challenge.add_argument("opponents", nargs="+", help="the other seats' bots")
    challenge.add_argument("--game", required=True, help="e.g. rumble-nation")
    challenge.add_argument("--variant", default="", help="default: the game's first variant")
    challenge.add_argument("--seat", type=int, default=None, help="your bot's seat, from 1")
    bot_flags(challenge)
    challenge.set_defaults(run=run_challenge)


def run_toggle(args: argparse.Namespace) -> int:
    from kassen.v1 import ladder_pb2 as lpb

    answer = call_ladder(
        args.address,
        bot_token(args),
        lambda stub, md: stub.SetChallenges(
            lpb.SetChallengesRequest(accept=args.state == "on"), metadata=md, timeout=30
        ),
        "the change",
    )
    state = "accepts" if answer.bot.accepts_challenges else "does not accept"
    print(f"{answer.bot.name} {state} challenges")
    return 0


def run_challenge(args: argparse.Namespace) -> int:
    from kassen.v1 import ladder_pb2 as lpb

    token = bot_token(args)
    players = len(args.opponents) + 1
    if args.seat is not None and not 1 <= args.seat <= players:
        raise UsageError(f"--seat must be from 1 to {players}, not {args.seat}")
    ladder = call_ladder(
        args.address,
        None,
        lambda stub, md: stub.GetLadder(
            lpb.GetLadderRequest(game=args.game, variant=args.variant, players=players),
            timeout=30,
        ),
        "the ladder's table",
    )
    by_name = {row.name: row.bot_id for row in ladder.rows}
    ids = {row.bot_id for row in ladder.rows}
    opponents = []
    for named in args.opponents:
        if named in ids:
            opponents.append(named)
        elif named in by_name:
            opponents.append(by_name[named])
        else:
            raise UsageError(
                f"no bot {named!r} in {args.game} with {players} players on this ladder"
            )
    request = lpb.ChallengeRequest(
        game=args.game, variant=args.variant, players=players, opponents=opponents
    )
    if args.seat is not None:
        request.seat = args.seat - 1
    answer = call_ladder(
        args.address,
        token,
        lambda stub, md: stub.Challenge(request, metadata=md, timeout=120),
        "the challenge",
    )
    names = ", ".join(answer.seat_names)
    print(
        f"challenge {answer.match_id} started (unrated): {names}; your bot plays seat "
        f"{answer.seat + 1} through its Seek stream"
    )
    return 0
