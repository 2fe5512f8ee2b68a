"""A launched bot's seat ticket never appears where other processes of the same user can read
it: not in its environment, not on a command line. It arrives on an inherited pipe
(``KASSEN_TICKET_FILE=/dev/fd/3``) that is empty once the bot has read it. Real processes: a
hostile bot launched beside an honest one, a bot that keeps the descriptor open, and
``kassen bot run`` / the SDK reading the file."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from client_sdk import RandomBot, play
from client_sdk.ticket import TicketError, seat_ticket
from games import GameConfig
from games.policies import make_policy
from server.app import running_server
from server.referee import CommandBot, LocalBot
from server.results import Reason
from server.seats import RemoteSeat
from server.settings import MatchSettings, TimeControl
from tests.server.test_end_to_end import run

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EXAMPLE = ROOT / "examples" / "python" / "bot.py"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def roomy(seed: int) -> MatchSettings:
    return MatchSettings(
        game="rumble-nation",
        config=GameConfig(2),
        seed=seed,
        time_control=TimeControl(decision_ms=5000, bank_ms=20_000),
        join_timeout_ms=30_000,
    )


def test_a_hostile_bot_finds_no_other_ticket_in_any_process_and_cannot_take_the_seat(
    tmp_path: Path,
) -> None:
    # Only the honest bot's environment holds the marker whole (its command line has it in two
    # pieces): finding it proves the thief read that environment.
    head, tail = secrets.token_hex(8), secrets.token_hex(8)
    marker = head + tail
    script = f"export KASSEN_HONEST=$(echo {head}){tail}; exec {sys.executable} {EXAMPLE}"
    report = tmp_path / "thief.json"
    honest = CommandBot(["sh", "-c", script], "honest", cwd=str(ROOT))
    thief = CommandBot(["python", str(HERE / "ticket_thief.py"), str(report)], "thief", str(ROOT))

    async def scenario() -> None:
        async with running_server() as referee:
            match, tickets = referee.create_match(roomy(5), commands={0: honest, 1: thief})
            await asyncio.wait_for(match.finished.wait(), 60)
            found = json.loads(report.read_text())
            assert found["files_read"] >= 4  # at least the honest bot's and its watchdog's
            assert digest(marker) in found["digests"]
            for seat, ticket in enumerate(tickets):
                assert digest(ticket) not in found["digests"], f"seat {seat}'s ticket was found"
            assert found["stolen"] == []
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            mine = match.result.seats[0]
            assert mine.reason is Reason.COMPLETED and not mine.forfeited, mine
            assert mine.decisions > 0
            assert mine.takeovers == []
            honest_seat = match.seats[0]
            assert isinstance(honest_seat, RemoteSeat) and honest_seat.stream_generation == 1

    run(scenario())


def _group(pid: int) -> list[int]:
    """The processes whose process group is ``pid``'s (the bot's box: it and its watchdog)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[2]) == pid:
            members.append(int(entry))
    return members


def _links(pid: int) -> set[str]:
    found = set()
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            found.add(os.readlink(f"/proc/{pid}/fd/{name}"))
        except OSError:
            continue
    return found


def test_once_read_the_inherited_pipe_yields_nothing_and_is_the_only_extra_descriptor(
    tmp_path: Path,
) -> None:
    report, go = tmp_path / "keeper.json", tmp_path / "go"
    keeper = CommandBot(
        ["python", str(HERE / "ticket_keeper.py"), str(report), str(go)], "keeper", str(ROOT)
    )

    async def scenario() -> None:
        async with running_server() as referee:
            local = {1: LocalBot(make_policy("random", "rumble-nation", 1), "random")}
            match, tickets = referee.create_match(roomy(6), local, {0: keeper})
            seat = match.seats[0]
            assert isinstance(seat, RemoteSeat)
            for _ in range(1500):
                if report.exists():
                    break
                await asyncio.sleep(0.02)
            given = json.loads(report.read_text())
            assert given["file"] == "/dev/fd/3" and not given["env_ticket"]
            # stdin, stdout, stderr and the ticket's pipe: nothing else of the referee's.
            assert sorted(given["fds"], key=int) == ["0", "1", "2", "3"], given["fds"]
            pipe = given["fds"]["3"]
            assert pipe.startswith("pipe:")
            assert seat.process is not None
            pid = seat.process.pid
            assert os.readlink(f"/proc/{pid}/fd/3") == pipe  # still open in the bot
            for name in ("environ", "cmdline"):
                assert tickets[0].encode() not in Path(f"/proc/{pid}/{name}").read_bytes()
            fd = os.open(f"/proc/{pid}/fd/3", os.O_RDONLY | os.O_NONBLOCK)
            try:
                assert os.read(fd, 4096) == b""  # read once: nothing left for anybody
            finally:
                os.close(fd)
            box = _group(pid)
            assert pid in box and len(box) >= 2, box  # the bot and its watchdog
            for other in set(box) - {pid}:
                assert pipe not in _links(other), f"process {other} of the box holds the pipe"
            go.touch()
            await asyncio.wait_for(match.finished.wait(), 60)
            assert match.result is not None
            assert match.result.seats[0].reason is Reason.COMPLETED
            assert not match.result.seats[0].forfeited

    run(scenario())


# ---------------------------------------------------------------------- the readers


def test_the_sdk_reads_the_ticket_file_first_once_and_closes_an_inherited_pipe(
    tmp_path: Path,
) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"pipe-ticket\n")
    os.close(write_end)
    path = f"/dev/fd/{read_end}"
    env = {"KASSEN_TICKET_FILE": path, "KASSEN_TICKET": "env-ticket"}
    assert seat_ticket(env) == "pipe-ticket"  # the file wins over KASSEN_TICKET
    with pytest.raises(OSError):
        os.fstat(read_end)  # the inherited descriptor is closed: nothing stays open
    assert seat_ticket(env) == "pipe-ticket"  # a second run_bot in the process still has it
    plain = tmp_path / "ticket"
    plain.write_text("file-ticket\n")
    assert seat_ticket({"KASSEN_TICKET_FILE": str(plain)}) == "file-ticket"
    assert seat_ticket({"KASSEN_TICKET": "env-ticket"}) == "env-ticket"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "no seat ticket: set KASSEN_TICKET_FILE"),
        ({"KASSEN_TICKET_FILE": "/no/such/ticket"}, "cannot read the seat ticket from"),
        ({"KASSEN_TICKET_FILE": "/dev/null", "KASSEN_TICKET": "t"}, "holds no seat ticket"),
    ],
)
def test_the_sdk_says_in_one_line_where_it_looked_for_the_ticket(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(TicketError, match=message) as caught:
        seat_ticket(env)
    assert "\n" not in str(caught.value)


def _bot_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KASSEN_TICKET")}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


@pytest.mark.parametrize("program", ["kassen bot run", "sdk"])
def test_kassen_bot_run_and_the_sdk_play_with_the_ticket_from_a_pipe(program: str) -> None:
    """Started as the launcher starts a bot: the ticket on an inherited pipe named by
    KASSEN_TICKET_FILE, and no KASSEN_TICKET."""
    command = (
        [sys.executable, "-m", "kassen", "bot", "run", "random"]
        if program == "kassen bot run"
        else [sys.executable, str(EXAMPLE)]
    )

    async def scenario() -> None:
        async with running_server() as referee:
            match, tickets = referee.create_match(roomy(7))
            read_end, write_end = os.pipe()
            os.write(write_end, tickets[0].encode())
            os.close(write_end)
            try:
                process = await asyncio.create_subprocess_exec(
                    *command,
                    env=_bot_env(
                        KASSEN_ADDRESS=referee.address, KASSEN_TICKET_FILE=f"/dev/fd/{read_end}"
                    ),
                    stderr=subprocess.PIPE,
                    pass_fds=(read_end,),
                )
            finally:
                os.close(read_end)
            await play(RandomBot(3), referee.address, tickets[1])
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
            assert process.returncode == 0, stderr
            assert match.result is not None and match.result.reason is Reason.COMPLETED
            assert not match.result.seats[0].forfeited

    run(scenario())


def test_kassen_bot_run_without_a_ticket_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "bot", "run", "random"],
        env=_bot_env(KASSEN_ADDRESS="127.0.0.1:9"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "KASSEN_TICKET_FILE" in lines[0] and "KASSEN_TICKET" in lines[0]
