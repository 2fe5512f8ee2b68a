"""The ladder as a coordinator of a referee fleet under load (``benchmarks/ladder.py --referees N``).

One run of one configuration (``fleet_run``): a ``kassen serve --workers W`` (W referee
processes on one port), a ``kassen ladder serve --referees`` that places its matches there
and plays none itself (``[referees] embedded = false``; Rumble Nation base, two players, its
house bots), and the bots in a few client processes (benchmarks/ladder_clients.py), all
opening their Seek streams at one instant. After the run the bots leave, the coordinator is
stopped (SIGTERM) and its database is read: every match it started must be stored ``done``
or ``voided``, none left ``running``.

Figures: first-assignment and assignment-after-a-match latency (from the clients), matches
started and completed and completed decisions per second per referee process (from the
database: a match id starts with its worker's prefix, ``w0-``, ``w1-``), the loop lag of the
coordinator and of each referee process (their ``referee_load`` lines), and the CPU each
process used over the run (``/proc/<pid>/stat``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.ladder import ADMIN_TOKEN, register_bots

CLIENTS = Path(__file__).resolve().parent / "ladder_clients.py"
#: Seconds between the processes' ``referee_load`` lines.
LOAD_REPORT_S = 5.0
#: Targets (seconds).
TARGET_FIRST_P99_S = 5.0
TARGET_AFTER_P99_S = 1.0
CONFIG = """
[ladder]
pools = ["rumble-nation/base/2"]
decision_ms = 5000
bank_ms = 10000
join_timeout_ms = {join_timeout_ms}
max_live_matches = {live}

[referees]
embedded = false
"""
#: As in the live mode: a bot assigned while the machine is overloaded still joins in time.
#: A match placed for a bot that had just left (the run's end) waits this long for it.
JOIN_TIMEOUT_MS = 30_000


class LoggedProcess:
    """A server process whose JSON log lines (stderr) are read in a thread: the lines
    ``keep`` names are kept, warnings and errors counted."""

    def __init__(self, command: list[str], keep: tuple[str, ...] = ("referee_load",)) -> None:
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        self.keep = keep
        self.lines: list[dict[str, Any]] = []
        self.problems: Counter[str] = Counter()
        self.first_lines: list[str] = []

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Read until a line matches ``pattern``; then keep reading in a thread."""
        assert self.process.stderr is not None
        deadline = time.monotonic() + timeout
        for line in self.process.stderr:
            self.first_lines.append(line)
            found = re.search(pattern, line)
            if found:
                threading.Thread(target=self._read, daemon=True).start()
                return found
            if time.monotonic() > deadline:
                break
        raise RuntimeError(f"{self.process.args!r} did not start:\n{''.join(self.first_lines)}")

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if not line.startswith("{"):
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("event") in self.keep:
                self.lines.append(record)
            if record.get("level") in ("warning", "error", "critical"):
                self.problems[str(record.get("event"))] += 1

    def stop(self, timeout: float = 60.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def start_referees(folder: Path, workers: int) -> tuple[LoggedProcess, str, list[int]]:
    """``kassen serve --workers W`` on a free port: it, its address and its referee pids."""
    server = LoggedProcess(
        [
            sys.executable,
            "-m",
            "kassen",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--workers",
            str(workers),
            "--store",
            "none",
            "--replays",
            str(folder / "replays"),
            "--admin-token-file",
            str(folder / "admin.token"),
            "--load-report-s",
            str(LOAD_REPORT_S),
            "--log-level",
            "info",
        ]
    )
    found = server.wait_for(r'"event": "serving"')
    record = json.loads(found.string)
    pids = [int(p) for p in record.get("pids", [server.process.pid])]
    return server, str(record["address"]), pids


def start_coordinator(
    folder: Path, referees: str, live: int, join_timeout_ms: int
) -> tuple[LoggedProcess, str]:
    """``kassen ladder serve --referees`` with ``[referees] embedded = false``."""
    config = CONFIG.format(live=live, join_timeout_ms=join_timeout_ms)
    (folder / "ladder.toml").write_text(config, encoding="utf-8")
    server = LoggedProcess(
        [
            sys.executable,
            "-m",
            "kassen",
            "ladder",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--web",
            "none",
            "--db",
            f"sqlite:///{folder / 'ladder.sqlite'}",
            "--config",
            str(folder / "ladder.toml"),
            "--admin-token-file",
            str(folder / "admin.token"),
            "--referees",
            referees,
            "--load-report-s",
            str(LOAD_REPORT_S),
            "--log-level",
            "info",
        ]
    )
    found = server.wait_for(r"serving on (\S+)")
    return server, found.group(1)


# ---------------------------------------------------------------------- CPU


def cpu_ticks(pid: int) -> int:
    """utime + stime of ``pid`` in clock ticks (0 once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def run_queue_wait_s(pid: int) -> float:
    """Seconds the threads of ``pid`` have waited, runnable, for a CPU (``schedstat``)."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return 0.0
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def machine_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of the whole machine so far (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values[:8]) - idle, sum(values[:8])


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` now."""
    parents: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        parents[int(text[text.rindex(")") + 2 :].split()[1])].append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


# ---------------------------------------------------------------------- one run


@dataclass
class FleetRun:
    """The figures of one configuration (``workers`` referee processes)."""

    workers: int
    bots: int
    client_processes: int
    seconds: float
    first: list[float] = field(default_factory=list)
    after: list[float] = field(default_factory=list)
    #: From the start to the ladder's answer (``Seeking``) on a bot's Seek stream.
    seeking: list[float] = field(default_factory=list)
    #: A bot's MatchOver to its MatchEnded: the result stored and the pool refitted.
    told: list[float] = field(default_factory=list)
    assigned: int = 0
    assigned_ids: set[str] = field(default_factory=set)
    ended: int = 0
    unended: int = 0
    unended_ids: list[str] = field(default_factory=list)
    #: How the database holds the matches of ``unended_ids``.
    unended_status: Counter[str] = field(default_factory=Counter)
    left_playing: int = 0
    unawaited: int = 0
    client_errors: Counter[str] = field(default_factory=Counter)
    client_decisions: int = 0
    client_lag_p99_ms: float = 0.0
    seat_reasons: Counter[str] = field(default_factory=Counter)
    #: From the database after the clean stop.
    stored: Counter[str] = field(default_factory=Counter)
    started_in_run: int = 0
    completed_in_run: int = 0
    #: Completed decisions in the run per referee process ("w0", "w1", ...).
    decisions_by_worker: dict[str, int] = field(default_factory=dict)
    no_show_matches: int = 0
    #: Matches a client was given that the database does not hold as done or voided.
    missing_in_db: int = 0
    #: CPU over the run, % of one core, by process label.
    cpu: dict[str, float] = field(default_factory=dict)
    #: Time its threads waited, runnable, for a CPU, % of the run, by process label.
    waited: dict[str, float] = field(default_factory=dict)
    machine_busy_pct: float = 0.0
    #: The worst 5-second loop lag p99 of each server process and its longest lag (ms).
    lag_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    problems: Counter[str] = field(default_factory=Counter)
    coordinator_exit: int = 0

    @property
    def decisions_per_s(self) -> float:
        return sum(self.decisions_by_worker.values()) / self.seconds

    @property
    def lost(self) -> int:
        """Assignments without a MatchEnded, clients' matches the database lacks, and matches
        left running."""
        return self.unended + self.missing_in_db + self.stored.get("running", 0)


def fleet_run(
    bots: int,
    client_processes: int,
    seconds: float,
    workers: int,
    live: int,
    profile: Path | None = None,
    join_timeout_ms: int = JOIN_TIMEOUT_MS,
) -> FleetRun:
    """One configuration; with ``profile``, py-spy samples the coordinator and each referee
    process over the run into that folder (collapsed stacks, ``*.txt``)."""
    run = FleetRun(workers, bots, client_processes, seconds)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "admin.token").write_text(ADMIN_TOKEN, encoding="utf-8")
        referees, referee_address, worker_pids = start_referees(folder, workers)
        coordinator: LoggedProcess | None = None
        clients: list[subprocess.Popen[str]] = []
        try:
            coordinator, address = start_coordinator(folder, referee_address, live, join_timeout_ms)
            tokens = register_bots(address, bots)
            for index in range(client_processes):
                share = folder / f"tokens-{index}.txt"
                share.write_text("\n".join(tokens[index::client_processes]), encoding="utf-8")
                clients.append(
                    subprocess.Popen(
                        [sys.executable, str(CLIENTS), address, str(share), str(seconds)],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                )
            for client in clients:
                assert client.stdout is not None
                if client.stdout.readline().strip() != "ready":
                    raise RuntimeError("a client process did not start")
            watched = _watched(coordinator.process.pid, referees.process.pid, worker_pids, clients)
            start = time.time() + 0.5
            for client in clients:
                assert client.stdin is not None
                client.stdin.write(f"{start}\n")
                client.stdin.close()
            time.sleep(max(0.0, start - time.time()))
            if profile is not None:
                samplers = _profile(profile, watched, workers, seconds)
            before = {label: cpu_ticks(pid) for label, pid in watched.items()}
            waited = {label: run_queue_wait_s(pid) for label, pid in watched.items()}
            machine_before = machine_ticks()
            time.sleep(max(0.0, start + seconds - time.time()))
            ticks = os.sysconf("SC_CLK_TCK")
            for label, pid in watched.items():
                run.cpu[label] = 100 * (cpu_ticks(pid) - before[label]) / ticks / seconds
                run.waited[label] = 100 * (run_queue_wait_s(pid) - waited[label]) / seconds
            busy, total = (a - b for a, b in zip(machine_ticks(), machine_before, strict=True))
            run.machine_busy_pct = 100 * busy / max(1, total) * (os.cpu_count() or 1)
            if profile is not None:
                for sampler in samplers:
                    sampler.wait(60)
            for client in clients:  # each leaves within its drain (ladder_clients.DRAIN_S)
                assert client.stdout is not None
                out = client.stdout.read()
                client.wait(60)
                _add_tally(run, json.loads(out.strip().splitlines()[-1]))
        finally:
            for client in clients:
                if client.poll() is None:
                    client.kill()
            if coordinator is not None:
                run.coordinator_exit = coordinator.stop()
            referees.stop()
        assert coordinator is not None
        run.lag_ms["coordinator"] = _worst_lag(coordinator.lines, start, seconds)
        for index in range(workers):
            mine = [r for r in referees.lines if int(r.get("worker", 0)) == index]
            run.lag_ms[f"referee w{index}"] = _worst_lag(mine, start, seconds)
        run.problems = coordinator.problems + referees.problems
        _read_database(run, folder / "ladder.sqlite", start, seconds)
    return run


def _watched(
    coordinator: int, supervisor: int, workers: list[int], clients: list[subprocess.Popen[str]]
) -> dict[str, int]:
    """The processes whose CPU is reported, by label."""
    watched = {"coordinator": coordinator}
    for pid in children(coordinator):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "resource_tracker" not in command:  # the spawned rating fit worker
            watched["fit worker" if "fit worker" not in watched else f"fit worker {pid}"] = pid
    if supervisor not in workers:
        watched["referee supervisor"] = supervisor
    for index, pid in enumerate(workers):
        watched[f"referee w{index}"] = pid
    for index, client in enumerate(clients):
        watched[f"clients {index}"] = client.pid
    return watched


def _profile(
    folder: Path, watched: dict[str, int], workers: int, seconds: float
) -> list[subprocess.Popen[bytes]]:
    """py-spy on the coordinator and the referee processes for ``seconds``."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    folder.mkdir(parents=True, exist_ok=True)
    samplers = []
    for label, pid in watched.items():
        if label == "coordinator" or label.startswith("referee w"):
            name = f"{label.replace(' ', '-')}-of-{workers}.txt"
            samplers.append(
                subprocess.Popen(
                    [
                        spy,
                        "record",
                        "--pid",
                        str(pid),
                        "--duration",
                        str(int(seconds)),
                        "--rate",
                        "50",
                        "--nonblocking",
                        "--format",
                        "raw",
                        "--output",
                        str(folder / name),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    return samplers


def _add_tally(run: FleetRun, tally: dict[str, Any]) -> None:
    run.first.extend(tally["first"])
    run.after.extend(tally["after"])
    run.told.extend(tally["told"])
    run.seeking.extend(tally["seeking"])
    run.assigned += len(tally["assigned"])
    run.ended += int(tally["ended"])
    run.unended += len(tally["unended"])
    run.unended_ids.extend(tally["unended"])
    run.left_playing += len(tally["left_playing"])
    run.unawaited += len(tally["unawaited"])
    run.client_errors.update(tally["errors"])
    run.client_decisions += int(tally["decisions"])
    run.client_lag_p99_ms = max(run.client_lag_p99_ms, float(tally["lag_p99_ms"]))
    run.seat_reasons.update(tally["seat_reasons"])
    run.assigned_ids.update(tally["assigned"])


def _worst_lag(lines: list[dict[str, Any]], start: float, seconds: float) -> tuple[float, float]:
    """The largest loop lag p99 of the report windows inside the run, and the longest lag
    (ms): a matchmaking round that holds the loop for a second is one sample of the p99."""
    inside = [r for r in lines if start < _timestamp(r) <= start + seconds + 1]
    worst = max((float(r.get("lag_p99_ms", 0.0)) for r in inside), default=float("nan"))
    longest = max((float(r.get("lag_max_ms", 0.0)) for r in inside), default=float("nan"))
    return worst, longest


def _timestamp(record: dict[str, Any]) -> float:
    from datetime import datetime

    return datetime.fromisoformat(str(record["timestamp"]).replace("Z", "+00:00")).timestamp()


def _read_database(run: FleetRun, path: Path, start: float, seconds: float) -> None:
    end = start + seconds
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT id, status, decisions, started_at, finished_at FROM ladder_matches"
        ).fetchall()
        run.no_show_matches = db.execute(
            "SELECT COUNT(DISTINCT match_id) FROM ladder_seats WHERE failure = 'NO_SHOW'"
        ).fetchone()[0]
    kept: set[str] = set()
    by_worker: Counter[str] = Counter()
    for match_id, status, decisions, started_at, finished_at in rows:
        run.stored[status] += 1
        if status in ("done", "voided"):
            kept.add(match_id)
        if start <= started_at < end:
            run.started_in_run += 1
        if status == "done" and finished_at is not None and start <= finished_at < end:
            run.completed_in_run += 1
            prefix = re.match(r"(w\d+)-", match_id)
            by_worker[prefix.group(1) if prefix else "w0"] += int(decisions or 0)
    run.decisions_by_worker = dict(sorted(by_worker.items()))
    run.missing_in_db = len(run.assigned_ids - kept)
    statuses = {match_id: status for match_id, status, *_ in rows}
    run.unended_status = Counter(statuses.get(m, "missing") for m in run.unended_ids)


# ---------------------------------------------------------------------- report


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _statuses(found: Counter[str]) -> str:
    return f" (stored: {dict(found)})" if found else ""


def bound_by(run: FleetRun) -> str:
    """What limits the run, from the CPU figures: the machine's cores, or one process."""
    cores = os.cpu_count() or 1
    ours = sum(run.cpu.values())
    busiest, pct = max(run.cpu.items(), key=lambda item: item[1])
    others = max(0.0, run.machine_busy_pct - ours)
    summary = (
        f"machine {run.machine_busy_pct:.0f}% of {cores * 100}% busy (this benchmark "
        f"{ours:.0f}%, other work {others:.0f}%); busiest: {busiest} at {pct:.0f}% of a core"
    )
    if pct >= 90:
        return f"{busiest} at {pct:.0f}% of a core (one process saturated); {summary}"
    if run.machine_busy_pct >= 90 * cores:
        return f"the machine's {cores} cores ({summary})"
    return f"no process saturated; {summary}"


def report(run: FleetRun) -> list[str]:
    first_p99, after_p99 = quantile(run.first, 0.99), quantile(run.after, 0.99)
    first_mark = "met" if first_p99 <= TARGET_FIRST_P99_S else "NOT met"
    after_mark = "met" if after_p99 <= TARGET_AFTER_P99_S else "NOT met"
    stored = run.stored
    closed = stored.get("done", 0) + stored.get("voided", 0)
    total = sum(stored.values())
    per_worker = ", ".join(
        f"{w} {d / run.seconds:.0f}" for w, d in sorted(run.decisions_by_worker.items())
    )
    lags = ", ".join(f"{k} {p99:.0f} / {top:.0f} ms" for k, (p99, top) in run.lag_ms.items())
    cpu = ", ".join(
        f"{k} {v:.0f}% (waited {run.waited.get(k, 0):.0f}%)" for k, v in run.cpu.items()
    )
    lost_mark = "none lost" if run.lost == 0 else f"{run.lost} LOST"
    return [
        f"referee processes: {run.workers}; {run.bots} bots in {run.client_processes} client "
        f"processes, {run.seconds:.0f} s",
        f"  first assignment (all {run.bots} connecting at once): p50 "
        f"{quantile(run.first, 0.5):.2f} s, p99 {first_p99:.2f} s "
        f"(target <= {TARGET_FIRST_P99_S:.0f} s: {first_mark}; {len(run.first)} bots); its Seek "
        f"stream answered: p50 {quantile(run.seeking, 0.5):.2f} s, p99 "
        f"{quantile(run.seeking, 0.99):.2f} s",
        f"  assignment after a match: p50 {quantile(run.after, 0.5) * 1000:.0f} ms, p99 "
        f"{after_p99 * 1000:.0f} ms (target <= {TARGET_AFTER_P99_S * 1000:.0f} ms: "
        f"{after_mark}; {len(run.after)} assignments)",
        f"  MatchOver to MatchEnded (result stored, pool refitted): p50 "
        f"{quantile(run.told, 0.5) * 1000:.0f} ms, p99 {quantile(run.told, 0.99) * 1000:.0f} ms",
        f"  matches in the run: {run.started_in_run} started ({run.started_in_run / run.seconds:.1f}"
        f"/s), {run.completed_in_run} completed ({run.completed_in_run / run.seconds:.1f}/s)",
        f"  completed decisions/s: {run.decisions_per_s:.0f} ({per_worker}); the clients "
        f"answered {run.client_decisions / run.seconds:.0f}/s",
        f"  no match lost: {lost_mark} -- clients: {run.assigned} assignments, {run.ended} "
        f"MatchEnded, {run.left_playing} played after the bot left (none due), "
        f"{run.unawaited} finished after the run's end and not waited for, {run.unended} "
        f"finished in the run without one{_statuses(run.unended_status)}; database after the stop: {total} started = "
        f"{stored.get('done', 0)} done + {stored.get('voided', 0)} voided"
        f"{'' if closed == total else f' + {total - closed} other'}"
        f" ({stored.get('running', 0)} running), {run.missing_in_db} given matches missing; "
        f"{run.no_show_matches} with a seat that never joined (NO_SHOW: a bot that had "
        "left, or whose joins were refused)",
        f"  own seats ended: {dict(run.seat_reasons)}; client errors: {dict(run.client_errors)}",
        f"  CPU over the run, % of a core (and its threads' wait for a CPU, % of the run): {cpu}",
        f"  loop lag, p99 of the worst 5-s window / longest: {lags}; clients p99 "
        f"{run.client_lag_p99_ms:.0f} ms",
        f"  warnings/errors logged: {dict(run.problems) or 'none'}; coordinator exit "
        f"{run.coordinator_exit}",
        f"  bounded by: {bound_by(run)}",
    ]


def fleet(
    bots: int,
    client_processes: int,
    seconds: float,
    referees: int,
    live: int,
    profile: Path | None = None,
) -> int:
    """``--referees N``: 1 referee process, then N (when N > 1), back to back; the ratio."""
    runs = []
    for workers in sorted({1, referees}):
        print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
        run = fleet_run(bots, client_processes, seconds, workers, live, profile)
        runs.append(run)
        print("\n".join(report(run)), flush=True)
    if len(runs) == 2 and runs[0].decisions_per_s > 0:
        ratio = runs[1].decisions_per_s / runs[0].decisions_per_s
        print(
            f"scaling, completed decisions/s, {referees} referee processes / 1: "
            f"{runs[1].decisions_per_s:.0f} / {runs[0].decisions_per_s:.0f} = {ratio:.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0 if all(r.lost == 0 for r in runs) else 1
