"""A bug inside the referee ends the match as ABORTED instead of hanging its seats."""

from __future__ import annotations

from games import GameConfig
from games.policies import make_policy
from server.app import running_server
from server.match import Match
from server.referee import LocalBot
from server.results import Reason
from server.settings import MatchSettings
from tests.server.test_end_to_end import run


class Faulty(Match):
    async def _play(self) -> Reason:
        raise RuntimeError("a bug in the referee")


def test_a_crashing_match_task_still_finishes_the_match() -> None:
    async def scenario() -> None:
        async with running_server() as referee:
            local = {i: LocalBot(make_policy("random", "rumble-nation", i), "r") for i in range(2)}
            settings = MatchSettings(game="rumble-nation", config=GameConfig(2), seed=1)
            match, _ = referee.create_match(settings, local, match_class=Faulty)
            await match.finished.wait()
            assert match.result is not None and match.result.reason is Reason.ABORTED
            assert match.status == "finished"

    run(scenario())
