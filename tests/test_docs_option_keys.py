"""The "Decisions a bot faces" tables of docs/games/*.md against what the referee really sends.

Each table row is read as (decision kinds, key patterns). Random games of every game (every
variant and player count, both Root maps, one-game and two-game Root contests, Gnomeville solo
to 4 seats on every side option) and the prepared positions that force every rare decision are
played in-process, and every decision is checked:
its kind has a row, every option key matches one of the row's patterns, keys are unique within
the decision, and the keys on the wire are the engine's ``Option.key``. In reverse, every
documented kind occurs and every documented pattern is used, except the kinds named in
``UNREACHABLE`` with the reason they are never asked.

Pattern syntax (as the docs use it): ``<name>`` is one token without ``:`` (``<area>`` an area
id, ``<card>`` a card id, ``<spent>`` Root's crafting payment; ``<n>``, ``<castle>``,
``<soldiers>`` and a bare ``N`` a number; Gnomeville's ``<space>``, ``<gnome>``,
``<direction>``, ``<tile>``, ``<ability>``), ``a|b`` alternatives for one ``:``-separated part
of the key (written ``\\|`` inside a table), ``[...]`` an optional part.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from games import GameConfig, GameState, get_game
from games.gnomeville.buildings import BUILDINGS, NAMES
from games.gnomeville.content import default_pack
from games.gnomeville.movement import WORDS
from games.gnomeville.positions import decision_scenarios as gnomeville_scenarios
from games.gnomeville.town import SPACE_NAMES
from games.root.cards import STANDARD_DECK
from games.root.lineup import unavailable
from games.root.positions import decision_scenarios as root_scenarios
from games.rumble_nation.board import AREAS
from games.rumble_nation.cards import DAIMYO_CARDS, TACTIC_CARDS
from games.rumble_nation.positions import decision_scenarios as rumble_scenarios
from kassen.wire import options_to_proto
from tests.conftest import Depth
from tests.gnomeville.helpers import random_answer

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
SECTION = "## Decisions a bot faces"
GAMES = ("rumble-nation", "root", "gnomeville")
DOC_OF = {
    "rumble-nation": DOCS / "rumble-nation.md",
    "root": DOCS / "root.md",
    "gnomeville": DOCS / "gnomeville.md",
}
#: The fewest rows a table has (Gnomeville's kinds are few: one row each).
MIN_ROWS = {"rumble-nation": 20, "root": 20, "gnomeville": 16}

NUMBER = r"\d+"
TOKEN = r"[^:]+"  # a placeholder the table below does not name: any one token


def _one_of(ids: list[str]) -> str:
    return "(?:" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + ")"


#: What each placeholder of a game's table stands for (regular expressions).
PLACEHOLDERS: dict[str, dict[str, str]] = {
    "rumble-nation": {
        "area": _one_of([a.id for a in AREAS]),
        "card": _one_of([c.id for c in (*TACTIC_CARDS, *DAIMYO_CARDS)]),
        "castle": NUMBER,
        "soldiers": NUMBER,
        "n": NUMBER,
    },
    "root": {
        "card": _one_of([c.id for c in STANDARD_DECK]),
        # Pieces spent per suit, in the order fox, rabbit, mouse, suits not used left out.
        "spent": r"(?:\d+f(?:/\d+r)?(?:/\d+m)?|\d+r(?:/\d+m)?|\d+m)",
        "n": NUMBER,
    },
    "gnomeville": {
        "space": _one_of(list(SPACE_NAMES)),
        "gnome": _one_of([str(g) for g in range(default_pack().components.gnomes)]),
        "direction": _one_of(list(WORDS)),
        "tile": _one_of([NAMES[t] for t in BUILDINGS]),
        "ability": _one_of([a.id for a in default_pack().abilities]),
    },
}

#: Whether three-player Root games can be played (they need the Woodland Alliance's rules).
THREE_PLAYER_ROOT = unavailable(3) is None

#: Documented kinds that no game can ask, with the reason. Each must be documented and must
#: really never occur in the games played here (both are checked).
UNREACHABLE: dict[str, dict[str, str]] = {
    "rumble-nation": {},
    "root": {
        "eyrie.corner": "the Eyrie's corner is the one opposite the Marquise's keep, always free",
        **(
            {}
            if THREE_PLAYER_ROOT  # three players: two enemies, two others to target
            else {
                "battle.defender": "with two players the only enemy is the defender",
                "effect.codebreakers": "with two players the only other player is the target",
                "effect.stand_and_deliver": "with two players the only other player is the target",
            }
        ),
    },
    "gnomeville": {},
}

#: Documented option patterns no game played here can offer yet, with the reason (only the
#: pattern is exempt, not its decision kind).
UNPLAYED_PATTERNS: dict[str, dict[str, str]] = {
    "root": (
        {}
        if unavailable(4) is None
        else {"coalition:<card>:<seat>": "coalitions need four players, i.e. the Vagabond"}
    ),
}


# -- reading the tables ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    kinds: tuple[str, ...]
    patterns: tuple[str, ...]
    regexes: tuple[re.Pattern[str], ...]

    def matches(self, key: str) -> bool:
        return any(r.fullmatch(key) for r in self.regexes)


def _part(text: str, placeholders: Mapping[str, str]) -> str:
    """One ``:``-separated part of a pattern: alternatives of literals and placeholders."""
    if not text:
        return ""
    alternatives = []
    for alternative in text.split("|"):
        out = []
        for token in re.split(r"(<[^<>]+>|\bN\b)", alternative):
            if token == "N":
                out.append(NUMBER)
            elif token.startswith("<") and token.endswith(">"):
                out.append(placeholders.get(token[1:-1], TOKEN))
            else:
                out.append(re.escape(token))
        alternatives.append("".join(out))
    if len(alternatives) == 1:
        return alternatives[0]
    return "(?:" + "|".join(alternatives) + ")"


def compile_pattern(pattern: str, placeholders: Mapping[str, str]) -> re.Pattern[str]:
    out = []
    for piece in re.split(r"(\[|\])", pattern):
        if piece == "[":
            out.append("(?:")
        elif piece == "]":
            out.append(")?")
        else:
            out.append(":".join(_part(p, placeholders) for p in piece.split(":")))
    return re.compile("".join(out))


def _cells(line: str) -> list[str]:
    assert line.startswith("|") and line.endswith("|"), line
    return [c.strip() for c in re.split(r"(?<!\\)\|", line[1:-1])]


def _kinds(cell: str) -> tuple[str, ...]:
    """Backticked kinds; ``.stage`` abbreviates the previous full name's ``step.`` prefix."""
    found: list[str] = []
    full: str | None = None
    for name in re.findall(r"`([^`]+)`", cell):
        if name.startswith("."):
            assert full is not None, f"{name} abbreviates nothing in {cell!r}"
            name = full.rsplit(".", 1)[0] + name
        else:
            full = name
        assert re.fullmatch(r"[a-z_]+(\.[a-z_]+)?", name), f"not a kind name: {name!r}"
        found.append(name)
    return tuple(found)


@cache
def table(game: str) -> tuple[Row, ...]:
    text = DOC_OF[game].read_text(encoding="utf-8")
    assert SECTION in text, f"{DOC_OF[game]} has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    # The section's first table (a later one, e.g. Gnomeville's shared actions, is not it).
    lines = []
    for line in section.splitlines():
        if line.strip().startswith("|"):
            lines.append(line.strip())
        elif lines:
            break
    header, rule, *body = lines
    assert len(_cells(header)) == 3 and _cells(header)[2] == "option keys", header
    assert set(rule) <= set("|-: "), rule
    rows = []
    for line in body:
        first, _when, keys = _cells(line)
        patterns = tuple(p.replace("\\|", "|") for p in re.findall(r"`([^`]+)`", keys))
        regexes = tuple(compile_pattern(p, PLACEHOLDERS[game]) for p in patterns)
        rows.append(Row(_kinds(first), patterns, regexes))
    return tuple(rows)


def row_of(game: str) -> dict[str, Row]:
    found: dict[str, Row] = {}
    for row in table(game):
        for kind in row.kinds:
            assert kind not in found, f"{game}: {kind} has two rows"
            found[kind] = row
    return found


# -- playing -----------------------------------------------------------------------------------


@dataclass
class Seen:
    """Every decision kind met and the keys offered for it, with where each was first met."""

    keys: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    where: dict[tuple[str, str], str] = field(default_factory=dict)
    duplicates: list[tuple[str, str, list[str]]] = field(default_factory=list)
    wire_mismatches: list[tuple[str, list[str], list[str]]] = field(default_factory=list)
    decisions: int = 0
    #: Gnomeville: the kinds each wire ``action`` occurs in, and options whose action is not
    #: their key's first word (``front``/``back:N`` are action ``side``).
    action_kinds: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    action_mismatches: list[tuple[str, str, str]] = field(default_factory=list)


def _play(game: str, state: GameState, rng: random.Random, label: str, seen: Seen) -> None:
    for _ in range(20_000):
        pending = state.pending()
        if not pending:
            return
        decision = pending[0]
        keys = [o.key for o in decision.options]
        seen.decisions += 1
        if len(set(keys)) != len(keys):
            seen.duplicates.append((label, decision.kind, keys))
        messages = options_to_proto(game, decision)
        wire = [m.key for m in messages]
        if wire != keys:
            seen.wire_mismatches.append((decision.kind, keys, wire))
        if game == "gnomeville":
            for m in messages:
                action = m.gnomeville.action
                seen.action_kinds[action].add(decision.kind)
                word = m.key.split(":", 1)[0]
                if action != ("side" if word in ("front", "back") else word):
                    seen.action_mismatches.append((decision.kind, m.key, action))
        for key in keys:
            seen.keys[decision.kind].add(key)
            seen.where.setdefault((decision.kind, key), label)
        if game == "gnomeville":  # pass and stop only now and then, so towns grow
            state.apply(decision.seat, random_answer(rng, decision))
        else:
            state.apply(decision.seat, rng.randrange(len(decision.options)))


#: Gnomeville's side options, one per seed in turn: the front, the dealt backs, each seat's choice.
GNOMEVILLE_SIDES: tuple[dict[str, str], ...] = ({}, {"sides": "back"}, {"sides": "choose"})


def _games(game: str, slow: bool) -> Iterator[tuple[str, GameState, int]]:
    """(label, start position, random seed) for every game played (more Gnomeville games at
    the slow depth)."""
    engine = get_game(game)
    if game == "gnomeville":
        for variant in engine.variants:
            for players in engine.player_counts:
                for seed in range(12 if slow else 4):
                    options = GNOMEVILLE_SIDES[seed % len(GNOMEVILLE_SIDES)]
                    config = GameConfig(players, variant, options)
                    label = f"{variant} {players}p {options} seed {seed}"
                    yield label, engine.new(config, seed), seed
        for name, prepared in gnomeville_scenarios().items():
            for play in range(3 if slow else 2):
                yield f"position {name} (play {play})", prepared.clone(), play
    elif game == "rumble-nation":
        for variant in ("base", "advanced"):
            for players in (2, 3, 4):
                for seed in range(25):
                    config = GameConfig(players, variant)
                    yield f"{variant} {players}p seed {seed}", engine.new(config, seed), seed
        for seed in range(3):
            for name, position in rumble_scenarios(seed).items():
                for play in range(4):
                    yield f"position {name} ({seed}, play {play})", position.clone(), play
    else:
        for board in ("autumn", "winter"):
            for seed in range(12):
                config = GameConfig(2, board, {"games": 1})
                yield f"{board} one game seed {seed}", engine.new(config, seed), seed
            # The referee always plays the full two-game contest.
            yield f"{board} contest seed 100", engine.new(GameConfig(2, board), 100), 100
            if THREE_PLAYER_ROOT:  # one game of Marquise, Eyrie and Woodland Alliance
                for seed in range(8):
                    state = engine.new(GameConfig(3, board), seed)
                    yield f"{board} three players seed {seed}", state, seed
            if unavailable(4) is None:  # one game of all four factions
                for seed in range(8):
                    state = engine.new(GameConfig(4, board), seed)
                    yield f"{board} four players seed {seed}", state, seed
        for name, scenario in root_scenarios().items():
            for play in range(3):
                yield f"position {name} (play {play})", scenario.clone(), play


@cache
def seen(game: str, slow: bool = False) -> Seen:
    found = Seen()
    for label, state, seed in _games(game, slow):
        _play(game, state, random.Random(seed), f"{game} {label}", found)
    return found


# -- the pattern reader itself -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "key", "expected"),
    [
        ("place:<castle>:<soldiers>[:daimyo]", "place:7:2", True),
        ("place:<castle>:<soldiers>[:daimyo]", "place:9:0:daimyo", True),
        ("place:<castle>:<soldiers>[:daimyo]", "place:7", False),
        ("place:<castle>:<soldiers>[:daimyo]", "place:7:2:daimyo:x", False),
        ("<area>", "kyo", True),
        ("<area>", "area:kyo", False),
        ("<area>", "stop", False),
        ("seat:<n>", "seat:3", True),
        ("seat:<n>", "seat:x", False),
        ("column:recruit|move|battle|build", "column:move", True),
        ("column:recruit|move|battle|build", "column:turmoil", False),
        ("clearing:N", "clearing:12", True),
        ("clearing:N", "clearing:", False),
        ("craft:<card>[:<spent>]", "craft:anvil", True),
        ("craft:<card>[:<spent>]", "craft:royal_claim:2f/1r/1m", True),
        ("craft:<card>[:<spent>]", "craft:royal_claim:1r/2f", False),
        ("craft:<card>[:<spent>]", "craft:no_such_card", False),
        ("use:<effect>", "use:cobbler", True),  # a name with no set: any one token
        ("use:<effect>", "use:a:b", False),
        ("move:<gnome>:<direction>", "move:0:N", True),  # a bare N is a number, <direction> not
        ("move:<gnome>:<direction>", "move:2:SW", True),
        ("move:<gnome>:<direction>", "move:3:N", False),
        ("move:<gnome>:<direction>", "move:0:NNE", False),
        ("place:<space>", "place:e5", True),
        ("place:<space>", "place:f1", False),
        ("keep:<ability>", "keep:second-look", True),
        ("buy:<tile>", "buy:gnome", False),
        ("back:2|3|4|5", "back:5", True),
        ("back:2|3|4|5", "back:1", False),
    ],
)
def test_patterns_read_as_documented(pattern: str, key: str, expected: bool) -> None:
    placeholders = {**PLACEHOLDERS["rumble-nation"], **PLACEHOLDERS["root"]}
    placeholders |= PLACEHOLDERS["gnomeville"]
    assert bool(compile_pattern(pattern, placeholders).fullmatch(key)) is expected


@pytest.mark.parametrize("game", GAMES)
def test_table_rows_name_kinds_and_keys(game: str) -> None:
    rows = table(game)
    assert len(rows) >= MIN_ROWS[game]
    for row in rows:
        assert row.kinds and row.patterns, row
    row_of(game)  # no kind in two rows
    assert set(UNREACHABLE[game]) <= set(row_of(game)), "an unreachable kind is not documented"


# -- the docs against the engines --------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_kind_asked_is_documented(game: str, depth: Depth) -> None:
    rows = row_of(game)
    found = seen(game, depth.slow)
    undocumented = {k: sorted(found.keys[k])[:5] for k in found.keys if k not in rows}
    assert not undocumented, f"{DOC_OF[game].name} lacks rows for {undocumented}"


@pytest.mark.parametrize("game", GAMES)
def test_every_key_offered_matches_its_row(game: str, depth: Depth) -> None:
    rows = row_of(game)
    found = seen(game, depth.slow)
    wrong = sorted(
        (kind, key, found.where[kind, key])
        for kind, keys in found.keys.items()
        if kind in rows
        for key in keys
        if not rows[kind].matches(key)
    )
    assert not wrong, f"keys not matching {DOC_OF[game].name}: {wrong[:20]}"


@pytest.mark.parametrize("game", GAMES)
def test_every_documented_kind_occurs(game: str, depth: Depth) -> None:
    found = seen(game, depth.slow)
    documented = set(row_of(game))
    unreachable = set(UNREACHABLE[game])
    missing = documented - set(found.keys) - unreachable
    assert not missing, f"documented in {DOC_OF[game].name} but never asked: {sorted(missing)}"
    reached = unreachable & set(found.keys)
    assert not reached, f"listed as unreachable but asked: {sorted(reached)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_documented_pattern_is_used(game: str, depth: Depth) -> None:
    found = seen(game, depth.slow)
    unused = []
    for row in table(game):
        if all(kind in UNREACHABLE[game] for kind in row.kinds):
            continue
        keys = set().union(*(found.keys.get(kind, set()) for kind in row.kinds))
        for pattern, regex in zip(row.patterns, row.regexes, strict=True):
            if pattern in UNPLAYED_PATTERNS.get(game, {}):
                continue
            if not any(regex.fullmatch(key) for key in keys):
                unused.append((row.kinds, pattern))
    assert not unused, f"patterns no key matched: {unused}"


@pytest.mark.parametrize("game", GAMES)
def test_keys_are_unique_within_a_decision(game: str, depth: Depth) -> None:
    found = seen(game, depth.slow)
    assert found.decisions > 1000
    assert not found.duplicates, found.duplicates[:5]


@pytest.mark.parametrize("game", GAMES)
def test_the_referee_sends_the_engine_keys(game: str, depth: Depth) -> None:
    found = seen(game, depth.slow)
    assert found.decisions > 1000
    assert not found.wire_mismatches, found.wire_mismatches[:5]


# -- Gnomeville: actions that occur in more than one kind ------------------------------------

SHARED = "**Read an option with its decision's kind.**"


def shared_actions_table() -> dict[str, set[str]]:
    """docs/games/gnomeville.md's table of actions that occur in more than one kind."""
    text = DOC_OF["gnomeville"].read_text(encoding="utf-8")
    assert SHARED in text, f"docs/games/gnomeville.md has no paragraph {SHARED!r}"
    after = text.split(SHARED, 1)[1].split("\n\n", 2)[1]
    lines = [line.strip() for line in after.splitlines() if line.strip().startswith("|")]
    header, _rule, *body = lines
    assert _cells(header)[:2] == ["action", "kinds"], header
    found = {}
    for line in body:
        action, kinds, *_ = _cells(line)
        found[action.strip("`")] = set(re.findall(r"`([^`]+)`", kinds))
    return found


def test_the_action_on_the_wire_is_the_keys_first_word(depth: Depth) -> None:
    found = seen("gnomeville", depth.slow)
    assert found.action_kinds, "no Gnomeville option was seen"
    assert not found.action_mismatches, found.action_mismatches[:5]


def test_the_docs_list_every_action_shared_between_kinds(depth: Depth) -> None:
    """A bot that reads ``action`` without ``kind`` confuses these; the list must be whole."""
    found = seen("gnomeville", depth.slow)
    shared = {a: kinds for a, kinds in found.action_kinds.items() if len(kinds) > 1}
    assert "keep" in shared  # the tile drawn, or an ability card
    assert shared_actions_table() == shared
