"""Faction board tracks: Marquise buildings, Eyrie roosts and leaders, Alliance sympathy (data).

Facts from the printed faction boards (several open-source engines and the Japanese
card-image table agree) and the Eyrie leaders of Law 7.8. Track spaces are
stored left to right, index 0 = the leftmost space. A space is "uncovered" once the piece on it
has gone to the map, so with k pieces of a kind on the map, spaces 0..k-1 are uncovered.

Data choices:
- Marquise: building the n-th building of a type (n = 1 + those already on the map) costs
  ``MARQUISE_WOOD[n - 1]`` and scores ``vp[n - 1]``; space 1 (0 wood, 0 VP) is the building
  placed at setup. Evening draws are 1 + the draw bonuses uncovered on the recruiter track.
- Eyrie: Evening scores the VP under the rightmost uncovered roost space; with no roost on the
  map nothing is uncovered, so 0 VP and 1 card (the digest's table starts at 1 roost).
- Disdain for Trade (items crafted by the Eyrie score 1 VP, except under the Builder) is kept
  here as faction data rather than on the cards.
- The Alliance sympathy track is included although only Marquise and Eyrie were asked for:
  it is §4.3 of the digest (confidence H) and costs nothing to carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# -- Marquise de Cat (digest §4.1) ---------------------------------------------------------------

SAWMILL = "sawmill"
WORKSHOP = "workshop"
RECRUITER = "recruiter"
BUILDING_TYPES: tuple[str, ...] = (SAWMILL, WORKSHOP, RECRUITER)

#: Wood to build the n-th building of any type (space n, index n - 1).
MARQUISE_WOOD: tuple[int, ...] = (0, 1, 2, 3, 3, 4)


@dataclass(frozen=True, slots=True)
class BuildingTrack:
    building: str
    wood: tuple[int, ...]
    vp: tuple[int, ...]
    #: Extra cards drawn in Evening for each uncovered space.
    draws: tuple[int, ...]


MARQUISE_TRACKS: tuple[BuildingTrack, ...] = (
    BuildingTrack(SAWMILL, MARQUISE_WOOD, (0, 1, 2, 3, 4, 5), (0, 0, 0, 0, 0, 0)),
    BuildingTrack(WORKSHOP, MARQUISE_WOOD, (0, 2, 2, 3, 4, 5), (0, 0, 0, 0, 0, 0)),
    BuildingTrack(RECRUITER, MARQUISE_WOOD, (0, 1, 2, 3, 3, 4), (0, 0, 1, 0, 1, 0)),
)
MARQUISE_TRACK: Mapping[str, BuildingTrack] = {t.building: t for t in MARQUISE_TRACKS}

MARQUISE_WARRIORS = 25
MARQUISE_WOOD_TOKENS = 8
MARQUISE_BUILDINGS_PER_TYPE = 6
MARQUISE_KEEPS = 1
#: Daylight actions before bird cards buy extra ones.
MARQUISE_ACTIONS = 3
#: Evening draw before bonuses (every base faction draws 1 + its uncovered draw icons).
BASE_EVENING_DRAW = 1


def build_cost(building: str, on_map: int) -> tuple[int, int]:
    """(wood, VP) to build one more ``building`` when ``on_map`` of them are on the map."""
    track = MARQUISE_TRACK[building]
    if not 0 <= on_map < len(track.wood):
        raise ValueError(f"no {building} left on the track with {on_map} on the map")
    return track.wood[on_map], track.vp[on_map]


def marquise_draws(recruiters_on_map: int) -> int:
    """Cards the Marquise draws in Evening."""
    return BASE_EVENING_DRAW + sum(MARQUISE_TRACK[RECRUITER].draws[:recruiters_on_map])


# -- Eyrie Dynasties (digest §4.2, §3.4) ---------------------------------------------------------

#: VP under roost space n (index n - 1); scored in Evening for the rightmost uncovered space.
ROOST_VP: tuple[int, ...] = (0, 1, 2, 3, 4, 4, 5)
#: Extra cards for each uncovered roost space (icons under the 3rd and 6th).
ROOST_DRAWS: tuple[int, ...] = (0, 0, 1, 0, 0, 1, 0)

EYRIE_WARRIORS = 20
EYRIE_ROOSTS = 7
#: Setup: one roost and this many warriors in the Eyrie's corner.
EYRIE_SETUP_WARRIORS = 6
#: Disdain for Trade: VP for an item the Eyrie crafts, whatever the card says.
DISDAIN_FOR_TRADE_VP = 1


def roost_vp(roosts_on_map: int) -> int:
    """Evening VP with ``roosts_on_map`` roosts on the map."""
    return ROOST_VP[roosts_on_map - 1] if roosts_on_map > 0 else 0


def eyrie_draws(roosts_on_map: int) -> int:
    """Cards the Eyrie draws in Evening."""
    return BASE_EVENING_DRAW + sum(ROOST_DRAWS[:roosts_on_map])


RECRUIT = "recruit"
MOVE = "move"
BATTLE = "battle"
BUILD = "build"
#: The Decree's columns, resolved left to right.
DECREE_COLUMNS: tuple[str, ...] = (RECRUIT, MOVE, BATTLE, BUILD)
#: The two Loyal Viziers: bird cards, never discarded, re-tucked when the leader changes.
LOYAL_VIZIERS = 2


@dataclass(frozen=True, slots=True)
class Leader:
    id: str
    name: str
    #: Decree columns the two Loyal Viziers are tucked into.
    viziers: tuple[str, str]
    effect: str
    text: str


LEADERS: tuple[Leader, ...] = (
    Leader(
        "builder",
        "Builder",
        (RECRUIT, MOVE),
        "ignore_disdain_for_trade",
        "Ignores Disdain for Trade when crafting (items score their printed VP).",
    ),
    Leader(
        "charismatic",
        "Charismatic",
        (RECRUIT, BATTLE),
        "double_recruit",
        "Each Recruit action places 2 warriors instead of 1.",
    ),
    Leader(
        "commander",
        "Commander",
        (MOVE, BATTLE),
        "extra_hit_attacking",
        "Deals an extra hit in battle as attacker.",
    ),
    Leader(
        "despot",
        "Despot",
        (MOVE, BUILD),
        "extra_vp_removing_buildings",
        "+1 VP when removing at least one enemy building or token in battle.",
    ),
)
LEADER_BY_ID: Mapping[str, Leader] = {leader.id: leader for leader in LEADERS}


# -- Woodland Alliance (digest §4.3) -------------------------------------------------------------

#: Supporters of the clearing's suit to spend for the n-th sympathy token (index n - 1).
SYMPATHY_COST: tuple[int, ...] = (1, 1, 1, 2, 2, 2, 3, 3, 3, 3)
#: VP for placing the n-th sympathy token.
SYMPATHY_VP: tuple[int, ...] = (0, 1, 1, 1, 2, 2, 3, 4, 4, 4)
#: Martial Law: one more supporter if another player has at least this many warriors there.
MARTIAL_LAW_WARRIORS = 3
#: Supporters a Revolt spends (matching the clearing).
REVOLT_COST = 2
#: The Supporters stack holds at most this many cards while no base is on the map.
SUPPORTERS_LIMIT_WITHOUT_BASE = 5

ALLIANCE_WARRIORS = 10
ALLIANCE_BASES = 3
ALLIANCE_SYMPATHY_TOKENS = 10
