"""Ratings: Bradley–Terry Elo ladders with honest error bars, live Elo, and SPRT.

- ``pairwise``: rankings as pairwise games; ``Tally`` aggregates them into matrices.
- ``bradley_terry``: joint maximum-likelihood fit, Hessian / sandwich / bootstrap covariance, LOS.
- ``ladder``: ``fit_ladder`` → ``Ladder`` of ``LadderEntry`` rows, the published result.
- ``elo``: ``EloTracker``, incremental Elo for live display.
- ``sprt``: ``Sprt``, "is the candidate better than the baseline?" with fixed error rates,
  one observation per seed block.
- ``errors``: ``RatingsError``, a numerical failure (an ``ArithmeticError``).
"""

from tournament.ratings.bradley_terry import (
    DEFAULT_PRIOR,
    ELO_PER_NAT,
    BradleyTerryFit,
    bootstrap_covariance,
    bootstrap_elo,
    connected_components,
    expected_score,
    fit_bradley_terry,
    hessian_covariance,
    los_matrix,
    sandwich_covariance,
    sandwich_unavailable,
)
from tournament.ratings.elo import EloTracker
from tournament.ratings.errors import RatingsError
from tournament.ratings.ladder import CiMethod, Ladder, LadderEntry, fit_ladder
from tournament.ratings.pairwise import Match, Placing, Tally, pairwise_outcomes
from tournament.ratings.sprt import Sprt, Verdict, block_llr

__all__ = [
    "DEFAULT_PRIOR",
    "ELO_PER_NAT",
    "BradleyTerryFit",
    "CiMethod",
    "EloTracker",
    "Ladder",
    "LadderEntry",
    "Match",
    "Placing",
    "RatingsError",
    "Sprt",
    "Tally",
    "Verdict",
    "block_llr",
    "bootstrap_covariance",
    "bootstrap_elo",
    "connected_components",
    "expected_score",
    "fit_bradley_terry",
    "fit_ladder",
    "hessian_covariance",
    "los_matrix",
    "pairwise_outcomes",
    "sandwich_covariance",
    "sandwich_unavailable",
]
