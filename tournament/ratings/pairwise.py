"""Match results as pairwise games, and their aggregation into score and game matrices.

A k-player match with a full final ranking is read as the C(k, 2) pairwise games of that ranking
(for ``[a, b, c]``: a beats b, a beats c, b beats c). That is the only way one Bradley–Terry
model can rate 2-, 3- and 4-player results on the same scale; the price is that the pairwise
games of one match are not independent, which is why every pairwise game keeps the index of its
match (``Tally.group``): the sandwich and bootstrap intervals resample or cluster by match.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# One place of a final ranking: a bot name, or several names that tied for that place.
Placing = str | Sequence[str]


@dataclass(frozen=True)
class Match:
    """A ranking (best first) with an optional id; results sharing an id resample together."""

    ranking: Sequence[Placing]
    match_id: Hashable | None = None


def _groups(ranking: Sequence[Placing]) -> list[list[str]]:
    groups = [[p] if isinstance(p, str) else list(p) for p in ranking]
    names = [n for g in groups for n in g]
    if len(names) < 2:
        raise ValueError(f"a match needs at least two players, got {names!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"a player appears twice in ranking {names!r}")
    if any(not g for g in groups):
        raise ValueError("empty tie group in ranking")
    return groups


def pairwise_outcomes(ranking: Sequence[Placing]) -> list[tuple[str, str, float]]:
    """The pairwise games of one ranking, as ``(first, second, points of first)``.

    Players placed apart give ``(winner, loser, 1.0)``. A place may hold a tuple of names that
    tied; each pair inside it gives ``(a, b, 0.5)``, a draw, so that the same aggregation handles
    draws even though kassen matches always produce a full ranking.
    """
    groups = _groups(ranking)
    out: list[tuple[str, str, float]] = []
    for gi, group in enumerate(groups):
        for ai, a in enumerate(group):
            out.extend((a, b, 0.5) for b in group[ai + 1 :])
        for lower in groups[gi + 1 :]:
            out.extend((a, b, 1.0) for a in group for b in lower)
    return out


@dataclass(frozen=True, eq=False)
class Tally:
    """All pairwise games, both as per-game arrays and aggregated into dense matrices.

    ``score[i, j]`` is the points i scored against j, ``games[i, j] == games[j, i]`` the games
    between them, so ``score + score.T == games``. The per-game arrays (``first``, ``second``,
    ``points`` = points of ``first``, ``group`` = match index in ``range(n_groups)``) are kept
    because match-level resampling and clustering need to know which games came together.
    Dense matrices cost 16·n² bytes: fine for the thousand bots of a big tournament.
    """

    names: tuple[str, ...]
    score: FloatArray
    games: FloatArray
    first: IntArray
    second: IntArray
    points: FloatArray
    group: IntArray
    n_groups: int

    @property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    @property
    def n_games(self) -> int:
        return int(self.first.size)

    def weighted(self, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(score, games)`` with pairwise game g counted ``weights[g]`` times (bootstrap)."""
        return _aggregate(len(self.names), self.first, self.second, self.points, weights)

    @classmethod
    def from_pairwise(
        cls,
        names: Sequence[str],
        first: npt.ArrayLike,
        second: npt.ArrayLike,
        points: npt.ArrayLike | None = None,
        group: npt.ArrayLike | None = None,
    ) -> Tally:
        """Tally from per-game index arrays into ``names`` (the fast path for bulk data).

        ``points`` defaults to 1.0 (``first`` won); ``group`` defaults to one group per game.
        """
        n = len(names)
        if len(set(names)) != n:
            raise ValueError("duplicate names")
        f = np.asarray(first, dtype=np.int64).ravel()
        s = np.asarray(second, dtype=np.int64).ravel()
        if f.shape != s.shape:
            raise ValueError("first and second differ in length")
        p = np.ones(f.size) if points is None else np.asarray(points, dtype=np.float64).ravel()
        if p.shape != f.shape:
            raise ValueError("points differ in length from first")
        if f.size and (min(f.min(), s.min()) < 0 or max(f.max(), s.max()) >= n):
            raise ValueError("player index out of range")
        if np.any(f == s):
            raise ValueError("a player cannot play itself")
        if np.any((p < 0.0) | (p > 1.0)):
            raise ValueError("points must lie in [0, 1]")
        if group is None:
            g = np.arange(f.size, dtype=np.int64)
            n_groups = int(f.size)
        else:
            raw = np.asarray(group).ravel()
            if raw.shape != f.shape:
                raise ValueError("group differs in length from first")
            uniq, inverse = np.unique(raw, return_inverse=True)
            g = inverse.astype(np.int64).ravel()
            n_groups = int(uniq.size)
        score, games = _aggregate(n, f, s, p, None)
        return cls(tuple(names), score, games, f, s, p, g, n_groups)

    @classmethod
    def from_matches(
        cls, matches: Iterable[Sequence[Placing] | Match], names: Sequence[str] = ()
    ) -> Tally:
        """Tally of the pairwise games of every match.

        A match is a ranking (best first) or a ``Match``; matches without an id are their own
        group. ``names`` may list players up front (fixing the order, and including bots that
        have not played yet); others are added in order of first appearance.

        Rankings without ties take a vectorised path (one dict look-up per player in Python,
        the rest in numpy), so a million pairwise games aggregate in a fraction of a second.
        """
        index: dict[str, int] = {}
        for name in names:
            index.setdefault(name, len(index))
        group_of: dict[Hashable, int] = {}
        n_groups = 0
        rows: dict[int, list[list[int]]] = {}
        row_groups: dict[int, list[int]] = {}
        slow_f: list[int] = []
        slow_s: list[int] = []
        slow_p: list[float] = []
        slow_g: list[int] = []
        for item in matches:
            if isinstance(item, Match):
                ranking, match_id = item.ranking, item.match_id
            else:
                ranking, match_id = item, None
            if match_id is None:
                g = n_groups
                n_groups += 1
            else:
                found = group_of.get(match_id)
                if found is None:
                    found = group_of[match_id] = n_groups
                    n_groups += 1
                g = found
            if isinstance(ranking, str):
                raise TypeError(f"a ranking is a sequence of names, not the string {ranking!r}")
            if all(isinstance(p, str) for p in ranking):
                row = [index.setdefault(p, len(index)) for p in ranking]  # type: ignore[arg-type]
                if len(row) < 2 or len(set(row)) != len(row):
                    _groups(ranking)  # raises the descriptive error
                rows.setdefault(len(row), []).append(row)
                row_groups.setdefault(len(row), []).append(g)
            else:
                for a, b, pts in pairwise_outcomes(ranking):
                    slow_f.append(index.setdefault(a, len(index)))
                    slow_s.append(index.setdefault(b, len(index)))
                    slow_p.append(pts)
                    slow_g.append(g)
        f_parts = [np.asarray(slow_f, dtype=np.int64)]
        s_parts = [np.asarray(slow_s, dtype=np.int64)]
        g_parts = [np.asarray(slow_g, dtype=np.int64)]
        p_parts = [np.asarray(slow_p, dtype=np.float64)]
        for k, block in rows.items():
            arr = np.asarray(block, dtype=np.int64)
            above, below = np.triu_indices(k, 1)
            f_parts.append(arr[:, above].ravel())
            s_parts.append(arr[:, below].ravel())
            g_parts.append(np.repeat(np.asarray(row_groups[k], dtype=np.int64), above.size))
            p_parts.append(np.ones(arr.shape[0] * above.size))
        f = np.concatenate(f_parts)
        s = np.concatenate(s_parts)
        p = np.concatenate(p_parts)
        score, games = _aggregate(len(index), f, s, p, None)
        return cls(tuple(index), score, games, f, s, p, np.concatenate(g_parts), n_groups)


def _aggregate(
    n: int, first: IntArray, second: IntArray, points: FloatArray, weights: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    """Dense ``(score, games)`` from per-game arrays via two bincounts over flat pair indices."""
    w = np.ones(first.size) if weights is None else weights
    fwd = first * n + second
    rev = second * n + first
    size = n * n
    score = np.asarray(np.bincount(fwd, weights=w * points, minlength=size), dtype=np.float64)
    score += np.bincount(rev, weights=w * (1.0 - points), minlength=size)
    played = np.asarray(np.bincount(fwd, weights=w, minlength=size), dtype=np.float64)
    played = played.reshape(n, n)
    return score.reshape(n, n), played + played.T
