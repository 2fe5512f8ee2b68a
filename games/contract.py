"""The one contract every game engine follows.

A game is a pure, deterministic state machine. All chance comes from the state's own seeded
random generator, so ``(config, seed, decisions)`` fully determines a game. The referee, the
SDK and the tournament runner only ever talk to games through the types in this module.

Shape of a game, in the style of OpenSpiel: ``Game.new(config, seed)`` makes a state; the
state lists what it waits for in ``pending()``; a seat answers with ``apply(seat, index)``.
A decision is always *small*: compound moves are sequences of decisions, and every option
offered can still be completed legally. A decision with a single legal option is never asked:
the engine takes it by itself, which saves every bot a pointless round trip.
"""

from __future__ import annotations

import hashlib
import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, Protocol


class IllegalDecision(ValueError):
    """An answer that the rules do not allow (wrong seat, no such option, game over)."""


class InvalidConfig(ValueError):
    """A configuration the game cannot be played with (unknown variant, player count...)."""


class Option(NamedTuple):
    """One legal answer to a decision.

    ``key`` is stable across versions and languages (bots may match on it), ``label`` is for
    people, ``value`` is the engine's own payload (a tuple of plain values).
    """

    key: str
    label: str
    value: tuple[Any, ...] = ()


class Decision(NamedTuple):
    """What one seat must decide now: a stable ``kind`` name and the legal options."""

    seat: int
    kind: str
    options: tuple[Option, ...]


class Event(NamedTuple):
    """Something that happened, for logs, spectators and bots.

    Events carry public facts only, unless ``private_to`` names the one seat allowed to see it.
    """

    kind: str
    data: Mapping[str, Any]
    private_to: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The final result: scores per seat and the full ranking (best first).

    Ties are broken by each game's rules, so places are not shared, except where the rules
    make several seats share a place: ``shared`` lists such groups (a Root coalition's two
    winners, ruling RT23; Gnomeville players still tied after every tie-break, ruling G50),
    each one consecutive in ``ranking``; its seats share the place of the first of them.
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    tiebreak: Mapping[str, Any] = field(default_factory=dict)
    shared: tuple[tuple[int, ...], ...] = ()

    def rank_of(self, seat: int) -> int:
        """1-based place of ``seat`` (seats of a ``shared`` group have the same place)."""
        for group in self.shared:
            if seat in group:
                return min(self.ranking.index(s) for s in group) + 1
        return self.ranking.index(seat) + 1


@dataclass(frozen=True, slots=True)
class GameConfig:
    """How a game is set up: number of players, variant name and game-specific options."""

    players: int
    variant: str = "base"
    options: Mapping[str, Any] = field(default_factory=dict)


class GameState(ABC):
    """A game in progress. Subclasses implement the rules of one game."""

    config: GameConfig
    seed: int
    #: Every decision answered so far, as (seat, option index): with the seed, the replay.
    history: list[tuple[int, int]]

    @abstractmethod
    def pending(self) -> tuple[Decision, ...]:
        """The decisions the game waits for now (empty once the game is over).

        Turn-based games wait for one seat; simultaneous phases list one decision per seat.
        """

    @abstractmethod
    def apply(self, seat: int, option_index: int) -> tuple[Event, ...]:
        """Answer the pending decision of ``seat``; return the events it caused.

        Raises :class:`IllegalDecision` (and changes nothing) if the answer is not allowed.
        """

    @abstractmethod
    def observe(self, seat: int | None) -> Any:
        """Exactly what ``seat`` may know; ``None`` is the public view for spectators."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy (same hidden information and same random stream)."""

    @abstractmethod
    def determinize(self, seat: int, seed: int) -> GameState:
        """A copy in which everything ``seat`` cannot know is resampled consistently with its
        view, and future chance is reseeded: what a fair search bot may plan with."""

    def adjudicate(self) -> Outcome:
        """A ranking for a game stopped before its end (the referee's decision limit).

        Each game says how its unfinished position is scored; see its rulings.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot be adjudicated")

    @abstractmethod
    def canonical(self) -> tuple[Any, ...]:
        """The complete state as plain values; equal states give equal tuples."""

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def digest(self) -> str:
        """A short fingerprint of the complete state, for replay verification."""
        return hashlib.sha256(repr(self.canonical()).encode()).hexdigest()[:16]


def answered(pending: tuple[Decision, ...], seat: int, option_index: int) -> Decision:
    """The decision ``seat`` answers with ``option_index``; :class:`IllegalDecision` naming
    the problem if the game is over, it is not that seat's decision or the index is out of
    range. Turn-based engines call this first in ``apply``."""
    if not pending:
        raise IllegalDecision("the game is over")
    decision = pending[0]
    if seat != decision.seat:
        raise IllegalDecision(f"seat {seat} is not to decide now (seat {decision.seat} is)")
    if not 0 <= option_index < len(decision.options):
        raise IllegalDecision(
            f"option {option_index} out of range (0..{len(decision.options) - 1})"
        )
    return decision


class Game(Protocol):
    """A registered game: its names, what it supports, and how to start one."""

    name: str
    title: str
    variants: tuple[str, ...]
    player_counts: tuple[int, ...]
    #: The names ``GameConfig.options`` may use (any other is refused by ``check_config``).
    option_keys: tuple[str, ...]

    def new(self, config: GameConfig, seed: int) -> GameState: ...

    def describe(self, event: Event) -> str:
        """One readable line for a log."""
        ...

    # Optional (read with ``getattr``, a game may leave them out): ``hooks``, a ``Hooks``.


@dataclass(frozen=True, slots=True)
class Hooks:
    """The optional pieces of a game that the server, the built-in bots and the tools find by
    looking the game up (``hooks_of``), so that no code outside a game's folder names a game.

    A game registers them as its ``hooks`` attribute. Each piece of code is named
    ``"module:attribute"`` and imported only when first used (``load_hook``): registering
    costs no import. A piece left out takes the default said below.
    """

    #: ``() -> Mapping[str, GameState]``: prepared positions that make seat 0 meet the game's
    #: rare kinds of decision (``kassen bot check``). Default: none.
    decision_scenarios: str | None = None
    #: ``(game) -> list[GameConfig]``: the whole games ``kassen bot check`` plays. Default:
    #: the first variant with the fewest players, then each other variant with the most.
    check_games: str | None = None
    #: ``(seed) -> Policy``: the game's ``greedy`` bot. Default: none (``greedy`` is refused).
    greedy: str | None = None
    #: ``(view, seed) -> GameState``: a playable position rebuilt from one seat's view, what
    #: it cannot see sampled (``from_view``). Default: none (no ``ismcts`` bot).
    rebuild: str | None = None
    #: A module with ``projected(state)`` (each seat's projected final score) and
    #: ``stage(state)`` (the scoring stages passed): ``ismcts``'s ``leaf=evaluate``/``stage``.
    #: Default: none (the rules' ``adjudicate()`` judges an unfinished rollout).
    evaluation: str | None = None
    #: ``(state, decision, rng) -> int``: the greedy bot's choice made on a rollout's
    #: determinized state itself. Default: the ``greedy`` bot shown ``rollout_sight``.
    greedy_rollout: str | None = None
    #: ``(state, seat) -> view``: what the greedy bot is shown in a rollout. Default: the
    #: seat's observation, ``state.observe(seat)``.
    rollout_sight: str | None = None
    #: ``ismcts`` parameters this game's search takes when they are not given (names and
    #: values as in ``games/policies/ismcts_params.py``). Default: none (the general ones).
    search_defaults: Mapping[str, Any] = field(default_factory=dict)


NO_HOOKS = Hooks()


def hooks_of(game: Game | None) -> Hooks:
    """The hooks ``game`` registers (``NO_HOOKS`` for a game without, or for ``None``)."""
    found = getattr(game, "hooks", None)
    return found if isinstance(found, Hooks) else NO_HOOKS


@cache
def load_hook(ref: str) -> Any:
    """The object a hook names, ``"package.module:attribute"`` (a dotted attribute such as
    ``State.from_view`` too; the module itself without ``:``), imported on first use."""
    module, _, attribute = ref.partition(":")
    found: Any = importlib.import_module(module)
    for name in filter(None, attribute.split(".")):
        found = getattr(found, name)
    return found


def check_config(game: Game, config: GameConfig) -> None:
    """Raise :class:`InvalidConfig` naming the problem if ``game`` cannot use ``config``."""
    if config.variant not in game.variants:
        raise InvalidConfig(
            f"{game.name} has no variant {config.variant!r} (choose from {', '.join(game.variants)})"
        )
    if config.players not in game.player_counts:
        counts = ", ".join(str(n) for n in game.player_counts)
        raise InvalidConfig(f"{game.name} is for {counts} players, not {config.players}")
    known: tuple[str, ...] = getattr(game, "option_keys", ())
    unknown = sorted(set(config.options) - set(known))
    if unknown:
        listed = f"options: {', '.join(known)}" if known else "it takes no options"
        raise InvalidConfig(f"{game.name} has no option {unknown[0]!r} ({listed})")


def replay(
    game: Game, config: GameConfig, seed: int, decisions: Sequence[tuple[int, int]]
) -> GameState:
    """Re-simulate a recorded game. Raises :class:`IllegalDecision` if the record is not legal."""
    state = game.new(config, seed)
    for step, (seat, index) in enumerate(decisions):
        try:
            state.apply(seat, index)
        except IllegalDecision as exc:
            raise IllegalDecision(f"decision {step} ({seat}, {index}): {exc}") from exc
    return state
