"""Gnomeville as a registered game: solo and 2-4 players, three variants, any content pack.

Variants: ``standard`` (simultaneous build), ``turn-by-turn`` (every round's build phase turn by
turn) and ``master-build`` (the master-build rule for the whole game). Options (strings are
accepted, as they come from the command line and the wire):

- ``turn_by_turn``: the rounds played turn by turn, e.g. ``"1"`` or ``"1,2"``, ``"all"`` or
  ``"none"`` (the seed: chosen at the start of any round; default: all rounds for the
  turn-by-turn variant, none otherwise);
- ``master_build``: ``true``/``false`` (default: on for the master-build variant);
- ``sides`` / ``towns``: which town each seat plays (``setup.py``);
- ``content``: the text of a content pack (TOML or JSON) replacing the default one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Event, GameConfig, Hooks, InvalidConfig, check_config
from games.gnomeville.content import ContentError, ContentPack, default_pack, load_pack
from games.gnomeville.hooks import HOOKS
from games.gnomeville.state import ROUNDS, GnomevilleState

VARIANTS = ("standard", "turn-by-turn", "master-build")
OPTION_KEYS = ("turn_by_turn", "master_build", "sides", "towns", "content")


def parse_rounds(value: Any, variant: str) -> frozenset[int]:
    if value is None or value == "":
        return frozenset(range(1, ROUNDS + 1)) if variant == "turn-by-turn" else frozenset()
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "all":
            return frozenset(range(1, ROUNDS + 1))
        if text == "none":
            return frozenset()
        items: list[Any] = text.split(",")
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    else:
        raise InvalidConfig(f"turn_by_turn must list rounds 1-{ROUNDS}, not {value!r}")
    rounds: set[int] = set()
    for item in items:
        try:
            number = int(str(item).strip())
        except ValueError:
            raise InvalidConfig(f"turn_by_turn: {item!r} is not a round number") from None
        if not 1 <= number <= ROUNDS:
            raise InvalidConfig(f"turn_by_turn: there is no round {number} (1-{ROUNDS})")
        rounds.add(number)
    return frozenset(rounds)


def parse_flag(name: str, value: Any, default: bool) -> bool:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise InvalidConfig(f"{name} must be true or false, not {value!r}")


def pack_for(options: Mapping[str, Any]) -> ContentPack:
    text = options.get("content")
    if text is None or text == "":
        return default_pack()
    if isinstance(text, ContentPack):
        return text
    try:
        return load_pack(str(text), "content")
    except ContentError as exc:
        raise InvalidConfig(str(exc)) from None


class Gnomeville:
    name: str = "gnomeville"
    title: str = "Gnomeville"
    variants: tuple[str, ...] = VARIANTS
    player_counts: tuple[int, ...] = (1, 2, 3, 4)
    option_keys: tuple[str, ...] = OPTION_KEYS
    #: Scenarios for ``kassen bot check``, the bots' pieces (``games.contract.Hooks``).
    hooks: Hooks = HOOKS

    def new(self, config: GameConfig, seed: int) -> GnomevilleState:
        check_config(self, config)
        rounds = parse_rounds(config.options.get("turn_by_turn"), config.variant)
        master = parse_flag(
            "master_build", config.options.get("master_build"), config.variant == "master-build"
        )
        return GnomevilleState(config, seed, pack_for(config.options), rounds, master)

    def solo_ranks(self, config: GameConfig) -> tuple[tuple[int, str], ...]:  # for tournaments
        return pack_for(config.options).components.solo_ranks

    def describe(self, event: Event) -> str:
        from games.gnomeville.describe import describe

        return describe(event)


GAME = Gnomeville()
