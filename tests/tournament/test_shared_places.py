"""A place shared by two winners (a Root coalition, RT23) is a draw between them in every
statistic: the stored ranking, the Elo fit, head-to-head and the SPRT's scores."""

from __future__ import annotations

import pytest

from tournament.ratings import fit_ladder
from tournament.reports import rankings
from tournament.sprt_run import candidate_score
from tournament.storage import MatchRecord, SeatRecord


def record(ranks: dict[str, int], idx: int = 0) -> MatchRecord:
    seats = tuple(ranks)
    results = tuple(
        SeatRecord(seat, bot, rank, 0, False, "completed", "", 0)
        for seat, (bot, rank) in enumerate(ranks.items())
    )
    return MatchRecord(idx, 0, 1, seats, "done", "completed", results=results)


def test_two_rank_1_seats_are_one_shared_place() -> None:
    coalition = record({"eyrie": 1, "vagabond": 1, "marquise": 3, "alliance": 4})
    assert coalition.ranking == [("eyrie", "vagabond"), "marquise", "alliance"]
    plain = record({"a": 2, "b": 1})
    assert plain.ranking == ["b", "a"]
    assert record({"a": 0, "b": 0}).ranking == []  # voided


def test_coalition_winners_draw_with_each_other_in_the_fit() -> None:
    records = [
        record({"eyrie": 1, "vagabond": 1, "marquise": 3, "alliance": 4}, i) for i in range(20)
    ]
    ladder = fit_ladder(rankings(records), ci="hessian")
    assert ladder.entry("eyrie").elo == pytest.approx(ladder.entry("vagabond").elo)
    assert ladder.entry("eyrie").elo > ladder.entry("marquise").elo
    assert ladder.entry("vagabond").score == pytest.approx((0.5 + 1 + 1) / 3)


def test_the_sprt_scores_a_shared_place_as_half() -> None:
    ranking: list[str | tuple[str, ...]] = [("cand", "base"), "other"]
    assert candidate_score(ranking, "cand", "base") == 0.5
    assert candidate_score(["cand", "base"], "cand", "base") == 1.0
    assert candidate_score([], "cand", "base") is None
