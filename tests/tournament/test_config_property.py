"""Generated malformed tournament files: mutations of a valid file — a value of
the wrong type, a number out of its range, a key no section has, a required key missing, a
choice that does not exist — are each refused by ``kassen tournament run`` with exit code 2
and exactly one line on stderr starting ``kassen:``, no traceback, and nothing written.

The command line runs in-process (``kassen.cli.main``: the same checks and exit codes as the
program) for the generated cases; a few run as real processes."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen.cli import main
from server.settings import MAX_DECISIONS_LIMIT, MAX_SEED, MAX_TIME_MS
from tests.conftest import Depth
from tests.tournament.test_tournament_cli import kassen
from tournament.config import load_file, validate
from tournament.config_schema import SECTIONS

Toml = dict[str, Any]


def valid(folder: Path) -> Toml:
    """A file that runs (checked below): every mutation of it must not."""
    return {
        "tournament": {
            "name": "weekly",
            "game": "rumble-nation",
            "variant": "base",
            "players": 2,
            "format": "round-robin",
            "games_per_group": 2,
            "seed": 1,
            "deals": "duplicate",
            "concurrency": 1,
            "failure_policy": "forfeit",
            "database": f"sqlite:///{folder / 'k.sqlite'}",
            "output": str(folder / "out"),
            "replays": False,
            "max_decisions": 100,
            "time_control": {"decision_ms": 100, "bank_ms": 1000},
        },
        "bots": [{"name": "a", "builtin": "random"}, {"name": "b", "builtin": "greedy"}],
    }


# ------------------------------------------------------------------------------ TOML text


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, except DEL, which TOML wants escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def to_toml(document: Toml) -> str:
    """The document as TOML: tables as ``[a.b]`` sections, arrays of tables as ``[[bots]]``,
    everything else inline (a mutated value may be of any type)."""
    lines: list[str] = []

    def table(name: str, body: dict[str, Any]) -> None:
        lines.append(f"[{name}]")
        subtables = {k: v for k, v in body.items() if isinstance(v, dict) and v}
        for key, value in body.items():
            if key not in subtables:
                lines.append(f"{toml_key(key)} = {toml_value(value)}")
        for key, value in subtables.items():
            table(f"{name}.{toml_key(key)}", value)

    for key, value in document.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for entry in value:
                lines.append(f"[[{toml_key(key)}]]")
                lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in entry.items()]
        elif isinstance(value, dict):
            table(toml_key(key), value)
        else:
            lines.insert(0, f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ mutations

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
scalars = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.booleans(),
    text,
)
any_value = st.one_of(
    scalars, st.lists(scalars, max_size=3), st.dictionaries(text, scalars, max_size=2)
)


def below(low: int) -> st.SearchStrategy[int]:
    return st.integers(-(2**70), low - 1)


def above(high: int) -> st.SearchStrategy[int]:
    return st.integers(high + 1, 2**70)


#: Where each checked key lives, and values of every other type and outside its range. The
#: ranges are the protocol's (``server/settings.py``) or plainly absurd, not the schema's.
WHOLE = ("tournament",)
CLOCK = ("tournament", "time_control")
NUMBERS: dict[tuple[tuple[str, ...], str], st.SearchStrategy[int]] = {
    (WHOLE, "players"): st.one_of(below(1), above(4)),  # Rumble Nation: 2 to 4 (1: solo)
    (WHOLE, "games_per_group"): st.one_of(below(1), above(10**7)),
    (WHOLE, "seed"): st.one_of(below(0), above(MAX_SEED)),
    (WHOLE, "concurrency"): st.one_of(below(1), above(10_000)),
    (WHOLE, "max_decisions"): st.one_of(below(1), above(MAX_DECISIONS_LIMIT)),
    (CLOCK, "decision_ms"): st.one_of(below(1), above(MAX_TIME_MS)),
    (CLOCK, "bank_ms"): st.one_of(below(0), above(MAX_TIME_MS)),
}
TEXTS = [(WHOLE, k) for k in ("name", "game", "format", "deals", "failure_policy")]
CHOICES = [(WHOLE, k) for k in ("format", "deals", "failure_policy")]
TABLES: list[tuple[str, ...]] = [(), WHOLE, CLOCK]

Mutation = Callable[[Toml], None]


def place(document: Toml, path: tuple[str, ...]) -> dict[str, Any]:
    table: dict[str, Any] = document
    for key in path:
        table = table[key]
    return table


@st.composite
def wrong_type(draw: st.DrawFn) -> Mutation:
    path, key = draw(st.sampled_from([*NUMBERS, *TEXTS, (WHOLE, "replays")]))
    if (path, key) in TEXTS:
        value = draw(any_value.filter(lambda v: not isinstance(v, str)))
    elif key == "replays":
        value = draw(any_value.filter(lambda v: not isinstance(v, bool)))
    else:
        value = draw(any_value.filter(lambda v: not isinstance(v, int) or isinstance(v, bool)))
    return lambda document: place(document, path).__setitem__(key, value)


@st.composite
def a_table_made_scalar(draw: st.DrawFn) -> Mutation:
    path = draw(st.sampled_from([WHOLE, CLOCK, ("bots",)]))
    value = draw(scalars)

    def mutate(document: Toml) -> None:
        place(document, path[:-1])[path[-1]] = value

    return mutate


@st.composite
def out_of_range(draw: st.DrawFn) -> Mutation:
    (path, key), values = draw(st.sampled_from(list(NUMBERS.items())))
    value = draw(values)
    return lambda document: place(document, path).__setitem__(key, value)


@st.composite
def unknown_key(draw: st.DrawFn) -> Mutation:
    where = draw(st.sampled_from([*TABLES, ("bots", "0")]))
    section = "bots" if where == ("bots", "0") else ".".join(where)
    key = draw(text.filter(lambda k: k not in SECTIONS[section]))  # the file format's keys
    value = draw(any_value)

    def mutate(document: Toml) -> None:
        table = document["bots"][0] if section == "bots" else place(document, where)
        table[key] = value

    return mutate


@st.composite
def missing_required(draw: st.DrawFn) -> Mutation:
    which = draw(st.sampled_from(["bots", "a bot's name", "a bot's kind", "one bot"]))

    def mutate(document: Toml) -> None:
        if which == "bots":
            del document["bots"]
        elif which == "a bot's name":
            del document["bots"][1]["name"]
        elif which == "a bot's kind":
            del document["bots"][0]["builtin"]  # "a" alone is no built-in bot
        else:
            del document["bots"][1]  # two players need two bots

    return mutate


@st.composite
def unknown_choice(draw: st.DrawFn) -> Mutation:
    path, key = draw(st.sampled_from(CHOICES))
    known = {"round-robin", "gauntlet", "swiss", "duplicate", "fresh", "forfeit", "void"}
    value = draw(text.filter(lambda v: v not in known))
    return lambda document: place(document, path).__setitem__(key, value)


mutations = st.lists(
    st.one_of(
        wrong_type(),
        a_table_made_scalar(),
        out_of_range(),
        unknown_key(),
        missing_required(),
        unknown_choice(),
    ),
    min_size=1,
    max_size=3,
)


def malformed(folder: Path, changes: list[Mutation]) -> str:
    document = copy.deepcopy(valid(folder))
    for change in changes:
        # An earlier change may have removed or replaced what this one changes.
        with contextlib.suppress(KeyError, IndexError, TypeError, AttributeError):
            change(document)
    return to_toml(document)


def run_in_process(folder: Path, toml_text: str) -> tuple[int, str]:
    path = folder / "t.toml"
    path.write_text(toml_text, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["tournament", "run", str(path), "--quiet"])
    return code, err.getvalue()


def test_the_valid_file_is_valid(tmp_path: Path) -> None:
    """Without this, a mutation could be refused for a reason of the base file."""
    path = tmp_path / "t.toml"
    path.write_text(to_toml(valid(tmp_path)), encoding="utf-8")
    validate(load_file(path))


def test_the_toml_writer_round_trips(tmp_path: Path) -> None:
    import tomllib

    document = valid(tmp_path)
    document["tournament"]["name"] = 'we"ird\\\x00\x7f\n é'
    assert tomllib.loads(to_toml(document)) == document


def test_every_malformed_file_is_one_line_exit_2_and_nothing_written(depth: Depth) -> None:
    @settings(
        max_examples=depth(fast=150, slow=1500),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(changes=mutations)
    def check(changes: list[Mutation]) -> None:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            code, err = run_in_process(folder, malformed(folder, changes))
            lines = err.splitlines()
            assert code == 2, err
            assert len(lines) == 1 and lines[0].startswith("kassen:"), err
            assert "Traceback" not in err
            assert [p.name for p in folder.iterdir()] == ["t.toml"], "nothing is written"

    check()


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["tournament"]["time_control"].__setitem__("bank_ms", -1),
        lambda d: d["tournament"].__setitem__("games_per_group", 10**9),
        lambda d: d["tournament"].__setitem__("seed", 2**64),
        lambda d: d.__setitem__("tournamnet", {"players": 2}),
        lambda d: d["bots"][0].pop("name"),
    ],
)
def test_malformed_files_in_a_real_process(tmp_path: Path, change: Mutation) -> None:
    document = valid(tmp_path)
    change(document)
    (tmp_path / "t.toml").write_text(to_toml(document), encoding="utf-8")
    result = kassen("tournament", "run", "t.toml", "--quiet", cwd=tmp_path, timeout=60)
    lines = result.stderr.splitlines()
    assert result.returncode == 2
    assert len(lines) == 1 and lines[0].startswith("kassen:"), result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["t.toml"]
