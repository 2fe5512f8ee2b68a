"""Reports of a solo tournament: terminal tables, JSON, CSV and HTML (``tournament.solo``
explains what is measured; ``tournament.reports`` sends solo tournaments here)."""

from __future__ import annotations

import csv
import html
import io
import json
import math
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from kassen.files import replace_files
from tournament.options import describe_options, options_note
from tournament.ratings.scores import MeanCI
from tournament.solo import NO_ELO, NO_RANK, SoloSummary, StoredSolo, summarize_solo
from tournament.terminal_table import Column, print_fitted


def _number(value: float, digits: int = 2) -> float | None:
    """JSON has no NaN: a figure that cannot be computed (too few games) is null."""
    return round(value, digits) if math.isfinite(value) else None


def _fmt(value: float, pattern: str = "{:.1f}") -> str:
    return pattern.format(value) if math.isfinite(value) else "-"


def _interval(ci: MeanCI, pattern: str = "{:.1f}") -> str:
    return f"{_fmt(ci.low, pattern)} .. {_fmt(ci.high, pattern)}" if math.isfinite(ci.low) else "-"


def rank_headers(summary: SoloSummary) -> list[str]:
    """Column names of the rank table: ``80+`` ... and ``no rank``."""
    return [*(f"{at_least}+" for at_least, _ in summary.table), NO_RANK]


def solo_rows(summary: SoloSummary) -> list[dict[str, Any]]:
    """One row per bot, best mean first (the CSV's columns)."""
    headers = rank_headers(summary)
    return [
        {
            "rank": place,
            "bot": b.name,
            "mean": _number(b.stats.mean),
            "ci_low": _number(b.stats.low),
            "ci_high": _number(b.stats.high),
            "sd": _number(b.stats.sd),
            "games": b.stats.n,
            "failures": b.failures,
            **dict(zip(headers, b.ranks, strict=True)),
        }
        for place, b in enumerate(summary.bots, 1)
    ]


def paired_rows(summary: SoloSummary) -> list[dict[str, Any]]:
    """Every pair, better mean first: the per-seed difference with its interval."""
    return [
        {
            "bot": c.bot,
            "opponent": c.opponent,
            "seeds": c.paired.n,
            "mean_diff": _number(c.paired.mean),
            "ci_low": _number(c.paired.low),
            "ci_high": _number(c.paired.high),
            "excludes_zero": c.paired.excludes_zero,
            "verdict": c.verdict,
            "unpaired_ci_low": _number(c.unpaired.low),
            "unpaired_ci_high": _number(c.unpaired.high),
        }
        for c in summary.comparisons
    ]


def _title(stored: StoredSolo, tournament_id: str) -> str:
    t = stored.tournament
    return (
        f"{t['name']} ({tournament_id}): {t['game']} {t['variant']}, solo, "
        f"{stored.summary.games} games{options_note(stored.options)}"
    )


def _rank_legend(summary: SoloSummary) -> str:
    if not summary.table:
        return "the game has no solo rank table"
    return "ranks: " + ", ".join(f"{a}+ {title}" for a, title in summary.table)


def print_solo(engine: Engine, tournament_id: str) -> None:
    stored = summarize_solo(engine, tournament_id)
    summary = stored.summary
    level = f"{summary.level:.0%}"
    headers = rank_headers(summary)
    # A narrow terminal loses failures first, then the rank counts (together), games and the
    # interval (``terminal_table``); never the place, the name or the mean.
    columns = (
        Column("#"),
        Column("bot", "left"),
        Column("mean"),
        Column(f"{level} interval", drop=4),
        Column("games", drop=3),
        Column("failures", drop=1),
        *(Column(header, drop=2) for header in headers),
    )
    rows = [
        (
            str(row["rank"]),
            bot.name,
            _fmt(bot.stats.mean),
            _interval(bot.stats),
            str(bot.stats.n),
            str(bot.failures),
            *(str(row[h]) for h in headers),
        )
        for row, bot in zip(solo_rows(summary), summary.bots, strict=True)
    ]
    print_fitted(
        _title(stored, tournament_id),
        f"{NO_ELO}. Mean score with its t-based {level} interval; {_rank_legend(summary)}",
        columns,
        rows,
    )
    if not summary.comparisons:
        return
    print_fitted(
        f"Paired by seed: score(bot) − score(opponent) seed by seed, mean and {level} t interval",
        "every bot played the same seeds; a seed's deal moves both scores, the per-seed "
        "difference cancels it",
        (
            Column("bot", "left"),
            Column("opponent", "left"),
            Column("seeds", drop=1),
            Column("mean diff"),
            Column(f"{level} interval", drop=2),
            Column("verdict", "left", wrap=True),
        ),
        [
            (
                c.bot,
                c.opponent,
                str(c.paired.n),
                _fmt(c.paired.mean, "{:+.1f}"),
                _interval(c.paired, "{:+.1f}"),
                c.verdict,
            )
            for c in summary.comparisons
        ],
    )


def solo_json(engine: Engine, tournament_id: str, public: dict[str, Any]) -> str:
    """``public``: the tournament's facts as reports may show them (``reports.public_facts``)."""
    stored = summarize_solo(engine, tournament_id)
    summary = stored.summary
    return json.dumps(
        {
            "kind": "solo",
            "tournament": public,
            "options": describe_options(stored.options),
            "games": summary.games,
            "elo": None,
            "note": NO_ELO,
            "level": summary.level,
            "interval": "t: mean ± t(level, n − 1)·sd/√n",
            "rank_table": [
                *({"title": title, "at_least": a} for a, title in summary.table),
                {"title": NO_RANK, "at_least": None},
            ],
            "ladder": solo_rows(summary),
            "paired": paired_rows(summary),
        },
        indent=1,
    )


def _csv(rows: list[dict[str, Any]], empty: list[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else empty)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def solo_csv(engine: Engine, tournament_id: str) -> str:
    return _csv(solo_rows(summarize_solo(engine, tournament_id).summary), ["rank", "bot"])


def write_solo_reports(
    engine: Engine, tournament_id: str, folder: Path, public: dict[str, Any]
) -> Path:
    """ladder.json, ladder.csv, paired.csv, scores.csv (every counted game, by seed block:
    the seeds themselves stay in the database) and report.html in ``folder``, all or none
    (``kassen.files.replace_files``)."""
    stored = summarize_solo(engine, tournament_id)
    scores = [
        {"block": g.block, "bot": g.bot, "score": g.score, "forfeited": g.forfeited}
        for g in sorted(stored.games, key=lambda g: (g.block, g.bot))
    ]
    replace_files(
        {
            folder / "ladder.json": solo_json(engine, tournament_id, public),
            folder / "ladder.csv": _csv(solo_rows(stored.summary), ["rank", "bot"]),
            folder / "paired.csv": _csv(paired_rows(stored.summary), ["bot", "opponent"]),
            folder / "scores.csv": _csv(scores, ["block", "bot", "score", "forfeited"]),
            folder / "report.html": solo_html(stored, tournament_id),
        }
    )
    return folder


def solo_html(stored: StoredSolo, tournament_id: str) -> str:
    summary = stored.summary
    headers = rank_headers(summary)
    level = f"{summary.level:.0%}"
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{html.escape(b.name)}</td><td>{_fmt(b.stats.mean)}</td>"
        f"<td>{_interval(b.stats)}</td><td>{b.stats.n}</td><td>{b.failures}</td>"
        + "".join(f"<td>{r[h]}</td>" for h in headers)
        + "</tr>"
        for r, b in zip(solo_rows(summary), summary.bots, strict=True)
    )
    pairs = "".join(
        f"<tr><td>{html.escape(c.bot)}</td><td>{html.escape(c.opponent)}</td><td>{c.paired.n}</td>"
        f"<td>{_fmt(c.paired.mean, '{:+.1f}')}</td><td>{_interval(c.paired, '{:+.1f}')}</td>"
        f"<td>{_interval(c.unpaired, '{:+.1f}')}</td><td>{html.escape(c.verdict)}</td></tr>"
        for c in summary.comparisons
    )
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    title = html.escape(_title(stored, tournament_id))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kassen solo: {title}</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:1000px}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}td:nth-child(2),th{{text-align:left}}caption{{text-align:left;color:#555}}</style>
</head><body>
<h1>Solo: {title}</h1>
<p>{html.escape(NO_ELO)}.</p>
<table><caption>Mean score with its t-based {level} interval; {html.escape(_rank_legend(summary))}.</caption>
<tr><th>#</th><th>bot</th><th>mean</th><th>{level} interval</th><th>games</th><th>failures</th>{head}</tr>{rows}</table>
<h2>Paired by seed</h2>
<p>Every bot played the same seeds. The difference of two bots' scores on one seed cancels
what the seed's deal did to both; the interval is the t interval of those differences. The
unpaired (Welch) interval of the same difference is shown for comparison.</p>
<table><tr><th>bot</th><th>opponent</th><th>seeds</th><th>mean diff</th><th>{level} interval (paired)</th>
<th>unpaired</th><th>verdict</th></tr>{pairs}</table>
</body></html>
"""
