"""Ladders and reports from stored results: terminal table, JSON, CSV, head-to-head, HTML."""

from __future__ import annotations

import csv
import html
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from kassen.files import replace_files
from tournament import storage
from tournament.options import describe_options, options_note
from tournament.ratings import EloTracker, Ladder, Match, Placing, fit_ladder, pairwise_outcomes
from tournament.terminal_table import Column, print_fitted


@dataclass(frozen=True, slots=True)
class Summary:
    tournament: dict[str, Any]
    ladder: Ladder
    matches: int
    failures: dict[str, int]
    head_to_head: dict[tuple[str, str], tuple[float, int]]
    history: list[dict[str, float]]


def rankings(records: list[storage.MatchRecord]) -> list[list[Placing]]:
    """The finished, ranked matches (voided ones have no ranking and are left out); a place
    shared by several bots (a Root coalition's winners) is a tuple of their names."""
    return [list(r.ranking) for r in records if _ranked(r)]


def rated_matches(records: list[storage.MatchRecord]) -> list[Match]:
    """``rankings`` as ``Match``es named by their seed: the matches of one seed block share
    their deal (in every rotation and every group), so they are one independent unit for the
    intervals and LOS. With fresh deals every match has a seed of its own."""
    return [Match(list(r.ranking), match_id=r.seed) for r in records if _ranked(r)]


def _ranked(record: storage.MatchRecord) -> bool:
    return (
        record.status == "done"
        and sum(1 if isinstance(p, str) else len(p) for p in record.ranking) >= 2
    )


def summarize(engine: Engine, tournament_id: str, ci: str | None = None) -> Summary:
    row = storage.load_tournament(engine, tournament_id)
    if row is None:
        raise LookupError(f"no tournament {tournament_id}")
    ci = ci or DEFAULT_CI
    records = storage.load_matches(engine, tournament_id)
    ranked = rankings(records)
    names = [name for name, _, _ in storage.load_bots(engine, tournament_id)]
    ladder = fit_ladder(rated_matches(records), names=names, ci=ci)
    failures: dict[str, int] = {}
    for record in records:
        for seat in record.results:
            if seat.forfeited:
                failures[seat.bot] = failures.get(seat.bot, 0) + 1
    pairs: dict[tuple[str, str], tuple[float, int]] = {}
    for ranking in ranked:
        for first, second, points in pairwise_outcomes(ranking):
            score, games = pairs.get((first, second), (0.0, 0))
            pairs[(first, second)] = (score + points, games + 1)
            score, games = pairs.get((second, first), (0.0, 0))
            pairs[(second, first)] = (score + 1 - points, games + 1)
    tracker = EloTracker()
    history: list[dict[str, float]] = []
    for ranking in ranked:
        tracker.update(ranking)
        history.append(dict(tracker.ratings))
    return Summary(
        row, ladder, sum(1 for r in records if r.status == "done"), failures, pairs, history
    )


def _number(value: float, digits: int) -> float | None:
    """JSON has no NaN or infinity: a bot that has not played has no score or interval."""
    return round(value, digits) if math.isfinite(value) else None


#: Intervals clustered by seed block, read with Student's t (``fit_ladder``): for every
#: player count and schedule, since the matches of one block share their deal and the pairs
#: of one multi-player ranking their match.
DEFAULT_CI = "sandwich"


def ladder_rows(summary: Summary) -> list[dict[str, Any]]:
    """The ladder, best first; ``los_next``: the likelihood that a bot is stronger than the
    one ranked just below it (from the fit's covariance, as a 0-1 fraction; the last has none).
    It tests the difference itself; each 95% interval places one bot against the field's mean."""
    entries = summary.ladder.entries
    return [
        {
            "rank": rank,
            "bot": e.name,
            "elo": _number(e.elo, 1),
            "ci_low": _number(e.ci_low, 1),
            "ci_high": _number(e.ci_high, 1),
            "games": e.games,
            "score": _number(e.score, 4),
            "failures": summary.failures.get(e.name, 0),
            "los_next": (
                _number(summary.ladder.los_of(e.name, entries[rank].name), 6)
                if rank < len(entries)
                else None
            ),
        }
        for rank, e in enumerate(entries, 1)
    ]


def _los(value: float | None) -> str:
    """A LOS as a percentage with the digits that matter near certainty (99.97%, > 99.99%);
    "-" where the data support none (one seed block, or a bot without games)."""
    if value is None:
        return "-"
    if value > 0.9999:
        return "> 99.99%"
    if value < 0.0001:
        return "< 0.01%"
    return f"{value * 100:.2f}%" if value >= 0.99 or value <= 0.01 else f"{value * 100:.1f}%"


def _fmt(value: float | None, pattern: str = "{:.0f}") -> str:
    return "-" if value is None else pattern.format(value)


def is_solo(engine: Engine, tournament_id: str) -> bool:
    """A solo tournament (one player per game) is reported by score, not Elo (``solo``)."""
    row = storage.load_tournament(engine, tournament_id)
    return row is not None and int(row["players"]) == 1


#: The ladder's columns; a narrow terminal loses failures first, then pair games, LOS, score
#: and the interval (``terminal_table``), never the rank, the name or the Elo.
LADDER_COLUMNS = (
    Column("#"),
    Column("bot", "left"),
    Column("Elo"),
    Column("95% interval", drop=5),
    Column("pair games", drop=2),
    Column("score", drop=4),
    Column("failures", drop=1),
    Column("LOS", drop=3),
)


def print_ladder(engine: Engine, tournament_id: str, ci: str | None = None) -> None:
    if is_solo(engine, tournament_id):
        from tournament.solo_report import print_solo

        print_solo(engine, tournament_id)
        return
    summary = summarize(engine, tournament_id, ci)
    t = summary.tournament
    title = (
        f"{t['name']} ({tournament_id}): {t['game']} {t['variant']}, {t['players']} players, "
        f"{summary.matches} matches{options_note(stored_options(t))}"
    )
    caption = "\n".join(
        (
            "Elo fitted jointly (Bradley-Terry, mean 1500)"
            + (
                ""
                if summary.ladder.method == "none"
                else f"; 95% intervals by {summary.ladder.method_label}; LOS: the likelihood that a bot is stronger than the next"
            ),
            *summary.ladder.notes,
        )
    )
    rows = [
        (
            str(row["rank"]),
            row["bot"],
            _fmt(row["elo"]),
            f"{_fmt(row['ci_low'])} .. {_fmt(row['ci_high'])}",
            str(row["games"]),
            _fmt(None if row["score"] is None else row["score"] * 100, "{:.1f}%"),
            str(row["failures"]),
            _los(row["los_next"]) if row["rank"] < len(summary.ladder.entries) else "",
        )
        for row in ladder_rows(summary)
    ]
    print_fitted(title, caption, LADDER_COLUMNS, rows)


def _row(engine: Engine, tournament_id: str) -> dict[str, Any]:
    row = storage.load_tournament(engine, tournament_id)
    if row is None:
        raise LookupError(f"no tournament {tournament_id}")
    return row


def stored_options(tournament: dict[str, Any]) -> dict[str, Any]:
    """The game options a stored tournament is played with."""
    return dict(json.loads(str(tournament.get("config_json") or "{}")).get("options") or {})


def public_facts(tournament: dict[str, Any]) -> dict[str, Any]:
    """The tournament's row as reports show it: a secret base seed only once it is over
    (before, it would give away the deal of every seed block still to be played)."""
    facts = {k: v for k, v in tournament.items() if k != "config_json"}
    secret = json.loads(str(tournament.get("config_json") or "{}")).get("secret_seed", False)
    if secret and tournament.get("status") != "finished":
        facts["base_seed"] = None
    return facts


def ladder_json(engine: Engine, tournament_id: str, ci: str | None = None) -> str:
    if is_solo(engine, tournament_id):
        from tournament.solo_report import solo_json

        return solo_json(engine, tournament_id, public_facts(_row(engine, tournament_id)))
    summary = summarize(engine, tournament_id, ci)
    names = [e.name for e in summary.ladder.entries]
    return json.dumps(
        {
            "tournament": public_facts(summary.tournament),
            "options": describe_options(stored_options(summary.tournament)),
            "matches": summary.matches,
            "method": summary.ladder.method,
            "method_requested": summary.ladder.requested_method,
            "method_note": summary.ladder.method_note,
            "seed_blocks": summary.ladder.blocks,
            "notes": list(summary.ladder.notes),
            "ladder": ladder_rows(summary),
            "likelihood_of_superiority": {
                a: {b: _number(summary.ladder.los_of(a, b), 4) for b in names if b != a}
                for a in names
            },
            "head_to_head": [
                {"bot": a, "opponent": b, "score": s, "games": g}
                for (a, b), (s, g) in sorted(summary.head_to_head.items())
            ],
        },
        indent=1,
    )


def ladder_csv(engine: Engine, tournament_id: str, ci: str | None = None) -> str:
    if is_solo(engine, tournament_id):
        from tournament.solo_report import solo_csv

        return solo_csv(engine, tournament_id)
    out = io.StringIO()
    rows = ladder_rows(summarize(engine, tournament_id, ci))
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["rank"])
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_reports(engine: Engine, tournament_id: str, folder: Path) -> Path:
    """ladder.json, ladder.csv, head_to_head.csv and report.html in ``folder``, all or none:
    a file that cannot be written (a full disk) is a ``WriteFailed`` and the reports already
    there stay as they were (``kassen.files.replace_files``)."""
    if is_solo(engine, tournament_id):
        from tournament.solo_report import write_solo_reports

        return write_solo_reports(
            engine, tournament_id, folder, public_facts(_row(engine, tournament_id))
        )
    summary = summarize(engine, tournament_id)
    head_to_head = io.StringIO()
    writer = csv.writer(head_to_head)
    writer.writerow(["bot", "opponent", "score", "games", "score_fraction"])
    for (a, b), (s, g) in sorted(summary.head_to_head.items()):
        writer.writerow([a, b, s, g, round(s / g, 4) if g else ""])
    replace_files(
        {
            folder / "ladder.json": ladder_json(engine, tournament_id),
            folder / "ladder.csv": ladder_csv(engine, tournament_id),
            folder / "head_to_head.csv": head_to_head.getvalue(),
            folder / "report.html": html_report(summary, tournament_id),
        }
    )
    return folder


_COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)


def _chart(history: list[dict[str, float]], names: list[str]) -> str:
    """Incremental Elo after each match, one line per bot, as inline SVG."""
    if not history:
        return "<p>No ranked matches yet.</p>"
    width, height, pad = 760, 320, 40
    values = [v for snap in history for v in snap.values()] or [1500.0]
    low, high = min(values) - 10, max(values) + 10
    n = len(history)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / (high - low)

    lines = []
    for k, name in enumerate(names):
        points = " ".join(
            f"{x(i):.1f},{y(snap.get(name, 1500.0)):.1f}" for i, snap in enumerate(history)
        )
        colour = _COLOURS[k % len(_COLOURS)]
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"><title>{html.escape(name)}</title></polyline>'
        )
        lines.append(
            f'<text x="{width - pad + 4}" y="{y(history[-1].get(name, 1500.0)):.1f}" font-size="11" fill="{colour}">{html.escape(name)}</text>'
        )
    axes = (
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>'
        f'<text x="{pad}" y="{height - 10}" font-size="11">match 1</text>'
        f'<text x="{width - pad - 60}" y="{height - 10}" font-size="11">match {n}</text>'
        f'<text x="4" y="{y(high) + 4:.0f}" font-size="11">{high:.0f}</text>'
        f'<text x="4" y="{y(low):.0f}" font-size="11">{low:.0f}</text>'
    )
    return f'<svg width="{width + 80}" height="{height}" xmlns="http://www.w3.org/2000/svg">{axes}{"".join(lines)}</svg>'


def _intervals(summary: Summary) -> str:
    entries = summary.ladder.entries
    if not entries:
        return ""
    entries = tuple(e for e in entries if math.isfinite(e.ci_low) and math.isfinite(e.ci_high))
    if not entries:
        return ""
    low = min(e.ci_low for e in entries) - 20
    high = max(e.ci_high for e in entries) + 20
    width, row = 600, 22

    def x(v: float) -> float:
        return 120 + (width - 140) * (v - low) / (high - low)

    parts = []
    for i, e in enumerate(entries):
        yy = 15 + i * row
        parts.append(f'<text x="4" y="{yy + 4}" font-size="12">{html.escape(e.name)}</text>')
        parts.append(
            f'<line x1="{x(e.ci_low):.1f}" y1="{yy}" x2="{x(e.ci_high):.1f}" y2="{yy}" stroke="#1f77b4" stroke-width="3"/>'
        )
        parts.append(
            f'<circle cx="{x(e.elo):.1f}" cy="{yy}" r="4" fill="#d62728"><title>{e.elo:.0f}</title></circle>'
        )
    return f'<svg width="{width}" height="{len(entries) * row + 20}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'


def html_report(summary: Summary, tournament_id: str) -> str:
    t = summary.tournament
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{html.escape(r['bot'])}</td><td>{_fmt(r['elo'])}</td>"
        f"<td>{_fmt(r['ci_low'])} .. {_fmt(r['ci_high'])}</td><td>{r['games']}</td>"
        f"<td>{_fmt(None if r['score'] is None else r['score'] * 100, '{:.1f}%')}</td><td>{r['failures']}</td></tr>"
        for r in ladder_rows(summary)
    )
    names = [e.name for e in summary.ladder.entries]
    los_head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    los_rows = "".join(
        f"<tr><th>{html.escape(a)}</th>"
        + "".join(
            "<td>-</td>"
            if a == b
            else f"<td>{_fmt(_number(summary.ladder.los_of(a, b) * 100, 0), '{:.0f}%')}</td>"
            for b in names
        )
        + "</tr>"
        for a in names
    )
    title = f"{html.escape(str(t['name']))} ({tournament_id})"
    notes = "".join(f"<br>{html.escape(note)}" for note in summary.ladder.notes)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kassen ladder: {title}</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:1000px}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}td:nth-child(2),th{{text-align:left}}caption{{text-align:left;color:#555}}</style>
</head><body>
<h1>Ladder: {title}</h1>
<p>{html.escape(str(t["game"]))} ({html.escape(str(t["variant"]))}), {t["players"]} players, {html.escape(str(t["format"]))},
{summary.matches} matches, base seed {public_facts(t)["base_seed"] or "secret until the tournament ends"}.</p>
<table><caption>Elo fitted jointly over all results (Bradley-Terry, 400-point scale, mean 1500);
a k-player result counts as the pairwise outcomes of its ranking. 95% intervals: {html.escape(summary.ladder.method_label)}.{notes}</caption>
<tr><th>#</th><th>bot</th><th>Elo</th><th>95% interval</th><th>pair games</th><th>score</th><th>failures</th></tr>{rows}</table>
<h2>Intervals</h2>{_intervals(summary)}
<h2>Rating over matches (incremental Elo)</h2>{_chart(summary.history, names)}
<h2>Likelihood of superiority (row better than column)</h2>
<table><tr><th></th>{los_head}</tr>{los_rows}</table>
</body></html>
"""
