"""Greedy against random in four-player Root, per faction and seat (docs/bots.md).

    python -m benchmarks.root_field [--blocks 100] [--seed 1] [--board autumn] [--out DIR]
        [--faction vagabond]

Plays with the project's tournament runner (``kassen tournament run``, one core): for each of
the four cyclic seatings of the factions (option ``factions``), a round-robin of ``greedy``
against three ``random`` bots, ``--blocks`` seed blocks (every block plays one seed in each
rotation, so greedy sits in every seat on the same deal), and the same schedule with four
``random`` bots as the baseline. Over the four seatings greedy plays every faction in every
seat. Each match is re-simulated from its replay for the winners (a coalition has two) and the
seat that started.

Prints, per faction and seat (and per faction and turn position: the seat that starts is drawn
from the seed, so seat numbers alone say little), greedy's win rate and mean VP beside a random
bot's in the same faction and seat among three random opponents, with 95% intervals (win
rates: Wilson; VP: mean +- 1.96 standard errors; the difference: normal approximation), and
whether greedy beats random there (the difference's interval above 0).

``--faction`` prints that faction's rows only: the same matches are played (the runner seats
greedy in every seat of every seating), so it saves no time, only the other rows.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games import GameConfig
from games.root import GAME

FACTIONS = ("marquise", "eyrie", "alliance", "vagabond")
PLAYERS = len(FACTIONS)
Z95 = 1.96


@dataclass
class Tally:
    """Wins and VP of one (bot kind, faction, seat) cell."""

    wins: int = 0
    vp: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.vp)

    def win_rate(self) -> tuple[float, float, float]:
        """(rate, low, high): Wilson's 95% interval."""
        n, p = self.games, self.wins / max(1, self.games)
        if n == 0:
            return 0.0, 0.0, 1.0
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return p, centre - half, centre + half

    def mean_vp(self) -> tuple[float, float]:
        """(mean, half-width of its 95% interval)."""
        n = self.games
        if n < 2:
            return (float(self.vp[0]) if self.vp else 0.0), math.inf
        mean = sum(self.vp) / n
        var = sum((v - mean) ** 2 for v in self.vp) / (n - 1)
        return mean, Z95 * math.sqrt(var / n)


def cpu_seconds() -> float:
    """CPU time of this process and of the tournament runs it waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def seating(shift: int) -> tuple[str, ...]:
    """The factions in seat order, shifted cyclically by ``shift``."""
    return tuple(FACTIONS[(seat + shift) % PLAYERS] for seat in range(PLAYERS))


def run_tournament(
    bots: tuple[str, ...], factions: tuple[str, ...], args: argparse.Namespace, where: Path
) -> Path:
    """One ``kassen tournament run`` (a fresh database in ``where``); returns its replays."""
    where.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "kassen",
        "tournament",
        "run",
        "--game",
        "root",
        "--variant",
        args.board,
        "--players",
        str(PLAYERS),
        *(part for bot in bots for part in ("--bot", bot)),
        "--games",
        str(PLAYERS * args.blocks),
        "--seed",
        str(args.seed),
        "--option",
        f"factions={','.join(factions)}",
        "--concurrency",
        "1",
        "--db",
        f"sqlite:///{where / 'kassen.sqlite'}",
        "--output",
        str(where / "out"),
        "--quiet",
    ]
    subprocess.run(command, check=True, capture_output=True, text=True)
    (replays,) = list((where / "out").glob("*/replays"))
    return replays


@dataclass(frozen=True)
class Played:
    """One match re-simulated from its replay."""

    record: dict[str, Any]
    #: The seats that won (two with a coalition); none if the decision limit stopped the game.
    winners: tuple[int, ...]
    start: int
    #: VP per seat (a stopped game's as it was adjudicated).
    scores: tuple[int, ...]


def outcomes(replays: Path) -> Iterator[Played]:
    """Every match of a tournament, re-simulated from its seed and decisions."""
    for path in sorted(replays.glob("*.json")):
        record = json.loads(path.read_text())
        config = GameConfig(record["players"], record["variant"], record["options"])
        state = GAME.new(config, int(record["seed"]))
        start = state.start_seat
        for seat, index in record["decisions"]:
            state.apply(seat, index)
        outcome = state.outcome()
        if outcome is None:  # stopped at the tournament's decision limit: no one won
            assert not record["finished"], path
            scores = tuple(state.adjudicate().scores)
            yield Played(record, (), start, scores)
            continue
        assert list(outcome.scores) == record["scores"], path
        yield Played(record, tuple(outcome.tiebreak["winners"]), start, tuple(outcome.scores))


def tally(
    replays: Path, factions: tuple[str, ...], greedy_only: bool, by_seat: dict[str, Tally]
) -> tuple[int, int]:
    """Add each match's greedy seat (or, in the baseline, every seat) to ``by_seat``, keyed
    ``faction/seat N`` and ``faction/turn N``; returns (matches, matches stopped unfinished)."""
    matches = stopped = 0
    for played in outcomes(replays):
        matches += 1
        stopped += not played.record["finished"]
        for seat_result in played.record["result"]["seats"]:
            seat = int(seat_result["seat"])
            if greedy_only and seat_result["bot"] != "greedy":
                continue
            turn = (seat - played.start) % PLAYERS + 1
            for key in (f"{factions[seat]}/seat {seat}", f"{factions[seat]}/turn {turn}"):
                cell = by_seat[key]
                cell.wins += seat in played.winners
                cell.vp.append(played.scores[seat])
    return matches, stopped


def table(
    greedy: dict[str, Tally],
    rand: dict[str, Tally],
    kind: str,
    factions: tuple[str, ...] = FACTIONS,
) -> list[str]:
    """Markdown rows for keys ``faction/<kind> N`` of ``factions``."""
    rows = [
        f"| faction | {kind} | games (greedy / random) | greedy wins | random wins | "
        "difference | greedy VP | random VP | greedy beats random |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for faction in factions:
        for n in range(PLAYERS) if kind == "seat" else range(1, PLAYERS + 1):
            key = f"{faction}/{kind} {n}"
            g, r = greedy[key], rand[key]
            gw, glo, ghi = g.win_rate()
            rw, rlo, rhi = r.win_rate()
            se = math.sqrt(gw * (1 - gw) / max(1, g.games) + rw * (1 - rw) / max(1, r.games))
            low, high = gw - rw - Z95 * se, gw - rw + Z95 * se
            gv, gh = g.mean_vp()
            rv, rh = r.mean_vp()
            verdict = "yes" if low > 0 else ("no (worse)" if high < 0 else "not shown")
            rows.append(
                f"| {faction} | {n} | {g.games} / {r.games} | {gw:.0%} ({glo:.0%}-{ghi:.0%}) | "
                f"{rw:.0%} ({rlo:.0%}-{rhi:.0%}) | {gw - rw:+.0%} ({low:+.0%} to {high:+.0%}) | "
                f"{gv:.1f} +- {gh:.1f} | {rv:.1f} +- {rh:.1f} | {verdict} |"
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=100, help="seed blocks per seating")
    parser.add_argument("--seed", type=int, default=1, help="base seed of every tournament")
    parser.add_argument("--board", choices=("autumn", "winter"), default="autumn")
    parser.add_argument("--out", type=Path, default=Path("runs/root_field"), help="work folder")
    parser.add_argument(
        "--faction", choices=FACTIONS, default=None, help="print this faction's rows only"
    )
    args = parser.parse_args(argv)
    if args.blocks < 1:
        parser.error(f"--blocks must be at least 1, not {args.blocks}")
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"--out {args.out} is not empty (each run needs fresh databases)")
    started, cpu = time.perf_counter(), cpu_seconds()
    greedy: dict[str, Tally] = defaultdict(Tally)
    rand: dict[str, Tally] = defaultdict(Tally)
    counts = {"greedy": [0, 0], "random": [0, 0]}  # matches, stopped at the decision limit
    for shift in range(PLAYERS):
        factions = seating(shift)
        for name, bots, cells in (
            ("greedy", ("greedy", "r1=random", "r2=random", "r3=random"), greedy),
            ("random", ("r0=random", "r1=random", "r2=random", "r3=random"), rand),
        ):
            replays = run_tournament(bots, factions, args, args.out / f"{name}-{shift}")
            matches, stopped = tally(replays, factions, name == "greedy", cells)
            counts[name][0] += matches
            counts[name][1] += stopped
    wall = time.perf_counter() - started
    used = cpu_seconds() - cpu
    print(
        f"Root, four players, {args.board}: greedy in one seat against three random bots, "
        f"{args.blocks} seed blocks per seating (seed {args.seed}), baseline four random bots on "
        f"the same seeds; {datetime.now(UTC):%Y-%m-%d}, {platform.machine()} "
        f"Python {platform.python_version()}; {wall:.0f} s wall, {used:.0f} s CPU. Matches: "
        f"{counts['greedy'][0]} with greedy ({counts['greedy'][1]} stopped at the decision "
        f"limit), {counts['random'][0]} all random ({counts['random'][1]} stopped; a stopped "
        "game has no winner, its VP as adjudicated)."
    )
    print()
    shown = FACTIONS if args.faction is None else (args.faction,)
    print("\n".join(table(greedy, rand, "seat", shown)))
    print()
    print("\n".join(table(greedy, rand, "turn", shown)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
