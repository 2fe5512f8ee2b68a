"""``kassen play gnomeville`` plays solo and 2-4 players on every town and in every variant, and the town each seat asked for is the town it played."""

from __future__ import annotations

import pytest

from games.contract import Event, GameConfig
from games.gnomeville import GAME
from games.local import play_local
from games.policies.registry import make_policy
from kassen.cli import main

TOWNS = (1, 2, 3, 4, 5)
VARIANTS = ("standard", "turn-by-turn", "master-build")


def towns_for(first: int, players: int) -> str:
    """Seat 0 plays town ``first``, the others the following numbers (each back once)."""
    return ",".join(str((first - 1 + seat) % 5 + 1) for seat in range(players))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("town", TOWNS)
def test_kassen_play_on_every_town_variant_and_player_count(
    town: int, players: int, variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    towns = towns_for(town, players)
    bots = ",".join(["greedy", "random", "greedy", "random"][:players])
    args = ["play", "gnomeville", "--players", str(players), "--variant", variant]
    args += ["--option", f"towns={towns}", "--bots", bots, "--seed", str(town), "--quiet"]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"Gnomeville, {players} player")
    if players == 1:
        assert out.splitlines()[-1].startswith("Solo: Player 1 (greedy) scored ")
    else:
        ranked = [line for line in out.splitlines() if line[:1].isdigit()]
        assert len(ranked) == players
    # The same game in-process: every seat really played its town, to the end of round 5.
    config = GameConfig(players, variant, {"towns": towns})
    policies = [
        make_policy(name, "gnomeville", town * 131 + seat)
        for seat, name in enumerate(bots.split(","))
    ]
    state = play_local(GAME, config, town, policies)
    assert state.is_over and state.round == 5
    assert [t.layout.number for t in state.towns] == [int(n) for n in towns.split(",")]


def test_each_seat_may_choose_its_side() -> None:
    """``sides=choose``: a setup.side decision per seat, front (#1) or the back it was dealt."""
    state = GAME.new(GameConfig(4, "standard", {"sides": "choose"}), 3)
    pending = state.pending()
    assert [d.kind for d in pending] == ["setup.side"] * 4
    backs = []
    for decision in pending:
        keys = [o.key for o in decision.options]
        assert keys[0] == "front" and keys[1].startswith("back:")
        backs.append(int(keys[1].split(":")[1]))
    assert sorted(backs) == [2, 3, 4, 5]  # four boards, each back once
    for decision in reversed(pending):
        state.apply(decision.seat, 1 if decision.seat % 2 else 0)
    assert [t.layout.number for t in state.towns] == [1, backs[1], 1, backs[3]]


def test_the_play_log_tells_each_simultaneous_move_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A seat learns of its own draw at once and the table at the barrier; the log (which
    sees everything) prints it once: as many draw lines as the game made draws."""
    code = main(["play", "gnomeville", "--players", "2", "--bots", "greedy,greedy", "--seed", "5"])
    out, err = capsys.readouterr()
    assert code == 0, err
    public_draws = 0

    def count(events: tuple[Event, ...]) -> None:
        nonlocal public_draws
        public_draws += sum(1 for e in events if e.kind == "draw" and e.private_to is None)

    policies = [make_policy("greedy", "gnomeville", 5 * 131 + seat) for seat in range(2)]
    play_local(GAME, GameConfig(2, "standard"), 5, policies, on_events=count)
    assert public_draws > 10
    assert sum(1 for line in out.splitlines() if " draws " in line) == public_draws
