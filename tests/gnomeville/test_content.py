"""The content pack: the standard pack holds what the seed fixes, and the loader names the entry
and field of every problem in one line (so a transcribed printed card's typo is found at once)."""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from games.gnomeville.buildings import BUILDINGS, LINE_OF, NAMES, PROSPERITY, Tile
from games.gnomeville.content import (
    ABILITY_EFFECTS,
    AMOUNT_EFFECTS,
    BONUS_KINDS,
    DIRECTIONS,
    KEYS,
    METRICS,
    ONCE_PER_ROUND,
    SPACES,
    ContentError,
    GoalSide,
    default_pack,
    load_pack,
    pack_from_mapping,
)

CONTENT = resources.files("games.gnomeville").joinpath("content")
STANDARD_TEXT = CONTENT.joinpath("standard.toml").read_text(encoding="utf-8")
STANDARD = tomllib.loads(STANDARD_TEXT)
SCHEMA = json.loads(CONTENT.joinpath("pack.schema.json").read_text(encoding="utf-8"))

Data = dict[str, Any]


def _orthogonal(space: int) -> list[int]:
    row, col = divmod(space, 5)
    steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return [r * 5 + c for r, c in steps if 0 <= r < 5 and 0 <= c < 5]


# ---------------------------------------------------------------- the standard pack


def test_default_pack_sizes_and_provisional_marks() -> None:
    pack = default_pack()
    assert pack is default_pack()  # read once
    assert pack.version == "1.0-provisional"
    assert sorted(pack.towns) == [1, 2, 3, 4, 5]
    assert len(pack.troll_cards) == 16
    assert len(pack.multi_events) == 7
    assert len(pack.solo_events) == 7
    assert len(pack.deliveries) == 10
    assert len(pack.goals) == 9
    assert len(pack.abilities) == 22
    entries: list[Any] = [
        *pack.towns.values(),
        *pack.troll_cards,
        *pack.multi_events,
        *pack.solo_events,
        *pack.deliveries,
        *pack.goals,
        *pack.abilities,
    ]
    assert pack.provisional and all(entry.provisional for entry in entries)
    # Every entry of the file says so itself, not only through the loader's default.
    assert STANDARD["provisional"] is True
    for section in ("towns", "troll_cards", "multi_events", "solo_events", "deliveries"):
        assert all(entry["provisional"] is True for entry in STANDARD[section])
    for section in ("goals", "abilities"):
        assert all(entry["provisional"] is True for entry in STANDARD[section])


def test_components_are_the_seeds() -> None:
    comp = default_pack().components
    assert {NAMES[t]: n for t, n in comp.supply.items()} == {
        "market": 40,
        "house": 32,
        "workshop": 32,
        "tavern": 24,
        "armory": 24,
        "academy": 20,
        "ballista": 20,
        "monument": 12,
    }
    assert dict(comp.starting_bag) == {
        Tile.GNOME: 3,
        Tile.MARKET: 5,
        Tile.HOUSE: 2,
        Tile.WORKSHOP: 2,
    }
    assert (comp.starting_mushrooms, comp.gnomes, comp.max_trolls) == (2, 3, 3)
    assert comp.full_board_vp == 10
    assert comp.delivery_gaps == (5, 10, 15)
    assert [score for score, _ in comp.solo_ranks] == [80, 70, 60, 50, 40]
    assert comp.solo_ranks[0][1] == "Truly the legendary Gnomeville!"
    assert comp.solo_ranks[-1][1] == "Better go paint rainbows."


def test_the_seeds_examples_are_in_the_pack() -> None:
    pack = default_pack()
    sprint = next(e for e in pack.multi_events if e.id == "satchel-sprint")
    assert (sprint.name, sprint.metric, sprint.best, sprint.first, sprint.second) == (
        "Satchel Sprint",
        "bag_tiles",
        "fewest",
        5,
        1,
    )
    faces = [side for goal in pack.goals for side in goal.sides]
    # The 2-player example: fewest sword gnomes wins 5; most boulders wins 5 and a tie gives
    # both ceil((5 + 2) / 2) = 4; most blue-line (prosperity) buildings wins 5.
    assert any(s.metric == "sword_gnomes" and s.best == "fewest" and s.win == 5 for s in faces)
    assert GoalSide("Rock Garden", "boulders", "most", 5, 2) in faces
    assert any(
        s.metric == "prosperity_buildings" and s.best == "most" and s.win == 5 for s in faces
    )
    assert LINE_OF[Tile.HOUSE] == PROSPERITY  # "blue line" = prosperity (ruling G1)


def test_towns() -> None:
    towns = default_pack().towns
    assert [t.name for t in towns.values()] == [
        "Gnomeville",
        "Mazeville",
        "Riverville",
        "Boulderville",
        "Towerville",
    ]
    for town in towns.values():
        assert town.centre == 12 and town.stumps == (1, 2, 3)
    front = towns[1]
    assert not (front.hedges or front.river or front.bridges or front.boulder_marks)
    assert not front.heights
    maze = towns[2]
    assert 8 <= len(maze.hedges) <= 12
    reached, todo = {maze.centre}, [maze.centre]
    while todo:
        space = todo.pop()
        for n in _orthogonal(space):
            if (min(space, n), max(space, n)) not in maze.hedges and n not in reached:
                reached.add(n)
                todo.append(n)
    assert reached == set(range(SPACES)), "a gnome can walk everywhere from the centre"
    river = towns[3]
    assert len(river.river) == 4 and 1 <= len(river.bridges) <= 2
    assert river.centre not in river.river and not set(river.river) & set(river.bridges)
    boulders = towns[4]
    assert len(boulders.boulder_marks) == 5 and boulders.centre not in boulders.boulder_marks
    towers = towns[5]
    assert 6 <= len(towers.heights) <= 8 and towers.centre not in towers.heights
    assert set(towers.heights.values()) == {2, 3, 4}


def test_troll_cards() -> None:
    cards = default_pack().troll_cards
    assert [c.id for c in cards] == [f"troll-{n:02}" for n in range(1, 17)]
    for card in cards:
        assert 0 <= len(card.boulders) <= 2 and 1 <= len(card.spawns) <= 4
        assert 1 <= len(card.arrows) <= 3
        assert not set(card.boulders) & set(card.spawns)
    assert sum(len(c.spawns) == 4 for c in cards) >= 2, "the 3-troll cap and choice matter"
    numbered = next(c for c in cards if c.id == "troll-12")
    assert numbered.spawns == (0, 4, 24, 20), "digits give the spawn order"
    assert {a.direction for c in cards for a in c.arrows} == set(DIRECTIONS)
    assert {a.until_blocked for c in cards for a in c.arrows} == {True, False}


def test_events_deliveries_goals_abilities() -> None:
    pack = default_pack()
    for event in pack.multi_events:
        assert 3 <= event.first <= 6 and 1 <= event.second <= 3
    for solo in pack.solo_events:
        assert 2 <= len(solo.thresholds) <= 4
    for delivery in pack.deliveries:
        sizes = [len(group) for group in delivery.groups]
        assert all(1 <= n <= 3 for n in sizes) and sizes == sorted(sizes)
    kinds = {b.kind for d in pack.deliveries for g in d.groups for b in g}
    assert kinds == set(BONUS_KINDS)
    for goal in pack.goals:
        assert all(3 <= s.win <= 6 and 1 <= s.tie <= 3 for s in goal.sides)
    effects = [a.effect for a in pack.abilities]
    assert all(effects.count(e) >= 2 for e in ABILITY_EFFECTS)
    for ability in pack.abilities:
        assert ability.once_per_round == (ability.effect in ONCE_PER_ROUND)
        assert ability.amount in ((1, 2) if ability.effect in AMOUNT_EFFECTS else (1,))
    assert {"redraw", "stew", "ballista", "echo", "sprint"} == ONCE_PER_ROUND
    cards: list[Any] = [*pack.multi_events, *pack.solo_events, *pack.abilities]
    ids = [card.id for card in cards]
    assert len(ids) == len(set(ids))


# ---------------------------------------------------------------- formats


def test_json_rendering_loads_to_an_equal_pack() -> None:
    text = json.dumps(STANDARD, indent=1)
    assert load_pack("\n  " + text) == default_pack()


def test_spaces_may_be_numbers() -> None:
    data = copy.deepcopy(STANDARD)
    towns = {t["number"]: t for t in data["towns"]}
    towns[2]["centre"] = 12
    towns[2]["hedges"] = [[1, 2], *towns[2]["hedges"][1:]]
    towns[5]["heights"] = {"0": 3, **{k: v for k, v in towns[5]["heights"].items() if k != "a1"}}
    assert pack_from_mapping(data, "numbers") == default_pack()


def test_unreadable_text_is_one_line_error() -> None:
    with pytest.raises(ContentError, match=r"^my pack: not valid TOML: ") as toml_error:
        load_pack('name = "x\n', "my pack")
    with pytest.raises(ContentError, match=r"^my pack: not valid JSON: ") as json_error:
        load_pack('{"name": }', "my pack")
    for exc in (toml_error.value, json_error.value):
        assert "\n" not in str(exc)


# ---------------------------------------------------------------- validation


def _entry(data: Data, section: str, ident: str) -> Data:
    entry: Data = next(e for e in data[section] if e.get("id") == ident)
    return entry


def _town(data: Data, number: int) -> Data:
    town: Data = next(t for t in data["towns"] if t["number"] == number)
    return town


def _set(section: str, ident: str, key: str, value: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _entry(data, section, ident)[key] = value

    return mutate


def _set_town(number: int, key: str, value: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _town(data, number)[key] = value

    return mutate


def _set_comp(key: str, value: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        data["components"][key] = value

    return mutate


def _run(*steps: Callable[[Data], None]) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        for step in steps:
            step(data)

    return mutate


def _arrow(n: int, key: str, value: str) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _entry(data, "troll_cards", "troll-07")["arrows"][n - 1][key] = value

    return mutate


def _bonus(key: str, value: Any, drop: str | None = None) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        bonus = _entry(data, "deliveries", "delivery-03")["groups"][1][0]
        bonus[key] = value
        if drop:
            del bonus[drop]

    return mutate


def _side(n: int, key: str, value: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _entry(data, "goals", "goal-02")["sides"][n - 1][key] = value

    return mutate


def _threshold(n: int, key: str, value: int) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _entry(data, "solo_events", "mushroom-cellar")["thresholds"][n - 1][key] = value

    return mutate


def _keep(section: str, count: int) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        data[section] = data[section][:count]

    return mutate


def _delete(*path: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _matrix(ident: str, *rows: str) -> Callable[[Data], None]:
    return _set("troll_cards", ident, "matrix", list(rows))


def _append(section: str, index: int) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        data[section].append(copy.deepcopy(data[section][index]))

    return mutate


def _hedges(*pairs: list[str]) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        _town(data, 2)["hedges"].extend(pairs)

    return mutate


MUTATIONS: list[tuple[str, Callable[[Data], None], str]] = [
    # the pack and its sections
    ("missing section", _delete("troll_cards"), 'missing section "troll_cards"'),
    ("unknown section", _set_comp("x", 1), 'components: unknown key "x" (known: supply,'),
    (
        "unknown top-level",
        lambda d: d.update(extras=1),
        'content pack: unknown section "extras" (known: name, version, components,',
    ),
    ("empty name", lambda d: d.update(name=" "), "content pack: name is empty"),
    ("missing version", _delete("version"), 'missing section "version"'),
    ("provisional text", lambda d: d.update(provisional="yes"), "provisional must be true"),
    ("towns not a list", lambda d: d.update(towns={}), "towns must be a list, not {}"),
    # components
    ("supply unknown", _set_comp("supply", {"castle": 3}), 'supply "castle" is not a building'),
    ("supply gnome", _set_comp("supply", {"gnome": 3}), 'supply "gnome" is not a building'),
    ("supply missing", _delete("components", "supply", "monument"), "supply is missing monument"),
    (
        "supply negative",
        lambda d: d["components"]["supply"].update(monument=-1),
        "supply monument -1 is negative",
    ),
    (
        "supply short",
        lambda d: d["components"]["supply"].update(market=19),
        "supply market 19 cannot fill 4 starting bags of 5",
    ),
    (
        "too many gnome tiles",
        lambda d: d["components"]["starting_bag"].update(gnome=4),
        "starting_bag gnome 4 is more than the 3 stump spaces",
    ),
    ("bag unknown", lambda d: d["components"]["starting_bag"].update(elf=1), '"elf" is not a tile'),
    (
        "gaps falling",
        _set_comp("delivery_gaps", [5, 15, 10]),
        "delivery_gaps [5, 15, 10] must rise",
    ),
    ("gaps count", _set_comp("delivery_gaps", [5, 10]), "delivery_gaps has 2 entries, exactly 3"),
    ("no gnomes", _set_comp("gnomes", 0), "components: gnomes 0 is less than 1"),
    ("mushrooms text", _set_comp("starting_mushrooms", "2"), 'must be a whole number, not "2"'),
    (
        "ranks rising",
        lambda d: d["components"]["solo_ranks"].append({"at_least": 45, "title": "x"}),
        "solo rank 6 at_least 45 must be below 40",
    ),
    (
        "rank key",
        lambda d: d["components"]["solo_ranks"][0].update(score=1),
        'solo rank 1: unknown key "score"',
    ),
    # towns
    (
        "centre off grid",
        _set_town(3, "centre", 27),
        'town 3 "Riverville": centre 27 is off the 5x5',
    ),
    ("centre name", _set_town(1, "centre", "f9"), 'centre "f9" is not a space (a1..e5 or 0..24)'),
    ("centre float", _set_town(1, "centre", 1.5), "centre must be a space (a1..e5 or 0..24)"),
    (
        "river on centre",
        _set_town(3, "river", ["c3", "b4", "d4", "d5"]),
        'town 3 "Riverville": centre c3 is a river space',
    ),
    (
        "boulder mark on centre",
        _set_town(4, "boulder_marks", ["c3"]),
        'town 4 "Boulderville": centre c3 holds a boulder mark',
    ),
    (
        "height on centre",
        lambda d: _town(d, 5)["heights"].update(c3=3),
        'town 5 "Towerville": centre c3 has a height mark',
    ),
    (
        "height too high",
        lambda d: _town(d, 5)["heights"].update(a1=6),
        "height mark a1 6 is out of 2..5",
    ),
    (
        "height too low",
        lambda d: _town(d, 5)["heights"].update(b1=1),
        "height mark b1 1 is out of 2..5",
    ),
    (
        "height space",
        lambda d: _town(d, 5)["heights"].update(z9=3),
        'height mark "z9" is not a space',
    ),
    ("heights list", _set_town(5, "heights", [3]), "heights must be a table of space -> tier"),
    (
        "hedge not neighbours",
        _set_town(2, "hedges", [["a1", "c1"]]),
        'town 2 "Mazeville": hedge 1 a1-c1: the spaces are not orthogonal neighbours',
    ),
    ("hedge diagonal", _set_town(2, "hedges", [["a1", "b2"]]), "a1-b2: the spaces are not orth"),
    ("hedge twice", _hedges(["c1", "b1"]), "hedge 11 b1-c1 is listed twice"),
    ("hedge triple", _set_town(2, "hedges", [["a1", "b1", "c1"]]), "hedge 1 has 3 entries"),
    ("hedged in", _hedges(["a1", "b1"], ["a1", "a2"]), "hedges close space a1 in on every side"),
    ("bridge is river", _set_town(3, "bridges", ["b4"]), "bridge b4 is also a river space"),
    ("river twice", _set_town(3, "river", ["a4", "a4"]), "river space 2 a4 is listed twice"),
    ("town missing", lambda d: d["towns"].pop(), "content pack: towns: town 5 is missing"),
    ("town twice", _set_town(5, "number", 4), "content pack: towns: town 4 is given twice"),
    ("town number", _set_town(5, "number", 6), 'town 6 "Towerville": number 6 is out of 1..5'),
    ("stumps short", _set_town(1, "stumps", [1, 2]), 'town 1 "Gnomeville": stumps has 2 entries'),
    ("stump zero", _set_town(1, "stumps", [0, 2, 3]), "stump 1 movement 0 is less than 1"),
    ("town key", _set_town(1, "rivers", []), 'town 1 "Gnomeville": unknown key "rivers"'),
    # troll cards
    (
        "arrow direction",
        _arrow(2, "direction", "NE"),
        'content pack: troll card "troll-07": arrow 2 direction "NE" is not one of N, E, S, W',
    ),
    (
        "arrow mode",
        _arrow(1, "mode", "run"),
        'arrow 1 mode "run" is not one of step, until_blocked',
    ),
    (
        "arrow key",
        _arrow(3, "speed", "fast"),
        'troll card "troll-07": arrow 3: unknown key "speed"',
    ),
    (
        "four arrows",
        _set("troll_cards", "troll-01", "arrows", [{"direction": "N", "mode": "step"}] * 4),
        'troll card "troll-01": arrows has 4 entries, 1 to 3 expected',
    ),
    ("no arrows", _set("troll_cards", "troll-01", "arrows", []), "arrows has 0 entries, 1 to 3"),
    (
        "four rows",
        _matrix("troll-01", ".....", ".....", ".....", "....T"),
        'troll card "troll-01": matrix has 4 entries, exactly 5 expected',
    ),
    (
        "short row",
        _matrix("troll-01", ".....", "..T.", ".....", ".....", "....."),
        'matrix row 2 "..T." has 4 characters, 5 expected',
    ),
    (
        "unknown character",
        _matrix("troll-02", "..X..", ".....", ".....", ".....", "....T"),
        'troll card "troll-02": matrix c1 "X" is not one of',
    ),
    (
        "mixed spawns",
        _matrix("troll-02", "T...1", ".....", ".....", ".....", "....."),
        'matrix mixes "T" with numbered spawns',
    ),
    (
        "spawn numbers gap",
        _matrix("troll-02", "1...3", ".....", ".....", ".....", "....."),
        "matrix spawn numbers [1, 3] must be 1..2, each once",
    ),
    (
        "spawn number twice",
        _matrix("troll-02", "1...1", ".....", ".....", ".....", "....."),
        "matrix e1: spawn number 1 is used twice",
    ),
    (
        "row not text",
        _set("troll_cards", "troll-02", "matrix", ["....."] * 4 + [5]),
        "matrix row 5 must be a text, not 5",
    ),
    ("nine troll cards", _keep("troll_cards", 9), "troll_cards has 9 entries, at least 10 needed"),
    ("troll id twice", _append("troll_cards", 0), 'troll card "troll-01": id is used twice'),
    ("troll key", _set("troll_cards", "troll-03", "arrow", []), 'unknown key "arrow" (known: id,'),
    (
        "troll id upper",
        _set("troll_cards", "troll-01", "id", "Troll-01"),
        'troll card at position 1: id "Troll-01" must be lower-case',
    ),
    (
        "troll not table",
        lambda d: d["troll_cards"].insert(0, "x"),
        'troll card at position 1: the entry must be a table, not "x"',
    ),
    # events
    (
        "metric unknown",
        _set("multi_events", "satchel-sprint", "metric", "gold"),
        'multiplayer event "satchel-sprint": metric "gold" is not one of bag_tiles,',
    ),
    (
        "metric tile",
        _set("multi_events", "market-day", "metric", "tile:castle"),
        'metric "tile:castle": "castle" is not a building',
    ),
    (
        "best unknown",
        _set("multi_events", "skyline", "best", "least"),
        'best "least" is not one of',
    ),
    ("first negative", _set("multi_events", "skyline", "first", -1), '"skyline": first -1 is neg'),
    ("first bool", _set("multi_events", "skyline", "first", True), "first must be a whole number"),
    ("second above first", _set("multi_events", "skyline", "second", 7), "second 7 is more than"),
    ("two multi events", _keep("multi_events", 2), "multi_events has 2 entries, at least 3"),
    ("two solo events", _keep("solo_events", 2), "solo_events has 2 entries, at least 3"),
    (
        "thresholds unordered",
        _threshold(2, "value", 3),
        'solo event "mushroom-cellar": threshold 2 value 3 must be more than 4',
    ),
    ("threshold vp", _threshold(3, "vp", 4), "threshold 3 vp 4 must be more than 4"),
    ("thresholds none", _set("solo_events", "tall-order", "thresholds", []), "thresholds has 0"),
    (
        "fewest unordered",
        _set(
            "solo_events",
            "clear-paths",
            "thresholds",
            [{"value": 0, "vp": 1}, {"value": 2, "vp": 3}],
        ),
        "threshold 2 value 2 must be less than 0",
    ),
    # deliveries
    (
        "bonus kind",
        _bonus("kind", "gold"),
        'delivery "delivery-03": group 2 bonus 1 kind "gold" is not one of mushrooms, tile,',
    ),
    (
        "bonus tile",
        _run(_bonus("kind", "tile"), _bonus("tile", "castle")),
        'group 2 bonus 1 tile "castle" is not a building',
    ),
    ("bonus gnome tile", _run(_bonus("kind", "tile"), _bonus("tile", "gnome")), '"gnome" is not a'),
    ("bonus tile missing", _bonus("kind", "tile"), 'group 2 bonus 1: kind "tile" needs a tile'),
    ("bonus stray tile", _bonus("tile", "house"), 'only kind "tile" takes a tile, not sword'),
    ("bonus amount", _bonus("amount", 2), "group 2 bonus 1: amount applies only to mushrooms"),
    (
        "bonus amount zero",
        _run(_bonus("kind", "mushrooms"), _bonus("amount", 0)),
        "group 2 bonus 1 amount 0 is less than 1",
    ),
    ("bonus key", _bonus("colour", "red"), 'group 2 bonus 1: unknown key "colour"'),
    (
        "two groups",
        lambda d: _entry(d, "deliveries", "delivery-01")["groups"].pop(),
        'delivery "delivery-01": groups has 2 entries, exactly 3 expected',
    ),
    (
        "empty group",
        lambda d: _entry(d, "deliveries", "delivery-01")["groups"].__setitem__(0, []),
        "group 1 has 0 entries, at least 1 expected",
    ),
    ("four deliveries", _keep("deliveries", 4), "deliveries has 4 entries, at least 5 needed"),
    # goals
    (
        "one side",
        lambda d: _entry(d, "goals", "goal-02")["sides"].pop(),
        "sides has 1 entry, exactly 2 expected",
    ),
    ("tie above win", _side(1, "tie", 6), 'goal "goal-02": side 1 tie 6 is more than win 5'),
    ("side metric", _side(2, "metric", "elves"), 'side 2 metric "elves" is not one of'),
    ("side key", _side(2, "lose", 1), 'goal "goal-02": side 2: unknown key "lose"'),
    ("three goals", _keep("goals", 3), "goals has 3 entries, at least 4 needed (one lies between"),
    (
        "goal id twice",
        _set("goals", "goal-09", "id", "goal-01"),
        'goal "goal-01": id is used twice',
    ),
    # abilities
    (
        "effect unknown",
        _run(
            _set("abilities", "swift-boots", "effect", "fly"),
            _set("abilities", "swift-boots", "id", "keen-eye"),
        ),
        'content pack: ability "keen-eye": unknown effect "fly" (known: movement, forager,',
    ),
    ("amount passive", _set("abilities", "brave-heart", "amount", 2), "amount applies only to"),
    (
        "amount zero",
        _set("abilities", "haggler", "amount", 0),
        '"haggler": amount 0 is less than 1',
    ),
    (
        "once wrong",
        _set("abilities", "encore", "once_per_round", False),
        'ability "encore": once_per_round must be true: echo is used once per round',
    ),
    ("passive once", _set("abilities", "sidestep", "once_per_round", True), "must be false"),
    ("no abilities", _keep("abilities", 0), "abilities has 0 entries, at least 1 needed"),
    ("ability name", _delete("abilities", 0, "name"), 'ability "swift-boots": missing key "name"'),
]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [pytest.param(m, e, id=name) for name, m, e in MUTATIONS],
)
def test_every_problem_is_one_line_naming_entry_and_field(
    mutate: Callable[[Data], None], expected: str
) -> None:
    data = copy.deepcopy(STANDARD)
    mutate(data)
    with pytest.raises(ContentError) as caught:
        pack_from_mapping(data, "content pack")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("content pack: ")
    assert expected in message, message


def test_missing_fields_default_as_the_dataclasses_do() -> None:
    data = copy.deepcopy(STANDARD)
    for key in ("starting_mushrooms", "gnomes", "max_trolls", "full_board_vp", "delivery_gaps"):
        del data["components"][key]
    for town in data["towns"]:
        del town["centre"], town["stumps"], town["provisional"]
    for ability in data["abilities"]:
        del ability["once_per_round"]
    del data["provisional"]
    assert pack_from_mapping(data, "defaults") == default_pack()


# ---------------------------------------------------------------- the schema


def _object_keys(node: dict[str, Any]) -> tuple[set[str], set[str]]:
    return set(node["properties"]), set(node.get("required", ()))


def test_schema_names_what_the_loader_accepts() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    defs = SCHEMA["$defs"]
    for kind, (required, optional) in KEYS.items():
        node = SCHEMA if kind == "pack" else defs[kind]
        assert node["additionalProperties"] is False, kind
        assert _object_keys(node) == (set(required) | set(optional), set(required)), kind
    assert set(defs["components"]["properties"]["supply"]["properties"]) == {
        NAMES[t] for t in BUILDINGS
    }
    assert set(defs["components"]["properties"]["starting_bag"]["properties"]) == set(
        NAMES.values()
    )
    assert tuple(defs["metric"]["oneOf"][0]["enum"]) == METRICS
    assert tuple(defs["bonus"]["properties"]["kind"]["enum"]) == BONUS_KINDS
    assert tuple(defs["ability"]["properties"]["effect"]["enum"]) == ABILITY_EFFECTS
    assert tuple(defs["arrow"]["properties"]["direction"]["enum"]) == DIRECTIONS
