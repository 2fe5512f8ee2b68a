"""A ladder grown large, and a real ``kassen ladder serve`` process on it, for the load tests.

``seed_database`` writes a ladder's tables as months of play leave them (many finished
matches, a rating-history point for every house bot in every match) straight through the
database driver, which takes seconds rather than the hours of play it stands for.
``LadderProcess`` runs the ladder on it and collects its JSON log lines, among them the
``referee_load`` reports (the loop's lag and the decisions' server time).
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tournament.ladder_service import registry
from tournament.storage import connect

HOUSE = ("house-greedy", "house-random", "house-random-2")
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = {decision_ms}
bank_ms = 0
join_timeout_ms = 20000
max_live_matches = 100

[challenges]
per_client_at_once = 8
per_client_per_hour = 100000
people_at_once = 8

[[ladder.house]]
name = "house-greedy"
policy = "greedy"
game = "rumble-nation"

[[ladder.house]]
name = "house-random"
policy = "random"
game = "rumble-nation"

[[ladder.house]]
name = "house-random-2"
policy = "random"
game = "rumble-nation"
"""


@dataclass(frozen=True, slots=True)
class Seeded:
    house_ids: tuple[str, ...]
    author_ids: tuple[str, ...]
    author_tokens: tuple[str, ...]
    matches: int
    history_points: int
    #: A stored match with a real replay (its frames can be asked for).
    replay_match: str


def seed_database(path: Path, matches: int, history_points: int, replay_json: str) -> Seeded:
    """A ladder database at ``path`` with ``matches`` finished two-player Rumble Nation
    matches (house bots against 50 authors' bots) and ``history_points`` rating-history
    points, most of them the house bots'."""
    engine = connect(f"sqlite:///{path}")
    registry.create_tables(engine)
    house = [
        registry.register_bot(
            engine,
            name=name,
            owner="house",
            game="rumble-nation",
            variant="base",
            player_counts=(2,),
            house=True,
            spec="random",
        )[0].id
        for name in HOUSE
    ]
    registered = [
        registry.register_bot(
            engine,
            name=f"author-{i:02d}",
            owner="someone",
            game="rumble-nation",
            variant="base",
            player_counts=(2,),
        )
        for i in range(50)
    ]
    authors = [bot.id for bot, _ in registered]
    tokens = tuple(token or "" for _, token in registered)
    rng = random.Random(7)
    start = time.time() - 90 * 86_400
    step = 90 * 86_400 / matches
    replay = zlib.compress(replay_json.encode())
    match_rows, seat_rows = [], []
    for i in range(matches):
        match_id = uuid.uuid4().hex[:12]
        began = start + i * step
        seats = [rng.choice(house), rng.choice(authors)]
        rng.shuffle(seats)
        match_rows.append(
            (match_id, "rumble-nation", "base", 2, "done", "COMPLETED", 30, began, began + 5)
        )
        for seat, bot in enumerate(seats):
            seat_rows.append((match_id, seat, bot, seat + 1, 10 - seat, "", began))
    replay_match = match_rows[-1][0]
    points = []
    for i in range(history_points):
        bot = house[i % len(house)] if i % 10 else authors[i % len(authors)]
        points.append((bot, 2, start + i * 90 * 86_400 / history_points, 1500.0, 1400.0, 1600.0, i))
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        columns = {row[1] for row in cursor.execute("PRAGMA table_info(ladder_seats)")}
        if "started_at" not in columns:  # a Kassen from before the seats had their start
            seat_rows = [row[:-1] for row in seat_rows]
        cursor.executemany(
            "INSERT INTO ladder_matches (id, game, variant, players, status, reason, decisions,"
            " started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?)",
            match_rows,
        )
        names = "match_id, seat, bot_id, rank, score, failure, started_at"
        names = names if "started_at" in columns else names.rsplit(",", 1)[0]
        marks = ",".join("?" * len(seat_rows[0]))
        cursor.executemany(f"INSERT INTO ladder_seats ({names}) VALUES ({marks})", seat_rows)
        cursor.execute("UPDATE ladder_matches SET replay = ? WHERE id = ?", (replay, replay_match))
        cursor.executemany(
            "INSERT INTO ladder_ratings (bot_id, players, at, rating, low, high, games)"
            " VALUES (?,?,?,?,?,?,?)",
            points,
        )
        raw.commit()
    finally:
        raw.close()
    engine.dispose()
    return Seeded(tuple(house), tuple(authors), tokens, matches, history_points, replay_match)


@dataclass
class LadderProcess:
    """``kassen ladder serve`` in a subprocess; its JSON log lines are collected."""

    folder: Path
    database: Path
    decision_ms: int = 500
    web: bool = True
    #: More ``kassen ladder serve`` flags (e.g. the watcher limits).
    flags: tuple[str, ...] = ()
    process: subprocess.Popen[str] | None = None
    address: str = ""
    web_address: str = ""
    lines: list[dict[str, Any]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def start(self, timeout: float = 120) -> LadderProcess:
        config = self.folder / "ladder.toml"
        config.write_text(CONFIG.format(decision_ms=self.decision_ms), encoding="utf-8")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kassen",
                "ladder",
                "serve",
                "--address",
                "127.0.0.1:0",
                "--web",
                "127.0.0.1:0" if self.web else "none",
                "--db",
                str(self.database),
                "--config",
                str(config),
                "--log-level",
                "info",
                "--load-report-s",
                "1",
                *self.flags,
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        ready = threading.Event()
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        if not ready.wait(timeout):
            self.stop()
            raise AssertionError("the ladder did not start:\n" + "".join(self.text[-30:]))
        return self

    def _read(self, ready: threading.Event) -> None:
        assert self.process is not None and self.process.stderr is not None
        for line in self.process.stderr:
            self.text.append(line)
            found = re.search(r"serving on (\S+) \((?:http://(\S+)|no web page)\)", line)
            if found:
                self.address, self.web_address = found.group(1), found.group(2) or ""
                ready.set()
                continue
            try:
                parsed = json.loads(line)
            except ValueError:
                continue
            if isinstance(parsed, dict):
                self.lines.append(parsed)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [line for line in list(self.lines) if line.get("event") == name]

    def stop(self) -> int:
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(60)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def played_replay() -> str:
    """The replay JSON of one real two-player Rumble Nation match (for a stored match)."""
    from games import GameConfig, get_game

    state = get_game("rumble-nation").new(GameConfig(players=2, variant="base"), 11)
    rng = random.Random(11)
    decisions = []
    while not state.is_over:
        (decision, *_) = state.pending()
        index = rng.randrange(len(decision.options))
        decisions.append([decision.seat, index])
        state.apply(decision.seat, index)
    return json.dumps(
        {
            "format": 1,
            "game": "rumble-nation",
            "variant": "base",
            "players": 2,
            "options": {},
            "seed": 11,
            "salt": "00",
            "decisions": decisions,
        }
    )


def heavy_paths(seeded: Seeded) -> list[str]:
    """The page's heaviest answers on a seeded ladder (the newest 200 matches, a house bot's
    page, history and matches, the front page, the ladder, replay frames, an author's
    history), each twice: once as is and once with a query no cache has seen (a hostile
    visitor's trick)."""
    house = seeded.house_ids[0]
    heavy = [
        "/api/matches?limit=200",
        f"/api/bots/{house}/history",
        f"/api/bots/{house}/matches?limit=200",
        f"/bots/{house}",
        "/",
        "/ladder/rumble-nation/base/2",
        f"/api/matches/{seeded.replay_match}/frames?count=200",
        f"/api/bots/{seeded.author_ids[-1]}/history",
    ]
    return heavy + [f"{p}{'&' if '?' in p else '?'}nocache={i}" for i, p in enumerate(heavy)]
