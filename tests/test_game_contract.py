"""One contract, no per-game branches outside a game's folder.

Everything the rest of Kassen needs from a game - the rules, the prepared positions of ``kassen
bot check``, the built-in bots' pieces - is registered with the game (``games.registry``, the
``hooks`` of its ``GAME``: ``games.contract.Hooks``) and found by looking the game up. So a
new game is added inside ``games/<game>/`` (plus its line in the registry and, if it has its
own observation message, its wire adapter). The scan below keeps it so; the second half checks
that a game registered with hooks is found through the registry alone.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.contract import (
    Decision,
    Event,
    GameConfig,
    GameState,
    Hooks,
    Option,
    Outcome,
    hooks_of,
    load_hook,
)
from games.policies import DecisionContext, make_policy
from games.policies.ismcts import IsmctsPolicy
from games.policies.ismcts_games import NoRebuild, evaluation_for, rebuild_for, rollout_for
from games.policies.ismcts_params import FALLBACK, IsmctsParams, parse_spec
from games.policies.registry import UnknownPolicy
from server.conformance import decision_scenarios, whole_games

REPO = Path(__file__).resolve().parents[1]
#: Never scanned: tests, docs and generated or installed files.
SKIPPED_DIRS = {"tests", "docs", "build", "dist", "__pycache__", "node_modules"}

#: Files outside ``games/<game>/`` that may name a game in code, and why. Each is data or a
#: per-game adapter that by nature belongs to one game, not a branch of shared logic.
ALLOWED: dict[str, str] = {
    # The one list of games: it imports each game's GAME (its registration).
    "games/registry.py": "the registry",
    # Each game's wire adapter: its own proto messages (games/ must not depend on protobuf);
    # kassen/wire/__init__.py looks the adapter up by its GAME (no branch).
    "kassen/wire/rumble_nation.py": "wire adapter",
    "kassen/wire/root.py": "wire adapter",
    "kassen/wire/gnomeville.py": "wire adapter",
    # The web viewer's drawings of the boards (map coordinates per game and map): data.
    "tournament/ladder_service/web/boards.py": "web viewer drawings",
    # An example bot in the docs: a bot over the wire may know the game it plays.
    "examples/python/bot.py": "example bot",
    # Benchmarks of one engine name it; the others' tables are each game's setup and target
    # times, measurement data (the search benchmark finds rebuild through the registry).
    "benchmarks/engine.py": "benchmark of one engine",
    "benchmarks/root_engine.py": "benchmark of one engine",
    "benchmarks/root_field.py": "benchmark of one engine",
    "benchmarks/gnomeville_engine.py": "benchmark of one engine",
    "benchmarks/search.py": "benchmark data: setups and target times per game",
    "benchmarks/referee.py": "benchmark data: setups per game",
}


def game_packages() -> dict[str, str]:
    """Each registered game's package folder under games/, by its registered name."""
    found = {}
    for name, game in registry.games().items():
        module = type(game).__module__  # games.<package>.game
        parts = module.split(".")
        assert parts[0] == "games" and len(parts) >= 2, module
        found[name] = parts[1]
    return found


def names() -> frozenset[str]:
    """Every spelling of a game a branch could use: registered names and package names."""
    packages = game_packages()
    return frozenset(packages) | frozenset(packages.values())


def sources() -> Iterator[Path]:
    packages = set(game_packages().values())
    for path in sorted(REPO.rglob("*.py")):
        parts = path.relative_to(REPO).parts
        if any(p in SKIPPED_DIRS or p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        if len(parts) > 2 and parts[0] == "games" and parts[1] in packages:
            continue  # inside a game's own folder
        if parts[:2] == ("kassen", "v1"):
            continue  # generated from proto/
        yield path


def _is_name(node: ast.AST, game_names: frozenset[str]) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in game_names
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(e, game_names) for e in node.elts)
    return False


def branches(tree: ast.AST, game_names: frozenset[str]) -> Iterator[tuple[int, str]]:
    """Where code names a game: a comparison or a ``match`` case on a game's name, a table
    keyed by game names, or an import (or an import path) of a game's package."""
    packages = {n for n in game_names if n.isidentifier()}
    game_modules = tuple(f"games.{p}" for p in packages)

    def is_game_module(name: str) -> bool:
        return any(name == m or name.startswith(m + ".") for m in game_modules)

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            if any(_is_name(n, game_names) for n in (node.left, *node.comparators)):
                yield node.lineno, "compares with a game's name"
        elif isinstance(node, ast.match_case):
            if any(
                isinstance(p, ast.MatchValue) and _is_name(p.value, game_names)
                for p in ast.walk(node.pattern)
            ):
                yield node.pattern.lineno, "matches a game's name"
        elif isinstance(node, ast.Dict):
            if any(k is not None and _is_name(k, game_names) for k in node.keys):
                yield node.lineno, "a table keyed by game names"
        elif isinstance(node, ast.ImportFrom):
            if node.module and is_game_module(node.module):
                yield node.lineno, f"imports {node.module}"
            elif node.module == "games" and any(a.name in packages for a in node.names):
                yield node.lineno, "imports a game's package"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if is_game_module(alias.name):
                    yield node.lineno, f"imports {alias.name}"
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and is_game_module(node.value.partition(":")[0])
        ):
            yield node.lineno, f"names the module {node.value}"


def test_no_code_outside_a_games_folder_branches_on_a_games_name() -> None:
    game_names = names()
    found = []
    for path in sources():
        relative = path.relative_to(REPO).as_posix()
        if relative in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{relative}:{line}: {what}" for line, what in branches(tree, game_names)]
    assert not found, "look the game up in games.registry instead:\n" + "\n".join(found)


def test_the_allow_list_holds_only_files_that_need_it() -> None:
    """An allowed file that no longer names a game leaves the list (it would hide a new one)."""
    game_names = names()
    for relative in ALLOWED:
        path = REPO / relative
        assert path.exists(), relative
        tree = ast.parse(path.read_text(encoding="utf-8"), relative)
        assert list(branches(tree, game_names)), f"{relative} names no game: drop it from ALLOWED"


@pytest.mark.parametrize(
    ("code", "hits"),
    [
        ('if game == "root": pass', 1),
        ('x = game in ("gnomeville", "other")', 1),
        ('match game:\n    case "rumble-nation": pass', 1),
        ('TABLE = {"root": f}', 1),
        ("from games.root.state import RootState", 1),
        ("import games.gnomeville.view", 1),
        ("from games import rumble_nation", 1),
        ('m = importlib.import_module("games.root.evaluate")', 1),
        ('game: str = "rumble-nation"', 0),  # a default value, not a branch
        ("if node is root: pass", 0),
    ],
)
def test_the_scan_sees_each_kind_of_branch(code: str, hits: int) -> None:
    assert len(list(branches(ast.parse(code), names()))) == hits


def test_every_game_registers_its_hooks() -> None:
    for name, game in registry.games().items():
        hooks = hooks_of(game)
        assert hooks.rebuild and hooks.greedy and hooks.decision_scenarios, name
        package = game_packages()[name]
        refs = [
            hooks.decision_scenarios,
            hooks.check_games,
            hooks.greedy,
            hooks.rebuild,
            hooks.evaluation,
            hooks.greedy_rollout,
            hooks.rollout_sight,
        ]
        for ref in filter(None, refs):
            assert ref.startswith(f"games.{package}."), ref  # a game's hooks are its own code
            assert load_hook(ref) is not None
        assert set(hooks.search_defaults) <= set(FALLBACK), name


# ----------------------------------------------------------------- a game found by hooks alone

TOY = "toy-contract"
OPTIONS = (Option("a", "a", ("a",)), Option("b", "b", ("b",)))


class ToyState(GameState):
    """Two seats alternate ``rounds`` times choosing a or b; b scores a point."""

    def __init__(self, config: GameConfig, seed: int, rounds: int = 4) -> None:
        self.config = config
        self.seed = seed
        self.history: list[tuple[int, int]] = []
        self.rounds = rounds
        self.scores = [0, 0]

    def pending(self) -> tuple[Decision, ...]:
        if len(self.history) >= self.rounds:
            return ()
        return (Decision(len(self.history) % 2, "toy.pick", OPTIONS),)

    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        self.scores[seat] += option_index
        self.history.append((seat, option_index))
        return ()

    def observe(self, seat: int | None) -> Any:
        return (tuple(self.scores), len(self.history), self.rounds)

    def outcome(self) -> Outcome | None:
        if self.pending():
            return None
        return Outcome(tuple(self.scores), tuple(sorted((0, 1), key=lambda s: -self.scores[s])))

    def adjudicate(self) -> Outcome:
        return Outcome(tuple(self.scores), tuple(sorted((0, 1), key=lambda s: -self.scores[s])))

    def clone(self) -> ToyState:
        copy = ToyState(self.config, self.seed, self.rounds)
        copy.history = list(self.history)
        copy.scores = list(self.scores)
        return copy

    def determinize(self, seat: int, seed: int) -> GameState:
        return self.clone()

    def canonical(self) -> tuple[Any, ...]:
        return (tuple(self.history), tuple(self.scores))

    @classmethod
    def from_view(cls, view: Any, seed: int) -> ToyState:
        scores, played, rounds = view
        state = cls(GameConfig(2), seed, rounds)
        state.scores = list(scores)
        state.history = [(i % 2, 0) for i in range(played)]
        return state


class ToyGreedy:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, ctx: DecisionContext) -> int:
        return 1


def toy_scenarios() -> Mapping[str, GameState]:
    return {"toy.last": ToyState(GameConfig(2), 1, rounds=1)}


def toy_check_games(game: Any) -> list[GameConfig]:
    return [GameConfig(2, "small"), GameConfig(2, "large")]


def projected(state: ToyState) -> tuple[float, ...]:
    return tuple(float(s) for s in state.scores)


def stage(state: ToyState) -> int:
    return len(state.history) // 2


CALLS: list[str] = []


def toy_rollout(state: GameState, decision: Decision, rng: random.Random) -> int:
    CALLS.append("rollout")
    return 1


HERE = __name__
TOY_HOOKS = Hooks(
    decision_scenarios=f"{HERE}:toy_scenarios",
    check_games=f"{HERE}:toy_check_games",
    greedy=f"{HERE}:ToyGreedy",
    rebuild=f"{HERE}:ToyState.from_view",
    evaluation=HERE,
    greedy_rollout=f"{HERE}:toy_rollout",
    search_defaults={"iterations": 7, "rollout": "greedy", "leaf": "stage"},
)


class Toy:
    name: str = TOY
    title: str = "Toy"
    variants: tuple[str, ...] = ("small", "large")
    player_counts: tuple[int, ...] = (2,)
    option_keys: tuple[str, ...] = ()
    hooks: Hooks | None = TOY_HOOKS

    def new(self, config: GameConfig, seed: int) -> ToyState:
        return ToyState(config, seed)

    def describe(self, event: Event) -> str:
        return event.kind


class Bare(Toy):
    """A game that registers no hooks."""

    name = "toy-bare"
    hooks = None


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.games(), TOY, Toy())
    monkeypatch.setitem(registry.games(), Bare.name, Bare())


@pytest.mark.usefixtures("registered")
def test_conformance_finds_a_games_scenarios_and_games_through_the_registry() -> None:
    scenarios = decision_scenarios(TOY)
    assert list(scenarios) == ["toy.last"] and isinstance(scenarios["toy.last"], ToyState)
    assert whole_games(Toy()) == [GameConfig(2, "small"), GameConfig(2, "large")]
    # Without hooks: no scenarios, and the default whole games.
    assert decision_scenarios(Bare.name) == {}
    assert whole_games(Bare()) == [GameConfig(2, "small"), GameConfig(2, "large")]
    assert decision_scenarios("no-such-game") == {}


@pytest.mark.usefixtures("registered")
def test_the_search_bot_finds_a_games_pieces_through_the_registry() -> None:
    assert rebuild_for(TOY) == ToyState.from_view
    evaluation = evaluation_for(TOY)
    assert evaluation is not None and evaluation[0] is projected and evaluation[1] is stage
    assert rollout_for(TOY, "greedy", 1) is toy_rollout
    assert isinstance(make_policy("greedy", TOY, 3), ToyGreedy)
    settings = IsmctsParams().resolved(TOY)
    assert (settings.iterations, settings.rollout, settings.leaf) == (7, "greedy", "stage")

    CALLS.clear()
    policy = make_policy("ismcts", TOY, 5)
    assert isinstance(policy, IsmctsPolicy)
    state = Toy().new(GameConfig(2, "small"), 1)
    while state.pending():
        decision = state.pending()[0]
        observe = partial(state.observe, decision.seat)
        index = policy.choose(DecisionContext(TOY, decision.seat, decision, observe))
        assert 0 <= index < len(decision.options)
        state.apply(decision.seat, index)
    assert CALLS, "the search's rollouts used the game's registered greedy_rollout"


@pytest.mark.usefixtures("registered")
def test_a_game_without_hooks_gets_the_defaults_or_a_clear_refusal() -> None:
    with pytest.raises(NoRebuild, match="no rebuild for toy-bare"):
        rebuild_for(Bare.name)
    assert evaluation_for(Bare.name) is None
    with pytest.raises(UnknownPolicy, match="no greedy policy for toy-bare"):
        make_policy("greedy", Bare.name)
    with pytest.raises(UnknownPolicy, match="ismcts has no rebuild for toy-bare"):
        make_policy("ismcts", Bare.name)
    assert parse_spec("ismcts").resolved(Bare.name).iterations == FALLBACK["iterations"]
